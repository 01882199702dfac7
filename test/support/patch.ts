// Applies a JSON patch or a JSON merge patch to an object the way the API
// server does, for tests that drive the pure planners without a server.
import type { JsonPatchOperation, KubeObject, Patch } from '../../src/api/types.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function mergePatch(target: Json, patch: Json): Json {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const base: { [key: string]: Json } =
    target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete base[key];
    else base[key] = mergePatch(base[key] ?? null, value);
  }
  return base;
}

function unescape(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * A copy of `document` with RFC 6902 operations applied. A failed `test`, or a
 * missing path (also a `replace` or `remove` of a missing key), throws, as the
 * API server answers 422.
 */
export function applyJsonPatch<T>(document: T, operations: JsonPatchOperation[]): T {
  return jsonPatch(document as Json, operations) as T;
}

function jsonPatch(document: Json, operations: JsonPatchOperation[]): Json {
  const root = structuredClone(document);
  for (const { op, path, value: given } of operations) {
    const value = structuredClone(given) as Json;
    const tokens = path.split('/').slice(1).map(unescape);
    const last = tokens.pop();
    if (last === undefined) throw new Error('422: empty path');
    let parent: Json = root;
    for (const token of tokens) {
      const child: Json | undefined = Array.isArray(parent)
        ? parent[Number(token)]
        : parent && typeof parent === 'object'
          ? parent[token]
          : undefined;
      if (child === undefined) throw new Error(`422: ${path} does not exist`);
      parent = child;
    }
    if (parent === null || typeof parent !== 'object')
      throw new Error(`422: ${path} has no parent`);
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (op === 'test') {
        if (JSON.stringify(parent[index]) !== JSON.stringify(value))
          throw new Error(`422: test ${path} failed`);
      } else if (op === 'add') {
        parent.splice(index, 0, value);
      } else {
        if (index >= parent.length) throw new Error(`422: ${path} does not exist`);
        if (op === 'remove') parent.splice(index, 1);
        else parent[index] = value;
      }
    } else if (op === 'test') {
      if (JSON.stringify(parent[last]) !== JSON.stringify(value))
        throw new Error(`422: test ${path} failed`);
    } else if (op === 'add') {
      parent[last] = value;
    } else {
      if (!(last in parent)) throw new Error(`422: ${path} does not exist`);
      if (op === 'remove') delete parent[last];
      else parent[last] = value;
    }
  }
  return root;
}

export function applyPatch<T extends KubeObject>(object: T, patch: Patch): T {
  const document = object as unknown as Json;
  const result =
    patch.type === 'json'
      ? jsonPatch(document, patch.operations)
      : mergePatch(structuredClone(document), patch.body as Json);
  return result as unknown as T;
}
