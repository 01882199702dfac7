// A MachineSet's conversion, remembered while its inputs stay the same objects.
import type { MapiMachineSet } from '../../api/types.js';
import {
  convertMachineSet,
  type Mirror,
  type MirrorInput,
} from '../../conversion/machine-set/to-capi.js';
import type { Conversion } from '../../conversion/types.js';

// Every write of a sync wakes its MachineSet again, and each reconcile plans from scratch: without
// this, one initial sync converts and hashes the same MachineSet some six times. The informer hands
// out the same object until the object changes, so identity is the version check; a WeakMap lets a
// replaced object and its conversion go together.
const remembered = new WeakMap<
  MapiMachineSet,
  { input: MirrorInput; conversion: Conversion<Mirror> }
>();

/**
 * `convertMachineSet`, computed once per set of input objects. The result is shared between
 * reconciles, so it is frozen: a caller that mutated it would fail at once rather than corrupt the
 * next plan.
 */
export function convertMachineSetOnce(input: MirrorInput): Conversion<Mirror> {
  const hit = remembered.get(input.mapi);
  if (hit && sameInput(hit.input, input)) return hit.conversion;
  const conversion = deepFreeze(convertMachineSet(input));
  remembered.set(input.mapi, { input, conversion });
  return conversion;
}

function sameInput(a: MirrorInput, b: MirrorInput): boolean {
  return (
    a.infrastructure === b.infrastructure &&
    a.converter === b.converter &&
    a.capiNamespace === b.capiNamespace &&
    a.paused === b.paused
  );
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
