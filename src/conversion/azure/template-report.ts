// The report of a CAPI → MAPI conversion. The shared field reader words an unread field for the
// MAPI → CAPI direction; here the field is the template's and Machine API is the target.
import { ConversionReport } from '../common/field-reader.js';

const UNKNOWN_FIELD_MESSAGE_START = 'is not a field this controller knows how to convert';

/** Completes "<path> has no Machine API equivalent; …". */
export const KEEP_ON_CLUSTER_API =
  'remove it from the template or keep the MachineSet on Cluster API';

export class TemplateReport extends ConversionReport {
  override error(path: string, message: string): void {
    super.error(
      path,
      message.startsWith(UNKNOWN_FIELD_MESSAGE_START)
        ? 'is not a field this controller knows how to convert to Machine API, so it refuses ' +
            `rather than drop it; correct its spelling, ${KEEP_ON_CLUSTER_API}.`
        : message,
    );
  }

  /** A template field with no Machine API equivalent; `what` says what it does, e.g. "adds …". */
  noEquivalent(path: string, what: string): void {
    this.error(path, `${what}, which has no Machine API equivalent; ${KEEP_ON_CLUSTER_API}.`);
  }
}
