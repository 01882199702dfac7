// The spellings MAPI → CAPI reads the same way as the normal form CAPI → MAPI writes: each one
// is a documented normalisation (docs/platforms/aws.md). `vary` applies a chosen set of them.
import fc from 'fast-check';

type Json = Record<string, unknown>;

const VARIATIONS = [
  'legacyApiVersion',
  'noTypeMeta',
  'optionalAuthentication',
  'emptyMetadataServiceOptions',
  'emptyKeyName',
  'deleteOnTermination',
  'zeroIops',
  'tagWithoutValue',
  'emptyFilterValues',
  'emptySubnet',
  'emptyLists',
  'emptyCpuOptions',
  'emptyIamInstanceProfile',
  'iamInstanceProfileByArn',
  'iamInstanceProfileArnBesideId',
  'emptyKmsKey',
  'rootLast',
  'emptyRootDevice',
  'kmsArnAsId',
  'userProvidedStrategy',
  'hostWithoutDedicatedHost',
  'emptyMaxPrice',
] as const;
export type Variation = (typeof VARIATIONS)[number];

export const variations = fc.subarray([...VARIATIONS]);

const objects = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/** `spec` (a normal providerSpec) rewritten with every variation in `chosen`. */
export function vary(normal: Json, chosen: readonly Variation[]): Json {
  const spec = structuredClone(normal);
  const on = (variation: Variation) => chosen.includes(variation);
  const devices = objects(spec.blockDevices);
  const volumes = devices.map((device) => device.ebs as Json);
  const filters = [spec.subnet, ...objects(spec.securityGroups)].flatMap((reference) =>
    objects((reference as Json | undefined)?.filters),
  );
  const placement = spec.placement as Json | undefined;
  const host = placement?.host as Json | undefined;
  const dedicatedHost = host?.dedicatedHost as Json | undefined;

  if (on('legacyApiVersion')) spec.apiVersion = 'awsproviderconfig.openshift.io/v1beta1';
  if (on('noTypeMeta')) {
    delete spec.apiVersion;
    delete spec.kind;
  }
  if (spec.metadataServiceOptions === undefined) {
    if (on('optionalAuthentication')) spec.metadataServiceOptions = { authentication: 'Optional' };
    else if (on('emptyMetadataServiceOptions')) spec.metadataServiceOptions = {};
  }
  if (on('emptyKeyName') && spec.keyName === undefined) spec.keyName = '';
  for (const volume of volumes) {
    if (on('deleteOnTermination')) volume.deleteOnTermination = true;
    if (on('zeroIops') && volume.iops === undefined) volume.iops = 0;
    if (on('emptyKmsKey') && volume.kmsKey === undefined) volume.kmsKey = { arn: '' };
    const key = volume.kmsKey as Json | undefined;
    if (on('kmsArnAsId') && typeof key?.arn === 'string' && key.arn !== '') {
      volume.kmsKey = { id: key.arn };
    }
  }
  if (on('tagWithoutValue')) {
    for (const tag of objects(spec.tags)) if (tag.value === '') delete tag.value;
  }
  if (on('emptyFilterValues')) {
    for (const filter of filters) filter.values ??= [];
  }
  if (on('emptySubnet') && spec.subnet === undefined) spec.subnet = {};
  if (on('emptyLists')) {
    for (const key of ['tags', 'securityGroups', 'blockDevices']) spec[key] ??= [];
  }
  if (on('emptyCpuOptions') && spec.cpuOptions === undefined) spec.cpuOptions = {};
  if (on('emptyIamInstanceProfile') && spec.iamInstanceProfile === undefined) {
    spec.iamInstanceProfile = {};
  }
  // Machine API uses only the id of an instance profile (a warning says so).
  const profile = spec.iamInstanceProfile as Json | undefined;
  const profileArn = 'arn:aws:iam::123456789012:instance-profile/ignored';
  if (on('iamInstanceProfileByArn') && profile === undefined) {
    spec.iamInstanceProfile = { arn: profileArn };
  } else if (on('iamInstanceProfileArnBesideId') && typeof profile?.id === 'string') {
    profile.arn = profileArn;
  }
  const rootIndex = devices.findIndex((device) => device.deviceName === undefined);
  if (on('rootLast') && rootIndex === 0 && devices.length > 1) {
    spec.blockDevices = [...devices.slice(1), devices[0]];
  }
  if (on('emptyRootDevice') && rootIndex === -1) {
    spec.blockDevices = [...objects(spec.blockDevices), { ebs: { deleteOnTermination: true } }];
  }
  if (on('userProvidedStrategy') && typeof dedicatedHost?.id === 'string') {
    dedicatedHost.allocationStrategy = 'UserProvided';
  }
  if (on('hostWithoutDedicatedHost') && placement?.tenancy === 'host' && host === undefined) {
    placement.host = { affinity: 'AnyAvailable' };
  }
  const spot = spec.spotMarketOptions as Json | undefined;
  if (on('emptyMaxPrice') && spot !== undefined && spot.maxPrice === undefined) spot.maxPrice = '';
  return spec;
}
