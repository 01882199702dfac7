// Reading an IBMPowerVSMachineTemplate's spec back: which fields exist, and the error for a field
// that does not. A field this controller does not know may change the machines, so it is an
// error rather than dropped.
import type { ConversionReport, ObjectReader } from '../common/field-reader.js';

/** The fields of CAPIBM's IBMPowerVSMachineSpec (v1beta2). */
export const TEMPLATE_FIELDS = [
  'serviceInstanceID',
  'serviceInstance',
  'sshKey',
  'image',
  'imageRef',
  'systemType',
  'processorType',
  'processors',
  'memoryGiB',
  'network',
  'providerID',
] as const;

/** The fields of CAPIBM's IBMPowerVSResourceReference. */
export const REFERENCE_FIELDS = ['id', 'name', 'regex'] as const;

/** Reports each field of `reader` that is not in `known` (in place of ObjectReader.finish()). */
export function reportUnknownTemplateFields(
  reader: ObjectReader,
  known: readonly string[],
  report: ConversionReport,
): void {
  for (const [key] of reader.entries()) {
    if (known.includes(key)) continue;
    report.error(
      reader.pathOf(key),
      'is not a field this controller knows how to convert to Machine API, so it refuses rather ' +
        'than drop it; remove the field or correct its spelling, or keep the MachineSet on Cluster API.',
    );
  }
}
