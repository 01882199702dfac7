// Helpers for the platform converters' unit tests.
import { expect } from 'chai';
import type { MapiMachineSet } from '../../src/api/types.js';
import type { Conversion, FieldError } from '../../src/conversion/types.js';

/** Where a MachineSet's providerSpec sits; the converters' error paths start with it. */
export const PROVIDER_SPEC_PATH = 'spec.template.spec.providerSpec.value';

export function expectOk<T>(result: Conversion<T>): { value: T; warnings: string[] } {
  if (!result.ok) {
    expect.fail(`expected a conversion, got errors:\n${JSON.stringify(result.errors, null, 2)}`);
  }
  return result;
}

export function expectErrors<T>(result: Conversion<T>): FieldError[] {
  if (result.ok) expect.fail(`expected errors, got ${JSON.stringify(result.value, null, 2)}`);
  return result.errors;
}

export function providerSpecOf(machineSet: MapiMachineSet): unknown {
  return machineSet.spec.template?.spec?.providerSpec?.value;
}

/**
 * A copy of `document` with RFC 6902 add, replace and remove operations applied (what the
 * fixtures' `change` uses). Like the API server, it refuses to replace or remove a missing key.
 */
export function applyPatch<T>(document: T, operations: object[]): T {
  const patched = structuredClone(document);
  for (const operation of operations) {
    const { op, path, value } = operation as { op: string; path: string; value?: unknown };
    const keys = path
      .split('/')
      .slice(1)
      .map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = keys.pop();
    if (last === undefined) throw new Error(`cannot patch the document root: ${path}`);
    let parent = patched as Record<string, unknown>;
    for (const key of keys) parent = parent[key] as Record<string, unknown>;
    if (op !== 'add' && !(last in parent)) throw new Error(`${op} ${path}: no such key`);
    if (op === 'remove') delete parent[last];
    else if (op === 'add' || op === 'replace') parent[last] = structuredClone(value);
    else throw new Error(`unsupported patch operation ${op}`);
  }
  return patched;
}

/**
 * Exactly the expected errors: one per [path, pattern] (the message matches the pattern), and
 * every message a sentence that continues its path: what is wrong, then what to do.
 */
export function expectFieldErrors(errors: FieldError[], expected: [string, RegExp][]): void {
  expect(errors.map((e) => e.path)).to.have.members(expected.map(([path]) => path));
  expect(errors, JSON.stringify(errors, null, 2)).to.have.length(expected.length);
  for (const [path, pattern] of expected) {
    const messages = errors.filter((e) => e.path === path).map((e) => e.message);
    expect(
      messages.some((m) => pattern.test(m)),
      `${path}: ${messages.join(' | ')}`,
    ).to.equal(true);
  }
  for (const error of errors) {
    // Shown as `path: message`.
    expect(error.message, error.message).to.match(/^[a-z].*[;,:] .*\.$/);
  }
}
