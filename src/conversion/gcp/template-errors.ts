// Errors of the reverse conversion (template → providerSpec). The field readers and the helpers
// shared with the forward direction word an unknown field as one that cannot go to Cluster API;
// in this direction it cannot go to Machine API, so those messages are reworded at the end.
import { ConversionReport, ObjectReader } from '../common/field-reader.js';
import type { FieldError } from '../types.js';

const UNKNOWN_FIELD_TO_MACHINE_API =
  'is not a field this controller knows how to convert to Machine API, so it refuses rather ' +
  'than drop it; remove the field or correct its spelling.';

/** What `ObjectReader.finish` says about an unknown field, read from the reader itself. */
const UNKNOWN_FIELD_TO_CLUSTER_API = ((): string | undefined => {
  const report = new ConversionReport();
  ObjectReader.of({ field: true }, 'probe', report)?.finish();
  return report.errors[0]?.message;
})();

/** The errors, with every unknown-field message speaking of Machine API. */
export function reverseErrors(errors: readonly FieldError[]): FieldError[] {
  return errors.map((error) =>
    error.message === UNKNOWN_FIELD_TO_CLUSTER_API
      ? { path: error.path, message: UNKNOWN_FIELD_TO_MACHINE_API }
      : error,
  );
}

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
