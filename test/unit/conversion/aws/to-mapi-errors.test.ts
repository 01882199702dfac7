// CAPI → MAPI for AWS: every field error and warning, and the fields kept from the MAPI
// MachineSet's current providerSpec.
import { expect } from 'chai';
import { KEPT_FROM_CURRENT } from '../../../../src/conversion/aws/kept-from-current.js';
import type { ReverseContext } from '../../../../src/conversion/types.js';
import { expectErrors, expectFieldErrors, expectOk } from '../../../support/conversion.js';
import {
  dualStack,
  HOST_ID,
  infrastructure,
  minimalSpec,
  minimalTemplate,
  T,
  toMapi,
  type Json,
} from './to-mapi-fixtures.js';

const NO_EQUIVALENT =
  /has no Machine API equivalent; remove it from the template or keep the MachineSet on Cluster API\.$/;
const UNKNOWN = /is not a field this controller knows how to convert to Machine API/;

describe('awsConverter.toMapi errors', () => {
  it('refuses a template spec that is not an object', () => {
    expectFieldErrors(expectErrors(toMapi(['ami'])), [[T, /must be an object, but is an array/]]);
  });

  const cases: {
    name: string;
    template: Json;
    context?: Partial<ReverseContext>;
    errors: [string, RegExp][];
  }[] = [
    { name: 'an unknown field', template: { amiId: 'ami-1' }, errors: [[`${T}.amiId`, UNKNOWN]] },
    { name: 'an unknown null field', template: { amiId: null }, errors: [[`${T}.amiId`, UNKNOWN]] },
    {
      name: 'wrong types',
      template: {
        instanceType: 3,
        publicIP: 'yes',
        additionalTags: { team: 1 },
        placementGroupPartition: '2',
      },
      errors: [
        [`${T}.instanceType`, /must be a string, but is the number 3/],
        [`${T}.publicIP`, /must be true or false/],
        [`${T}.additionalTags[team]`, /must be a string/],
        [`${T}.placementGroupPartition`, /must be an integer/],
      ],
    },
    ...(
      [
        ['providerID', 'aws:///us-east-1a/i-1'],
        ['instanceID', 'i-1'],
        ['imageLookupFormat', 'capa-ami-*'],
        ['imageLookupOrg', '123'],
        ['imageLookupBaseOS', 'ubuntu'],
        ['elasticIpPool', { publicIpv4Pool: 'ipv4pool-ec2-1' }],
        ['securityGroupOverrides', { node: 'sg-1' }],
        ['networkInterfaces', ['eni-1']],
        ['capacityReservationPreference', 'Open'],
      ] as const
    ).map(([key, value]) => ({
      name: `${key}, which Machine API cannot express`,
      template: { [key]: value },
      errors: [[`${T}.${key}`, NO_EQUIVALENT]] as [string, RegExp][],
    })),
    {
      name: 'an AMI looked up for EKS, or none',
      template: { ami: { eksLookupType: 'AmazonLinux' } },
      errors: [
        [`${T}.ami.eksLookupType`, NO_EQUIVALENT],
        [
          `${T}.ami.id`,
          /is required, because Machine API launches machines from an AMI it is given/,
        ],
      ],
    },
    { name: 'no ami', template: { ami: undefined }, errors: [[`${T}.ami`, /is required/]] },
    {
      name: 'no instanceType',
      template: { instanceType: '' },
      errors: [[`${T}.instanceType`, /is required; set the EC2 instance type/]],
    },
    {
      name: 'volumes Machine API cannot describe',
      template: {
        rootVolume: { deviceName: '/dev/xvda', size: 100 },
        nonRootVolumes: [
          { size: 10 },
          { deviceName: '/dev/xvdb', type: 'nvme', iops: -1, size: 'big' },
          { deviceName: '/dev/xvdc', size: 8, tags: {} },
        ],
      },
      errors: [
        [`${T}.rootVolume.deviceName`, /Machine API always takes from the AMI/],
        [
          `${T}.nonRootVolumes[0].deviceName`,
          /is required; Machine API takes a block device without a name for the root volume/,
        ],
        [`${T}.nonRootVolumes[1].type`, /"nvme", which is not supported; use one of/],
        [`${T}.nonRootVolumes[1].iops`, /must not be negative/],
        [`${T}.nonRootVolumes[1].size`, /must be an integer/],
        [`${T}.nonRootVolumes[2].tags`, UNKNOWN],
      ],
    },
    {
      name: 'a volume without size',
      template: { rootVolume: { type: 'gp3' } },
      errors: [[`${T}.rootVolume.size`, /is required; set the size/]],
    },
    {
      name: 'references Machine API cannot hold',
      template: {
        subnet: { id: 'subnet-1', filters: [{ name: 'vpc-id', values: ['v'] }] },
        additionalSecurityGroups: [{}, { filters: [{ values: ['x'] }] }, { arn: 'arn:sg' }],
      },
      errors: [
        [
          `${T}.subnet`,
          /sets both id and filters, but Machine API accepts only one of them for a subnet/,
        ],
        [`${T}.additionalSecurityGroups[0]`, /names no security group/],
        [`${T}.additionalSecurityGroups[1].filters[0].name`, /is required; name the AWS filter/],
        [`${T}.additionalSecurityGroups[1]`, /names no security group/],
        [`${T}.additionalSecurityGroups[2].arn`, UNKNOWN],
        [`${T}.additionalSecurityGroups[2]`, /names no security group/],
      ],
    },
    {
      name: 'unknown enum values',
      template: {
        networkInterfaceType: 'ena',
        marketType: 'Reserved',
        tenancy: 'shared',
        hostAffinity: 'any',
        cpuOptions: { confidentialCompute: 'SEV' },
      },
      errors: [
        [
          `${T}.networkInterfaceType`,
          /"ena", which is not supported; use one of "interface", "efa"/,
        ],
        [`${T}.marketType`, /"Reserved"/],
        [`${T}.tenancy`, /"shared"/],
        [`${T}.hostAffinity`, /"any"/],
        [`${T}.cpuOptions.confidentialCompute`, /"SEV"/],
      ],
    },
    {
      name: 'hostID and dynamicHostAllocation together',
      template: { tenancy: 'host', hostID: HOST_ID, dynamicHostAllocation: {} },
      errors: [[`${T}.dynamicHostAllocation`, /cannot be combined with hostID/]],
    },
    {
      name: 'host affinity without a host',
      template: { tenancy: 'host', hostAffinity: 'host' },
      errors: [
        [`${T}.hostAffinity`, /Machine API pins only to a named or dynamically allocated host/],
      ],
    },
    {
      name: 'a dedicated host without tenancy host',
      template: { tenancy: 'dedicated', hostID: HOST_ID },
      errors: [
        [
          `${T}.hostID`,
          /Machine API does only with tenancy host; set tenancy to host or remove hostID/,
        ],
      ],
    },
    {
      name: 'metadata options Machine API never sets',
      template: {
        instanceMetadataOptions: {
          httpEndpoint: 'disabled',
          httpPutResponseHopLimit: 2,
          instanceMetadataTags: 'enabled',
          httpTokens: 'optional',
          hops: 1,
        },
      },
      errors: [
        [
          `${T}.instanceMetadataOptions.httpEndpoint`,
          /is "disabled", but Machine API always keeps the metadata service on/,
        ],
        [
          `${T}.instanceMetadataOptions.httpPutResponseHopLimit`,
          /is 2, but Machine API always allows one hop/,
        ],
        [
          `${T}.instanceMetadataOptions.instanceMetadataTags`,
          /is "enabled", but Machine API always hides instance tags/,
        ],
        [`${T}.instanceMetadataOptions.hops`, UNKNOWN],
      ],
    },
    {
      name: 'the IPv6 metadata endpoint on an IPv4 cluster',
      template: { instanceMetadataOptions: { httpProtocolIpv6: 'enabled' } },
      errors: [
        [
          `${T}.instanceMetadataOptions.httpProtocolIpv6`,
          /on this IPv4 cluster Machine API sets it to "disabled"/,
        ],
      ],
    },
    {
      name: 'IP family fields on an IPv4 cluster',
      template: { assignPrimaryIPv6: 'enabled', privateDnsName: { hostnameType: 'ip-name' } },
      errors: [
        [
          `${T}.assignPrimaryIPv6`,
          /derives it from the cluster's IP family \(IPv4\): it sets nothing here/,
        ],
        [`${T}.privateDnsName`, /derives it from the cluster's IP family \(IPv4\)/],
      ],
    },
    {
      name: 'a dual-stack cluster without the IPv6 metadata endpoint or hostnames',
      template: { instanceMetadataOptions: undefined, assignPrimaryIPv6: 'disabled' },
      context: { infrastructure: infrastructure('DualStackIPv6Primary') },
      errors: [
        [
          `${T}.instanceMetadataOptions`,
          /on this DualStackIPv6Primary cluster Machine API always enables it/,
        ],
        [
          `${T}.assignPrimaryIPv6`,
          /is "disabled", .*\(DualStackIPv6Primary\): set it to "enabled"\.$/,
        ],
        [`${T}.privateDnsName`, /is not set, .*set it to \{"enableResourceNameDnsAAAARecord":true/],
      ],
    },
    {
      name: 'an IP family this controller does not know',
      template: {},
      context: { infrastructure: infrastructure('IPv6') },
      errors: [
        [
          'Infrastructure/cluster.status.platformStatus.aws.ipFamily',
          /"IPv6", which this controller does not know/,
        ],
      ],
    },
    {
      name: 'Ignition from the cluster object store',
      template: { ignition: { storageType: 'ClusterObjectStore', format: 'x' } },
      errors: [
        [
          `${T}.ignition.storageType`,
          /is "ClusterObjectStore", but Machine API hands the Ignition config to EC2 as plain user data/,
        ],
        [`${T}.ignition.format`, UNKNOWN],
      ],
    },
    {
      name: 'no Ignition settings',
      template: { ignition: undefined },
      errors: [[`${T}.ignition`, /is not set, but Machine API hands/]],
    },
  ];
  for (const c of cases) {
    it(`reports ${c.name}`, () => {
      const template = Object.fromEntries(
        Object.entries({ ...minimalTemplate(), ...c.template }).filter(([, v]) => v !== undefined),
      );
      if (c.context?.infrastructure && c.template.instanceMetadataOptions !== undefined) {
        template.instanceMetadataOptions = dualStack(true).instanceMetadataOptions;
      }
      expectFieldErrors(expectErrors(toMapi(template, c.context)), c.errors);
    });
  }

  it('warns about settings Cluster API ignores with plain user data', () => {
    const result = expectOk(
      toMapi({
        ...minimalTemplate(),
        ignition: { storageType: 'UnencryptedUserData', proxy: { httpProxy: 'http://p' } },
        cloudInit: { secretPrefix: 'x' },
        uncompressedUserData: true,
      }),
    );
    expect(result.warnings).to.have.length(3);
    for (const [warning, path] of result.warnings.map((w, i) => [
      w,
      ['ignition.proxy', 'cloudInit', 'uncompressedUserData'][i],
    ])) {
      expect(warning).to.match(
        new RegExp(`^${T}\\.${path} is not converted: Cluster API ignores it`),
      );
    }
    expect(result.value).to.deep.equal(minimalSpec());
  });
});

describe('awsConverter.toMapi kept fields', () => {
  it('lists the fields Cluster API cannot express', () => {
    expect(KEPT_FROM_CURRENT).to.deep.equal([
      'credentialsSecret',
      'deviceIndex',
      'loadBalancers',
      'metadata',
      'placement.region',
    ]);
  });

  const current = {
    ami: { id: 'ami-old' },
    instanceType: 'm5.large',
    credentialsSecret: { name: 'aws-cloud-credentials' },
    deviceIndex: 0,
    loadBalancers: [{ name: 'ci-ln-abc12-int', type: 'network' }],
    metadata: { creationTimestamp: null },
    placement: { region: 'us-east-1', availabilityZone: 'us-east-1a' },
    metadataServiceOptions: { authentication: 'Optional' },
  };

  it('keeps valid values from the current providerSpec (load balancers on control-plane machines)', () => {
    const result = expectOk(
      toMapi(minimalTemplate(), { current, controlPlane: true, failureDomain: 'us-east-1c' }),
    );
    expect(result.value).to.deep.equal({
      ...minimalSpec(),
      loadBalancers: current.loadBalancers,
      metadata: current.metadata,
      placement: { availabilityZone: 'us-east-1c', region: 'us-east-1' },
      // The template's metadata options did not change: the current spelling is kept.
      metadataServiceOptions: { authentication: 'Optional' },
    });
  });

  it('leaves out what the current providerSpec leaves out', () => {
    const result = expectOk(toMapi(minimalTemplate(), { current: { ami: { id: 'ami-old' } } }));
    expect(result.value).to.deep.equal({
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'AWSMachineProviderConfig',
      ami: { id: 'ami-0123456789abcdef0' },
      instanceType: 'm6i.xlarge',
    });
  });

  it('replaces invalid current values with the defaults', () => {
    const invalid = {
      ...current,
      credentialsSecret: { name: 'my-secret' },
      deviceIndex: 2,
      placement: { region: 'eu-west-1' },
      metadata: 'x',
    };
    const result = expectOk(toMapi(minimalTemplate(), { current: invalid, controlPlane: false }));
    // A worker's load balancers are not valid either: they are dropped.
    expect(result.value).to.deep.equal(minimalSpec());
  });

  it('writes the changed groups of fields in the normal form and keeps the others', () => {
    const changed = {
      ...minimalTemplate(),
      instanceMetadataOptions: {
        ...(minimalTemplate().instanceMetadataOptions as Json),
        httpTokens: 'required',
      },
    };
    const result = expectOk(toMapi(changed, { current }));
    expect(result.value.metadataServiceOptions).to.deep.equal({ authentication: 'Required' });
    expect(result.value.ami).to.deep.equal({ id: 'ami-0123456789abcdef0' });
  });
});
