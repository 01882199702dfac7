// Checks of single values that both directions apply, so a value one direction writes is one
// the other accepts.
import type { ConversionReport, ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const AUTHORIZED_KEY = /^(?:ssh-|ecdsa-|sk-)\S+ \S+/;
const CAPACITY_RESERVATION_GROUP_ID =
  /^\/subscriptions\/[^/]+\/resourceGroups\/[^/]+\/providers\/Microsoft\.Compute\/capacityReservationGroups\/[^/]+$/i;

/** Machine API and CAPZ both base64-decode the key before handing it to Azure. */
export function isOpenSshPublicKeyBase64(key: string): boolean {
  const decoded = BASE64.test(key) ? Buffer.from(key, 'base64').toString('utf8') : '';
  return AUTHORIZED_KEY.test(decoded);
}

function isCapacityReservationGroupID(id: string): boolean {
  return CAPACITY_RESERVATION_GROUP_ID.test(id);
}

/** `capacityReservationGroupID`, when it is a capacity reservation group's resource ID. */
export function readCapacityReservationGroupID(
  spec: ObjectReader,
  report: ConversionReport,
): string | undefined {
  const id = spec.string('capacityReservationGroupID');
  if (id === undefined || isCapacityReservationGroupID(id)) return id;
  report.error(
    spec.pathOf('capacityReservationGroupID'),
    `is ${quote(id)}, which is not the resource ID of a capacity reservation group; use ` +
      '/subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.Compute/capacityReservationGroups/<name>.',
  );
  return undefined;
}
