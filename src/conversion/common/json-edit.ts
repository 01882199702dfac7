// Writing fields into a copy of the current MAPI spec so that what did not change keeps its
// exact form: an empty map or list the MachineSet already has stays, none is added.
import { isJsonObject, type JsonObject } from './field-reader.js';

/** The object at `key` of `parent`, made an object (replacing anything else) when needed. */
export function objectAt(parent: JsonObject, key: string): JsonObject {
  const value = Object.hasOwn(parent, key) ? parent[key] : undefined;
  if (isJsonObject(value)) return value;
  const created: JsonObject = {};
  parent[key] = created;
  return created;
}

/** The object at `key` of `parent` if it is one, without creating it. */
export function existingObject(parent: JsonObject, key: string): JsonObject | undefined {
  const value = Object.hasOwn(parent, key) ? parent[key] : undefined;
  return isJsonObject(value) ? value : undefined;
}

/**
 * Sets `path` (below `root`) to `value` when `present`; otherwise removes it, unless it is
 * already `empty`-like (an empty map or list stays, as it means the same as none).
 */
function put(root: JsonObject, path: readonly string[], value: unknown, present: boolean): void {
  const parents = path.slice(0, -1);
  const key = path[path.length - 1]!;
  if (present) {
    let parent = root;
    for (const name of parents) parent = objectAt(parent, name);
    parent[key] = value;
    return;
  }
  let parent: JsonObject | undefined = root;
  for (const name of parents) parent = parent && existingObject(parent, name);
  if (parent === undefined || !Object.hasOwn(parent, key)) return;
  const existing = parent[key];
  const empty = Array.isArray(existing)
    ? existing.length === 0
    : isJsonObject(existing) && Object.keys(existing).length === 0;
  if (!empty) delete parent[key];
}

export function putMap(root: JsonObject, path: readonly string[], map: Map<string, string>): void {
  put(root, path, Object.fromEntries(map), map.size > 0);
}

export function putList(root: JsonObject, path: readonly string[], list: readonly unknown[]): void {
  put(root, path, list, list.length > 0);
}
