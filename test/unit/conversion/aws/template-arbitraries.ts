// fast-check generators of valid AWSMachineTemplate specs over the fields that have a Machine API
// equivalent, in the form MAPI → CAPI writes them (CRD defaults materialised).
import fc from 'fast-check';
import {
  amiId,
  ebs,
  hostId,
  instanceType,
  IP_FAMILIES,
  mapiTags,
  reference,
} from './arbitraries.js';

type Json = Record<string, unknown>;

const tagMap = mapiTags.map((tags) => Object.fromEntries(tags.map((t) => [t.name, t.value])));

/** A MAPI ebs block → the CAPA volume MAPI → CAPI makes of it. */
function capaVolume(volume: Json): Json {
  const key = volume.kmsKey as { id?: string; arn?: string } | undefined;
  const capa: Json = { size: volume.volumeSize };
  if (volume.volumeType !== undefined) capa.type = volume.volumeType;
  if (volume.iops !== undefined) capa.iops = volume.iops;
  if (volume.throughputMib !== undefined) capa.throughput = volume.throughputMib;
  if (volume.encrypted !== undefined) capa.encrypted = volume.encrypted;
  if (key !== undefined) capa.encryptionKey = key.id ?? key.arn;
  return capa;
}

/** Filters as CAPA holds them: `values` always present. */
function capaReference(mapi: Json): Json {
  if (!Array.isArray(mapi.filters)) return mapi;
  return {
    filters: (mapi.filters as Json[]).map((f) => ({ name: f.name, values: f.values ?? [] })),
  };
}

const hostPlacement = fc.oneof(
  fc.constant({ hostAffinity: 'default' }),
  fc.record({
    tenancy: fc.constantFrom('default', 'dedicated', 'host'),
    hostAffinity: fc.constant('default'),
  }),
  fc.record({
    tenancy: fc.constant('host'),
    hostAffinity: fc.constantFrom('default', 'host'),
    hostID: hostId,
  }),
  fc.record({
    tenancy: fc.constant('host'),
    hostAffinity: fc.constantFrom('default', 'host'),
    dynamicHostAllocation: fc.oneof(
      fc.constant({}),
      tagMap.map((tags) => ({ tags })),
    ),
  }),
);

const market = fc.oneof(
  fc.constant({}),
  fc.record(
    { spotMarketOptions: fc.oneof(fc.constant({}), fc.constant({ maxPrice: '0.5' })) },
    { requiredKeys: [] },
  ),
  fc.record({ spotMarketOptions: fc.constant({}), marketType: fc.constant('Spot') }),
  fc.record({ marketType: fc.constantFrom('OnDemand', 'Spot') }),
  fc.record({
    capacityReservationId: fc.constant('cr-0123'),
    marketType: fc.constantFrom('OnDemand', 'CapacityBlock'),
  }),
);

export interface TemplateCase {
  ipFamily: (typeof IP_FAMILIES)[number];
  templateSpec: Json;
  failureDomain?: string;
  userDataSecretName?: string;
}

export const templateCase: fc.Arbitrary<TemplateCase> = fc
  .record(
    {
      ipFamily: fc.constantFrom(...IP_FAMILIES),
      ami: amiId,
      instanceType,
      sshKeyName: fc.constantFrom('', 'ops', 'team key'),
      httpTokens: fc.constantFrom('optional', 'required'),
      additionalTags: tagMap,
      iamInstanceProfile: fc.constantFrom('worker-profile', 'gpu-profile'),
      publicIP: fc.boolean(),
      subnet: reference.map(capaReference),
      additionalSecurityGroups: fc.array(reference.map(capaReference), {
        minLength: 1,
        maxLength: 3,
      }),
      rootVolume: ebs.map(capaVolume),
      nonRootVolumes: fc.uniqueArray(
        fc.record({ deviceName: fc.constantFrom('/dev/xvdb', '/dev/sdf'), volume: ebs }),
        { selector: (v) => v.deviceName, minLength: 1, maxLength: 2 },
      ),
      networkInterfaceType: fc.constantFrom('interface', 'efa'),
      market,
      placementGroup: fc.oneof(
        fc.constant({ placementGroupName: 'pg' }),
        fc.constant({ placementGroupName: 'pg', placementGroupPartition: 3 }),
      ),
      host: hostPlacement,
      confidentialCompute: fc.constantFrom('Disabled', 'AMDEncryptedVirtualizationNestedPaging'),
      failureDomain: fc.constantFrom('us-east-1a', 'us-east-1c'),
      userDataSecretName: fc.constantFrom('worker-user-data', 'infra-user-data'),
    },
    {
      requiredKeys: [
        'ipFamily',
        'ami',
        'instanceType',
        'sshKeyName',
        'httpTokens',
        'market',
        'host',
        // Cluster API's webhook refuses a MachineSet without a bootstrap data secret.
        'userDataSecretName',
      ],
    },
  )
  .map((g) => {
    const dualStack = g.ipFamily !== 'IPv4';
    const templateSpec: Json = {
      ami: { id: g.ami },
      instanceType: g.instanceType,
      additionalTags: g.additionalTags,
      iamInstanceProfile: g.iamInstanceProfile,
      sshKeyName: g.sshKeyName,
      publicIP: g.publicIP,
      subnet: g.subnet,
      additionalSecurityGroups: g.additionalSecurityGroups,
      rootVolume: g.rootVolume,
      nonRootVolumes: g.nonRootVolumes?.map(({ deviceName, volume }) => ({
        deviceName,
        ...capaVolume(volume),
      })),
      networkInterfaceType: g.networkInterfaceType,
      ...g.market,
      ...g.placementGroup,
      ...g.host,
      cpuOptions: g.confidentialCompute && { confidentialCompute: g.confidentialCompute },
      instanceMetadataOptions: {
        httpEndpoint: 'enabled',
        httpProtocolIpv6: dualStack ? 'enabled' : 'disabled',
        httpPutResponseHopLimit: 1,
        httpTokens: g.httpTokens,
        instanceMetadataTags: 'disabled',
      },
      ignition: { storageType: 'UnencryptedUserData' },
      ...(dualStack
        ? {
            assignPrimaryIPv6: g.ipFamily === 'DualStackIPv6Primary' ? 'enabled' : 'disabled',
            privateDnsName: {
              enableResourceNameDnsAAAARecord: true,
              enableResourceNameDnsARecord: true,
              hostnameType: 'resource-name',
            },
          }
        : {}),
    };
    for (const key of Object.keys(templateSpec)) {
      if (templateSpec[key] === undefined) delete templateSpec[key];
    }
    return {
      ipFamily: g.ipFamily,
      templateSpec,
      failureDomain: g.failureDomain,
      userDataSecretName: g.userDataSecretName,
    };
  });
