// MAPI → CAPI for AWS: a MAPI AWSMachineProviderConfig → the `spec.template.spec` of a
// CAPA AWSMachineTemplate (v1beta2). Pure and deterministic. Every field is either converted,
// dropped with a warning because it is meaningless in CAPI, or reported as an error: the
// mirror must never quietly differ from what the administrator wrote.
import { convertBlockDevices } from './block-devices.js';
import { ConversionReport, ObjectReader, withoutUndefined } from '../common/field-reader.js';
import { convertMarketOptions } from './market-options.js';
import { convertPlacement } from './placement.js';
import {
  isEmptyReference,
  readResourceReference,
  toCapaReference,
  type CapaResourceReference,
} from './resource-reference.js';
import { convertTagsForCluster } from './tags.js';
import {
  openProviderSpec,
  type ProviderSpecOwner,
  readUserDataSecretName,
} from '../common/provider-spec.js';
import {
  convertCpuOptions,
  convertMetadataServiceOptions,
  convertNetworkInterfaceType,
} from './instance-options.js';
import { ipFamilySettings, readIpFamily } from './ip-family.js';
import {
  checkCredentialsSecret,
  checkDeviceIndex,
  checkLoadBalancers,
} from './kept-from-current.js';
import type { Conversion, ConversionContext, ProviderConversion } from '../types.js';
import { quote } from '../common/quote.js';

const KIND = 'AWSMachineProviderConfig';
const API_VERSIONS = ['machine.openshift.io/v1beta1', 'awsproviderconfig.openshift.io/v1beta1'];
// CAPA's webhook rule for key names: printable ASCII, no leading or trailing space.
const SSH_KEY_NAME = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;
const MIN_INSTANCE_TYPE_LENGTH = 2;

/** What identifies the platform on both sides: its providerSpec kind and template kind. */
export const AWS_PLATFORM: ProviderSpecOwner = {
  platform: 'AWS',
  providerSpecKind: KIND,
  template: {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'AWSMachineTemplate',
    plural: 'awsmachinetemplates',
  },
};

export function awsToCapi(
  providerSpec: unknown,
  context: ConversionContext,
): Conversion<ProviderConversion> {
  const opened = openProviderSpec(providerSpec, context, AWS_PLATFORM, API_VERSIONS);
  if (!opened.ok) return opened;
  const { spec, report } = opened;
  checkCredentialsSecret(spec, report);
  checkDeviceIndex(spec, report);
  checkLoadBalancers(spec, context.controlPlane, report);
  const userDataSecretName = readUserDataSecretName(spec);

  const ami = convertAmi(spec, report);
  const instanceType = convertInstanceType(spec, report);
  const additionalTags = convertTagsForCluster(
    spec.objects('tags'),
    spec.pathOf('tags'),
    context.infrastructure,
    report,
  );
  const iamInstanceProfile = convertIamInstanceProfile(spec, report);
  const sshKeyName = convertKeyName(spec, report);
  const publicIP = spec.boolean('publicIp');
  const subnet = convertSubnet(spec, report);
  const additionalSecurityGroups = convertSecurityGroups(spec, report);
  const volumes = convertBlockDevices(
    spec.objects('blockDevices'),
    spec.pathOf('blockDevices'),
    report,
  );
  const networkInterfaceType = convertNetworkInterfaceType(spec);
  const market = convertMarketOptions(spec, report);
  const placementGroup = convertPlacementGroup(spec, report);
  const placement = convertPlacement(
    spec.object('placement'),
    // An empty region is as good as none.
    context.infrastructure.status?.platformStatus?.aws?.region || undefined,
    report,
  );
  const cpuOptions = convertCpuOptions(spec);
  const ipFamily = readIpFamily(context.infrastructure, report);
  const ipSettings = ipFamilySettings(ipFamily ?? 'IPv4');
  const instanceMetadataOptions = convertMetadataServiceOptions(spec, ipSettings.httpProtocolIpv6);
  spec.finish();

  if (report.errors.length > 0) return { ok: false, errors: report.errors };
  const templateSpec = withoutUndefined({
    ami,
    instanceType,
    additionalTags,
    iamInstanceProfile,
    sshKeyName,
    publicIP,
    subnet,
    additionalSecurityGroups,
    rootVolume: volumes.rootVolume,
    nonRootVolumes: volumes.nonRootVolumes,
    networkInterfaceType,
    assignPrimaryIPv6: ipSettings.assignPrimaryIPv6,
    privateDnsName: ipSettings.privateDnsName,
    spotMarketOptions: market.spotMarketOptions,
    marketType: market.marketType,
    capacityReservationId: market.capacityReservationId,
    placementGroupName: placementGroup.name,
    placementGroupPartition: placementGroup.partition,
    tenancy: placement.tenancy,
    hostAffinity: placement.hostAffinity,
    hostID: placement.hostID,
    dynamicHostAllocation: placement.dynamicHostAllocation,
    cpuOptions,
    instanceMetadataOptions,
    // MAPI hands the Ignition config to EC2 as plain user data; CAPA does the same only
    // with this storage type (its default needs an S3 bucket the cluster does not have).
    ignition: { storageType: 'UnencryptedUserData' },
  });
  const value: ProviderConversion = { templateSpec };
  if (placement.failureDomain !== undefined) value.failureDomain = placement.failureDomain;
  if (userDataSecretName !== undefined) value.userDataSecretName = userDataSecretName;
  return { ok: true, value, warnings: report.warnings };
}

function convertAmi(spec: ObjectReader, report: ConversionReport): { id: string } | undefined {
  const amiReader = spec.object('ami');
  if (amiReader === undefined) {
    if (spec.raw('ami') === undefined) {
      report.error(spec.pathOf('ami'), 'is required; set ami.id to the ID of the machine image.');
    }
    return undefined;
  }
  const ami = readResourceReference(amiReader);
  if (ami.arn !== undefined) {
    report.error(
      `${ami.path}.arn`,
      'cannot be used, because Cluster API references an AMI only by ID; replace ami.arn with ami.id (ami-...).',
    );
  }
  if (ami.filters !== undefined) {
    report.error(
      `${ami.path}.filters`,
      'cannot be used, because Cluster API does not look AMIs up by filters; resolve them to an AMI ID and set ami.id instead.',
    );
  }
  if (isEmptyReference(ami)) {
    report.error(`${ami.path}.id`, 'is required; set it to the ID of the machine image (ami-...).');
  }
  return ami.id !== undefined && ami.arn === undefined && ami.filters === undefined
    ? { id: ami.id }
    : undefined;
}

function convertInstanceType(spec: ObjectReader, report: ConversionReport): string | undefined {
  const instanceType = spec.requiredString(
    'instanceType',
    'set the EC2 instance type, e.g. m6i.xlarge.',
  );
  if (instanceType === undefined) return undefined;
  if (instanceType.length < MIN_INSTANCE_TYPE_LENGTH) {
    report.error(
      spec.pathOf('instanceType'),
      `is ${quote(instanceType)}, which is not an EC2 instance type; set one such as m6i.xlarge.`,
    );
    return undefined;
  }
  return instanceType;
}

/**
 * CAPA takes the instance profile's name, which is what MAPI's `id` holds. machine-api-provider-aws
 * passes only `id` to EC2 and ignores `arn` and `filters`: the machines get the profile `id`
 * names, or none at all; the conversion gives the Cluster API machines the same.
 */
function convertIamInstanceProfile(
  spec: ObjectReader,
  report: ConversionReport,
): string | undefined {
  const reader = spec.object('iamInstanceProfile');
  if (reader === undefined) return undefined;
  const profile = readResourceReference(reader);
  const ignored = [
    ...(profile.arn !== undefined ? ['arn'] : []),
    ...(profile.filters !== undefined ? ['filters'] : []),
  ];
  if (ignored.length === 0) return profile.id;
  if (profile.id !== undefined) {
    report.warn(
      `${profile.path}.${ignored.join(' and ')} ${ignored.length > 1 ? 'are' : 'is'} ignored by ` +
        `Machine API, which uses only id (${quote(profile.id)}); so does the conversion.`,
    );
    return profile.id;
  }
  report.warn(
    `${profile.path} names the instance profile by ${ignored.join(' and ')}, which Machine API ` +
      'ignores: it uses only iamInstanceProfile.id, so these machines run without an instance ' +
      'profile, and so will the Cluster API machines. Set id to the name of the profile to give ' +
      'them one.',
  );
  return undefined;
}

/**
 * Without keyName MAPI launches instances with no key pair; CAPA would fall back to the
 * cluster's (or a "default") key, so "no key" is written explicitly as "".
 */
function convertKeyName(spec: ObjectReader, report: ConversionReport): string | undefined {
  const keyName = spec.string('keyName', { keepEmpty: true });
  if (keyName === undefined) return spec.raw('keyName') === undefined ? '' : undefined;
  if (keyName !== '' && !SSH_KEY_NAME.test(keyName)) {
    report.error(
      spec.pathOf('keyName'),
      'must be printable ASCII without leading or trailing spaces; use the name of an EC2 key pair.',
    );
    return undefined;
  }
  return keyName;
}

function convertSubnet(
  spec: ObjectReader,
  report: ConversionReport,
): CapaResourceReference | undefined {
  const reader = spec.object('subnet');
  if (reader === undefined) return undefined;
  const subnet = readResourceReference(reader);
  if (isEmptyReference(subnet)) {
    report.warn(
      `${subnet.path} names no subnet; Cluster API will place the machines in one of the ` +
        "cluster's subnets in their availability zone.",
    );
    return undefined;
  }
  return toCapaReference(subnet, 'a subnet', report);
}

function convertSecurityGroups(
  spec: ObjectReader,
  report: ConversionReport,
): CapaResourceReference[] | undefined {
  const groups = spec.objects('securityGroups');
  if (groups === undefined || groups.length === 0) return undefined;
  const converted: CapaResourceReference[] = [];
  for (const reader of groups) {
    const group = readResourceReference(reader);
    if (isEmptyReference(group)) {
      report.error(group.path, 'names no security group; set id or filters, or remove the entry.');
      continue;
    }
    const reference = toCapaReference(group, 'a security group', report);
    if (reference !== undefined) converted.push(reference);
  }
  return converted;
}

function convertPlacementGroup(
  spec: ObjectReader,
  report: ConversionReport,
): { name?: string; partition?: number } {
  const name = spec.string('placementGroupName');
  const partition = spec.integer('placementGroupPartition');
  if (partition === undefined) return { name };
  if (partition < 1 || partition > 7) {
    report.error(
      spec.pathOf('placementGroupPartition'),
      `is ${partition}, but a partition number must be between 1 and 7.`,
    );
  }
  if (name === undefined) {
    report.error(
      spec.pathOf('placementGroupPartition'),
      'is only meaningful with placementGroupName; set the partition placement group name or remove the partition.',
    );
  }
  return { name, partition };
}
