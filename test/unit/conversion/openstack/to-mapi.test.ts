// Table-driven tests of the way back (CAPI → MAPI) of the OpenStack converter: the values it
// writes, the normalisations, the fields kept from the current providerSpec, every error path.
import { expect } from 'chai';
import type { Infrastructure } from '../../../../src/api/types.js';
import {
  KEPT_FROM_CURRENT,
  openstackConverter,
} from '../../../../src/conversion/openstack/index.js';
import type { ReverseContext } from '../../../../src/conversion/types.js';
import { expectErrors, expectFieldErrors, expectOk } from '../../../support/conversion.js';
import { API_VIP, INGRESS_VIP, infrastructure } from './arbitraries.js';

const PATH = 'spec.template.spec';
const NET = '0b2a1c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const SUBNET = '2d4c3e5f-6071-4c8d-ae9f-1a2b3c4d5e6f';
const GROUP = '4f6e5071-8293-4eaf-80b1-3c4d5e6f7081';
const SERVER_GROUP = '5071608f-93a4-4fb0-91c2-4d5e6f708192';
const VIP_PAIRS = [{ ipAddress: API_VIP }, { ipAddress: INGRESS_VIP }];
const SECRET = 'openstack-cloud-credentials';

function template(fields: Record<string, unknown> = {}): Record<string, unknown> {
  const spec: Record<string, unknown> = {
    flavor: 'm1.xlarge',
    image: { filter: { name: 'rhcos' } },
    identityRef: { type: 'Secret', name: SECRET, cloudName: 'openstack' },
    ports: [{ network: { id: NET } }],
    ...fields,
  };
  for (const [key, value] of Object.entries(fields)) if (value === undefined) delete spec[key];
  return spec;
}

function providerSpec(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'machine.openshift.io/v1alpha1',
    kind: 'OpenstackProviderSpec',
    cloudName: 'openstack',
    cloudsSecret: { name: SECRET },
    flavor: 'm1.xlarge',
    image: 'rhcos',
    networks: [{ uuid: NET, noAllowedAddressPairs: true }],
    ...fields,
  };
}

function userManaged(): Infrastructure {
  const value = infrastructure();
  const openstack = value.status?.platformStatus?.openstack as Record<string, unknown>;
  openstack.loadBalancer = { type: 'UserManaged' };
  return value;
}

function toMapi(spec: unknown, extra: Partial<ReverseContext> = {}) {
  const result = openstackConverter.toMapi?.(spec, {
    infrastructure: infrastructure(),
    path: PATH,
    controlPlane: false,
    ...extra,
  });
  if (result === undefined) throw new Error('the OpenStack converter has no way back');
  return result;
}

describe('openstackConverter.toMapi', () => {
  describe('writes every field back', () => {
    interface ValueCase {
      name: string;
      template: Record<string, unknown>;
      expected: Record<string, unknown>;
      context?: Partial<ReverseContext>;
    }
    const cases: ValueCase[] = [
      { name: 'the smallest template', template: {}, expected: {} },
      {
        name: 'failure domain and bootstrap secret from the context',
        template: {},
        context: { failureDomain: 'az1', userDataSecretName: 'worker-user-data' },
        expected: { availabilityZone: 'az1', userDataSecret: { name: 'worker-user-data' } },
      },
      {
        name: 'scalar fields; trunk false is left out',
        template: { sshKeyName: 'k', trunk: false, tags: ['a', 'b'], configDrive: true },
        expected: { keyName: 'k', tags: ['a', 'b'], configDrive: true },
      },
      {
        name: 'serverMetadata becomes a map',
        template: {
          serverMetadata: [
            { key: 'b', value: '2' },
            { key: 'a', value: '' },
          ],
        },
        expected: { serverMetadata: { a: '', b: '2' } },
      },
      {
        name: 'a root volume takes the image name in sourceUUID, as the installer writes it',
        template: {
          rootVolume: {
            sizeGiB: 30,
            type: 'ssd',
            availabilityZone: { from: 'Name', name: 'nova' },
          },
        },
        expected: {
          image: undefined,
          rootVolume: {
            diskSize: 30,
            volumeType: 'ssd',
            availabilityZone: 'nova',
            sourceUUID: 'rhcos',
          },
        },
      },
      {
        name: "a volume zone from the machine is MAPI's empty zone",
        template: {
          rootVolume: { sizeGiB: 30, availabilityZone: { from: 'Machine' } },
          additionalBlockDevices: [
            {
              name: 'etcd',
              sizeGiB: 10,
              storage: { type: 'Volume', volume: { availabilityZone: { from: 'Machine' } } },
            },
            { name: 'tmp', sizeGiB: 5, storage: { type: 'Local' } },
          ],
        },
        expected: {
          image: undefined,
          rootVolume: { diskSize: 30, sourceUUID: 'rhcos' },
          additionalBlockDevices: [
            { name: 'etcd', sizeGiB: 10, storage: { type: 'Volume' } },
            { name: 'tmp', sizeGiB: 5, storage: { type: 'Local' } },
          ],
        },
      },
      {
        name: 'machine security groups: id → uuid, filter name → name, the rest in filter',
        template: {
          securityGroups: [
            { id: GROUP },
            { filter: { name: 'workers' } },
            { filter: { name: 'w', projectID: 'p', tags: ['a', 'b'], notTagsAny: ['c'] } },
          ],
        },
        expected: {
          securityGroups: [
            { uuid: GROUP },
            { name: 'workers' },
            { name: 'w', filter: { projectId: 'p', tags: 'a,b', notTagsAny: 'c' } },
          ],
        },
      },
      {
        name: 'server group by id and by name',
        template: { serverGroup: { id: SERVER_GROUP } },
        expected: { serverGroupID: SERVER_GROUP },
      },
      {
        name: 'server group by name',
        template: { serverGroup: { filter: { name: 'workers' } } },
        expected: { serverGroupName: 'workers' },
      },
      {
        name: 'a port with the VIP pairs is a network entry',
        template: {
          ports: [
            {
              fixedIPs: [
                {
                  subnet: {
                    filter: {
                      name: 'nodes',
                      tags: ['x'],
                      gatewayIP: '10.0.0.1',
                      ipv6RAMode: 'slaac',
                    },
                  },
                },
              ],
              allowedAddressPairs: VIP_PAIRS,
              tags: ['t'],
              vnicType: 'direct',
              profile: { trustedVF: true, ovsHWOffload: true },
            },
          ],
        },
        expected: {
          networks: [
            {
              subnets: [
                {
                  filter: { name: 'nodes', tags: 'x', gateway_ip: '10.0.0.1', ipv6RaMode: 'slaac' },
                },
              ],
              portTags: ['t'],
              vnicType: 'direct',
              profile: { trusted: 'true', capabilities: '["switchdev"]' },
            },
          ],
        },
      },
      {
        name: 'a network port without pairs while VIPs apply says noAllowedAddressPairs',
        template: {
          ports: [{ network: { filter: { name: 'n' } }, fixedIPs: [{ subnet: { id: SUBNET } }] }],
        },
        expected: {
          networks: [
            { filter: { name: 'n' }, subnets: [{ uuid: SUBNET }], noAllowedAddressPairs: true },
          ],
        },
      },
      {
        name: 'without port security no VIP pair applies',
        template: { ports: [{ network: { id: NET }, disablePortSecurity: true }] },
        expected: { networks: [{ uuid: NET, portSecurity: false }] },
      },
      {
        name: 'with a user-managed load balancer a port without pairs is a plain network entry',
        template: {},
        context: { infrastructure: userManaged() },
        expected: { networks: [{ uuid: NET }] },
      },
      {
        name: 'what only a port entry holds makes a port entry, after the network entries',
        template: {
          ports: [
            { network: { id: NET } },
            {
              network: { id: NET },
              nameSuffix: 'data',
              fixedIPs: [{ subnet: { id: SUBNET }, ipAddress: '10.0.0.9' }],
              securityGroups: [{ id: GROUP }],
              allowedAddressPairs: [{ ipAddress: '192.0.2.1', macAddress: 'fa:16:3e:00:00:01' }],
              adminStateUp: false,
              trunk: true,
              tags: ['t'],
            },
          ],
        },
        expected: {
          networks: [{ uuid: NET, noAllowedAddressPairs: true }],
          ports: [
            {
              networkID: NET,
              nameSuffix: 'data',
              adminStateUp: false,
              trunk: true,
              fixedIPs: [{ subnetID: SUBNET, ipAddress: '10.0.0.9' }],
              securityGroups: [GROUP],
              allowedAddressPairs: [{ ipAddress: '192.0.2.1', macAddress: 'fa:16:3e:00:00:01' }],
              tags: ['t'],
            },
          ],
        },
      },
      {
        name: 'a port that fits both keeps the current providerSpec’s form',
        template: {},
        context: { current: providerSpec({ networks: undefined, ports: [{ networkID: NET }] }) },
        expected: { networks: undefined, ports: [{ networkID: NET }] },
      },
      {
        name: 'an empty port security group list is the machine’s groups, left out',
        template: { ports: [{ network: { id: NET }, nameSuffix: 'a', securityGroups: [] }] },
        expected: { networks: undefined, ports: [{ networkID: NET, nameSuffix: 'a' }] },
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const { value, warnings } = expectOk(toMapi(template(c.template), c.context));
        const expected: Record<string, unknown> = { ...providerSpec(), ...c.expected };
        for (const [key, v] of Object.entries(expected)) if (v === undefined) delete expected[key];
        expect(value).to.deep.equal(expected);
        expect(warnings).to.deep.equal([]);
      });
    }
  });

  describe('any clouds secret: Machine API reads the one cloudsSecret names', () => {
    it('identityRef.name → cloudsSecret.name, with where each side reads it', () => {
      const { value, warnings } = expectOk(
        toMapi(template({ identityRef: { name: 'team-clouds', cloudName: 'team' } })),
      );
      expect(value).to.deep.equal(
        providerSpec({ cloudName: 'team', cloudsSecret: { name: 'team-clouds' } }),
      );
      expect(warnings).to.deep.equal([
        `${PATH}.identityRef.name is "team-clouds": Machine API reads the clouds secret ` +
          '"team-clouds" from the namespace of its machines, Cluster API from the namespace of ' +
          'this template; both must hold the same clouds.yaml, as this controller copies no ' +
          'secrets.',
      ]);
    });

    it('keeps the current cloudsSecret.namespace, where Machine API reads the secret', () => {
      const { value } = expectOk(
        toMapi(template({ identityRef: { type: 'Secret', name: 'team-clouds', cloudName: 'c' } }), {
          current: providerSpec({
            cloudsSecret: { name: SECRET, namespace: 'openshift-machine-api' },
          }),
        }),
      );
      expect(value.cloudsSecret).to.deep.equal({
        name: 'team-clouds',
        namespace: 'openshift-machine-api',
      });
    });
  });

  describe('keeps what Cluster API cannot express from the current providerSpec', () => {
    const current = providerSpec({
      metadata: { creationTimestamp: null },
      cloudsSecret: { name: SECRET, namespace: 'openshift-machine-api' },
      userDataSecret: { name: 'old', namespace: 'openshift-machine-api' },
      serverGroupID: SERVER_GROUP,
      serverGroupName: 'workers',
      sshUserName: 'core',
      primarySubnet: 'subnet',
      floatingIP: '203.0.113.1',
    });

    it('keeps every listed field, and nothing the template decides', () => {
      const { value } = expectOk(
        toMapi(template({ serverGroup: { id: SERVER_GROUP } }), {
          current,
          userDataSecretName: 'new',
        }),
      );
      expect(value).to.deep.equal(
        providerSpec({
          metadata: { creationTimestamp: null },
          cloudsSecret: { name: SECRET, namespace: 'openshift-machine-api' },
          userDataSecret: { name: 'new', namespace: 'openshift-machine-api' },
          serverGroupID: SERVER_GROUP,
          serverGroupName: 'workers',
          sshUserName: 'core',
          primarySubnet: 'subnet',
        }),
      );
      expect(KEPT_FROM_CURRENT).to.have.members([
        'metadata',
        'cloudsSecret.namespace',
        'userDataSecret.namespace',
        'serverGroupName',
        'sshUserName',
        'primarySubnet',
      ]);
    });

    it('drops serverGroupName when the server group changed', () => {
      const other = '6071608f-93a4-4fb0-91c2-4d5e6f708192';
      const { value } = expectOk(toMapi(template({ serverGroup: { id: other } }), { current }));
      expect(value.serverGroupID).to.equal(other);
      expect(value).not.to.have.property('serverGroupName');
    });

    it('ignores a current providerSpec of another kind or with values of the wrong type', () => {
      for (const bad of [
        { ...current, kind: 'AWSMachineProviderConfig' },
        {
          cloudsSecret: { namespace: 3 },
          sshUserName: ['x'],
          metadata: 'x',
          networks: [{ uuid: NET }],
        },
        'not an object',
      ]) {
        const { value } = expectOk(toMapi(template(), { current: bad }));
        expect(value).to.deep.equal(providerSpec());
      }
    });
  });

  describe('rejects what Machine API cannot hold, with the template field path', () => {
    const cases: [string, Record<string, unknown>, [string, RegExp][], Partial<ReverseContext>?][] =
      [
        [
          'flavorID',
          { flavorID: 'abc' },
          [
            [
              `${PATH}.flavorID`,
              /has no Machine API equivalent \(Machine API takes the flavor by name\); remove it from the template or keep the MachineSet on Cluster API\./,
            ],
          ],
        ],
        ['no flavor', { flavor: undefined }, [[`${PATH}.flavor`, /is required/]]],
        [
          'providerID, floating IP pool, scheduler hints',
          {
            providerID: 'openstack:///x',
            floatingIPPoolRef: { name: 'p' },
            schedulerHintAdditionalProperties: [],
          },
          [
            [`${PATH}.providerID`, /no Machine API equivalent/],
            [`${PATH}.floatingIPPoolRef`, /no Machine API equivalent/],
            [`${PATH}.schedulerHintAdditionalProperties`, /no Machine API equivalent/],
          ],
        ],
        [
          'an unknown field',
          { extra: 1 },
          [
            [
              `${PATH}.extra`,
              /^is not a field this controller knows how to convert to Machine API, .*correct its spelling, or keep the MachineSet on Cluster API\.$/,
            ],
          ],
        ],
        [
          'a field of the wrong type',
          { trunk: 'yes' },
          [[`${PATH}.trunk`, /must be true or false, but is the string "yes"/]],
        ],
        [
          'image by id or reference',
          { image: { id: NET, imageRef: { name: 'i' } } },
          [
            [`${PATH}.image.id`, /by name only/],
            [`${PATH}.image.imageRef`, /by name only/],
          ],
        ],
        [
          'image tags',
          { image: { filter: { name: 'r', tags: ['a'] } } },
          [[`${PATH}.image.filter.tags`, /by name only/]],
        ],
        ['no image', { image: undefined }, [[`${PATH}.image`, /is required/]]],
        [
          "no identityRef: the OpenStackCluster's identity, which Machine API cannot name",
          { identityRef: undefined },
          [
            [
              `${PATH}.identityRef`,
              /^is not set, so Cluster API uses the identity of the OpenStackCluster, which this conversion cannot see and Machine API cannot refer to; set it to \{type: Secret, name: <the clouds secret>, cloudName: <the cloud in clouds\.yaml>\}\.$/,
            ],
          ],
        ],
        [
          'a cluster identity, or a region over clouds.yaml',
          { identityRef: { type: 'ClusterIdentity', name: 'other', cloudName: 'c', region: 'r' } },
          [
            [
              `${PATH}.identityRef.type`,
              /^is "ClusterIdentity" \(an OpenStackClusterIdentity\), but Machine API reads its credentials only from a clouds secret; set it to Secret/,
            ],
            [`${PATH}.identityRef.region`, /from clouds.yaml/],
          ],
        ],
        ['no ports', { ports: undefined }, [[`${PATH}.ports`, /default network/]]],
        [
          'a port naming no network',
          { ports: [{ tags: ['a'] }] },
          [[`${PATH}.ports[0]`, /names no network and no fixed IP/]],
        ],
        [
          'a fixed IP without a subnet',
          { ports: [{ network: { id: NET }, fixedIPs: [{ ipAddress: '10.0.0.9' }] }] },
          [[`${PATH}.ports[0].fixedIPs[0].subnet`, /needs the subnet of every fixed IP/]],
        ],
        [
          'port fields MAPI has not',
          {
            ports: [
              { network: { id: NET }, hostID: 'h', propagateUplinkStatus: true, valueSpecs: [] },
            ],
          },
          [
            [`${PATH}.ports[0].hostID`, /no Machine API equivalent/],
            [`${PATH}.ports[0].propagateUplinkStatus`, /no Machine API equivalent/],
            [`${PATH}.ports[0].valueSpecs`, /no Machine API equivalent/],
          ],
        ],
        [
          'a port no MAPI entry can hold',
          { ports: [{ network: { filter: { name: 'n' } }, nameSuffix: 'x' }] },
          [
            [
              `${PATH}.ports[0]`,
              /as a network entry it cannot hold nameSuffix; as a port entry it cannot hold a network other than one named by id/,
            ],
          ],
        ],
        [
          'a network-only port after a port-only one',
          {
            ports: [
              { network: { id: NET }, nameSuffix: 'x' },
              { network: { filter: { name: 'n' } } },
            ],
          },
          [[`${PATH}.ports[1]`, /comes after spec\.template\.spec\.ports\[0\]/]],
        ],
        [
          'a port security group by filter',
          { ports: [{ network: { id: NET }, securityGroups: [{ filter: { name: 'g' } }] }] },
          [[`${PATH}.ports[0].securityGroups[0].filter`, /by UUID only/]],
        ],
        [
          'address pairs with a user-managed load balancer',
          { ports: [{ network: { id: NET }, allowedAddressPairs: VIP_PAIRS }] },
          [[`${PATH}.ports[0]`, /ignored with a user-managed load balancer/]],
          { infrastructure: userManaged() },
        ],
        [
          'a reference by id and filter, and one naming nothing',
          { ports: [{ network: { id: NET, filter: { name: 'n' } } }, { network: {} }] },
          [
            [`${PATH}.ports[0].network`, /both by id and by a filter/],
            [`${PATH}.ports[1].network`, /names no network/],
          ],
        ],
        [
          'an id that is not a UUID',
          { ports: [{ network: { id: 'net' } }] },
          [[`${PATH}.ports[0].network.id`, /not a UUID/]],
        ],
        [
          'a tag with a comma',
          { securityGroups: [{ filter: { tags: ['a,b'] } }] },
          [[`${PATH}.securityGroups[0].filter.tags`, /comma-separated/]],
        ],
        [
          'a volume without a zone',
          {
            rootVolume: { sizeGiB: 1 },
            additionalBlockDevices: [{ name: 'd', sizeGiB: 1, storage: { type: 'Volume' } }],
          },
          [
            [`${PATH}.rootVolume.availabilityZone`, /in no availability zone/],
            [`${PATH}.additionalBlockDevices[0].storage.volume`, /in no availability zone/],
          ],
        ],
        [
          'bad volume zones',
          {
            rootVolume: { sizeGiB: 1, availabilityZone: { from: 'Name' } },
            additionalBlockDevices: [
              {
                name: 'd',
                sizeGiB: 1,
                storage: {
                  type: 'Volume',
                  volume: { availabilityZone: { from: 'Name', name: 'a b' } },
                },
              },
            ],
          },
          [
            [`${PATH}.rootVolume.availabilityZone.name`, /is required with from Name/],
            [
              `${PATH}.additionalBlockDevices[0].storage.volume.availabilityZone.name`,
              /may not contain spaces/,
            ],
          ],
        ],
        [
          'bad block devices',
          {
            rootVolume: { sizeGiB: 0, availabilityZone: { from: 'Machine' } },
            additionalBlockDevices: [
              { name: 'root', sizeGiB: 1, storage: { type: 'Local' } },
              { name: 'a', sizeGiB: 1, storage: { type: 'Local', volume: {} } },
              { name: 'a', sizeGiB: 1, storage: { type: 'Local' } },
              { name: 'b', storage: { type: 'Tape' } },
            ],
          },
          [
            [`${PATH}.rootVolume.sizeGiB`, /is 0/],
            [`${PATH}.additionalBlockDevices[0].name`, /reserved/],
            [
              `${PATH}.additionalBlockDevices[1].storage.volume`,
              /only applies to storage type Volume/,
            ],
            [`${PATH}.additionalBlockDevices[2].name`, /already uses/],
            [`${PATH}.additionalBlockDevices[3].sizeGiB`, /is required/],
            [`${PATH}.additionalBlockDevices[3].storage.type`, /not supported/],
          ],
        ],
        [
          'server metadata twice, and too long',
          {
            serverMetadata: [
              { key: 'a', value: 'x' },
              { key: 'a', value: 'y' },
              { key: 'b', value: 'x'.repeat(256) },
            ],
          },
          [
            [`${PATH}.serverMetadata[1].key`, /again/],
            [`${PATH}.serverMetadata[2]`, /longer than 255/],
          ],
        ],
        [
          'a server group by id and name, and one naming nothing',
          { serverGroup: { id: SERVER_GROUP, filter: { name: 'g' } } },
          [[`${PATH}.serverGroup`, /both by id and by name/]],
        ],
      ];
    for (const [name, fields, errors, context] of cases) {
      it(name, () => expectFieldErrors(expectErrors(toMapi(template(fields), context)), errors));
    }

    it('a template spec that is not an object', () => {
      expectFieldErrors(expectErrors(toMapi([1])), [[PATH, /must be an object, but is an array/]]);
    });
  });
});
