// Where the MAPI MachineSet already says what the template says, its own words are kept. Several
// providerSpecs convert to the same template (Optional or no authentication, a volume's
// deleteOnTermination: true or nothing, ...); CAPI → MAPI writes one normal form, but for each
// group of fields whose template equivalent did not change, the current providerSpec's spelling
// is kept, so the MAPI object changes only where Cluster API changed something.
import { isDeepStrictEqual } from 'node:util';
import { isJsonObject, type JsonObject } from '../common/field-reader.js';
import type {
  Conversion,
  ConversionContext,
  ProviderConversion,
  ReverseContext,
} from '../types.js';

/** Each group: the providerSpec fields (dotted paths) and the template fields they become. */
const GROUPS: [mapi: string[], template: string[]][] = [
  [['ami'], ['ami']],
  [['instanceType'], ['instanceType']],
  [['tags'], ['additionalTags']],
  [['iamInstanceProfile'], ['iamInstanceProfile']],
  [['keyName'], ['sshKeyName']],
  [['publicIp'], ['publicIP']],
  [['subnet'], ['subnet']],
  [['securityGroups'], ['additionalSecurityGroups']],
  [['blockDevices'], ['rootVolume', 'nonRootVolumes']],
  [['networkInterfaceType'], ['networkInterfaceType']],
  [
    ['spotMarketOptions', 'marketType', 'capacityReservationId'],
    ['spotMarketOptions', 'marketType', 'capacityReservationId'],
  ],
  [
    ['placementGroupName', 'placementGroupPartition'],
    ['placementGroupName', 'placementGroupPartition'],
  ],
  [
    ['placement.tenancy', 'placement.host'],
    ['tenancy', 'hostAffinity', 'hostID', 'dynamicHostAllocation'],
  ],
  [['cpuOptions'], ['cpuOptions']],
  [['metadataServiceOptions'], ['instanceMetadataOptions']],
];

export type ForwardConversion = (
  providerSpec: unknown,
  context: ConversionContext,
) => Conversion<ProviderConversion>;

export function preferCurrent(
  converted: JsonObject,
  context: ReverseContext,
  forward: ForwardConversion,
): JsonObject {
  const current = context.current;
  if (!isJsonObject(current)) return converted;
  const forwardContext = {
    infrastructure: context.infrastructure,
    path: '',
    controlPlane: context.controlPlane,
  };
  const fromCurrent = forward(current, forwardContext);
  const fromConverted = forward(converted, forwardContext);
  if (!fromCurrent.ok || !fromConverted.ok) return converted;
  const result = structuredClone(converted);
  for (const [mapiPaths, templateKeys] of GROUPS) {
    const same = templateKeys.every((key) =>
      isDeepStrictEqual(fromCurrent.value.templateSpec[key], fromConverted.value.templateSpec[key]),
    );
    if (!same) continue;
    for (const path of mapiPaths) copyPath(current, result, path.split('.'));
  }
  keepEmptyPlacement(current, result);
  return result;
}

/** Sets `keys` in `target` to its value in `source`, or removes it when `source` has none. */
function copyPath(source: JsonObject, target: JsonObject, keys: string[]): void {
  const [key, ...rest] = keys;
  if (key === undefined) return;
  const value = source[key];
  if (rest.length === 0) {
    if (value === undefined || value === null) delete target[key];
    else target[key] = structuredClone(value);
    return;
  }
  if (!isJsonObject(value)) {
    // Nothing in the source at this level: the nested field is absent there.
    const inner = target[key];
    if (isJsonObject(inner)) {
      delete inner[rest[0] as string];
      if (Object.keys(inner).length === 0) delete target[key];
    }
    return;
  }
  const inner = isJsonObject(target[key]) ? target[key] : {};
  copyPath(value, inner, rest);
  if (Object.keys(inner).length > 0) target[key] = inner;
  else delete target[key];
}

/** `placement: {}` as Go serialises it says nothing, but keeping it keeps the object unchanged. */
function keepEmptyPlacement(current: JsonObject, result: JsonObject): void {
  const placement = current.placement;
  if (
    result.placement === undefined &&
    isJsonObject(placement) &&
    Object.keys(placement).length === 0
  )
    result.placement = {};
}
