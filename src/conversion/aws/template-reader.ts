// Reading an AWSMachineTemplate spec for CAPI → MAPI: template fields Machine API has no
// equivalent for are refused, never dropped, since they may change the machines.
import type { ObjectReader } from '../common/field-reader.js';

/** The action every "no Machine API equivalent" message ends with. */
export const REMOVE_OR_STAY = 'remove it from the template or keep the MachineSet on Cluster API.';

/**
 * Reports `key` when it holds anything but an empty value: `why` says what it does that
 * Machine API cannot do, e.g. `allocates an Elastic IP from a pool`.
 */
export function rejectNoEquivalent(reader: ObjectReader, key: string, why: string): void {
  const value = reader.raw(key);
  if (isEmpty(value)) return;
  reader.report.error(
    reader.pathOf(key),
    `${why}, which has no Machine API equivalent; ${REMOVE_OR_STAY}`,
  );
}

/** Absent, "", false, 0, [] or {}: what Go's omitempty leaves out or a CRD writes for nothing. */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === false || value === 0)
    return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}
