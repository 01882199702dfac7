// fast-check generators for the AWS round trips: valid MAPI providerSpecs in the normal form
// CAPI → MAPI writes (with variations MAPI → CAPI reads the same way), and valid template specs.
import fc from 'fast-check';

type Json = Record<string, unknown>;

export const REGION = 'us-east-1';
export const IP_FAMILIES = ['IPv4', 'DualStackIPv4Primary', 'DualStackIPv6Primary'] as const;

const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });
const word = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-'),
  minLength: 1,
  maxLength: 12,
});
// Characters CAPA accepts in tags.
const tagText = fc.string({ unit: fc.constantFrom(...'abcXYZ019 _.:/=+-@'), maxLength: 16 });
const tagName = tagText.filter((name) => name.length > 0 && !name.startsWith('aws:'));

export const amiId = hex(17).map((h) => `ami-${h}`);
export const instanceType = fc.constantFrom(
  'm6i.xlarge',
  'c5.2xlarge',
  'r7g.large',
  'p4d.24xlarge',
);
export const hostId = hex(17).map((h) => `h-${h}`);
const kmsKey = fc.oneof(
  hex(8).map((h) => ({ id: `${h}-1234-5678` })),
  hex(8).map((h) => ({ arn: `arn:aws:kms:${REGION}:123456789012:key/${h}` })),
);

/**
 * Distinct tag names with values, as MAPI lists them, in the order of a JSON object's keys (a
 * template's tag map comes back in that order: integer-like names first).
 */
export const mapiTags = fc
  .uniqueArray(fc.record({ name: tagName, value: tagText }), {
    selector: (tag) => tag.name,
    minLength: 1,
    maxLength: 5,
  })
  .map((tags) =>
    Object.entries(Object.fromEntries(tags.map((t) => [t.name, t.value]))).map(([name, value]) => ({
      name,
      value,
    })),
  );

const filter = fc.record(
  {
    name: fc.constantFrom('tag:Name', 'vpc-id', 'availability-zone'),
    values: fc.array(word, { minLength: 1, maxLength: 3 }),
  },
  { requiredKeys: ['name'] },
);
export const reference = fc.oneof(
  word.map((w) => ({ id: `sg-${w}` })),
  fc.array(filter, { minLength: 1, maxLength: 2 }).map((filters) => ({ filters })),
);

const VOLUME_TYPES = ['standard', 'io1', 'io2', 'gp2', 'gp3', 'sc1', 'st1'] as const;
/** A MAPI `ebs` block that MAPI → CAPI accepts. */
export const ebs: fc.Arbitrary<Json> = fc
  .record(
    {
      volumeSize: fc.integer({ min: 8, max: 16384 }),
      volumeType: fc.constantFrom(...VOLUME_TYPES),
      iops: fc.integer({ min: 100, max: 64000 }),
      throughputMib: fc.integer({ min: 125, max: 1000 }),
      encrypted: fc.boolean(),
      kmsKey,
    },
    { requiredKeys: ['volumeSize'] },
  )
  .map((volume) => {
    const result: Json = { ...volume };
    const type = volume.volumeType;
    if ((type === 'io1' || type === 'io2') && volume.iops === undefined) result.iops = 3000;
    if (type !== 'gp3') delete result.throughputMib;
    if (volume.encrypted === false) delete result.kmsKey;
    return result;
  });

const blockDevices = fc
  .record({
    root: fc.option(ebs, { nil: undefined }),
    others: fc.uniqueArray(
      fc.record({ deviceName: fc.constantFrom('/dev/xvdb', '/dev/xvdc', '/dev/sdf'), ebs }),
      {
        selector: (device) => device.deviceName,
        maxLength: 3,
      },
    ),
  })
  .map(({ root, others }) => [...(root ? [{ ebs: root }] : []), ...others])
  .filter((devices) => devices.length > 0);

const market = fc.oneof(
  fc.constant({}),
  fc.record({
    spotMarketOptions: fc.oneof(
      fc.constant({}),
      fc.constantFrom('0.25', '1.5', '3').map((maxPrice) => ({ maxPrice })),
    ),
  }),
  fc.record({ spotMarketOptions: fc.constant({}), marketType: fc.constant('Spot') }),
  fc.record({ marketType: fc.constantFrom('OnDemand', 'Spot') }),
  fc.record(
    {
      capacityReservationId: word.map((w) => `cr-${w}`),
      marketType: fc.constantFrom('OnDemand', 'CapacityBlock'),
    },
    { requiredKeys: ['capacityReservationId'] },
  ),
);

const placementGroup = fc.oneof(
  fc.constant({}),
  fc.record(
    { placementGroupName: word, placementGroupPartition: fc.integer({ min: 1, max: 7 }) },
    { requiredKeys: ['placementGroupName'] },
  ),
);

/** `placement.tenancy` and `placement.host` (the zone and region are added by the spec). */
const tenancy = fc.oneof(
  fc.constant({}),
  fc.record({ tenancy: fc.constantFrom('default', 'dedicated', 'host') }),
  fc.record({
    tenancy: fc.constant('host'),
    host: fc.record({
      affinity: fc.constantFrom('DedicatedHost', 'AnyAvailable'),
      dedicatedHost: fc.oneof(
        hostId.map((id) => ({ id })),
        fc.constant({ allocationStrategy: 'Dynamic' }),
        mapiTags.map((tags) => ({
          allocationStrategy: 'Dynamic',
          dynamicHostAllocation: { tags },
        })),
      ),
    }),
  }),
);

/** A valid providerSpec in the normal form CAPI → MAPI writes. */
export const normalProviderSpec = fc
  .record(
    {
      ami: amiId.map((id) => ({ id })),
      instanceType,
      tags: mapiTags,
      iamInstanceProfile: word.map((id) => ({ id })),
      keyName: word,
      publicIp: fc.boolean(),
      subnet: reference,
      securityGroups: fc.array(reference, { minLength: 1, maxLength: 3 }),
      blockDevices,
      networkInterfaceType: fc.constantFrom('ENA', 'EFA'),
      market,
      placementGroup,
      zone: fc.constantFrom('us-east-1a', 'us-east-1b'),
      tenancy,
      cpuOptions: fc
        .constantFrom('Disabled', 'AMDEncryptedVirtualizationNestedPaging')
        .map((confidentialCompute) => ({ confidentialCompute })),
      metadataServiceOptions: fc.constant({ authentication: 'Required' }),
      userDataSecret: word.map((name) => ({ name })),
    },
    // machine-api-operator's webhook writes a userDataSecret into every providerSpec it admits.
    {
      requiredKeys: [
        'ami',
        'instanceType',
        'market',
        'placementGroup',
        'tenancy',
        'userDataSecret',
      ],
    },
  )
  .map(({ market: m, placementGroup: group, zone, tenancy: t, ...fields }) => {
    const placement: Json = { ...t };
    if (zone !== undefined) placement.availabilityZone = zone;
    const spec: Json = {
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'AWSMachineProviderConfig',
      ...fields,
      ...m,
      ...group,
    };
    if (Object.keys(placement).length > 0) spec.placement = placement;
    return spec;
  });

/** The fields kept from the current providerSpec, valid values that MAPI → CAPI ignores. */
export const keptFields = (controlPlane: boolean) =>
  fc.record(
    {
      credentialsSecret: fc.constant({ name: 'aws-cloud-credentials' }),
      deviceIndex: fc.constant(0),
      region: fc.constant(REGION),
      metadata: fc.constant({ creationTimestamp: null }),
      ...(controlPlane
        ? {
            loadBalancers: fc.array(
              fc.record({ name: word, type: fc.constantFrom('classic', 'network') }),
              { minLength: 1, maxLength: 2 },
            ),
          }
        : {}),
    },
    { requiredKeys: [] },
  );
