// Shared by the reverse sync of MachineSets and Machines: whether two providerSpecs describe the
// same machines. Pure.
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
  const convert = (value: unknown) => converter.convert(value, { infrastructure, ...where });
  const left = convert(a);
  const right = convert(b);
  return left.ok && right.ok && isEqual(left.value, right.value);
}

/** Removes `providerSpec.value` from a machine spec (in place) and returns it. */
export function splitProviderSpec(machineSpec: unknown): unknown {
  const spec = machineSpec as { providerSpec?: { value?: unknown } } | undefined;
  const value = spec?.providerSpec?.value;
  if (spec?.providerSpec) delete spec.providerSpec.value;
  return value;
}
