// Errors of the reverse conversion (template → providerSpec) about template values Machine API
// cannot express.
import type { ObjectReader } from '../common/field-reader.js';

/** Suffix of messages about template values Machine API cannot express. */
export const KEEP_ON_CLUSTER_API = 'or keep the MachineSet on Cluster API';

/**
 * Reports a template field that has no Machine API equivalent when it is set to anything but
 * null or an empty list; `what` names what it does.
 */
export function rejectWithoutEquivalent(spec: ObjectReader, key: string, what: string): void {
  const value = spec.raw(key);
  if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return;
  spec.report.error(
    spec.pathOf(key),
    `${what}, which has no Machine API equivalent; remove it from the template ${KEEP_ON_CLUSTER_API}.`,
  );
}
