// The report of a CAPI → MAPI conversion: what a template field with no Machine API equivalent
// is told to do.
import { ConversionReport } from '../common/field-reader.js';

/** Completes "<path> has no Machine API equivalent; …". */
export const KEEP_ON_CLUSTER_API =
  'remove it from the template or keep the MachineSet on Cluster API';

export class TemplateReport extends ConversionReport {
  /** A template field with no Machine API equivalent; `what` says what it does, e.g. "adds …". */
  noEquivalent(path: string, what: string): void {
    this.error(path, `${what}, which has no Machine API equivalent; ${KEEP_ON_CLUSTER_API}.`);
  }
}
