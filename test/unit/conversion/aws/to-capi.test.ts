// Table-driven tests of the AWS converter: every mapped field, every rejection, every warning.
import { expect } from 'chai';
import type { Infrastructure } from '../../../../src/api/types.js';
import { awsConverter } from '../../../../src/conversion/aws/index.js';
import type {
  Conversion,
  ConversionContext,
  ProviderConversion,
} from '../../../../src/conversion/types.js';
import {
  expectErrors,
  expectFieldErrors,
  expectOk,
  PROVIDER_SPEC_PATH,
  itConvertsPurely,
  defaultedUserDataCases,
} from '../../../support/conversion.js';

const PATH = PROVIDER_SPEC_PATH;
const REGION = 'us-east-1';
const HOST_ID = 'h-0123456789abcdef0';

function infrastructure(region: string | undefined = REGION): Infrastructure {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    status: {
      infrastructureName: 'ci-ln-abc12',
      platformStatus: { type: 'AWS', aws: region === undefined ? {} : { region } },
    },
  };
}

function context(overrides: Partial<ConversionContext> = {}): ConversionContext {
  return { infrastructure: infrastructure(), path: PATH, controlPlane: false, ...overrides };
}

/** The smallest providerSpec that converts. */
function minimalSpec(): Record<string, unknown> {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'AWSMachineProviderConfig',
    ami: { id: 'ami-0123456789abcdef0' },
    instanceType: 'm6i.xlarge',
    userDataSecret: { name: 'worker-user-data' },
  };
}

/** What the minimal spec converts to: every CRD default is written out. */
function minimalTemplate(): Record<string, unknown> {
  return {
    ami: { id: 'ami-0123456789abcdef0' },
    instanceType: 'm6i.xlarge',
    sshKeyName: '',
    hostAffinity: 'default',
    instanceMetadataOptions: {
      httpEndpoint: 'enabled',
      httpProtocolIpv6: 'disabled',
      httpPutResponseHopLimit: 1,
      httpTokens: 'optional',
      instanceMetadataTags: 'disabled',
    },
    ignition: { storageType: 'UnencryptedUserData' },
  };
}

function convert(
  providerSpec: unknown,
  overrides: Partial<ConversionContext> = {},
): Conversion<ProviderConversion> {
  return awsConverter.toCapi(providerSpec, context(overrides));
}

function gp3Root(size = 120): Record<string, unknown> {
  return { ebs: { volumeSize: size, volumeType: 'gp3' } };
}

describe('awsConverter', () => {
  it('describes the AWS platform and its template', () => {
    expect(awsConverter.platform).to.equal('AWS');
    expect(awsConverter.providerSpecKind).to.equal('AWSMachineProviderConfig');
    expect(awsConverter.template).to.deep.equal({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'AWSMachineTemplate',
      plural: 'awsmachinetemplates',
    });
  });

  describe('maps every field', () => {
    interface MappingCase {
      name: string;
      /** Fields merged into the minimal providerSpec. */
      input: Record<string, unknown>;
      /** Fields merged into the minimal template; `undefined` removes one. */
      template?: Record<string, unknown>;
      failureDomain?: string;
      userDataSecretName?: string;
      controlPlane?: boolean;
    }

    const cases: MappingCase[] = [
      { name: 'the minimal spec, with the CRD defaults materialised', input: {} },
      {
        name: 'the legacy apiVersion awsproviderconfig.openshift.io/v1beta1',
        input: { apiVersion: 'awsproviderconfig.openshift.io/v1beta1' },
      },
      {
        name: 'tags[] → additionalTags, in list order, an omitted value as ""',
        input: {
          tags: [
            { name: 'kubernetes.io/cluster/ci-ln-abc12', value: 'owned' },
            { name: 'team', value: 'Platform @ Ops' },
            { name: 'empty' },
          ],
        },
        template: {
          additionalTags: {
            'kubernetes.io/cluster/ci-ln-abc12': 'owned',
            team: 'Platform @ Ops',
            empty: '',
          },
        },
      },
      { name: 'an empty tags list → nothing', input: { tags: [] } },
      {
        name: 'securityGroups[] → additionalSecurityGroups by id and by filters',
        input: {
          securityGroups: [
            { id: 'sg-0123' },
            { filters: [{ name: 'tag:Name', values: ['ci-ln-abc12-node', 'ci-ln-abc12-lb'] }] },
          ],
        },
        template: {
          additionalSecurityGroups: [
            { id: 'sg-0123' },
            { filters: [{ name: 'tag:Name', values: ['ci-ln-abc12-node', 'ci-ln-abc12-lb'] }] },
          ],
        },
      },
      {
        name: 'subnet.id → subnet.id',
        input: { subnet: { id: 'subnet-1' } },
        template: { subnet: { id: 'subnet-1' } },
      },
      {
        name: 'subnet.filters → subnet.filters (a filter without values gets values: [])',
        input: {
          subnet: { filters: [{ name: 'tag:Name', values: ['private-a'] }, { name: 'vpc-id' }] },
        },
        template: {
          subnet: {
            filters: [
              { name: 'tag:Name', values: ['private-a'] },
              { name: 'vpc-id', values: [] },
            ],
          },
        },
      },
      {
        name: 'iamInstanceProfile.id → iamInstanceProfile',
        input: { iamInstanceProfile: { id: 'ci-ln-abc12-worker-profile' } },
        template: { iamInstanceProfile: 'ci-ln-abc12-worker-profile' },
      },
      { name: 'an empty iamInstanceProfile → nothing', input: { iamInstanceProfile: {} } },
      {
        name: 'keyName → sshKeyName',
        input: { keyName: 'ops key' },
        template: { sshKeyName: 'ops key' },
      },
      { name: 'keyName "" → sshKeyName ""', input: { keyName: '' }, template: { sshKeyName: '' } },
      { name: 'publicIp true → publicIP', input: { publicIp: true }, template: { publicIP: true } },
      {
        name: 'publicIp false → publicIP',
        input: { publicIp: false },
        template: { publicIP: false },
      },
      {
        name: 'spotMarketOptions {} → spotMarketOptions {} (Spot, capped at on-demand price)',
        input: { spotMarketOptions: {} },
        template: { spotMarketOptions: {} },
      },
      {
        name: 'spotMarketOptions.maxPrice → spotMarketOptions.maxPrice',
        input: { spotMarketOptions: { maxPrice: '0.25' } },
        template: { spotMarketOptions: { maxPrice: '0.25' } },
      },
      {
        name: 'spotMarketOptions with marketType Spot',
        input: { spotMarketOptions: { maxPrice: '' }, marketType: 'Spot' },
        template: { spotMarketOptions: {}, marketType: 'Spot' },
      },
      {
        name: 'placementGroupName and placementGroupPartition',
        input: { placementGroupName: 'pg-partition', placementGroupPartition: 7 },
        template: { placementGroupName: 'pg-partition', placementGroupPartition: 7 },
      },
      {
        name: 'placementGroupName alone',
        input: { placementGroupName: 'pg-cluster' },
        template: { placementGroupName: 'pg-cluster' },
      },
      {
        name: 'placement.availabilityZone → failureDomain; the same region is redundant',
        input: { placement: { availabilityZone: 'us-east-1a', region: REGION } },
        failureDomain: 'us-east-1a',
      },
      {
        name: 'placement.tenancy dedicated → tenancy',
        input: { placement: { tenancy: 'dedicated' } },
        template: { tenancy: 'dedicated' },
      },
      {
        name: 'placement.tenancy host without host → auto-placed, hostAffinity default',
        input: { placement: { tenancy: 'host' } },
        template: { tenancy: 'host' },
      },
      {
        name: 'placement.host DedicatedHost with a host id → hostAffinity host + hostID',
        input: {
          placement: {
            tenancy: 'host',
            host: { affinity: 'DedicatedHost', dedicatedHost: { id: HOST_ID } },
          },
        },
        template: { tenancy: 'host', hostAffinity: 'host', hostID: HOST_ID },
      },
      {
        name: 'placement.host AnyAvailable with an explicit UserProvided host → hostAffinity default + hostID',
        input: {
          placement: {
            tenancy: 'host',
            host: {
              affinity: 'AnyAvailable',
              dedicatedHost: { allocationStrategy: 'UserProvided', id: HOST_ID },
            },
          },
        },
        template: { tenancy: 'host', hostAffinity: 'default', hostID: HOST_ID },
      },
      {
        name: 'placement.host AnyAvailable without a host → hostAffinity default',
        input: { placement: { tenancy: 'host', host: { affinity: 'AnyAvailable' } } },
        template: { tenancy: 'host', hostAffinity: 'default' },
      },
      {
        name: 'placement.host Dynamic allocation with tags → dynamicHostAllocation.tags',
        input: {
          placement: {
            tenancy: 'host',
            host: {
              affinity: 'DedicatedHost',
              dedicatedHost: {
                allocationStrategy: 'Dynamic',
                dynamicHostAllocation: { tags: [{ name: 'owner', value: 'ops' }] },
              },
            },
          },
        },
        template: {
          tenancy: 'host',
          hostAffinity: 'host',
          dynamicHostAllocation: { tags: { owner: 'ops' } },
        },
      },
      {
        name: 'placement.host Dynamic allocation without tags → dynamicHostAllocation {}',
        input: {
          placement: {
            tenancy: 'host',
            host: { affinity: 'DedicatedHost', dedicatedHost: { allocationStrategy: 'Dynamic' } },
          },
        },
        template: { tenancy: 'host', hostAffinity: 'host', dynamicHostAllocation: {} },
      },
      {
        name: 'metadataServiceOptions.authentication Required → httpTokens required',
        input: { metadataServiceOptions: { authentication: 'Required' } },
        template: {
          instanceMetadataOptions: {
            httpEndpoint: 'enabled',
            httpProtocolIpv6: 'disabled',
            httpPutResponseHopLimit: 1,
            httpTokens: 'required',
            instanceMetadataTags: 'disabled',
          },
        },
      },
      {
        name: 'metadataServiceOptions.authentication Optional → httpTokens optional',
        input: { metadataServiceOptions: { authentication: 'Optional' } },
      },
      {
        name: 'metadataServiceOptions {} → httpTokens optional',
        input: { metadataServiceOptions: {} },
      },
      {
        name: 'blockDevices: the entry without deviceName → rootVolume, with every field',
        input: {
          blockDevices: [
            {
              ebs: {
                volumeSize: 200,
                volumeType: 'io2',
                iops: 4000,
                encrypted: true,
                kmsKey: { arn: 'arn:aws:kms:us-east-1:123456789012:key/abc' },
                deleteOnTermination: true,
              },
            },
          ],
        },
        template: {
          rootVolume: {
            size: 200,
            type: 'io2',
            iops: 4000,
            encrypted: true,
            encryptionKey: 'arn:aws:kms:us-east-1:123456789012:key/abc',
          },
        },
      },
      {
        name: 'blockDevices: entries with a deviceName → nonRootVolumes, in order',
        input: {
          blockDevices: [
            gp3Root(),
            {
              deviceName: '/dev/sdb',
              ebs: {
                volumeSize: 50,
                volumeType: 'gp3',
                throughputMib: 500,
                kmsKey: { id: 'key-1' },
              },
            },
            { deviceName: '/dev/sdc', ebs: { volumeSize: 8, encrypted: false } },
          ],
        },
        template: {
          rootVolume: { size: 120, type: 'gp3' },
          nonRootVolumes: [
            {
              deviceName: '/dev/sdb',
              size: 50,
              type: 'gp3',
              throughput: 500,
              encryptionKey: 'key-1',
            },
            { deviceName: '/dev/sdc', size: 8, encrypted: false },
          ],
        },
      },
      {
        name: 'blockDevices: iops 0 and an empty kmsKey (as the installer writes them) mean "not set"',
        input: {
          blockDevices: [
            {
              ebs: {
                encrypted: true,
                iops: 0,
                kmsKey: { arn: '' },
                volumeSize: 120,
                volumeType: 'gp3',
              },
            },
          ],
        },
        template: { rootVolume: { size: 120, type: 'gp3', encrypted: true } },
      },
      {
        name: 'blockDevices: a root entry that sets nothing keeps the AMI defaults',
        input: { blockDevices: [{ ebs: { deleteOnTermination: true } }] },
      },
      {
        name: 'networkInterfaceType ENA → interface',
        input: { networkInterfaceType: 'ENA' },
        template: { networkInterfaceType: 'interface' },
      },
      {
        name: 'networkInterfaceType EFA → efa',
        input: { networkInterfaceType: 'EFA' },
        template: { networkInterfaceType: 'efa' },
      },
      {
        name: 'marketType OnDemand',
        input: { marketType: 'OnDemand' },
        template: { marketType: 'OnDemand' },
      },
      { name: 'marketType Spot', input: { marketType: 'Spot' }, template: { marketType: 'Spot' } },
      {
        name: 'marketType CapacityBlock with capacityReservationId',
        input: { marketType: 'CapacityBlock', capacityReservationId: 'cr-0123' },
        template: { marketType: 'CapacityBlock', capacityReservationId: 'cr-0123' },
      },
      {
        name: 'capacityReservationId',
        input: { capacityReservationId: 'cr-0123' },
        template: { capacityReservationId: 'cr-0123' },
      },
      {
        name: 'cpuOptions.confidentialCompute',
        input: { cpuOptions: { confidentialCompute: 'AMDEncryptedVirtualizationNestedPaging' } },
        template: { cpuOptions: { confidentialCompute: 'AMDEncryptedVirtualizationNestedPaging' } },
      },
      {
        name: 'cpuOptions.confidentialCompute Disabled',
        input: { cpuOptions: { confidentialCompute: 'Disabled' } },
        template: { cpuOptions: { confidentialCompute: 'Disabled' } },
      },
      {
        name: 'an empty cpuOptions → nothing (CAPA requires minProperties 1)',
        input: { cpuOptions: {} },
      },
      {
        name: 'userDataSecret.name → userDataSecretName',
        input: { userDataSecret: { name: 'infra-user-data' } },
        userDataSecretName: 'infra-user-data',
      },
      {
        name: 'the default credentialsSecret, deviceIndex 0 and empty metadata are redundant',
        input: {
          credentialsSecret: { name: 'aws-cloud-credentials' },
          deviceIndex: 0,
          metadata: { creationTimestamp: null },
        },
      },
      {
        name: 'empty strings of omitempty fields and nulls mean "not set"',
        input: {
          capacityReservationId: '',
          placementGroupName: '',
          marketType: '',
          networkInterfaceType: '',
          publicIp: null,
          placement: { availabilityZone: '', tenancy: '' },
          metadataServiceOptions: { authentication: '' },
        },
      },
      {
        name: 'loadBalancers: [] on a worker',
        input: { loadBalancers: [] },
      },
      {
        name: 'an OpenShift installer worker providerSpec',
        input: {
          blockDevices: [
            {
              ebs: {
                encrypted: true,
                iops: 0,
                kmsKey: { arn: '' },
                volumeSize: 120,
                volumeType: 'gp3',
              },
            },
          ],
          capacityReservationId: '',
          credentialsSecret: { name: 'aws-cloud-credentials' },
          deviceIndex: 0,
          iamInstanceProfile: { id: 'ci-ln-abc12-worker-profile' },
          metadata: { creationTimestamp: null },
          metadataServiceOptions: {},
          placement: { availabilityZone: 'us-east-1a', region: REGION },
          securityGroups: [
            { filters: [{ name: 'tag:Name', values: ['ci-ln-abc12-node'] }] },
            { filters: [{ name: 'tag:Name', values: ['ci-ln-abc12-lb'] }] },
          ],
          subnet: {
            filters: [{ name: 'tag:Name', values: ['ci-ln-abc12-subnet-private-us-east-1a'] }],
          },
          tags: [{ name: 'kubernetes.io/cluster/ci-ln-abc12', value: 'owned' }],
          userDataSecret: { name: 'worker-user-data' },
        },
        template: {
          additionalTags: { 'kubernetes.io/cluster/ci-ln-abc12': 'owned' },
          iamInstanceProfile: 'ci-ln-abc12-worker-profile',
          subnet: {
            filters: [{ name: 'tag:Name', values: ['ci-ln-abc12-subnet-private-us-east-1a'] }],
          },
          additionalSecurityGroups: [
            { filters: [{ name: 'tag:Name', values: ['ci-ln-abc12-node'] }] },
            { filters: [{ name: 'tag:Name', values: ['ci-ln-abc12-lb'] }] },
          ],
          rootVolume: { size: 120, type: 'gp3', encrypted: true },
        },
        failureDomain: 'us-east-1a',
        userDataSecretName: 'worker-user-data',
      },
    ];

    for (const c of cases) {
      it(c.name, () => {
        const result = expectOk(
          convert({ ...minimalSpec(), ...c.input }, { controlPlane: c.controlPlane ?? false }),
        );
        const expected: Record<string, unknown> = { ...minimalTemplate() };
        for (const [key, value] of Object.entries(c.template ?? {})) {
          if (value === undefined) delete expected[key];
          else expected[key] = value;
        }
        expect(result.value.templateSpec).to.deep.equal(expected);
        expect(result.value.failureDomain).to.equal(c.failureDomain);
        expect(result.value.userDataSecretName).to.equal(
          c.userDataSecretName ?? 'worker-user-data',
        );
        expect(result.warnings).to.deep.equal([]);
      });
    }
  });

  describe('rejects what Cluster API cannot hold, with the field path', () => {
    interface RejectionCase {
      name: string;
      /** Fields merged into the minimal providerSpec; `undefined` removes one. */
      input: Record<string, unknown>;
      /** Every expected error, as path → a pattern its message must match. */
      errors: [path: string, message: RegExp][];
      controlPlane?: boolean;
    }

    const host = (h: Record<string, unknown>) => ({ placement: { tenancy: 'host', host: h } });
    const rootEbs = (ebs: Record<string, unknown>) => ({ blockDevices: [{ ebs }] });
    const dataEbs = (ebs: Record<string, unknown>) => ({
      blockDevices: [{ deviceName: '/dev/sdb', ebs: { volumeSize: 10, ...ebs } }],
    });

    const cases: RejectionCase[] = [
      // kind and shape
      {
        name: "another platform's providerSpec: only the kind is reported, not its fields",
        input: {
          kind: 'GCPMachineProviderSpec',
          machineType: 'n2-standard-4',
          zone: 'us-central1-a',
          ami: undefined,
        },
        errors: [
          [`${PATH}.kind`, /^is GCPMachineProviderSpec, .*set kind to AWSMachineProviderConfig/],
        ],
      },
      {
        name: 'an unknown apiVersion',
        input: { apiVersion: 'machine.openshift.io/v1' },
        errors: [[`${PATH}.apiVersion`, /machine\.openshift\.io\/v1beta1/]],
      },
      {
        name: 'an unknown top-level field',
        input: { instanceTyp: 'm5.large' },
        errors: [
          [`${PATH}.instanceTyp`, /not a field .* remove the field or correct its spelling/],
        ],
      },
      {
        name: 'the tombstoned hostPlacement field',
        input: { hostPlacement: { affinity: 'AnyAvailable' } },
        errors: [[`${PATH}.hostPlacement`, /not a field/]],
      },
      {
        name: 'unknown nested fields, at every depth',
        input: {
          ami: { id: 'ami-1', owner: 'me' },
          placement: { zone: 'a' },
          securityGroups: [{ filters: [{ name: 'n', values: ['v'], op: 'eq' }] }],
          blockDevices: [{ ebs: { volumeSize: 10, snapshotId: 'snap-1' } }],
          metadataServiceOptions: { hopLimit: 2 },
        },
        errors: [
          [`${PATH}.ami.owner`, /not a field/],
          [`${PATH}.securityGroups[0].filters[0].op`, /not a field/],
          [`${PATH}.blockDevices[0].ebs.snapshotId`, /not a field/],
          [`${PATH}.placement.zone`, /not a field/],
          [`${PATH}.metadataServiceOptions.hopLimit`, /not a field/],
        ],
      },
      {
        name: 'values of the wrong type',
        input: {
          instanceType: 5,
          publicIp: 'yes',
          deviceIndex: 0.5,
          tags: { team: 'a' },
          securityGroups: ['sg-1'],
          subnet: [],
          blockDevices: [{ ebs: { volumeSize: '10' } }],
          placementGroupPartition: '1',
        },
        errors: [
          [`${PATH}.deviceIndex`, /must be an integer, but is the number 0.5/],
          [`${PATH}.instanceType`, /must be a string, but is the number 5/],
          [`${PATH}.tags`, /must be a list, but is an object/],
          [`${PATH}.publicIp`, /must be true or false, but is the string "yes"/],
          [`${PATH}.subnet`, /must be an object, but is an array/],
          [`${PATH}.securityGroups[0]`, /must be an object, but is the string "sg-1"/],
          [`${PATH}.blockDevices[0].ebs.volumeSize`, /must be an integer/],
          [`${PATH}.placementGroupPartition`, /must be an integer/],
        ],
      },
      // ami and instance type
      {
        name: 'no ami',
        input: { ami: undefined },
        errors: [[`${PATH}.ami`, /^is required; set ami.id/]],
      },
      {
        name: 'an empty ami',
        input: { ami: {} },
        errors: [[`${PATH}.ami.id`, /^is required; set it to the ID of the machine image/]],
      },
      {
        name: 'an AMI by ARN',
        input: { ami: { arn: 'arn:aws:ec2:us-east-1::image/ami-1' } },
        errors: [[`${PATH}.ami.arn`, /only by ID; replace ami.arn with ami.id/]],
      },
      {
        name: 'an AMI by filters',
        input: { ami: { filters: [{ name: 'name', values: ['rhcos-*'] }] } },
        errors: [[`${PATH}.ami.filters`, /resolve them to an AMI ID and set ami.id/]],
      },
      {
        name: 'an AMI by id and ARN',
        input: { ami: { id: 'ami-1', arn: 'arn:aws:ec2:us-east-1::image/ami-1' } },
        errors: [[`${PATH}.ami.arn`, /only by ID/]],
      },
      {
        name: 'no instanceType',
        input: { instanceType: undefined },
        errors: [[`${PATH}.instanceType`, /is required/]],
      },
      {
        name: 'an instanceType of one letter',
        input: { instanceType: 'm' },
        errors: [[`${PATH}.instanceType`, /not an EC2 instance type/]],
      },
      // region, credentials, network interface, load balancers
      {
        name: 'a placement.region other than the cluster region',
        input: { placement: { region: 'eu-west-1', availabilityZone: 'eu-west-1a' } },
        errors: [
          [
            `${PATH}.placement.region`,
            /"eu-west-1".*"us-east-1".*set placement.region to "us-east-1" or remove it/,
          ],
        ],
      },
      {
        name: 'a non-default credentialsSecret',
        input: { credentialsSecret: { name: 'my-aws-creds' } },
        errors: [[`${PATH}.credentialsSecret.name`, /"my-aws-creds".*aws-cloud-credentials/]],
      },
      {
        name: 'deviceIndex other than 0',
        input: { deviceIndex: 1 },
        errors: [[`${PATH}.deviceIndex`, /^is 1, .*set deviceIndex to 0/]],
      },
      {
        name: 'loadBalancers on a worker MachineSet',
        input: { loadBalancers: [{ name: 'ingress', type: 'network' }] },
        errors: [
          [`${PATH}.loadBalancers`, /only does for control-plane machines; remove loadBalancers/],
        ],
      },
      {
        name: 'an unknown load balancer type on a control-plane MachineSet',
        input: { loadBalancers: [{ name: 'api-int', type: 'application' }] },
        controlPlane: true,
        errors: [[`${PATH}.loadBalancers[0].type`, /"application".*"classic", "network"/]],
      },
      // block devices
      {
        name: 'noDevice',
        input: { blockDevices: [{ deviceName: '/dev/sdb', noDevice: '' }] },
        errors: [[`${PATH}.blockDevices[0].noDevice`, /cannot express; remove it/]],
      },
      {
        name: 'virtualName',
        input: { blockDevices: [{ deviceName: '/dev/sdb', virtualName: 'ephemeral0' }] },
        errors: [[`${PATH}.blockDevices[0].virtualName`, /instance store/]],
      },
      {
        name: 'a non-root volume kept on termination',
        input: dataEbs({ deleteOnTermination: false }),
        errors: [
          [`${PATH}.blockDevices[0].ebs.deleteOnTermination`, /always deletes non-root volumes/],
        ],
      },
      {
        name: 'two root volumes',
        input: { blockDevices: [gp3Root(), gp3Root(200)] },
        errors: [
          [
            `${PATH}.blockDevices`,
            /2 entries without a deviceName.*give every other entry a deviceName/,
          ],
        ],
      },
      {
        name: 'a root volume with settings but no size',
        input: rootEbs({ volumeType: 'gp3' }),
        errors: [
          [`${PATH}.blockDevices[0].ebs.volumeSize`, /required by Cluster API.*root snapshot size/],
        ],
      },
      {
        name: 'a non-root volume without size',
        input: { blockDevices: [{ deviceName: '/dev/sdb', ebs: { volumeType: 'gp3' } }] },
        errors: [[`${PATH}.blockDevices[0].ebs.volumeSize`, /required by Cluster API/]],
      },
      {
        name: 'a volume smaller than 8 GiB',
        input: rootEbs({ volumeSize: 4 }),
        errors: [[`${PATH}.blockDevices[0].ebs.volumeSize`, /at least 8 GiB/]],
      },
      {
        name: 'an unknown volume type',
        input: rootEbs({ volumeSize: 10, volumeType: 'gp9' }),
        errors: [
          [`${PATH}.blockDevices[0].ebs.volumeType`, /"gp9", which is not supported; use one of/],
        ],
      },
      {
        name: 'io1 without iops',
        input: rootEbs({ volumeSize: 10, volumeType: 'io1', iops: 0 }),
        errors: [[`${PATH}.blockDevices[0].ebs.iops`, /required for io1 volumes/]],
      },
      {
        name: 'negative iops',
        input: rootEbs({ volumeSize: 10, iops: -1 }),
        errors: [[`${PATH}.blockDevices[0].ebs.iops`, /must not be negative/]],
      },
      {
        name: 'throughput on a volume that is not gp3',
        input: rootEbs({ volumeSize: 10, volumeType: 'gp2', throughputMib: 200 }),
        errors: [[`${PATH}.blockDevices[0].ebs.throughputMib`, /only valid for gp3 volumes/]],
      },
      {
        name: 'a KMS key by filters',
        input: rootEbs({ volumeSize: 10, kmsKey: { filters: [{ name: 'alias', values: ['a'] }] } }),
        errors: [[`${PATH}.blockDevices[0].ebs.kmsKey.filters`, /reference the key by id or arn/]],
      },
      {
        name: 'a KMS key by both id and ARN',
        input: rootEbs({ volumeSize: 10, kmsKey: { id: 'k', arn: 'arn:aws:kms:k' } }),
        errors: [[`${PATH}.blockDevices[0].ebs.kmsKey`, /both id and arn/]],
      },
      {
        name: 'a KMS key on a volume that is explicitly not encrypted',
        input: rootEbs({ volumeSize: 10, encrypted: false, kmsKey: { id: 'k' } }),
        errors: [
          [`${PATH}.blockDevices[0].ebs.encrypted`, /set encrypted to true or remove kmsKey/],
        ],
      },
      // enumerations
      {
        name: 'unknown enum values, each reported',
        input: {
          networkInterfaceType: 'SRIOV',
          marketType: 'Reserved',
          placement: { tenancy: 'shared' },
          metadataServiceOptions: { authentication: 'Always' },
          cpuOptions: { confidentialCompute: 'IntelTDX' },
        },
        errors: [
          [`${PATH}.networkInterfaceType`, /"SRIOV".*"ENA", "EFA"/],
          [`${PATH}.marketType`, /"Reserved".*"OnDemand", "Spot", "CapacityBlock"/],
          [`${PATH}.placement.tenancy`, /"shared".*"default", "dedicated", "host"/],
          [`${PATH}.cpuOptions.confidentialCompute`, /"IntelTDX"/],
          [`${PATH}.metadataServiceOptions.authentication`, /"Always".*"Required", "Optional"/],
        ],
      },
      // tags
      {
        name: 'a tag without a name',
        input: { tags: [{ value: 'x' }] },
        errors: [[`${PATH}.tags[0].name`, /is required/]],
      },
      {
        name: 'tags Cluster API would refuse',
        input: {
          tags: [
            { name: 'aws:createdBy', value: 'me' },
            { name: 'team,owner', value: 'ops' },
            { name: 'k'.repeat(129), value: 'v' },
            { name: 'cost', value: 'v'.repeat(257) },
            { name: 'note', value: 'café' },
          ],
        },
        errors: [
          [`${PATH}.tags[0].name`, /starts with "aws:"/],
          [`${PATH}.tags[1].name`, /may only contain letters, digits/],
          [`${PATH}.tags[2].name`, /longer than 128 characters/],
          [`${PATH}.tags[3].value`, /longer than 256 characters/],
          [`${PATH}.tags[4].value`, /may only contain/],
        ],
      },
      {
        name: 'more than 50 tags',
        input: { tags: Array.from({ length: 51 }, (_, i) => ({ name: `tag-${i}`, value: 'v' })) },
        errors: [[`${PATH}.tags`, /51 distinct tags.*at most 50/]],
      },
      // references
      {
        name: 'a security group by ARN',
        input: { securityGroups: [{ arn: 'arn:aws:ec2:sg' }] },
        errors: [[`${PATH}.securityGroups[0].arn`, /cannot reference a security group by ARN/]],
      },
      {
        name: 'a security group by id and filters',
        input: { securityGroups: [{ id: 'sg-1', filters: [{ name: 'tag:Name', values: ['x'] }] }] },
        errors: [[`${PATH}.securityGroups[0]`, /both id and filters/]],
      },
      {
        name: 'a security group entry that names nothing',
        input: { securityGroups: [{ id: 'sg-1' }, {}] },
        errors: [[`${PATH}.securityGroups[1]`, /names no security group/]],
      },
      {
        name: 'a filter without a name',
        input: { subnet: { filters: [{ values: ['x'] }] } },
        errors: [[`${PATH}.subnet.filters[0].name`, /is required/]],
      },
      {
        name: 'a subnet by ARN',
        input: { subnet: { arn: 'arn:aws:ec2:subnet' } },
        errors: [[`${PATH}.subnet.arn`, /cannot reference a subnet by ARN/]],
      },
      {
        name: 'a subnet by id and filters',
        input: { subnet: { id: 'subnet-1', filters: [{ name: 'tag:Name', values: ['x'] }] } },
        errors: [[`${PATH}.subnet`, /both id and filters/]],
      },
      {
        name: 'a key name with a leading space',
        input: { keyName: ' ops' },
        errors: [[`${PATH}.keyName`, /printable ASCII/]],
      },
      // placement group, market options
      {
        name: 'a partition out of range and without a placement group',
        input: { placementGroupPartition: 8 },
        errors: [
          [`${PATH}.placementGroupPartition`, /between 1 and 7/],
          [`${PATH}.placementGroupPartition`, /only meaningful with placementGroupName/],
        ],
      },
      {
        name: 'a maxPrice that is not a price',
        input: { spotMarketOptions: { maxPrice: '$1' } },
        errors: [[`${PATH}.spotMarketOptions.maxPrice`, /US dollars per hour/]],
      },
      {
        name: 'a capacity reservation for a Spot instance',
        input: { spotMarketOptions: {}, capacityReservationId: 'cr-1' },
        errors: [[`${PATH}.capacityReservationId`, /cannot be combined with Spot/]],
      },
      {
        name: 'a capacity reservation with marketType Spot',
        input: { marketType: 'Spot', capacityReservationId: 'cr-1' },
        errors: [[`${PATH}.capacityReservationId`, /cannot be combined with Spot/]],
      },
      {
        name: 'spotMarketOptions with marketType OnDemand',
        input: { marketType: 'OnDemand', spotMarketOptions: {} },
        errors: [[`${PATH}.marketType`, /contradicts spotMarketOptions/]],
      },
      {
        name: 'CapacityBlock without a capacity reservation',
        input: { marketType: 'CapacityBlock' },
        errors: [[`${PATH}.marketType`, /needs capacityReservationId/]],
      },
      // dedicated hosts
      {
        name: 'placement.host without tenancy host',
        input: { placement: { tenancy: 'dedicated', host: { affinity: 'AnyAvailable' } } },
        errors: [[`${PATH}.placement.host`, /only be set when tenancy is host/]],
      },
      {
        name: 'placement.host without affinity',
        input: host({}),
        errors: [[`${PATH}.placement.host.affinity`, /is required/]],
      },
      {
        name: 'an unknown host affinity',
        input: host({ affinity: 'Sticky' }),
        errors: [[`${PATH}.placement.host.affinity`, /"Sticky".*"DedicatedHost", "AnyAvailable"/]],
      },
      {
        name: 'DedicatedHost affinity without dedicatedHost',
        input: host({ affinity: 'DedicatedHost' }),
        errors: [
          [`${PATH}.placement.host.dedicatedHost`, /required when affinity is DedicatedHost/],
        ],
      },
      {
        name: 'a UserProvided host without id',
        input: host({
          affinity: 'DedicatedHost',
          dedicatedHost: { allocationStrategy: 'UserProvided' },
        }),
        errors: [
          [
            `${PATH}.placement.host.dedicatedHost.id`,
            /required when allocationStrategy is UserProvided/,
          ],
        ],
      },
      {
        name: 'a legacy 8-digit host id',
        input: host({ affinity: 'DedicatedHost', dedicatedHost: { id: 'h-0123abcd' } }),
        errors: [[`${PATH}.placement.host.dedicatedHost.id`, /17 lowercase hexadecimal digits/]],
      },
      {
        name: 'an id with Dynamic allocation',
        input: host({
          affinity: 'DedicatedHost',
          dedicatedHost: { allocationStrategy: 'Dynamic', id: HOST_ID },
        }),
        errors: [
          [
            `${PATH}.placement.host.dedicatedHost.id`,
            /must not be set when allocationStrategy is Dynamic/,
          ],
        ],
      },
      {
        name: 'dynamicHostAllocation with UserProvided allocation',
        input: host({
          affinity: 'DedicatedHost',
          dedicatedHost: {
            id: HOST_ID,
            dynamicHostAllocation: { tags: [{ name: 'a', value: 'b' }] },
          },
        }),
        errors: [
          [
            `${PATH}.placement.host.dedicatedHost.dynamicHostAllocation`,
            /only allowed when allocationStrategy is Dynamic/,
          ],
        ],
      },
      {
        name: 'an unknown allocation strategy',
        input: host({ affinity: 'DedicatedHost', dedicatedHost: { allocationStrategy: 'Pooled' } }),
        errors: [[`${PATH}.placement.host.dedicatedHost.allocationStrategy`, /"Pooled"/]],
      },
    ];

    for (const c of cases) {
      it(c.name, () => {
        const input: Record<string, unknown> = { ...minimalSpec(), ...c.input };
        for (const [key, value] of Object.entries(c.input))
          if (value === undefined) delete input[key];
        const errors = expectErrors(convert(input, { controlPlane: c.controlPlane ?? false }));
        expectFieldErrors(errors, c.errors);
      });
    }

    it('reports every error of a providerSpec at once, not only the first', () => {
      const errors = expectErrors(
        convert({
          ...minimalSpec(),
          ami: { arn: 'arn:aws:ec2:us-east-1::image/ami-1' },
          placement: { region: 'eu-west-1' },
          credentialsSecret: { name: 'other' },
          deviceIndex: 2,
          loadBalancers: [{ name: 'lb', type: 'classic' }],
          blockDevices: [
            {
              deviceName: '/dev/sdb',
              noDevice: '',
              ebs: { volumeSize: 10, deleteOnTermination: false },
            },
          ],
          networkInterfaceType: 'X',
          extra: true,
        }),
      );
      expect(errors.map((e) => e.path)).to.have.members([
        `${PATH}.ami.arn`,
        `${PATH}.placement.region`,
        `${PATH}.credentialsSecret.name`,
        `${PATH}.deviceIndex`,
        `${PATH}.loadBalancers`,
        `${PATH}.blockDevices[0].noDevice`,
        `${PATH}.blockDevices[0].ebs.deleteOnTermination`,
        `${PATH}.networkInterfaceType`,
        `${PATH}.extra`,
      ]);
    });

    it('uses the context path for every error path', () => {
      const errors = expectErrors(
        convert({ ...minimalSpec(), deviceIndex: 3 }, { path: 'spec.providerSpec.value' }),
      );
      expect(errors.map((e) => e.path)).to.deep.equal(['spec.providerSpec.value.deviceIndex']);
    });
  });

  describe('warns about lossy but safe conversions', () => {
    interface WarningCase {
      name: string;
      input: Record<string, unknown>;
      warning: RegExp;
      template?: Record<string, unknown>;
      infrastructureRegion?: string;
      controlPlane?: boolean;
    }

    const cases: WarningCase[] = [
      {
        name: 'a tag listed twice keeps the last value',
        input: {
          tags: [
            { name: 'team', value: 'a' },
            { name: 'env', value: 'prod' },
            { name: 'team', value: 'b' },
          ],
        },
        warning: new RegExp(
          `^${PATH}\\.tags lists the tag "team" more than once; only the last value, "b", is kept\\.$`,
        ),
        template: { additionalTags: { team: 'b', env: 'prod' } },
      },
      {
        name: 'loadBalancers on a control-plane MachineSet: what CAPA registers, and what to do',
        input: { loadBalancers: [{ name: 'ci-ln-abc12-int', type: 'network' }] },
        controlPlane: true,
        // CAPA registers only machines labelled cluster.x-k8s.io/control-plane with the
        // AWSCluster's control-plane load balancers; OpenShift's carry the master role label.
        warning: new RegExp(
          `^${PATH}\\.loadBalancers is not converted: .*AWSCluster \\(spec\\.controlPlaneLoadBalancer ` +
            'and spec\\.secondaryControlPlaneLoadBalancer\\).* only when its Machine carries the label ' +
            'cluster\\.x-k8s\\.io/control-plane, .*node-role\\.kubernetes\\.io/master.*names the ' +
            'load balancers \\("ci-ln-abc12-int"\\) and add the label cluster\\.x-k8s\\.io/control-plane ' +
            "to the CAPI MachineSet's spec\\.template\\.metadata\\.labels; .*\\.$",
        ),
      },
      {
        name: 'placement.region cannot be checked when the Infrastructure has no region',
        input: { placement: { region: 'eu-west-1' } },
        infrastructureRegion: '',
        warning: new RegExp(
          `^${PATH}\\.placement\\.region is "eu-west-1", but the Infrastructure object names no AWS region`,
        ),
      },
      {
        // CAPA creates every instance in the region of the AWSCluster (the cluster's).
        name: 'an empty placement.region: the machines run in the cluster’s region',
        input: { placement: { region: '' } },
        warning: new RegExp(
          `^${PATH}\\.placement\\.region is empty: machine-api-operator's webhook sets an empty ` +
            `region to the cluster's, "${REGION}", and Cluster API creates every machine in the ` +
            "cluster's region \\(the AWSCluster's\\), so the machines run there\\.$",
        ),
      },
      {
        name: 'an empty placement.region when the Infrastructure names no region either',
        input: { placement: { region: '' } },
        infrastructureRegion: '',
        warning: new RegExp(
          `^${PATH}\\.placement\\.region is empty: .*sets an empty region to the cluster's, and ` +
            'Cluster API creates',
        ),
      },
      {
        name: 'a block device without ebs is ignored, as Machine API ignores it',
        input: { blockDevices: [{ deviceName: '/dev/sdb' }] },
        warning: new RegExp(
          `^${PATH}\\.blockDevices\\[0\\] has no ebs settings; Machine API ignores`,
        ),
      },
      {
        name: 'a root volume kept on termination (no effect in MAPI either)',
        input: { blockDevices: [{ ebs: { volumeSize: 120, deleteOnTermination: false } }] },
        warning: new RegExp(
          `^${PATH}\\.blockDevices\\[0\\]\\.ebs\\.deleteOnTermination is false, which has no effect`,
        ),
        template: { rootVolume: { size: 120 } },
      },
      {
        name: 'providerSpec metadata is dropped',
        input: { metadata: { name: 'worker', labels: { a: 'b' } } },
        warning: new RegExp(`^${PATH}\\.metadata is not used by any machine controller`),
      },
      {
        name: 'an empty subnet leaves the choice to Cluster API',
        input: { subnet: {} },
        warning: new RegExp(
          `^${PATH}\\.subnet names no subnet; Cluster API will place the machines`,
        ),
      },
      // machine-api-provider-aws passes only iamInstanceProfile.id to EC2.
      {
        name: 'an instance profile by ARN only: none, as Machine API launches them today',
        input: { iamInstanceProfile: { arn: 'arn:aws:iam::1:instance-profile/p' } },
        warning: new RegExp(
          `^${PATH}\\.iamInstanceProfile names the instance profile by arn, which Machine API ` +
            'ignores: it uses only iamInstanceProfile\\.id, so these machines run without an ' +
            'instance profile, and so will the Cluster API machines\\. Set id to the name of the ' +
            'profile to give them one\\.$',
        ),
      },
      {
        name: 'an instance profile by filters only: none, as Machine API launches them today',
        input: { iamInstanceProfile: { filters: [{ name: 'n', values: ['v'] }] } },
        warning: new RegExp(
          `^${PATH}\\.iamInstanceProfile names the instance profile by filters, which Machine API ` +
            'ignores: .* without an instance profile',
        ),
      },
      {
        name: 'an ARN next to the id: the id, as Machine API uses it',
        input: {
          iamInstanceProfile: {
            id: 'worker-profile',
            arn: 'arn:aws:iam::1:instance-profile/other',
            filters: [{ name: 'n', values: ['v'] }],
          },
        },
        warning: new RegExp(
          `^${PATH}\\.iamInstanceProfile\\.arn and filters are ignored by Machine API, which ` +
            'uses only id \\("worker-profile"\\); so does the conversion\\.$',
        ),
        template: { iamInstanceProfile: 'worker-profile' },
      },
      ...defaultedUserDataCases(PATH),
    ];

    for (const c of cases) {
      it(c.name, () => {
        const result = expectOk(
          convert(
            { ...minimalSpec(), ...c.input },
            {
              controlPlane: c.controlPlane ?? false,
              infrastructure: infrastructure(c.infrastructureRegion),
            },
          ),
        );
        expect(result.warnings).to.have.length(1);
        expect(result.warnings[0]).to.match(c.warning);
        expect(result.value.templateSpec).to.deep.equal({ ...minimalTemplate(), ...c.template });
        expect(result.value.userDataSecretName).to.equal('worker-user-data');
      });
    }
  });

  describe("the Infrastructure's resource tags, which Machine API puts on every instance", () => {
    const tagged = (resourceTags: { key: string; value: string }[]): Infrastructure => {
      const infra = infrastructure();
      infra.status!.platformStatus!.aws!.resourceTags = resourceTags;
      return infra;
    };

    it('join the providerSpec tags, which win on the same key', () => {
      const infra = tagged([
        { key: 'cost-center', value: '4242' },
        { key: 'team', value: 'everyone' },
      ]);
      const spec = { ...minimalSpec(), tags: [{ name: 'team', value: 'ops' }] };
      const { value } = expectOk(convert(spec, { infrastructure: infra }));
      expect(value.templateSpec.additionalTags).to.deep.equal({
        'cost-center': '4242',
        team: 'ops',
      });
      expect(expectOk(convert(minimalSpec(), { infrastructure: infra })).value.templateSpec)
        .to.have.property('additionalTags')
        .that.deep.equals({ 'cost-center': '4242', team: 'everyone' });
    });

    it('count towards the 50 tags Cluster API accepts, and the message says so', () => {
      const infra = tagged(Array.from({ length: 25 }, (_, i) => ({ key: `r-${i}`, value: 'v' })));
      const spec = {
        ...minimalSpec(),
        tags: Array.from({ length: 26 }, (_, i) => ({ name: `t-${i}`, value: 'v' })),
      };
      expectFieldErrors(expectErrors(convert(spec, { infrastructure: infra })), [
        [`${PATH}.tags`, /51 distinct tags with the Infrastructure's .*resourceTags.*at most 50/],
      ]);
    });

    it('leave the reverse conversion: Machine API adds them by itself', () => {
      const infra = tagged([{ key: 'cost-center', value: '4242' }]);
      const back = awsConverter.toMapi?.(
        {
          ...minimalTemplate(),
          additionalTags: { 'cost-center': '4242', team: 'ops' },
        },
        { infrastructure: infra, path: 'spec.template.spec', controlPlane: false },
      );
      expect(back?.ok && back.value.tags).to.deep.equal([{ name: 'team', value: 'ops' }]);
    });
  });

  describe('output', () => {
    const rich = {
      ...minimalSpec(),
      tags: [
        { name: 'b', value: '2' },
        { name: 'a', value: '1' },
      ],
      securityGroups: [{ id: 'sg-1' }],
      subnet: { filters: [{ name: 'tag:Name', values: ['private'] }] },
      blockDevices: [gp3Root(), { deviceName: '/dev/sdb', ebs: { volumeSize: 10 } }],
      placement: {
        availabilityZone: 'us-east-1b',
        region: REGION,
        tenancy: 'host',
        host: { affinity: 'AnyAvailable' },
      },
      spotMarketOptions: {},
      userDataSecret: { name: 'worker-user-data' },
    };

    itConvertsPurely(convert, () => structuredClone(rich));

    it('never aliases the input: changing the output leaves the input alone', () => {
      const input = structuredClone(rich);
      const { value } = expectOk(convert(input));
      const subnet = value.templateSpec.subnet as { filters: { values: string[] }[] };
      subnet.filters[0]?.values.push('changed');
      expect(input).to.deep.equal(rich);
    });
  });
});
