// The reverse sync's spec comparison, for both kinds: whether two providerSpecs describe the same
// machines, and so whether a MAPI spec must be written. Pure.
import isEqual from 'lodash/isEqual.js';
import type { Infrastructure } from '../api/types.js';
import type { PlatformConverter } from '../conversion/types.js';

/**
 * True when two providerSpecs describe the same machines: they convert to the same Cluster API
 * spec, zone and user data. Tolerates the form another writer stores a providerSpec in.
 */
export function sameMachines(
  o: { converter?: PlatformConverter; infrastructure?: Infrastructure },
  a: unknown,
  b: unknown,
  where: { path: string; controlPlane: boolean },
): boolean {
  const { converter, infrastructure } = o;
  if (!converter || !infrastructure) return false;
  const convert = (value: unknown) => converter.toCapi(value, { infrastructure, ...where });
  const left = convert(a);
  const right = convert(b);
  return left.ok && right.ok && isEqual(left.value, right.value);
}

/** Removes `providerSpec.value` from a machine spec (in place) and returns it. */
function splitProviderSpec(machineSpec: unknown): unknown {
  const spec = machineSpec as { providerSpec?: { value?: unknown } } | undefined;
  const value = spec?.providerSpec?.value;
  if (spec?.providerSpec) delete spec.providerSpec.value;
  return value;
}

/** Where a MAPI spec keeps the machine spec whose providerSpec is compared, and how it converts. */
export interface MachineSpecPlace {
  /** The machine spec within the MAPI spec: a MachineSet's template's, a Machine's own. */
  within(spec: Record<string, unknown>): unknown;
  /** The providerSpec value's path, for the conversion. */
  path: string;
  controlPlane: boolean;
}

/**
 * Whether the MAPI spec must be written. The providerSpec counts as equal when it describes the
 * same machines (converts to the same Cluster API spec, zone and user data), so that the form
 * another writer stores it in (machine-api-operator's defaulting webhook re-serialises it with
 * every empty field) is not fought over.
 */
export function specDiffers(
  o: { converter?: PlatformConverter; infrastructure?: Infrastructure },
  current: unknown,
  desired: unknown,
  place: MachineSpecPlace,
): boolean {
  if (isEqual(current, desired)) return false;
  // An object without spec (the CRDs admit one) has no providerSpec either.
  const rest = (spec: unknown) => structuredClone(spec ?? {}) as Record<string, unknown>;
  const a = rest(current);
  const b = rest(desired);
  const left = splitProviderSpec(place.within(a));
  const right = splitProviderSpec(place.within(b));
  if (!isEqual(a, b)) return true;
  const where = { path: place.path, controlPlane: place.controlPlane };
  return !sameMachines(o, left, right, where);
}
