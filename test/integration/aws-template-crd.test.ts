// Property test against the real AWSMachineTemplate CRD: random valid AWS providerSpecs must
// convert to templates the API server accepts as they are. The server applies the CRD's
// defaults on create, so getting back exactly what we sent proves every default is already
// materialised: a later diff against the stored template settles instead of rewriting forever.
import { expect } from 'chai';
import fc from 'fast-check';
import type { Infrastructure } from '../../src/api/types.js';
import { awsConverter } from '../../src/conversion/aws/index.js';
import type { ConversionContext } from '../../src/conversion/types.js';
import { testNamespace } from '../support/cluster.js';
import { assertCrdAcceptsEveryConversion, dryRunCreateTemplate } from '../support/template-crd.js';

const REGION = 'us-east-1';

const infrastructure: Infrastructure = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'Infrastructure',
  metadata: { name: 'cluster' },
  status: {
    infrastructureName: 'ci-ln-abc12',
    platformStatus: { type: 'AWS', aws: { region: REGION } },
  },
};
const context: ConversionContext = {
  infrastructure,
  path: 'spec.template.spec.providerSpec.value',
  controlPlane: false,
};

// --- arbitraries for valid providerSpecs ---

const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });
const awsId = (prefix: string) => hex(17).map((h) => `${prefix}-${h}`);
/** Characters CAPA accepts in tag keys and values. */
const tagText = (minLength: number, maxLength: number) =>
  fc.string({
    unit: fc.constantFrom(...'abcXYZ019 _.:/=+-@'),
    minLength,
    maxLength,
  });
const tagName = tagText(1, 20).filter((name) => !name.startsWith('aws:'));
const tags = fc.uniqueArray(fc.record({ name: tagName, value: tagText(0, 20) }), {
  maxLength: 5,
  selector: (tag) => tag.name,
});
const filters = fc.array(
  fc.record({
    name: fc.constantFrom('tag:Name', 'vpc-id', 'group-name'),
    values: fc.array(tagText(1, 10), { maxLength: 3 }),
  }),
  { minLength: 1, maxLength: 2 },
);
const reference = (prefix: string) =>
  fc.oneof(
    awsId(prefix).map((id) => ({ id })),
    filters.map((f) => ({ filters: f })),
  );

const kmsKey = fc.oneof(
  fc.constant({ arn: '' }),
  awsId('key').map((id) => ({ id })),
  hex(8).map((h) => ({ arn: `arn:aws:kms:${REGION}:123456789012:key/${h}` })),
);

/** An EBS block that CAPA's rules accept: iops for io1/io2, throughput only on gp3. */
const ebs = fc
  .record(
    {
      volumeSize: fc.integer({ min: 8, max: 16384 }),
      volumeType: fc.constantFrom('standard', 'io1', 'io2', 'gp2', 'gp3', 'sc1', 'st1'),
      iops: fc.integer({ min: 0, max: 64000 }),
      throughputMib: fc.integer({ min: 125, max: 2000 }),
      encrypted: fc.boolean(),
      kmsKey,
      deleteOnTermination: fc.constant(true),
    },
    { requiredKeys: ['volumeSize'] },
  )
  .map((volume) => {
    const fixed: Record<string, unknown> = { ...volume };
    if (volume.volumeType === 'io1' || volume.volumeType === 'io2') fixed.iops = volume.iops || 100;
    if (volume.volumeType !== 'gp3') delete fixed.throughputMib;
    if (volume.kmsKey !== undefined && volume.encrypted === false) fixed.encrypted = true;
    return fixed;
  });

const blockDevices = fc
  .tuple(
    fc.option(ebs, { nil: undefined }),
    fc.uniqueArray(
      fc.record({ deviceName: fc.constantFrom('/dev/sdb', '/dev/sdc', '/dev/xvdd'), ebs }),
      { maxLength: 2, selector: (device) => device.deviceName },
    ),
  )
  .map(([root, others]) => [...(root ? [{ ebs: root }] : []), ...others]);

const hostPlacement = fc.oneof(
  fc.constant({ affinity: 'AnyAvailable' }),
  fc.record({
    affinity: fc.constantFrom('DedicatedHost', 'AnyAvailable'),
    dedicatedHost: awsId('h').map((id) => ({ id })),
  }),
  fc.record({
    affinity: fc.constant('DedicatedHost'),
    dedicatedHost: fc.record(
      {
        allocationStrategy: fc.constant('Dynamic'),
        dynamicHostAllocation: fc.record({ tags: tags.filter((t) => t.length > 0) }),
      },
      { requiredKeys: ['allocationStrategy'] },
    ),
  }),
);

const placement = fc.oneof(
  fc.record(
    {
      availabilityZone: fc.constantFrom('us-east-1a', 'us-east-1b', 'us-east-1c'),
      region: fc.constant(REGION),
      tenancy: fc.constantFrom('default', 'dedicated'),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      availabilityZone: fc.constantFrom('us-east-1a', 'us-east-1b'),
      tenancy: fc.constant('host'),
      host: hostPlacement,
    },
    { requiredKeys: ['tenancy'] },
  ),
);

/** Spot, on-demand, capacity reservations and capacity blocks, never contradicting each other. */
const market = fc.oneof(
  fc.constant({}),
  fc.record(
    {
      spotMarketOptions: fc.record(
        { maxPrice: fc.constantFrom('0.1', '2', '0.0425') },
        { requiredKeys: [] },
      ),
      marketType: fc.constant('Spot'),
    },
    { requiredKeys: ['spotMarketOptions'] },
  ),
  fc.record(
    { marketType: fc.constant('OnDemand'), capacityReservationId: awsId('cr') },
    { requiredKeys: [] },
  ),
  fc.record({ marketType: fc.constant('CapacityBlock'), capacityReservationId: awsId('cr') }),
);

const placementGroup = fc.oneof(
  fc.constant({}),
  fc.record(
    {
      placementGroupName: fc.constantFrom('pg-spread', 'pg-partition'),
      placementGroupPartition: fc.integer({ min: 1, max: 7 }),
    },
    { requiredKeys: ['placementGroupName'] },
  ),
);

const optionalFields = fc.record(
  {
    tags,
    securityGroups: fc.array(reference('sg'), { maxLength: 3 }),
    subnet: reference('subnet'),
    iamInstanceProfile: fc
      .constantFrom('ci-ln-abc12-worker-profile', 'custom')
      .map((id) => ({ id })),
    keyName: fc.constantFrom('', 'ops', 'ops key (2024)'),
    publicIp: fc.boolean(),
    blockDevices,
    networkInterfaceType: fc.constantFrom('ENA', 'EFA'),
    placement,
    cpuOptions: fc.record(
      {
        confidentialCompute: fc.constantFrom('Disabled', 'AMDEncryptedVirtualizationNestedPaging'),
      },
      { requiredKeys: [] },
    ),
    metadataServiceOptions: fc.record(
      { authentication: fc.constantFrom('Required', 'Optional') },
      { requiredKeys: [] },
    ),
    userDataSecret: fc.constant({ name: 'worker-user-data' }),
    credentialsSecret: fc.constant({ name: 'aws-cloud-credentials' }),
    deviceIndex: fc.constant(0),
    metadata: fc.constant({ creationTimestamp: null }),
    capacityReservationId: fc.constant(''),
  },
  { requiredKeys: [] },
);

const providerSpec = fc
  .tuple(
    fc.record({
      ami: awsId('ami').map((id) => ({ id })),
      instanceType: fc.constantFrom('m6i.xlarge', 'c7g.large', 'r6a.2xlarge', 'p5.48xlarge'),
    }),
    optionalFields,
    market,
    placementGroup,
  )
  .map(([required, optional, marketFields, placementGroupFields]) => ({
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'AWSMachineProviderConfig',
    ...required,
    ...optional,
    ...marketFields,
    ...placementGroupFields,
  }));

// --- the test ---

describe('AWS conversion against the real AWSMachineTemplate CRD', () => {
  it('the CRD accepts every converted template unchanged, and conversion is deterministic', async function () {
    this.timeout(120_000);
    const namespace = await testNamespace('aws-crd');
    await assertCrdAcceptsEveryConversion(awsConverter, providerSpec, context, namespace);
  });

  it('would notice a template that leaves a CRD default to the server (control)', async () => {
    const namespace = await testNamespace('aws-crd');
    const withoutDefaults = { ami: { id: 'ami-0123456789abcdef0' }, instanceType: 'm6i.xlarge' };
    const stored = await dryRunCreateTemplate(awsConverter, namespace, 'control', withoutDefaults);
    expect(stored.spec.template.spec).to.not.deep.equal(withoutDefaults);
    expect(stored.spec.template.spec).to.include({ hostAffinity: 'default' });
  });
});
