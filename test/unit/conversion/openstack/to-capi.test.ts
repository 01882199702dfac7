// Table-driven tests of the OpenStack converter: every mapped field, every rejection, every
// warning, and the shared end-to-end fixture.
import { expect } from 'chai';
import type { Infrastructure } from '../../../../src/api/types.js';
import { openstackConverter } from '../../../../src/conversion/openstack/index.js';
import type {
  Conversion,
  ConversionContext,
  ProviderConversion,
} from '../../../../src/conversion/types.js';
import { openstackFixture } from '../../../support/fixtures/openstack.js';
import {
  applyPatch,
  expectErrors,
  expectFieldErrors,
  expectOk,
  PROVIDER_SPEC_PATH,
  providerSpecOf,
  itConvertsPurely,
} from '../../../support/conversion.js';

const PATH = PROVIDER_SPEC_PATH;
const NET = '0b2a1c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const NET_2 = '1c3b2d4e-5f60-4b7c-9d8e-0f1a2b3c4d5e';
const SUBNET = '2d4c3e5f-6071-4c8d-ae9f-1a2b3c4d5e6f';
const SUBNET_2 = '3e5d4f60-7182-4d9e-bfa0-2b3c4d5e6f70';
const SECURITY_GROUP = '4f6e5071-8293-4eaf-80b1-3c4d5e6f7081';
const SERVER_GROUP = '5071608f-93a4-4fb0-91c2-4d5e6f708192';
const API_VIP = '10.0.0.5';
const INGRESS_VIP = '10.0.0.7';
const VIP_PAIRS = [{ ipAddress: API_VIP }, { ipAddress: INGRESS_VIP }];

/** The Infrastructure of an OpenStack cluster; `null` leaves out its openstack status. */
function infrastructure(openstack: Record<string, unknown> | null = defaultStatus()) {
  const value: Infrastructure = {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    status: {
      infrastructureName: 'demo-abc12',
      platformStatus: openstack === null ? { type: 'OpenStack' } : { type: 'OpenStack', openstack },
    },
  };
  return value;
}

function defaultStatus(): Record<string, unknown> {
  return {
    cloudName: 'openstack',
    apiServerInternalIP: API_VIP,
    apiServerInternalIPs: [API_VIP],
    ingressIP: INGRESS_VIP,
    ingressIPs: [INGRESS_VIP],
  };
}

function context(overrides: Partial<ConversionContext> = {}): ConversionContext {
  return { infrastructure: infrastructure(), path: PATH, controlPlane: false, ...overrides };
}

/** The smallest providerSpec that converts: one port on a network named by UUID. */
function minimalSpec(): Record<string, unknown> {
  return {
    apiVersion: 'machine.openshift.io/v1alpha1',
    kind: 'OpenstackProviderSpec',
    cloudName: 'openstack',
    cloudsSecret: { name: 'openstack-cloud-credentials' },
    flavor: 'm1.xlarge',
    image: 'rhcos',
    ports: [{ networkID: NET }],
    userDataSecret: { name: 'worker-user-data' },
  };
}

/** What the minimal spec converts to, with the CRD default identityRef.type written out. */
function minimalTemplate(): Record<string, unknown> {
  return {
    flavor: 'm1.xlarge',
    image: { filter: { name: 'rhcos' } },
    identityRef: { type: 'Secret', name: 'openstack-cloud-credentials', cloudName: 'openstack' },
    ports: [{ network: { id: NET } }],
  };
}

/** The minimal spec with `input` merged in; an `undefined` value removes the field. */
function specWith(input: Record<string, unknown>): Record<string, unknown> {
  const spec: Record<string, unknown> = { ...minimalSpec(), ...input };
  for (const [key, value] of Object.entries(input)) if (value === undefined) delete spec[key];
  return spec;
}

function templateWith(template: Record<string, unknown> = {}): Record<string, unknown> {
  const expected: Record<string, unknown> = { ...minimalTemplate(), ...template };
  for (const [key, value] of Object.entries(template))
    if (value === undefined) delete expected[key];
  return expected;
}

function convert(
  providerSpec: unknown,
  overrides: Partial<ConversionContext> = {},
): Conversion<ProviderConversion> {
  return openstackConverter.toCapi(providerSpec, context(overrides));
}

describe('openstackConverter', () => {
  it('describes the OpenStack platform and its template', () => {
    expect(openstackConverter.platform).to.equal('OpenStack');
    expect(openstackConverter.providerSpecKind).to.equal('OpenstackProviderSpec');
    expect(openstackConverter.template).to.deep.equal({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'OpenStackMachineTemplate',
      plural: 'openstackmachinetemplates',
    });
  });

  describe('an installer-style worker providerSpec', () => {
    const installerSpec = () => providerSpecOf(openstackFixture.machineSet('w', 'ns'));
    const fixtureContext = (): Partial<ConversionContext> => ({
      infrastructure: {
        apiVersion: 'config.openshift.io/v1',
        kind: 'Infrastructure',
        metadata: { name: 'cluster' },
        status: openstackFixture.infrastructure,
      },
    });

    it('converts to the expected template, failure domain and bootstrap secret', () => {
      const result = expectOk(convert(installerSpec(), fixtureContext()));
      expect(result.value).to.deep.equal({
        templateSpec: {
          flavor: 'm1.xlarge',
          image: { filter: { name: 'demo-abc12-rhcos' } },
          identityRef: {
            type: 'Secret',
            name: 'openstack-cloud-credentials',
            cloudName: 'openstack',
          },
          ports: [
            {
              fixedIPs: [
                {
                  subnet: {
                    filter: {
                      name: 'demo-abc12-nodes',
                      tags: ['openshiftClusterID=demo-abc12'],
                    },
                  },
                },
              ],
              allowedAddressPairs: VIP_PAIRS,
            },
          ],
          securityGroups: [{ filter: { name: 'demo-abc12-worker' } }],
          trunk: true,
          tags: ['openshiftClusterID=demo-abc12'],
          serverMetadata: [
            { key: 'Name', value: 'demo-abc12-worker' },
            { key: 'openshiftClusterID', value: 'demo-abc12' },
          ],
          serverGroup: { filter: { name: 'demo-abc12-worker-az1' } },
        },
        failureDomain: 'az1',
        userDataSecretName: 'worker-user-data',
      });
      // The only lossy part: Cluster API does not create a missing server group.
      expect(result.warnings).to.have.length(1);
      expect(result.warnings[0]).to.match(
        new RegExp(`^${PATH}\\.serverGroupName is "demo-abc12-worker-az1": Machine API creates`),
      );
    });

    it('is the shared fixture, which converts without errors and gives its failure domain', () => {
      const result = expectOk(convert(installerSpec(), fixtureContext()));
      expect(result.value.failureDomain).to.equal(openstackFixture.failureDomain);
      expect(openstackFixture.platform).to.equal(openstackConverter.platform);
      expect(openstackFixture.templates).to.deep.equal({
        group: 'infrastructure.cluster.x-k8s.io',
        version: 'v1beta1',
        plural: openstackConverter.template.plural,
        kind: openstackConverter.template.kind,
      });
    });

    it("the fixture's change converts to a different template spec", () => {
      const machineSet = openstackFixture.machineSet('w', 'ns');
      const before = expectOk(convert(providerSpecOf(machineSet), fixtureContext()));
      const changed = applyPatch(machineSet, openstackFixture.change);
      const after = expectOk(convert(providerSpecOf(changed), fixtureContext()));
      expect(after.value.templateSpec).to.not.deep.equal(before.value.templateSpec);
      expect(after.value.templateSpec.flavor).to.equal('m1.2xlarge');
    });
  });

  describe('maps every field', () => {
    interface MappingCase {
      name: string;
      /** Fields merged into the minimal providerSpec; `undefined` removes one. */
      input: Record<string, unknown>;
      /** Fields merged into the minimal template; `undefined` removes one. */
      template?: Record<string, unknown>;
      failureDomain?: string;
      userDataSecretName?: string;
      openstackStatus?: Record<string, unknown>;
      noOpenstackStatus?: boolean;
    }

    const cases: MappingCase[] = [
      { name: 'the minimal spec, with identityRef.type materialised', input: {} },
      {
        name: 'the legacy apiVersion openstackproviderconfig.openshift.io/v1alpha1',
        input: { apiVersion: 'openstackproviderconfig.openshift.io/v1alpha1' },
      },
      {
        name: 'cloudName → identityRef.cloudName; the clouds secret namespace is not needed',
        input: {
          cloudName: 'shiftstack',
          cloudsSecret: { name: 'openstack-cloud-credentials', namespace: 'openshift-machine-api' },
        },
        template: {
          identityRef: {
            type: 'Secret',
            name: 'openstack-cloud-credentials',
            cloudName: 'shiftstack',
          },
        },
      },
      {
        name: 'flavor → flavor',
        input: { flavor: 'ci.m1.2xlarge' },
        template: { flavor: 'ci.m1.2xlarge' },
      },
      {
        name: 'image → image.filter.name',
        input: { image: 'rhcos-9.4' },
        template: { image: { filter: { name: 'rhcos-9.4' } } },
      },
      { name: 'keyName → sshKeyName', input: { keyName: 'ops' }, template: { sshKeyName: 'ops' } },
      {
        name: 'availabilityZone → failureDomain',
        input: { availabilityZone: 'az-2' },
        failureDomain: 'az-2',
      },
      {
        name: 'userDataSecret.name → userDataSecretName',
        input: { userDataSecret: { name: 'infra-user-data' } },
        userDataSecretName: 'infra-user-data',
      },
      { name: 'trunk true → trunk', input: { trunk: true }, template: { trunk: true } },
      { name: 'trunk false → nothing (the same as absent in CAPO)', input: { trunk: false } },
      {
        name: 'tags → tags, duplicates removed (CAPO holds a set)',
        input: { tags: ['openshiftClusterID=demo-abc12', 'team=ops', 'team=ops'] },
        template: { tags: ['openshiftClusterID=demo-abc12', 'team=ops'] },
      },
      { name: 'an empty tags list → nothing', input: { tags: [] } },
      {
        name: 'serverMetadata map → serverMetadata list, sorted by key',
        input: { serverMetadata: { openshiftClusterID: 'demo-abc12', Name: 'demo-abc12-worker' } },
        template: {
          serverMetadata: [
            { key: 'Name', value: 'demo-abc12-worker' },
            { key: 'openshiftClusterID', value: 'demo-abc12' },
          ],
        },
      },
      { name: 'an empty serverMetadata map → nothing', input: { serverMetadata: {} } },
      {
        name: 'configDrive true → configDrive',
        input: { configDrive: true },
        template: { configDrive: true },
      },
      {
        name: 'configDrive false → configDrive false',
        input: { configDrive: false },
        template: { configDrive: false },
      },
      {
        name: 'serverGroupID → serverGroup.id',
        input: { serverGroupID: SERVER_GROUP },
        template: { serverGroup: { id: SERVER_GROUP } },
      },
      {
        name: 'rootVolume → rootVolume, its zone by name (with the CRD default from: Name)',
        input: {
          image: '',
          rootVolume: {
            sourceUUID: 'demo-abc12-rhcos',
            diskSize: 100,
            volumeType: 'fast-ssd',
            availabilityZone: 'cinder-az1',
          },
        },
        template: {
          image: { filter: { name: 'demo-abc12-rhcos' } },
          rootVolume: {
            sizeGiB: 100,
            type: 'fast-ssd',
            availabilityZone: { from: 'Name', name: 'cinder-az1' },
          },
        },
      },
      {
        name: "rootVolume without a zone → the machine's zone (from: Machine)",
        input: { image: undefined, rootVolume: { sourceUUID: 'rhcos', diskSize: 25 } },
        template: { rootVolume: { sizeGiB: 25, availabilityZone: { from: 'Machine' } } },
      },
      {
        name: 'rootVolume.sourceUUID equal to image is redundant',
        input: { rootVolume: { sourceUUID: 'rhcos', diskSize: 25 } },
        template: { rootVolume: { sizeGiB: 25, availabilityZone: { from: 'Machine' } } },
      },
      {
        name: 'rootVolume without diskSize only names the image: Machine API boots from it',
        input: { image: undefined, rootVolume: { sourceUUID: 'rhcos-volume' } },
        template: { image: { filter: { name: 'rhcos-volume' } } },
      },
      {
        name: 'additionalBlockDevices: Volume (type, zone), Volume without options, Local',
        input: {
          additionalBlockDevices: [
            {
              name: 'etcd',
              sizeGiB: 10,
              storage: { type: 'Volume', volume: { type: 'fast', availabilityZone: 'cinder-az1' } },
            },
            { name: 'data', sizeGiB: 50, storage: { type: 'Volume' } },
            { name: 'scratch', sizeGiB: 5, storage: { type: 'Local' } },
          ],
        },
        template: {
          additionalBlockDevices: [
            {
              name: 'etcd',
              sizeGiB: 10,
              storage: {
                type: 'Volume',
                volume: { type: 'fast', availabilityZone: { from: 'Name', name: 'cinder-az1' } },
              },
            },
            {
              name: 'data',
              sizeGiB: 50,
              storage: { type: 'Volume', volume: { availabilityZone: { from: 'Machine' } } },
            },
            { name: 'scratch', sizeGiB: 5, storage: { type: 'Local' } },
          ],
        },
      },
      {
        name: 'an empty additionalBlockDevices list → nothing',
        input: { additionalBlockDevices: [] },
      },
      {
        name: 'securityGroups: by uuid, by name, by filter (tags split), by filter.id',
        input: {
          securityGroups: [
            { uuid: SECURITY_GROUP },
            { filter: {}, name: 'demo-abc12-worker' },
            {
              filter: {
                name: 'extra',
                description: 'd',
                projectId: 'p1',
                tags: 'a,b',
                tagsAny: 'c',
                notTags: 'd,e',
                notTagsAny: 'f',
              },
            },
            { filter: { id: SECURITY_GROUP } },
            { filter: { tenantId: 'p2' } },
          ],
        },
        template: {
          securityGroups: [
            { id: SECURITY_GROUP },
            { filter: { name: 'demo-abc12-worker' } },
            {
              filter: {
                name: 'extra',
                description: 'd',
                projectID: 'p1',
                tags: ['a', 'b'],
                tagsAny: ['c'],
                notTags: ['d', 'e'],
                notTagsAny: ['f'],
              },
            },
            { id: SECURITY_GROUP },
            { filter: { projectID: 'p2' } },
          ],
        },
      },
      {
        name: 'securityGroups: the same uuid or name in both places is redundant; a repeated tag once',
        input: {
          securityGroups: [
            { uuid: SECURITY_GROUP, filter: { id: SECURITY_GROUP } },
            { name: 'w', filter: { name: 'w', tags: 'a,a', tenantId: 'p', projectId: 'p' } },
          ],
        },
        template: {
          securityGroups: [
            { id: SECURITY_GROUP },
            { filter: { name: 'w', projectID: 'p', tags: ['a'] } },
          ],
        },
      },
      {
        name: 'networks: a network by uuid → a port with the API and ingress VIPs as address pairs',
        input: { ports: undefined, networks: [{ uuid: NET }] },
        template: { ports: [{ network: { id: NET }, allowedAddressPairs: VIP_PAIRS }] },
      },
      {
        name: 'networks: a network by filter with subnets → one port with a fixed IP per subnet',
        input: {
          ports: undefined,
          networks: [
            {
              filter: { name: 'machines', projectId: 'p1', tags: 'k8s,prod', notTagsAny: 'old' },
              subnets: [
                { uuid: SUBNET, portTags: ['v4'] },
                { filter: { name: 'machines-v6', ipVersion: 6 }, portTags: ['v6'] },
              ],
              portTags: ['machines'],
            },
          ],
        },
        template: {
          ports: [
            {
              network: {
                filter: {
                  name: 'machines',
                  projectID: 'p1',
                  tags: ['k8s', 'prod'],
                  notTagsAny: ['old'],
                },
              },
              fixedIPs: [
                { subnet: { id: SUBNET } },
                { subnet: { filter: { name: 'machines-v6', ipVersion: 6 } } },
              ],
              tags: ['machines', 'v4', 'v6'],
              allowedAddressPairs: VIP_PAIRS,
            },
          ],
        },
      },
      {
        name: 'networks: subnets without a network → one port per subnet, on the subnet network',
        input: {
          ports: undefined,
          networks: [
            {
              filter: {},
              subnets: [
                { filter: { id: SUBNET }, portTags: ['a'] },
                { uuid: SUBNET_2, portTags: ['b'] },
              ],
              portTags: ['n'],
            },
          ],
        },
        template: {
          ports: [
            {
              fixedIPs: [{ subnet: { id: SUBNET } }],
              tags: ['n', 'a'],
              allowedAddressPairs: VIP_PAIRS,
            },
            {
              fixedIPs: [{ subnet: { id: SUBNET_2 } }],
              tags: ['n', 'b'],
              allowedAddressPairs: VIP_PAIRS,
            },
          ],
        },
      },
      {
        name: 'networks: every subnet query field, renamed to CAPO spelling',
        input: {
          ports: undefined,
          networks: [
            {
              subnets: [
                {
                  filter: {
                    name: 's',
                    description: 'd',
                    tenantId: 't',
                    ipVersion: 4,
                    gateway_ip: '10.0.0.1',
                    cidr: '10.0.0.0/16',
                    ipv6AddressMode: 'slaac',
                    ipv6RaMode: 'slaac',
                    tags: 'x',
                    tagsAny: 'y',
                    notTags: 'z',
                    notTagsAny: 'w',
                  },
                },
              ],
            },
          ],
        },
        template: {
          ports: [
            {
              fixedIPs: [
                {
                  subnet: {
                    filter: {
                      name: 's',
                      description: 'd',
                      projectID: 't',
                      ipVersion: 4,
                      gatewayIP: '10.0.0.1',
                      cidr: '10.0.0.0/16',
                      ipv6AddressMode: 'slaac',
                      ipv6RAMode: 'slaac',
                      tags: ['x'],
                      tagsAny: ['y'],
                      notTags: ['z'],
                      notTagsAny: ['w'],
                    },
                  },
                },
              ],
              allowedAddressPairs: VIP_PAIRS,
            },
          ],
        },
      },
      {
        name: 'networks: noAllowedAddressPairs, vnicType, profile, portSecurity, filter.id',
        input: {
          ports: undefined,
          networks: [
            {
              filter: { id: NET },
              noAllowedAddressPairs: true,
              vnicType: 'direct',
              profile: { capabilities: '["switchdev"]', trusted: 'true' },
              portSecurity: true,
            },
            { uuid: NET_2, portSecurity: false, profile: { trusted: 'false' } },
            { uuid: NET, profile: { capabilities: '[switchdev]' } },
          ],
        },
        template: {
          ports: [
            {
              network: { id: NET },
              vnicType: 'direct',
              profile: { ovsHWOffload: true, trustedVF: true },
              disablePortSecurity: false,
            },
            // Neutron refuses address pairs on a port without port security.
            { network: { id: NET_2 }, profile: { trustedVF: false }, disablePortSecurity: true },
            {
              network: { id: NET },
              allowedAddressPairs: VIP_PAIRS,
              profile: { ovsHWOffload: true },
            },
          ],
        },
      },
      {
        name: 'networks: the deprecated single VIP fields of an older Infrastructure',
        input: { ports: undefined, networks: [{ uuid: NET }] },
        openstackStatus: { apiServerInternalIP: API_VIP, ingressIP: INGRESS_VIP },
        template: { ports: [{ network: { id: NET }, allowedAddressPairs: VIP_PAIRS }] },
      },
      {
        name: 'networks: dual-stack VIPs, each once',
        input: { ports: undefined, networks: [{ uuid: NET }] },
        openstackStatus: {
          apiServerInternalIPs: [API_VIP, 'fd00::5'],
          ingressIPs: [INGRESS_VIP, 'fd00::7'],
          apiServerInternalIP: API_VIP,
        },
        template: {
          ports: [
            {
              network: { id: NET },
              allowedAddressPairs: [
                { ipAddress: API_VIP },
                { ipAddress: 'fd00::5' },
                { ipAddress: INGRESS_VIP },
                { ipAddress: 'fd00::7' },
              ],
            },
          ],
        },
      },
      {
        name: 'networks: no VIPs in the Infrastructure → no address pairs',
        input: { ports: undefined, networks: [{ uuid: NET }] },
        noOpenstackStatus: true,
        template: { ports: [{ network: { id: NET } }] },
      },
      {
        name: 'ports: every field',
        input: {
          ports: [
            {
              networkID: NET,
              nameSuffix: 'storage',
              description: 'storage network',
              adminStateUp: true,
              macAddress: 'fa:16:3e:00:00:01',
              fixedIPs: [{ subnetID: SUBNET, ipAddress: '192.168.0.10' }, { subnetID: SUBNET_2 }],
              securityGroups: [SECURITY_GROUP],
              allowedAddressPairs: [
                { ipAddress: '192.168.0.100', macAddress: 'fa:16:3e:00:00:02' },
                { ipAddress: '192.168.1.0/24' },
              ],
              tags: ['storage', 'storage', 'ceph'],
              vnicType: 'direct',
              profile: { trusted: 'true' },
              portSecurity: true,
              trunk: false,
            },
          ],
        },
        template: {
          ports: [
            {
              network: { id: NET },
              nameSuffix: 'storage',
              description: 'storage network',
              adminStateUp: true,
              macAddress: 'fa:16:3e:00:00:01',
              fixedIPs: [
                { subnet: { id: SUBNET }, ipAddress: '192.168.0.10' },
                { subnet: { id: SUBNET_2 } },
              ],
              securityGroups: [{ id: SECURITY_GROUP }],
              allowedAddressPairs: [
                { ipAddress: '192.168.0.100', macAddress: 'fa:16:3e:00:00:02' },
                { ipAddress: '192.168.1.0/24' },
              ],
              tags: ['storage', 'ceph'],
              vnicType: 'direct',
              profile: { trustedVF: true },
              disablePortSecurity: false,
              trunk: false,
            },
          ],
        },
      },
      {
        name: 'ports: portSecurity false without groups or pairs → disablePortSecurity',
        input: { ports: [{ networkID: NET, portSecurity: false, trunk: true }] },
        template: { ports: [{ network: { id: NET }, disablePortSecurity: true, trunk: true }] },
      },
      {
        name: 'networks come before ports, as Machine API creates them',
        input: { networks: [{ uuid: NET_2, noAllowedAddressPairs: true }] },
        template: { ports: [{ network: { id: NET_2 } }, { network: { id: NET } }] },
      },
      {
        name: 'empty strings of omitempty fields and nulls mean "not set"',
        input: {
          keyName: '',
          availabilityZone: '',
          serverGroupID: '',
          serverGroupName: '',
          floatingIP: '',
          sshUserName: '',
          primarySubnet: '',
          trunk: null,
          configDrive: null,
          rootVolume: null,
          tags: null,
          networks: [
            {
              uuid: '',
              filter: { name: '' },
              subnets: [{ uuid: SUBNET, filter: { id: '' } }],
              vnicType: '',
            },
          ],
          ports: [
            {
              networkID: NET,
              nameSuffix: '',
              description: '',
              macAddress: '',
              vnicType: '',
              hostID: '',
            },
          ],
        },
        template: {
          ports: [
            { fixedIPs: [{ subnet: { id: SUBNET } }], allowedAddressPairs: VIP_PAIRS },
            { network: { id: NET } },
          ],
        },
      },
      {
        name: 'empty metadata (as Go serialises it) is dropped',
        input: { metadata: { creationTimestamp: null } },
      },
    ];

    for (const c of cases) {
      it(c.name, () => {
        const status = c.noOpenstackStatus ? null : (c.openstackStatus ?? defaultStatus());
        const result = convert(specWith(c.input), { infrastructure: infrastructure(status) });
        const ok = expectOk(result);
        expect(ok.value.templateSpec).to.deep.equal(templateWith(c.template));
        expect(ok.value.failureDomain).to.equal(c.failureDomain);
        expect(ok.value.userDataSecretName).to.equal(c.userDataSecretName ?? 'worker-user-data');
        expect(ok.warnings, ok.warnings.join('\n')).to.deep.equal([]);
      });
    }
  });

  describe('rejects what Cluster API cannot hold, with the field path', () => {
    interface RejectionCase {
      name: string;
      /** Fields merged into the minimal providerSpec; `undefined` removes one. */
      input: Record<string, unknown>;
      /** Every error expected: its path and a pattern its message matches. */
      errors: [string, RegExp][];
    }

    const device = (extra: Record<string, unknown>) => ({
      additionalBlockDevices: [
        { name: 'data', sizeGiB: 10, storage: { type: 'Volume' }, ...extra },
      ],
    });

    const cases: RejectionCase[] = [
      // type metadata
      {
        name: 'another platform’s providerSpec gets exactly one error, on kind',
        input: { kind: 'AWSMachineProviderConfig', apiVersion: 'v1', ami: { id: 'ami-1' } },
        errors: [
          [`${PATH}.kind`, /is AWSMachineProviderConfig, but the cluster runs on OpenStack/],
        ],
      },
      {
        name: 'a kind that is not a string',
        input: { kind: 7 },
        errors: [[`${PATH}.kind`, /is the number 7/]],
      },
      {
        name: 'a wrong apiVersion',
        input: { apiVersion: 'machine.openshift.io/v1beta1' },
        errors: [[`${PATH}.apiVersion`, /set it to machine\.openshift\.io\/v1alpha1/]],
      },
      // the bootstrap data secret, which Cluster API requires and machine-api-operator does not
      // default on OpenStack
      {
        name: 'no userDataSecret',
        input: { userDataSecret: undefined },
        errors: [
          [
            `${PATH}.userDataSecret`,
            /^is required: Cluster API machines boot only from a bootstrap data secret .*set userDataSecret\.name/,
          ],
        ],
      },
      {
        name: 'a userDataSecret without a name',
        input: { userDataSecret: { namespace: 'openshift-machine-api' } },
        errors: [[`${PATH}.userDataSecret.name`, /^is required: Cluster API machines boot only/]],
      },
      // unknown and mistyped fields
      {
        name: 'an unknown field',
        input: { flavorID: 'abc' },
        errors: [[`${PATH}.flavorID`, /not a field this controller knows/]],
      },
      {
        name: 'an unknown nested field',
        input: {
          ports: undefined,
          networks: [{ subnets: [{ filter: { name: 's', bogus: 1 } }] }],
        },
        errors: [[`${PATH}.networks[0].subnets[0].filter.bogus`, /not a field/]],
      },
      {
        name: 'mistyped fields',
        input: { trunk: 'yes', tags: 'a', configDrive: 1, keyName: 3 },
        errors: [
          [`${PATH}.trunk`, /must be true or false/],
          [`${PATH}.tags`, /must be a list/],
          [`${PATH}.configDrive`, /must be true or false/],
          [`${PATH}.keyName`, /must be a string/],
        ],
      },
      // credentials
      {
        name: 'a missing cloudsSecret',
        input: { cloudsSecret: undefined },
        errors: [[`${PATH}.cloudsSecret`, /is required; set cloudsSecret\.name/]],
      },
      {
        name: 'a cloudsSecret without a name',
        input: { cloudsSecret: { namespace: 'openshift-machine-api' } },
        errors: [[`${PATH}.cloudsSecret.name`, /is required/]],
      },
      {
        name: 'another clouds secret',
        input: { cloudsSecret: { name: 'my-clouds' } },
        errors: [[`${PATH}.cloudsSecret.name`, /is "my-clouds", but Cluster API machines read/]],
      },
      {
        name: 'a missing cloudName, with the Infrastructure cloud as a hint',
        input: { cloudName: '' },
        errors: [[`${PATH}.cloudName`, /is required; .*e\.g\. openstack\./]],
      },
      // required fields
      {
        name: 'a missing flavor',
        input: { flavor: undefined },
        errors: [[`${PATH}.flavor`, /is required/]],
      },
      {
        name: 'no image and no rootVolume.sourceUUID',
        input: { image: '', rootVolume: { diskSize: 10 } },
        errors: [[`${PATH}.rootVolume.sourceUUID`, /is required when rootVolume is set/]],
      },
      {
        name: 'no image',
        input: { image: '' },
        errors: [[`${PATH}.image`, /is required; set the name of the Glance image/]],
      },
      {
        // Machine API takes the image from rootVolume.sourceUUID whenever rootVolume is set.
        name: 'a root volume without sourceUUID, image set',
        input: { rootVolume: { diskSize: 10 } },
        errors: [
          [
            `${PATH}.rootVolume.sourceUUID`,
            /^is required when rootVolume is set: Machine API then boots from the image it names and ignores image \("rhcos"\); set sourceUUID to the name of the Glance image\.$/,
          ],
        ],
      },
      {
        name: 'neither networks nor ports',
        input: { ports: undefined },
        errors: [[`${PATH}.networks`, /attach the machines to no network/]],
      },
      {
        name: 'a floating IP',
        input: { floatingIP: '203.0.113.10' },
        errors: [[`${PATH}.floatingIP`, /cannot give a machine one fixed floating IP/]],
      },
      // UUIDs
      {
        name: 'IDs that are not UUIDs',
        input: {
          serverGroupID: 'workers',
          securityGroups: [{ uuid: 'default' }],
          networks: [{ uuid: 'public', subnets: [{ uuid: 'v4' }] }, { filter: { id: 'x' } }],
          ports: [{ networkID: 'net', fixedIPs: [{ subnetID: 'sub' }], securityGroups: ['sg'] }],
        },
        errors: [
          [`${PATH}.serverGroupID`, /is "workers", which is not a UUID; .*server group/],
          [`${PATH}.securityGroups[0].uuid`, /not a UUID/],
          [`${PATH}.networks[0].uuid`, /not a UUID/],
          [`${PATH}.networks[0].subnets[0].uuid`, /not a UUID/],
          [`${PATH}.networks[1].filter.id`, /not a UUID/],
          [`${PATH}.ports[0].networkID`, /not a UUID/],
          [`${PATH}.ports[0].fixedIPs[0].subnetID`, /not a UUID/],
          [`${PATH}.ports[0].securityGroups[0]`, /not a UUID/],
        ],
      },
      // references CAPO cannot hold
      {
        name: 'resources named both by ID and by a query',
        input: {
          securityGroups: [{ uuid: SECURITY_GROUP, name: 'w' }],
          networks: [
            { uuid: NET, filter: { name: 'n' } },
            { subnets: [{ uuid: SUBNET, filter: { cidr: '10.0.0.0/16' } }] },
          ],
        },
        errors: [
          [`${PATH}.securityGroups[0]`, /both by ID and by a query \(name\)/],
          [`${PATH}.networks[0]`, /both by ID and by a query \(name\)/],
          [`${PATH}.networks[1].subnets[0]`, /both by ID and by a query \(cidr\)/],
        ],
      },
      {
        name: 'entries that name nothing',
        input: { securityGroups: [{ filter: {} }], networks: [{ subnets: [{ filter: {} }] }] },
        errors: [
          [`${PATH}.securityGroups[0]`, /names no security group/],
          [`${PATH}.networks[0].subnets[0]`, /names no subnet/],
        ],
      },
      {
        name: 'a tag query with an empty tag',
        input: { securityGroups: [{ filter: { tags: 'a,,b' } }] },
        errors: [[`${PATH}.securityGroups[0].filter.tags`, /contains an empty tag/]],
      },
      // ports
      {
        name: 'a port without networkID and a fixed IP without subnetID',
        input: { ports: [{ fixedIPs: [{ ipAddress: '10.0.0.9' }] }] },
        errors: [
          [`${PATH}.ports[0].networkID`, /is required/],
          [`${PATH}.ports[0].fixedIPs[0].subnetID`, /is required/],
        ],
      },
      {
        name: 'an allowed address pair without ipAddress',
        input: {
          ports: [{ networkID: NET, allowedAddressPairs: [{ macAddress: 'fa:16:3e:0:0:1' }] }],
        },
        errors: [[`${PATH}.ports[0].allowedAddressPairs[0].ipAddress`, /is required/]],
      },
      {
        name: 'a port security group that is not a string',
        input: { ports: [{ networkID: NET, securityGroups: [{ id: SECURITY_GROUP }] }] },
        errors: [[`${PATH}.ports[0].securityGroups[0]`, /must be a security group UUID, but is/]],
      },
      {
        name: 'security groups and address pairs on a port without port security',
        input: {
          ports: [
            {
              networkID: NET,
              portSecurity: false,
              securityGroups: [SECURITY_GROUP],
              allowedAddressPairs: [{ ipAddress: '10.0.0.9' }],
            },
          ],
        },
        errors: [
          [`${PATH}.ports[0].securityGroups`, /cannot be combined with portSecurity false/],
          [`${PATH}.ports[0].allowedAddressPairs`, /cannot be combined with portSecurity false/],
        ],
      },
      {
        name: 'binding profiles CAPO cannot express',
        input: {
          ports: [
            {
              networkID: NET,
              profile: { capabilities: '[switchdev, rx-offload]', trusted: 'yes', foo: 'bar' },
            },
          ],
          networks: [{ uuid: NET_2, profile: { trusted: true } }],
        },
        errors: [
          [`${PATH}.ports[0].profile.capabilities`, /can only request the switchdev capability/],
          [`${PATH}.ports[0].profile.trusted`, /is "yes"; set it to "true" or "false"/],
          [`${PATH}.ports[0].profile.foo`, /binding profile key Cluster API cannot set/],
          [`${PATH}.networks[0].profile.trusted`, /must be a string, but is the boolean true/],
        ],
      },
      // server metadata
      {
        name: 'server metadata too long or not a string',
        input: {
          serverMetadata: { ['k'.repeat(256)]: 'v', long: 'v'.repeat(256), count: 3 },
        },
        errors: [
          // The key is shortened in the path.
          [`${PATH}.serverMetadata.${'k'.repeat(100)}… (256 characters)`, /has a key longer/],
          [`${PATH}.serverMetadata.long`, /is longer than 255 characters/],
          [`${PATH}.serverMetadata.count`, /must be a string, but is the number 3/],
        ],
      },
      // volumes
      {
        name: 'a root volume of negative size',
        input: { rootVolume: { sourceUUID: 'rhcos', diskSize: -1 } },
        errors: [[`${PATH}.rootVolume.diskSize`, /is -1; set the root volume size/]],
      },
      {
        name: 'a volume zone with a space',
        input: {
          rootVolume: { sourceUUID: 'rhcos', diskSize: 10, availabilityZone: 'zone 1' },
          ...device({ storage: { type: 'Volume', volume: { availabilityZone: 'az 2' } } }),
        },
        errors: [
          [`${PATH}.rootVolume.availabilityZone`, /may not contain spaces/],
          [
            `${PATH}.additionalBlockDevices[0].storage.volume.availabilityZone`,
            /may not contain spaces/,
          ],
        ],
      },
      {
        name: 'a block device without name, size or storage',
        input: { additionalBlockDevices: [{}] },
        errors: [
          [`${PATH}.additionalBlockDevices[0].name`, /is required/],
          [`${PATH}.additionalBlockDevices[0].sizeGiB`, /is required/],
          [`${PATH}.additionalBlockDevices[0].storage`, /is required/],
        ],
      },
      {
        name: 'a block device named root, one of size 0',
        input: device({ name: 'root', sizeGiB: 0 }),
        errors: [
          [`${PATH}.additionalBlockDevices[0].name`, /reserves for the root volume/],
          [`${PATH}.additionalBlockDevices[0].sizeGiB`, /is 0; set the size in GiB/],
        ],
      },
      {
        name: 'two block devices with the same name',
        input: {
          additionalBlockDevices: [
            { name: 'data', sizeGiB: 1, storage: { type: 'Local' } },
            { name: 'data', sizeGiB: 2, storage: { type: 'Local' } },
          ],
        },
        errors: [
          [
            `${PATH}.additionalBlockDevices[1].name`,
            /which spec\.template\.spec\.providerSpec\.value\.additionalBlockDevices\[0\] already uses/,
          ],
        ],
      },
      {
        name: 'block device storage without a valid type',
        input: {
          additionalBlockDevices: [
            { name: 'a', sizeGiB: 1, storage: {} },
            { name: 'b', sizeGiB: 1, storage: { type: 'Ephemeral' } },
          ],
        },
        errors: [
          [`${PATH}.additionalBlockDevices[0].storage.type`, /is required; set it to Volume/],
          [`${PATH}.additionalBlockDevices[1].storage.type`, /"Ephemeral", which is not supported/],
        ],
      },
      {
        name: 'volume options on a Local block device',
        input: device({ storage: { type: 'Local', volume: { type: 'fast' } } }),
        errors: [
          [
            `${PATH}.additionalBlockDevices[0].storage.volume`,
            /only applies to storage type Volume/,
          ],
        ],
      },
    ];

    for (const c of cases) {
      it(c.name, () => {
        const errors = expectErrors(convert(specWith(c.input)));
        expectFieldErrors(errors, c.errors);
      });
    }

    it('reports every error of a providerSpec at once, not only the first', () => {
      const errors = expectErrors(
        convert(
          specWith({
            cloudsSecret: { name: 'other' },
            flavor: '',
            floatingIP: '203.0.113.1',
            serverGroupID: 'sg',
            ports: [{ networkID: 'net' }],
            additionalBlockDevices: [{ name: 'root', sizeGiB: 1, storage: { type: 'Local' } }],
            extra: true,
          }),
        ),
      );
      expect(errors.map((e) => e.path)).to.have.members([
        `${PATH}.cloudsSecret.name`,
        `${PATH}.flavor`,
        `${PATH}.floatingIP`,
        `${PATH}.serverGroupID`,
        `${PATH}.ports[0].networkID`,
        `${PATH}.additionalBlockDevices[0].name`,
        `${PATH}.extra`,
      ]);
    });

    it('uses the context path for every error path', () => {
      const errors = expectErrors(
        convert(specWith({ floatingIP: '203.0.113.1' }), { path: 'spec.providerSpec.value' }),
      );
      expect(errors.map((e) => e.path)).to.deep.equal(['spec.providerSpec.value.floatingIP']);
    });
  });

  describe('warns about lossy but safe conversions', () => {
    interface WarningCase {
      name: string;
      input: Record<string, unknown>;
      warnings: RegExp[];
      template?: Record<string, unknown>;
    }

    const deprecated = (path: string) =>
      new RegExp(
        `^${path.replace(/[.[\]]/g, '\\$&')} is .*, but Machine API ignores this deprecated field`,
      );

    const cases: WarningCase[] = [
      {
        name: 'providerSpec metadata is dropped',
        input: { metadata: { name: 'worker', labels: { a: 'b' } } },
        warnings: [new RegExp(`^${PATH}\\.metadata is not used by any machine controller`)],
      },
      {
        name: 'serverGroupName alone: Cluster API does not create the group',
        input: { serverGroupName: 'workers' },
        warnings: [
          new RegExp(
            `^${PATH}\\.serverGroupName is "workers": Machine API creates a missing server group`,
          ),
        ],
        template: { serverGroup: { filter: { name: 'workers' } } },
      },
      {
        name: 'serverGroupName next to serverGroupID is no longer checked',
        input: { serverGroupID: SERVER_GROUP, serverGroupName: 'workers' },
        warnings: [
          new RegExp(`^${PATH}\\.serverGroupName is not converted: .*serverGroupID alone`),
        ],
        template: { serverGroup: { id: SERVER_GROUP } },
      },
      {
        name: 'a root volume without diskSize: Machine API ignores its volume settings',
        input: {
          image: undefined,
          rootVolume: { sourceUUID: 'rhcos', volumeType: 'fast', availabilityZone: 'cinder-az1' },
        },
        warnings: [new RegExp(`^${PATH}\\.rootVolume has no diskSize, so Machine API boots`)],
      },
      {
        // machine-api-provider-openstack boots from rootVolume.sourceUUID whenever rootVolume is set.
        name: 'image is ignored next to a root volume, as in Machine API',
        input: { rootVolume: { sourceUUID: 'other-image', diskSize: 30 } },
        warnings: [
          new RegExp(
            `^${PATH}\\.image is "rhcos", but rootVolume is set, so Machine API boots from ` +
              `${PATH}\\.rootVolume\\.sourceUUID \\("other-image"\\) and ignores image; so does the conversion\\.$`,
          ),
        ],
        template: {
          image: { filter: { name: 'other-image' } },
          rootVolume: { sizeGiB: 30, availabilityZone: { from: 'Machine' } },
        },
      },
      {
        name: 'image is ignored next to a root volume without diskSize too',
        input: { rootVolume: { sourceUUID: 'other-image' } },
        warnings: [new RegExp(`^${PATH}\\.image is "rhcos", but rootVolume is set`)],
        template: { image: { filter: { name: 'other-image' } } },
      },
      {
        name: 'a userDataSecret namespace',
        input: { userDataSecret: { name: 'worker-user-data', namespace: 'elsewhere' } },
        warnings: [
          new RegExp(`^${PATH}\\.userDataSecret\\.namespace is "elsewhere", but Cluster API`),
        ],
      },
      {
        name: 'a network entry naming nothing makes no port in Machine API',
        input: { networks: [{ filter: {} }] },
        warnings: [new RegExp(`^${PATH}\\.networks\\[0\\] names no network and no subnet`)],
      },
      {
        name: 'tenantId next to a different projectId',
        input: { securityGroups: [{ filter: { projectId: 'p', tenantId: 't' } }] },
        warnings: [
          new RegExp(
            `^${PATH}\\.securityGroups\\[0\\]\\.filter\\.tenantId is ignored because projectId`,
          ),
        ],
        template: { securityGroups: [{ filter: { projectID: 'p' } }] },
      },
      {
        name: 'filter.id and filter.name next to a different uuid and name',
        input: {
          securityGroups: [{ name: 'a', filter: { name: 'b' } }],
          networks: [{ uuid: NET_2, filter: { id: NET }, noAllowedAddressPairs: true }],
        },
        warnings: [
          new RegExp(
            `^${PATH}\\.securityGroups\\[0\\]\\.filter\\.name is ignored because name is set`,
          ),
          new RegExp(`^${PATH}\\.networks\\[0\\]\\.filter\\.id is ignored because uuid is set`),
        ],
        template: {
          securityGroups: [{ filter: { name: 'a' } }],
          ports: [{ network: { id: NET_2 } }, { network: { id: NET } }],
        },
      },
      {
        name: 'deprecated top-level fields Machine API ignores',
        input: { sshUserName: 'core', primarySubnet: SUBNET },
        warnings: [deprecated(`${PATH}.sshUserName`), deprecated(`${PATH}.primarySubnet`)],
      },
      {
        name: 'deprecated network and subnet fields Machine API ignores',
        input: {
          networks: [
            {
              uuid: NET_2,
              fixedIp: '10.0.0.9',
              noAllowedAddressPairs: true,
              filter: { status: 'ACTIVE', adminStateUp: true, shared: false, limit: 1 },
              subnets: [
                {
                  uuid: SUBNET,
                  portSecurity: true,
                  filter: { networkId: NET_2, subnetpoolId: 'p', enableDhcp: true, sortDir: 'asc' },
                },
              ],
            },
          ],
        },
        warnings: [
          deprecated(`${PATH}.networks[0].filter.limit`),
          deprecated(`${PATH}.networks[0].filter.status`),
          deprecated(`${PATH}.networks[0].filter.adminStateUp`),
          deprecated(`${PATH}.networks[0].filter.shared`),
          deprecated(`${PATH}.networks[0].subnets[0].filter.sortDir`),
          deprecated(`${PATH}.networks[0].subnets[0].filter.networkId`),
          deprecated(`${PATH}.networks[0].subnets[0].filter.subnetpoolId`),
          deprecated(`${PATH}.networks[0].subnets[0].filter.enableDhcp`),
          deprecated(`${PATH}.networks[0].subnets[0].portSecurity`),
          deprecated(`${PATH}.networks[0].fixedIp`),
        ],
        template: {
          ports: [
            { network: { id: NET_2 }, fixedIPs: [{ subnet: { id: SUBNET } }] },
            { network: { id: NET } },
          ],
        },
      },
      {
        name: 'deprecated port, security group and root volume fields Machine API ignores',
        input: {
          ports: [{ networkID: NET, tenantID: 't', projectID: 'p', hostID: 'h' }],
          securityGroups: [{ uuid: SECURITY_GROUP, filter: { marker: 'm', sortKey: 'name' } }],
          rootVolume: {
            sourceUUID: 'rhcos',
            diskSize: 20,
            sourceType: 'image',
            deviceType: 'disk',
          },
        },
        warnings: [
          deprecated(`${PATH}.rootVolume.sourceType`),
          deprecated(`${PATH}.rootVolume.deviceType`),
          deprecated(`${PATH}.securityGroups[0].filter.marker`),
          deprecated(`${PATH}.securityGroups[0].filter.sortKey`),
          deprecated(`${PATH}.ports[0].tenantID`),
          deprecated(`${PATH}.ports[0].projectID`),
          deprecated(`${PATH}.ports[0].hostID`),
        ],
        template: {
          securityGroups: [{ id: SECURITY_GROUP }],
          rootVolume: { sizeGiB: 20, availabilityZone: { from: 'Machine' } },
        },
      },
    ];

    for (const c of cases) {
      it(c.name, () => {
        const result = expectOk(convert(specWith(c.input)));
        expect(result.warnings, result.warnings.join('\n')).to.have.length(c.warnings.length);
        for (const pattern of c.warnings) {
          expect(
            result.warnings.some((w) => pattern.test(w)),
            `${String(pattern)} in:\n${result.warnings.join('\n')}`,
          ).to.equal(true);
        }
        for (const warning of result.warnings) {
          // A human sentence that starts with the full field path.
          expect(warning).to.match(new RegExp(`^${PATH.replaceAll('.', '\\.')}\\.\\S+ .*\\.$`));
        }
        expect(result.value.templateSpec).to.deep.equal(templateWith(c.template));
      });
    }
  });

  describe('output', () => {
    const rich = (): Record<string, unknown> =>
      specWith({
        availabilityZone: 'az1',
        userDataSecret: { name: 'worker-user-data' },
        networks: [
          { filter: {}, subnets: [{ filter: { name: 'nodes', tags: 'b,a' } }], portTags: ['t'] },
        ],
        securityGroups: [{ name: 'w', filter: {} }],
        serverMetadata: { b: '2', a: '1' },
        tags: ['x'],
        rootVolume: { sourceUUID: 'rhcos', diskSize: 50, availabilityZone: 'cinder' },
        additionalBlockDevices: [{ name: 'd', sizeGiB: 1, storage: { type: 'Volume' } }],
        serverGroupID: SERVER_GROUP,
      });

    itConvertsPurely(convert, rich, { noEmptyObjects: true });

    it('does not depend on the key order of serverMetadata', () => {
      const reordered = { ...rich(), serverMetadata: { a: '1', b: '2' } };
      expect(expectOk(convert(reordered)).value).to.deep.equal(expectOk(convert(rich())).value);
    });

    it('never aliases the input or shares objects between ports', () => {
      const input = specWith({
        ports: undefined,
        networks: [{ subnets: [{ uuid: SUBNET }, { uuid: SUBNET_2 }] }],
      });
      const snapshot = structuredClone(input);
      const { value } = expectOk(convert(input));
      const ports = value.templateSpec.ports as { allowedAddressPairs: { ipAddress: string }[] }[];
      ports[0]?.allowedAddressPairs.push({ ipAddress: '10.9.9.9' });
      expect(ports[1]?.allowedAddressPairs).to.deep.equal(VIP_PAIRS);
      expect(input).to.deep.equal(snapshot);
    });
  });
});
