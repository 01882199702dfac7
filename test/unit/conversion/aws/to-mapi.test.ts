// Table-driven tests of CAPI → MAPI for AWS: every mapped field.
import { expect } from 'chai';
import { expectOk } from '../../../support/conversion.js';
import {
  dualStack,
  HOST_ID,
  infrastructure,
  isObject,
  minimalSpec,
  minimalTemplate,
  removeUndefined,
  toMapi,
  type Json,
} from './to-mapi-fixtures.js';
import type { ReverseContext } from '../../../../src/conversion/types.js';

describe('awsConverter.toMapi', () => {
  describe('maps every field', () => {
    const cases: {
      name: string;
      template: Json;
      spec?: Json;
      context?: Partial<ReverseContext>;
    }[] = [
      { name: 'the minimal template, with the default kept fields', template: {} },
      {
        name: 'failureDomain → placement.availabilityZone, dataSecretName → userDataSecret',
        template: {},
        context: { failureDomain: 'us-east-1b', userDataSecretName: 'worker-user-data' },
        spec: {
          placement: { availabilityZone: 'us-east-1b', region: 'us-east-1' },
          userDataSecret: { name: 'worker-user-data' },
        },
      },
      {
        name: 'additionalTags → tags, in map order',
        template: { additionalTags: { team: 'ops', empty: '' } },
        spec: {
          tags: [
            { name: 'team', value: 'ops' },
            { name: 'empty', value: '' },
          ],
        },
      },
      {
        name: 'iamInstanceProfile, sshKeyName, publicIP',
        template: { iamInstanceProfile: 'worker-profile', sshKeyName: 'ops', publicIP: false },
        spec: { iamInstanceProfile: { id: 'worker-profile' }, keyName: 'ops', publicIp: false },
      },
      {
        // CAPA falls back to the AWSCluster's key, and on OpenShift's externally managed
        // AWSCluster, which names none, launches the machines without a key pair.
        name: 'no sshKeyName → no keyName: no key pair on either side',
        template: { sshKeyName: undefined },
      },
      {
        name: 'subnet and additionalSecurityGroups by id and filters (empty values left out)',
        template: {
          subnet: {
            filters: [
              { name: 'tag:Name', values: ['private-a'] },
              { name: 'vpc-id', values: [] },
            ],
          },
          additionalSecurityGroups: [
            { id: 'sg-1' },
            { filters: [{ name: 'tag:Name', values: ['node'] }] },
          ],
        },
        spec: {
          subnet: { filters: [{ name: 'tag:Name', values: ['private-a'] }, { name: 'vpc-id' }] },
          securityGroups: [{ id: 'sg-1' }, { filters: [{ name: 'tag:Name', values: ['node'] }] }],
        },
      },
      { name: 'an empty subnet names nothing', template: { subnet: {} } },
      {
        name: 'rootVolume first and nonRootVolumes with their device, a KMS key by id or ARN',
        template: {
          nonRootVolumes: [
            {
              deviceName: '/dev/xvdb',
              size: 50,
              type: 'io2',
              iops: 4000,
              encrypted: true,
              encryptionKey: 'arn:aws:kms:us-east-1:1:key/k',
            },
          ],
          rootVolume: {
            size: 120,
            type: 'gp3',
            throughput: 250,
            iops: 0,
            encrypted: true,
            encryptionKey: 'key-id',
          },
        },
        spec: {
          blockDevices: [
            {
              ebs: {
                volumeSize: 120,
                volumeType: 'gp3',
                throughputMib: 250,
                encrypted: true,
                kmsKey: { id: 'key-id' },
              },
            },
            {
              deviceName: '/dev/xvdb',
              ebs: {
                volumeSize: 50,
                volumeType: 'io2',
                iops: 4000,
                encrypted: true,
                kmsKey: { arn: 'arn:aws:kms:us-east-1:1:key/k' },
              },
            },
          ],
        },
      },
      {
        name: 'networkInterfaceType efa → EFA, cpuOptions, market options, placement group',
        template: {
          networkInterfaceType: 'efa',
          cpuOptions: { confidentialCompute: 'AMDEncryptedVirtualizationNestedPaging' },
          spotMarketOptions: { maxPrice: '0.25' },
          marketType: 'Spot',
          placementGroupName: 'pg',
          placementGroupPartition: 2,
        },
        spec: {
          networkInterfaceType: 'EFA',
          cpuOptions: { confidentialCompute: 'AMDEncryptedVirtualizationNestedPaging' },
          spotMarketOptions: { maxPrice: '0.25' },
          marketType: 'Spot',
          placementGroupName: 'pg',
          placementGroupPartition: 2,
        },
      },
      {
        name: 'capacityReservationId with CapacityBlock; an empty cpuOptions is nothing',
        template: { capacityReservationId: 'cr-1', marketType: 'CapacityBlock', cpuOptions: {} },
        spec: { capacityReservationId: 'cr-1', marketType: 'CapacityBlock' },
      },
      {
        name: 'tenancy host with hostID and affinity host → DedicatedHost',
        template: { tenancy: 'host', hostAffinity: 'host', hostID: HOST_ID },
        spec: {
          placement: {
            region: 'us-east-1',
            tenancy: 'host',
            host: { affinity: 'DedicatedHost', dedicatedHost: { id: HOST_ID } },
          },
        },
      },
      {
        name: 'dynamicHostAllocation with tags → a Dynamic dedicated host (affinity AnyAvailable)',
        template: { tenancy: 'host', dynamicHostAllocation: { tags: { team: 'ops' } } },
        spec: {
          placement: {
            region: 'us-east-1',
            tenancy: 'host',
            host: {
              affinity: 'AnyAvailable',
              dedicatedHost: {
                allocationStrategy: 'Dynamic',
                dynamicHostAllocation: { tags: [{ name: 'team', value: 'ops' }] },
              },
            },
          },
        },
      },
      {
        name: 'httpTokens required → authentication Required',
        template: { instanceMetadataOptions: { httpTokens: 'required' } },
        spec: { metadataServiceOptions: { authentication: 'Required' } },
      },
      {
        name: 'no instanceMetadataOptions on an IPv4 cluster: the defaults',
        template: { instanceMetadataOptions: undefined },
      },
      {
        name: 'DualStackIPv4Primary: the fields MAPA sets itself map to nothing',
        template: dualStack(false),
        context: { infrastructure: infrastructure('DualStackIPv4Primary') },
      },
      {
        name: 'DualStackIPv6Primary: the fields MAPA sets itself map to nothing',
        template: dualStack(true),
        context: { infrastructure: infrastructure('DualStackIPv6Primary') },
      },
      {
        name: 'settings CAPA ignores with plain user data are dropped',
        template: {
          ignition: { storageType: 'UnencryptedUserData', version: '3.4' },
          cloudInit: {},
          uncompressedUserData: false,
        },
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const template: Json = { ...minimalTemplate(), ...c.template };
        if (isObject(c.template.instanceMetadataOptions)) {
          template.instanceMetadataOptions = {
            ...(minimalTemplate().instanceMetadataOptions as Json),
            ...c.template.instanceMetadataOptions,
          };
        }
        const expected = { ...minimalSpec(), ...c.spec };
        expect(expectOk(toMapi(template, c.context)).value).to.deep.equal(
          removeUndefined(expected),
        );
      });
    }
  });
});
