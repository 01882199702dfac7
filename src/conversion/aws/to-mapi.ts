// CAPI → MAPI for AWS: an AWSMachineTemplate's `spec.template.spec` → AWSMachineProviderConfig.
// Pure and total: every template field is converted, checked against what Machine API would
// do anyway (the IP family's settings, the bootstrap storage), or reported with its path.
// Fields Cluster API cannot express come from the MAPI MachineSet's current providerSpec.
import {
  ConversionReport,
  ObjectReader,
  withoutUndefined,
  type JsonObject,
} from '../common/field-reader.js';
import type { Conversion, ReverseContext } from '../types.js';
import { withoutClusterTags } from '../common/cluster-tags.js';
import type { Infrastructure } from '../../api/types.js';
import { IP_FAMILY_FIELDS, ipFamilySettings, readIpFamily } from './ip-family.js';
import { keptFromCurrent } from './kept-from-current.js';
import { type ForwardConversion, preferCurrent } from './prefer-current.js';
import {
  checkBootstrap,
  checkIpFamilyFields,
  cpuOptionsToMapi,
  metadataOptionsToMapi,
  networkInterfaceTypeToMapi,
} from './to-mapi-instance.js';
import { placementToMapi } from './to-mapi-placement.js';
import { awsClusterTags } from './tags.js';
import { mapToTags, referenceToMapi } from './to-mapi-values.js';
import { volumesToMapi } from './to-mapi-volumes.js';
import { rejectNoEquivalent } from './template-reader.js';

/** The kind and apiVersion every converted providerSpec gets. */
export const MAPI_TYPE_META = {
  apiVersion: 'machine.openshift.io/v1beta1',
  kind: 'AWSMachineProviderConfig',
} as const;

const MARKET_TYPES = ['OnDemand', 'Spot', 'CapacityBlock'] as const;

/** Template fields that have no Machine API equivalent, with what they do. */
const NO_EQUIVALENT: [string, string][] = [
  ['providerID', 'names one machine'],
  ['instanceID', 'names one instance'],
  ['imageLookupFormat', 'looks the AMI up by name'],
  ['imageLookupOrg', 'looks the AMI up by owner'],
  ['imageLookupBaseOS', 'looks the AMI up by operating system'],
  ['elasticIpPool', 'allocates public addresses from an Elastic IP pool'],
  ['securityGroupOverrides', "replaces the cluster's security groups"],
  ['networkInterfaces', 'attaches existing network interfaces'],
  ['capacityReservationPreference', 'sets a capacity reservation preference'],
];

/**
 * The template fields refused whatever their value (NO_EQUIVALENT and the AMI's eksLookupType), as
 * paths in `spec.template.spec`. The admission policy mapi-capi-sync-infrastructure-expressible
 * refuses the same ones; a unit test keeps them equal.
 */
export const TEMPLATE_FIELDS_WITHOUT_EQUIVALENT: readonly string[] = [
  ...NO_EQUIVALENT.map(([key]) => key),
  'ami.eksLookupType',
];

export function awsToMapi(
  templateSpec: unknown,
  context: ReverseContext,
  forward: ForwardConversion,
): Conversion<JsonObject> {
  const report = new ConversionReport();
  const spec = ObjectReader.of(templateSpec, context.path, report);
  if (spec === undefined) return { ok: false, errors: report.errors };
  const family = readIpFamily(context.infrastructure, report);
  for (const [key, why] of NO_EQUIVALENT) rejectNoEquivalent(spec, key, why);

  const converted = readFields(spec, context.infrastructure, report);
  if (family !== undefined) {
    const ip = ipFamilySettings(family);
    converted.metadataServiceOptions = metadataOptionsToMapi(spec, ip, family, report);
    checkIpFamilyFields(spec, ip, family, report);
  } else {
    // The unknown IP family is reported already; the fields it decides cannot be checked.
    for (const key of IP_FAMILY_FIELDS) spec.raw(key);
  }
  checkBootstrap(spec, report);
  spec.finishToMachineApi();
  if (report.errors.length > 0) return { ok: false, errors: report.errors };

  const kept = keptFromCurrent(context.current, context.infrastructure, context.controlPlane);
  const placement = withoutUndefined({
    availabilityZone: context.failureDomain || undefined,
    region: kept.region,
    ...(converted.placement as JsonObject),
  });
  const providerSpec = withoutUndefined({
    ...MAPI_TYPE_META,
    ...converted,
    ...kept.fields,
    placement: Object.keys(placement).length > 0 ? placement : undefined,
    userDataSecret: context.userDataSecretName ? { name: context.userDataSecretName } : undefined,
  });
  const value = preferCurrent(providerSpec, context, forward);
  return { ok: true, value, warnings: report.warnings };
}

/** Every field that maps to a providerSpec field, by its MAPI name. */
function readFields(
  spec: ObjectReader,
  infrastructure: Infrastructure,
  report: ConversionReport,
): JsonObject {
  const ami = spec.object('ami');
  const amiId = ami?.string('id');
  if (ami !== undefined) rejectNoEquivalent(ami, 'eksLookupType', 'looks up an EKS-optimised AMI');
  ami?.finishToMachineApi();
  if (amiId === undefined) {
    report.error(
      ami?.pathOf('id') ?? spec.pathOf('ami'),
      'is required, because Machine API launches machines from an AMI it is given; set ami.id (ami-...).',
    );
  }
  const subnet = spec.object('subnet');
  const securityGroups = spec
    .objects('additionalSecurityGroups')
    ?.map((group) => {
      const reference = referenceToMapi(group, 'a security group', report);
      if (reference === undefined) {
        report.error(
          group.path,
          'names no security group; set id or filters, or remove the entry.',
        );
      }
      return reference;
    })
    .filter((reference) => reference !== undefined);
  const blockDevices = volumesToMapi(spec, report);
  const partition = spec.integer('placementGroupPartition');
  const iamInstanceProfile = spec.string('iamInstanceProfile');
  const spot = spec.object('spotMarketOptions');
  const maxPrice = spot?.string('maxPrice');
  spot?.finishToMachineApi();
  const placement = placementToMapi(spec, report);
  return withoutUndefined({
    ami: amiId === undefined ? undefined : { id: amiId },
    instanceType: spec.requiredString(
      'instanceType',
      'set the EC2 instance type, e.g. m6i.xlarge.',
    ),
    tags: mapToTags(
      withoutClusterTags(spec.stringMap('additionalTags'), awsClusterTags(infrastructure)),
    ),
    iamInstanceProfile: iamInstanceProfile === undefined ? undefined : { id: iamInstanceProfile },
    keyName: sshKeyNameToMapi(spec),
    publicIp: spec.boolean('publicIP'),
    subnet: subnet && referenceToMapi(subnet, 'a subnet', report),
    securityGroups: securityGroups?.length ? securityGroups : undefined,
    blockDevices: blockDevices.length > 0 ? blockDevices : undefined,
    networkInterfaceType: networkInterfaceTypeToMapi(spec),
    spotMarketOptions: spot && withoutUndefined({ maxPrice }),
    marketType: spec.enumeration('marketType', MARKET_TYPES),
    capacityReservationId: spec.string('capacityReservationId'),
    placementGroupName: spec.string('placementGroupName'),
    // CAPA reads partition 0 as "not set".
    placementGroupPartition: partition || undefined,
    placement: Object.keys(placement).length > 0 ? placement : undefined,
    cpuOptions: cpuOptionsToMapi(spec),
  });
}

/**
 * A key pair's name, or nothing: Machine API launches machines without keyName with no key pair.
 * So does CAPA with sshKeyName "" and, with none at all, on OpenShift's AWSCluster: it takes the
 * AWSCluster's sshKeyName, which OpenShift's does not set, and falls back to its "default" key
 * only for an AWSCluster it manages itself, never for an externally managed one.
 */
function sshKeyNameToMapi(spec: ObjectReader): string | undefined {
  return spec.string('sshKeyName');
}
