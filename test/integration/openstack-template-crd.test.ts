// Property test against the real OpenStackMachineTemplate CRD: random valid OpenStack
// providerSpecs must convert to templates the API server accepts as they are. The server applies
// the CRD's defaults on create, so getting back exactly what we sent proves every default is
// already materialised: a later diff against the stored template settles instead of rewriting
// forever.
import { expect } from 'chai';
import fc from 'fast-check';
import type { Infrastructure } from '../../src/api/types.js';
import { openstackConverter } from '../../src/conversion/openstack/index.js';
import type { ConversionContext } from '../../src/conversion/types.js';
import { testNamespace } from '../support/cluster.js';
import { assertCrdAcceptsEveryConversion, dryRunCreateTemplate } from '../support/template-crd.js';

const infrastructure: Infrastructure = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'Infrastructure',
  metadata: { name: 'cluster' },
  status: {
    infrastructureName: 'demo-abc12',
    platformStatus: {
      type: 'OpenStack',
      openstack: {
        cloudName: 'openstack',
        apiServerInternalIPs: ['10.0.0.5', 'fd00::5'],
        ingressIPs: ['10.0.0.7', 'fd00::7'],
      },
    },
  },
};
const context: ConversionContext = {
  infrastructure,
  path: 'spec.template.spec.providerSpec.value',
  controlPlane: false,
};

// --- arbitraries for valid providerSpecs ---

const text = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...'abcXYZ019-_.='), minLength, maxLength });
const name = text(1, 16);
/** A Neutron tag query as Machine API writes it: tags joined by commas. */
const tagQuery = fc.array(text(1, 8), { minLength: 1, maxLength: 3 }).map((t) => t.join(','));
const projectId = fc.string({
  unit: fc.constantFrom(...'0123456789abcdef'),
  minLength: 32,
  maxLength: 32,
});
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

const commonFilter = {
  name,
  description: text(1, 20),
  projectId,
  tenantId: projectId,
  tags: tagQuery,
  tagsAny: tagQuery,
  notTags: tagQuery,
  notTagsAny: tagQuery,
};
/** A query that selects something (at least one field). */
const query = <T>(fields: { [K in keyof T]: fc.Arbitrary<T[K]> }) =>
  fc.record(fields, { requiredKeys: [] }).filter((q) => Object.keys(q).length > 0);

const networkFilter = query(commonFilter);
const subnetFilter = query({
  ...commonFilter,
  ipVersion: fc.constantFrom(4, 6),
  gateway_ip: fc.constantFrom('10.0.0.1', 'fd00::1'),
  cidr: fc.constantFrom('10.0.0.0/16', 'fd00::/64'),
  ipv6AddressMode: fc.constantFrom('slaac', 'dhcpv6-stateful'),
  ipv6RaMode: fc.constantFrom('slaac', 'dhcpv6-stateless'),
});
const securityGroupFilter = query(commonFilter);

const portTags = fc.array(text(1, 10), { maxLength: 3 });
const subnet = fc
  .oneof(
    fc.record({ uuid: fc.uuid() }),
    fc.record({ filter: subnetFilter }),
    fc.record({ filter: fc.uuid().map((id) => ({ id })) }),
  )
  .chain((target) =>
    fc.record({ portTags: optional(portTags) }, { requiredKeys: [] }).map((extra) => ({
      ...target,
      ...extra,
    })),
  );

const profile = fc.record(
  {
    trusted: fc.constantFrom('true', 'false'),
    capabilities: fc.constantFrom('["switchdev"]', '[switchdev]', 'switchdev'),
  },
  { requiredKeys: [] },
);

const networkOptions = fc.record(
  {
    noAllowedAddressPairs: fc.boolean(),
    portTags,
    vnicType: fc.constantFrom('normal', 'direct', 'macvtap'),
    profile,
    portSecurity: fc.boolean(),
  },
  { requiredKeys: [] },
);
const network = fc
  .tuple(
    fc.oneof(
      fc.record({ uuid: fc.uuid() }),
      fc.record({ filter: networkFilter }),
      fc.record({
        filter: fc.constant({}),
        subnets: fc.array(subnet, { minLength: 1, maxLength: 2 }),
      }),
      fc.record({ uuid: fc.uuid(), subnets: fc.array(subnet, { minLength: 1, maxLength: 3 }) }),
    ),
    networkOptions,
  )
  .map(([target, options]) => ({ ...target, ...options }));

const port = fc
  .record(
    {
      networkID: fc.uuid(),
      nameSuffix: name,
      description: text(1, 30),
      adminStateUp: fc.boolean(),
      macAddress: fc.constantFrom('fa:16:3e:00:00:01', 'fa:16:3e:ab:cd:ef'),
      fixedIPs: fc.array(
        fc.record(
          { subnetID: fc.uuid(), ipAddress: fc.constantFrom('10.0.0.20', 'fd00::20') },
          { requiredKeys: ['subnetID'] },
        ),
        { maxLength: 2 },
      ),
      securityGroups: fc.array(fc.uuid(), { minLength: 1, maxLength: 2 }),
      allowedAddressPairs: fc.array(
        fc.record(
          {
            ipAddress: fc.constantFrom('10.0.0.100', '10.1.0.0/24'),
            macAddress: fc.constant('fa:16:3e:00:00:02'),
          },
          { requiredKeys: ['ipAddress'] },
        ),
        { maxLength: 2 },
      ),
      tags: fc.array(text(1, 10), { maxLength: 3 }),
      vnicType: fc.constantFrom('normal', 'direct'),
      profile,
      portSecurity: fc.boolean(),
      trunk: fc.boolean(),
    },
    { requiredKeys: ['networkID'] },
  )
  // Without port security a port may have neither security groups nor address pairs.
  .map((p) => {
    if (p.portSecurity !== false) return p;
    const { securityGroups: _groups, allowedAddressPairs: _pairs, ...rest } = p;
    return rest;
  });

const securityGroup = fc.oneof(
  fc.record({ uuid: fc.uuid() }),
  fc.record({ name, filter: fc.constant({}) }),
  fc.record({ filter: securityGroupFilter }),
);

const zone = fc.constantFrom('az0', 'az1', 'nova');
const volumeZone = optional(fc.constantFrom('cinder-az0', 'nova'));

const rootVolume = fc.record(
  {
    sourceUUID: fc.constantFrom('demo-abc12-rhcos', 'rhcos-9.6'),
    diskSize: fc.integer({ min: 1, max: 2048 }),
    volumeType: fc.constantFrom('tripleo', 'fast-ssd'),
    availabilityZone: volumeZone,
  },
  // With a root volume Machine API boots from sourceUUID, whatever image says.
  { requiredKeys: ['diskSize', 'sourceUUID'] },
);

const blockDevice = fc.record({
  name: fc.constantFrom('etcd', 'data', 'scratch', 'logs'),
  sizeGiB: fc.integer({ min: 1, max: 1024 }),
  storage: fc.oneof(
    fc.constant({ type: 'Local' }),
    fc.record(
      {
        type: fc.constant('Volume'),
        volume: fc.record(
          { type: fc.constantFrom('tripleo', 'fast-ssd'), availabilityZone: volumeZone },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: ['type'] },
    ),
  ),
});

const serverGroup = fc.oneof(
  fc.constant({}),
  fc.record({ serverGroupID: fc.uuid() }),
  fc.record({ serverGroupName: fc.constantFrom('demo-abc12-worker', 'workers') }),
);

const attachments = fc
  .record({
    networks: fc.array(network, { maxLength: 3 }),
    ports: fc.array(port, { maxLength: 2 }),
  })
  .filter(({ networks, ports }) => networks.length + ports.length > 0);

const optionalFields = fc.record(
  {
    keyName: fc.constantFrom('ops', 'demo-abc12-key'),
    availabilityZone: zone,
    securityGroups: fc.array(securityGroup, { maxLength: 3 }),
    trunk: fc.boolean(),
    tags: fc.array(text(1, 20), { maxLength: 4 }),
    serverMetadata: fc.dictionary(text(1, 20), text(0, 20), { maxKeys: 4 }),
    configDrive: fc.boolean(),
    rootVolume,
    additionalBlockDevices: fc.uniqueArray(blockDevice, {
      maxLength: 3,
      selector: (device) => device.name,
    }),
    metadata: fc.constant({ creationTimestamp: null }),
  },
  { requiredKeys: [] },
);

const providerSpec = fc
  .tuple(
    fc.record({
      cloudName: fc.constantFrom('openstack', 'shiftstack'),
      cloudsSecret: fc.record(
        {
          name: fc.constant('openstack-cloud-credentials'),
          namespace: fc.constant('openshift-machine-api'),
        },
        { requiredKeys: ['name'] },
      ),
      flavor: fc.constantFrom('m1.xlarge', 'ci.m1.large', 'gpu.a100'),
      image: fc.constantFrom('demo-abc12-rhcos', 'rhcos-4.20'),
      // Required: Cluster API machines boot only from a bootstrap data secret.
      userDataSecret: fc.constant({ name: 'worker-user-data' }),
    }),
    attachments,
    optionalFields,
    serverGroup,
  )
  .map(([required, attached, optionalValues, group]) => {
    const spec: Record<string, unknown> = {
      apiVersion: 'machine.openshift.io/v1alpha1',
      kind: 'OpenstackProviderSpec',
      ...required,
      ...attached,
      ...optionalValues,
      ...group,
    };
    // As the installer writes it: with a root volume, the image name moves to sourceUUID.
    const root = optionalValues.rootVolume;
    if (root?.sourceUUID !== undefined) spec.image = '';
    return spec;
  });

// --- the test ---

describe('OpenStack conversion against the real OpenStackMachineTemplate CRD', () => {
  it('the CRD accepts every converted template unchanged, and conversion is deterministic', async function () {
    this.timeout(120_000);
    const namespace = await testNamespace('openstack-crd');
    await assertCrdAcceptsEveryConversion(openstackConverter, providerSpec, context, namespace);
  });

  it('would notice a template that leaves a CRD default to the server (control)', async () => {
    const namespace = await testNamespace('openstack-crd');
    const withoutDefaults = {
      flavor: 'm1.xlarge',
      image: { filter: { name: 'rhcos' } },
      identityRef: { name: 'openstack-cloud-credentials', cloudName: 'openstack' },
      rootVolume: { sizeGiB: 10, availabilityZone: { name: 'nova' } },
    };
    const stored = await dryRunCreateTemplate(
      openstackConverter,
      namespace,
      'control',
      withoutDefaults,
    );
    expect(stored.spec.template.spec).to.not.deep.equal(withoutDefaults);
    expect(stored.spec.template.spec.identityRef).to.include({ type: 'Secret' });
    expect(stored.spec.template.spec.rootVolume).to.deep.include({
      availabilityZone: { from: 'Name', name: 'nova' },
    });
  });
});
