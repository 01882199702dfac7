// CAPA `tenancy`, `hostAffinity`, `hostID` and `dynamicHostAllocation` → MAPI `placement.tenancy`
// and `placement.host`. Machine API pins an instance to dedicated hosts only through a named or
// dynamically allocated host, and only with tenancy host.
import type { ConversionReport, JsonObject, ObjectReader } from '../common/field-reader.js';
import { mapToTags } from './to-mapi-values.js';

const TENANCIES = ['default', 'dedicated', 'host'] as const;
const HOST_AFFINITIES = ['default', 'host'] as const;

/** `tenancy` and `host` of the MAPI placement (the zone and region come from elsewhere). */
export function placementToMapi(spec: ObjectReader, report: ConversionReport): JsonObject {
  const placement: JsonObject = {};
  const tenancy = spec.enumeration('tenancy', TENANCIES);
  if (tenancy !== undefined) placement.tenancy = tenancy;
  const affinity = spec.enumeration('hostAffinity', HOST_AFFINITIES);
  const hostID = spec.string('hostID');
  const dynamic = spec.object('dynamicHostAllocation');
  const dynamicTags = dynamic && mapToTags(dynamic.stringMap('tags'));
  dynamic?.finishToMachineApi();

  if (hostID !== undefined && dynamic !== undefined) {
    report.error(
      spec.pathOf('dynamicHostAllocation'),
      'cannot be combined with hostID; keep either the host ID or the dynamic allocation.',
    );
    return placement;
  }
  if (hostID === undefined && dynamic === undefined) {
    if (affinity === 'host') {
      report.error(
        spec.pathOf('hostAffinity'),
        'is host without hostID or dynamicHostAllocation, which pins instances to whichever host ' +
          'they land on; Machine API pins only to a named or dynamically allocated host: set hostID ' +
          'or dynamicHostAllocation, or set hostAffinity to default.',
      );
    }
    return placement;
  }
  if (tenancy !== 'host') {
    const field = hostID !== undefined ? 'hostID' : 'dynamicHostAllocation';
    report.error(
      spec.pathOf(field),
      'places instances on a dedicated host, which Machine API does only with tenancy host; ' +
        `set tenancy to host or remove ${field}.`,
    );
    return placement;
  }
  const dedicatedHost: JsonObject =
    hostID !== undefined
      ? { id: hostID }
      : {
          allocationStrategy: 'Dynamic',
          ...(dynamicTags ? { dynamicHostAllocation: { tags: dynamicTags } } : {}),
        };
  placement.host = {
    affinity: affinity === 'host' ? 'DedicatedHost' : 'AnyAvailable',
    dedicatedHost,
  };
  return placement;
}
