// A conversion remembered while its inputs stay the same, for MachineSets and Machines.
import type { Conversion } from '../conversion/types.js';

// A reconcile plans again after each of its writes, and each reconcile plans from scratch:
// without this, one initial sync converts (and hashes) the same object some six times, and every
// status update of a Machine (a dozen while it comes up) converts it again. The informer keeps a spec
// that did not change the same object across versions (kube/share-unchanged.ts), so a spec's
// identity is the version check; a WeakMap lets a replaced spec and its conversion go together.

/** A conversion's input: the MAPI object it is keyed by, and anything else it reads. */
interface Input {
  mapi: { metadata: object; spec?: object };
}

/** For an input field, what of it the conversion reads (compared by value); the object itself otherwise. */
export type ReadOf<I> = { [K in keyof I]?: (value: I[K]) => unknown };

/**
 * `convert`, computed once per version of what it reads: the MAPI object's spec and metadata
 * (never its status, which no conversion reads and its writers change all the time, nor
 * METADATA_NOT_CONVERTED), every other
 * field of the input compared by identity (objects) or value, or by what `reads` says the
 * conversion reads of it (a MachineSet whose status changes is still the same owner). The result
 * is shared between reconciles, so it is frozen: a caller that mutated it would fail at once
 * rather than corrupt the next plan.
 */
export function remembered<I extends Input, O>(
  convert: (input: I) => Conversion<O>,
  reads: ReadOf<I> = {},
): (input: I) => Conversion<O> {
  const memory = new WeakMap<object, { input: I; conversion: Conversion<O> }>();
  return (input) => {
    const key = input.mapi.spec ?? input.mapi;
    const hit = memory.get(key);
    if (hit && sameInput(hit.input, input, reads)) {
      // Holds the newest objects only: the older ones can go.
      hit.input = input;
      return hit.conversion;
    }
    const conversion = deepFreeze(convert(input));
    memory.set(key, { input, conversion });
    return conversion;
  };
}

function sameInput<I extends Input>(a: I, b: I, reads: ReadOf<I>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof I)[]);
  for (const key of keys) {
    if (a[key] === b[key]) continue;
    if (key === 'mapi') {
      if (!sameApartFromStatus(a.mapi, b.mapi)) return false;
      continue;
    }
    const read = reads[key];
    if (!read || a[key] === undefined || b[key] === undefined || read(a[key]) !== read(b[key])) {
      return false;
    }
  }
  return true;
}

/**
 * The metadata no conversion reads: a new version, our finalizer and machine-api-operator's, and
 * the generation (which moves with the spec, whose identity is the key anyway). Conversion tests
 * check that converting does not depend on them.
 */
export const METADATA_NOT_CONVERTED = ['resourceVersion', 'finalizers', 'generation'] as const;

/**
 * Two versions of an object alike in all but status and the metadata no conversion reads, by
 * identity below the top level (unchanged labels, annotations and spec are shared by the informer).
 */
function sameApartFromStatus(a: object, b: object): boolean {
  const { metadata: am, status: _as, ...ar } = a as { metadata: object; status?: unknown };
  const { metadata: bm, status: _bs, ...br } = b as { metadata: object; status?: unknown };
  return shallowSame(ar, br) && shallowSame(am, bm, METADATA_NOT_CONVERTED);
}

function shallowSame(a: object, b: object, ignored: readonly string[] = []): boolean {
  const keys = (o: object) => Object.keys(o).filter((key) => !ignored.includes(key));
  const left = keys(a);
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  return (
    left.length === keys(b).length &&
    left.every((key) => Object.hasOwn(y, key) && x[key] === y[key])
  );
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
