// A conversion remembered while its inputs stay the same objects, for MachineSets and Machines.
import type { Conversion } from '../conversion/types.js';

// Every write of a sync wakes its object again, and each reconcile plans from scratch: without
// this, one initial sync converts (and hashes) the same object some six times. The informer hands
// out the same object until the object changes, so identity is the version check; a WeakMap lets a
// replaced object and its conversion go together.

/** A conversion's input: the MAPI object it is keyed by, and anything else it reads. */
interface Input {
  mapi: object;
}

/** For an input field, what of it the conversion reads (compared by value); the object itself otherwise. */
export type ReadOf<I> = { [K in keyof I]?: (value: I[K]) => unknown };

/**
 * `convert`, computed once per set of input objects: the MAPI object and every other field of the
 * input compared by identity (objects) or value, or by what `reads` says the conversion reads of
 * it (a MachineSet whose status changes is still the same owner). The result is shared between
 * reconciles, so it is frozen: a caller that mutated it would fail at once rather than corrupt
 * the next plan.
 */
export function remembered<I extends Input, O>(
  convert: (input: I) => Conversion<O>,
  reads: ReadOf<I> = {},
): (input: I) => Conversion<O> {
  const memory = new WeakMap<object, { input: I; conversion: Conversion<O> }>();
  return (input) => {
    const hit = memory.get(input.mapi);
    if (hit && sameInput(hit.input, input, reads)) return hit.conversion;
    const conversion = deepFreeze(convert(input));
    memory.set(input.mapi, { input, conversion });
    return conversion;
  };
}

function sameInput<I extends Input>(a: I, b: I, reads: ReadOf<I>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof I)[]);
  for (const key of keys) {
    if (a[key] === b[key]) continue;
    const read = reads[key];
    if (!read || a[key] === undefined || b[key] === undefined || read(a[key]) !== read(b[key])) {
      return false;
    }
  }
  return true;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
