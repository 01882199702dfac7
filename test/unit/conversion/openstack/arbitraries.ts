// fast-check generators for the OpenStack round trips: valid OpenstackProviderSpecs in the
// spelling the way back writes (docs/platforms/openstack.md, "Normalisations"), and valid
// OpenStackMachineTemplate specs over every template field Machine API can hold.
import fc from 'fast-check';
import type { Infrastructure } from '../../../../src/api/types.js';

export const API_VIP = '10.0.0.5';
export const INGRESS_VIP = '10.0.0.7';
const VIP_PAIRS = [{ ipAddress: API_VIP }, { ipAddress: INGRESS_VIP }];
const SECRET = 'openstack-cloud-credentials';

export function infrastructure(): Infrastructure {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    status: {
      infrastructureName: 'demo-abc12',
      platformStatus: {
        type: 'OpenStack',
        openstack: {
          cloudName: 'openstack',
          apiServerInternalIPs: [API_VIP],
          ingressIPs: [INGRESS_VIP],
        },
      },
    },
  };
}

type Json = Record<string, unknown>;
type Fields = Record<string, fc.Arbitrary<unknown>>;

/** A record whose fields are all optional. */
const some = (fields: Fields) => fc.record(fields, { requiredKeys: [] }) as fc.Arbitrary<Json>;
const nonEmpty = (fields: Fields) => some(fields).filter((value) => Object.keys(value).length > 0);
const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
const text = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() === s && s !== '');
const uuid = fc.uuid();
const tagList = fc.uniqueArray(fc.stringMatching(/^[a-z0-9=]{1,8}$/), {
  minLength: 1,
  maxLength: 3,
});
const bool = fc.boolean();

// ---- MAPI ----

const mapiTagQueries: Fields = {
  tags: tagList.map((t) => t.join(',')),
  tagsAny: tagList.map((t) => t.join(',')),
  notTags: tagList.map((t) => t.join(',')),
  notTagsAny: tagList.map((t) => t.join(',')),
};
const mapiFilter = nonEmpty({ name, description: text, projectId: name, ...mapiTagQueries });
const mapiSubnetFilter = nonEmpty({
  name,
  projectId: name,
  ...mapiTagQueries,
  ipVersion: fc.constantFrom(4, 6),
  gateway_ip: fc.constant('10.0.0.1'),
  cidr: fc.constant('10.0.0.0/24'),
  ipv6AddressMode: fc.constantFrom('slaac', 'dhcpv6-stateful'),
  ipv6RaMode: fc.constantFrom('slaac', 'dhcpv6-stateless'),
});
const mapiSubnet = fc.oneof(
  uuid.map((id) => ({ uuid: id })),
  mapiSubnetFilter.map((filter) => ({ filter })),
);
const mapiProfile = nonEmpty({
  trusted: fc.constantFrom('true', 'false'),
  capabilities: fc.constant('["switchdev"]'),
});
const portCommon: Fields = {
  vnicType: fc.constantFrom('direct', 'normal'),
  profile: mapiProfile,
  portSecurity: bool,
};

const mapiNetwork: fc.Arbitrary<Json> = fc
  .tuple(
    fc.oneof(
      fc.record({
        target: fc.oneof(
          uuid.map((id) => ({ uuid: id })),
          mapiFilter.map((filter) => ({ filter })),
        ),
        subnets: fc.array(mapiSubnet, { maxLength: 2 }),
      }),
      // Subnets alone make one port per subnet: written back one entry per subnet.
      fc.record({ target: fc.constant({}), subnets: fc.tuple(mapiSubnet) }),
    ),
    some({ portTags: tagList, ...portCommon, noAllowedAddressPairs: fc.constant(true) }),
  )
  .map(([{ target, subnets }, rest]) => {
    const network: Json = { ...target, ...rest };
    if (subnets.length > 0) network.subnets = subnets;
    // Without port security no address pair is added anyway, so none is refused.
    if (network.portSecurity === false) delete network.noAllowedAddressPairs;
    return network;
  });

/** `unambiguous`: every port sets a field only a port entry can hold (nameSuffix). */
function mapiPort(unambiguous: boolean): fc.Arbitrary<Json> {
  return fc
    .record({
      required: fc.record({
        networkID: uuid,
        nameSuffix: unambiguous ? name : fc.constant(undefined),
      }),
      rest: some({
        description: text,
        adminStateUp: bool,
        macAddress: fc.constant('fa:16:3e:00:00:01'),
        fixedIPs: fc.array(
          fc.record(
            { subnetID: uuid, ipAddress: fc.constant('10.0.0.9') },
            { requiredKeys: ['subnetID'] },
          ),
          { minLength: 1, maxLength: 2 },
        ),
        securityGroups: fc.uniqueArray(uuid, { minLength: 1, maxLength: 2 }),
        allowedAddressPairs: fc.array(
          fc.record(
            { ipAddress: fc.constant('192.0.2.1'), macAddress: fc.constant('fa:16:3e:00:00:02') },
            { requiredKeys: ['ipAddress'] },
          ),
          { minLength: 1, maxLength: 2 },
        ),
        tags: tagList,
        trunk: bool,
        ...portCommon,
      }),
    })
    .map(({ required, rest }) => {
      const port: Json = { networkID: required.networkID, ...rest };
      if (required.nameSuffix !== undefined) port.nameSuffix = required.nameSuffix;
      if (port.portSecurity === false) {
        delete port.securityGroups;
        delete port.allowedAddressPairs;
      }
      return port;
    });
}

const mapiSecurityGroup = fc.oneof(
  uuid.map((id) => ({ uuid: id })),
  name.map((n) => ({ name: n })),
  fc.record(
    { name, filter: nonEmpty({ description: text, projectId: name, ...mapiTagQueries }) },
    { requiredKeys: ['filter'] },
  ),
);
const zone = fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/);
const mapiBlockDevice = fc.record({
  sizeGiB: fc.integer({ min: 1, max: 500 }),
  storage: fc.oneof(
    fc.constant({ type: 'Local' }),
    some({ type: name, availabilityZone: zone }).map((volume) =>
      Object.keys(volume).length > 0 ? { type: 'Volume', volume } : { type: 'Volume' },
    ),
  ),
});

/** A valid providerSpec over every supported field, in the spelling the way back writes. */
export function mapiSpec({ unambiguous }: { unambiguous: boolean }): fc.Arbitrary<Json> {
  return fc
    .record({
      base: fc.record({
        cloudName: name,
        flavor: name,
        image: name,
        networks: fc.array(mapiNetwork, { maxLength: 3 }),
        ports: fc.array(mapiPort(unambiguous), { maxLength: 3 }),
        // Cluster API requires a bootstrap data secret: the conversion refuses a spec without one.
        userDataSecret: fc.record({ name, namespace: name }, { requiredKeys: ['name'] }),
      }),
      optional: some({
        keyName: name,
        availabilityZone: zone,
        securityGroups: fc.array(mapiSecurityGroup, { minLength: 1, maxLength: 3 }),
        trunk: fc.constant(true),
        tags: tagList,
        serverMetadata: fc.dictionary(fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,8}$/), text, {
          minKeys: 1,
          maxKeys: 3,
        }),
        configDrive: bool,
        rootVolume: some({ volumeType: name, availabilityZone: zone }).chain((volume) =>
          fc.integer({ min: 1, max: 500 }).map((diskSize) => ({ diskSize, ...volume })),
        ),
        additionalBlockDevices: fc
          .uniqueArray(
            name.filter((n) => n !== 'root'),
            { minLength: 1, maxLength: 2 },
          )
          .chain((names) =>
            fc.tuple(...names.map((n) => mapiBlockDevice.map((d) => ({ name: n, ...d })))),
          ),
        serverGroup: fc.oneof(
          uuid.map((id) => ({ serverGroupID: id })),
          name.map((n) => ({ serverGroupName: n })),
          fc.record({ serverGroupID: uuid, serverGroupName: name }),
        ),
        cloudsNamespace: name,
        sshUserName: name,
        primarySubnet: name,
        metadata: fc.constant({ creationTimestamp: null }),
      }),
    })
    .filter(({ base }) => base.networks.length + base.ports.length > 0)
    .map(({ base, optional }) => {
      const { serverGroup, cloudsNamespace, rootVolume, ...rest } = optional;
      const spec: Json = {
        apiVersion: 'machine.openshift.io/v1alpha1',
        kind: 'OpenstackProviderSpec',
        cloudName: base.cloudName,
        cloudsSecret:
          cloudsNamespace === undefined
            ? { name: SECRET }
            : { name: SECRET, namespace: cloudsNamespace },
        flavor: base.flavor,
        userDataSecret: base.userDataSecret,
        ...rest,
        ...(serverGroup as Json | undefined),
      };
      if (rootVolume === undefined) spec.image = base.image;
      else spec.rootVolume = { ...(rootVolume as Json), sourceUUID: base.image };
      if (base.networks.length > 0) spec.networks = base.networks;
      if (base.ports.length > 0) spec.ports = base.ports;
      return spec;
    });
}

// ---- CAPO ----

const capoTagLists: Fields = {
  tags: tagList,
  tagsAny: tagList,
  notTags: tagList,
  notTagsAny: tagList,
};
const capoFilter = nonEmpty({ name, description: text, projectID: name, ...capoTagLists });
const capoSubnetFilter = nonEmpty({
  name,
  projectID: name,
  ...capoTagLists,
  ipVersion: fc.constantFrom(4, 6),
  gatewayIP: fc.constant('10.0.0.1'),
  cidr: fc.constant('10.0.0.0/24'),
  ipv6AddressMode: fc.constantFrom('slaac'),
  ipv6RAMode: fc.constantFrom('slaac'),
});
const capoRef = (filter: fc.Arbitrary<Json>) =>
  fc.oneof(
    uuid.map((id) => ({ id })),
    filter.map((f) => ({ filter: f })),
  );
const capoProfile = nonEmpty({ trustedVF: bool, ovsHWOffload: fc.constant(true) });
const capoCommon: Fields = {
  vnicType: fc.constantFrom('direct', 'normal'),
  profile: capoProfile,
  disablePortSecurity: bool,
};

/** A port a MAPI network entry makes. */
const capoNetworkPort: fc.Arbitrary<Json> = fc
  .tuple(
    fc.oneof(
      fc.record({
        network: capoRef(capoFilter),
        subnets: fc.array(capoRef(capoSubnetFilter), { maxLength: 2 }),
      }),
      fc.record({ subnets: fc.tuple(capoRef(capoSubnetFilter)) }),
    ),
    some({ tags: tagList, ...capoCommon }),
    bool,
  )
  .map(([target, rest, vipPairs]) => {
    const port: Json = { ...rest };
    if ('network' in target) port.network = target.network;
    if (target.subnets.length > 0) port.fixedIPs = target.subnets.map((subnet) => ({ subnet }));
    if (vipPairs && port.disablePortSecurity !== true) port.allowedAddressPairs = VIP_PAIRS;
    return port;
  });

/** A port a MAPI port entry makes (nameSuffix set, so it is one). */
const capoOwnPort: fc.Arbitrary<Json> = fc
  .record({
    network: uuid.map((id) => ({ id })),
    nameSuffix: name,
    rest: some({
      description: text,
      adminStateUp: bool,
      macAddress: fc.constant('fa:16:3e:00:00:01'),
      fixedIPs: fc.array(
        fc.record(
          { subnet: uuid.map((id) => ({ id })), ipAddress: fc.constant('10.0.0.9') },
          { requiredKeys: ['subnet'] },
        ),
        { minLength: 1, maxLength: 2 },
      ),
      securityGroups: fc
        .uniqueArray(uuid, { minLength: 1, maxLength: 2 })
        .map((ids) => ids.map((id) => ({ id }))),
      allowedAddressPairs: fc.array(fc.record({ ipAddress: fc.constant('192.0.2.1') }), {
        minLength: 1,
        maxLength: 2,
      }),
      tags: tagList,
      trunk: bool,
      ...capoCommon,
    }),
  })
  .map(({ network, nameSuffix, rest }) => {
    const port: Json = { network, nameSuffix, ...rest };
    if (port.disablePortSecurity === true) {
      delete port.securityGroups;
      delete port.allowedAddressPairs;
    }
    return port;
  });

const capoZone = fc.oneof(
  fc.constant({ from: 'Machine' }),
  zone.map((n) => ({ from: 'Name', name: n })),
);

/** A valid template spec over every field Machine API can hold, with its failure domain. */
export function capoTemplate(): fc.Arbitrary<{
  templateSpec: Json;
  failureDomain?: string;
  userDataSecretName?: string;
}> {
  return fc
    .record({
      base: fc.record({
        flavor: name,
        image: name.map((n) => ({ filter: { name: n } })),
        identityRef: name.map((cloudName) => ({ type: 'Secret', name: SECRET, cloudName })),
        networkPorts: fc.array(capoNetworkPort, { maxLength: 3 }),
        ownPorts: fc.array(capoOwnPort, { maxLength: 3 }),
      }),
      optional: some({
        sshKeyName: name,
        securityGroups: fc.array(capoRef(capoFilter), { minLength: 1, maxLength: 3 }),
        trunk: fc.constant(true),
        tags: tagList,
        serverMetadata: fc
          .uniqueArray(
            fc.record({ key: fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,8}$/), value: text }),
            {
              minLength: 1,
              maxLength: 3,
              selector: (entry) => entry.key,
            },
          )
          .map((entries) => entries.sort((a, b) => (a.key < b.key ? -1 : 1))),
        configDrive: bool,
        rootVolume: fc.record(
          { sizeGiB: fc.integer({ min: 1, max: 500 }), type: name, availabilityZone: capoZone },
          { requiredKeys: ['sizeGiB', 'availabilityZone'] },
        ),
        additionalBlockDevices: fc
          .uniqueArray(
            name.filter((n) => n !== 'root'),
            { minLength: 1, maxLength: 2 },
          )
          .chain((names) =>
            fc.tuple(
              ...names.map((n) =>
                fc.record({
                  name: fc.constant(n),
                  sizeGiB: fc.integer({ min: 1, max: 500 }),
                  storage: fc.oneof(
                    fc.constant({ type: 'Local' }),
                    fc
                      .record(
                        { type: name, availabilityZone: capoZone },
                        { requiredKeys: ['availabilityZone'] },
                      )
                      .map((volume) => ({ type: 'Volume', volume })),
                  ),
                }),
              ),
            ),
          ),
        serverGroup: fc.oneof(
          uuid.map((id) => ({ id })),
          name.map((n) => ({ filter: { name: n } })),
        ),
      }),
      failureDomain: fc.option(zone, { nil: undefined }),
      // Cluster API's webhook refuses a MachineSet without a bootstrap data secret.
      userDataSecretName: name,
    })
    .filter(({ base }) => base.networkPorts.length + base.ownPorts.length > 0)
    .map(({ base, optional, failureDomain, userDataSecretName }) => {
      const { networkPorts, ownPorts, ...fields } = base;
      const templateSpec: Json = { ...fields, ...optional, ports: [...networkPorts, ...ownPorts] };
      const result: { templateSpec: Json; failureDomain?: string; userDataSecretName?: string } = {
        templateSpec,
      };
      if (failureDomain !== undefined) result.failureDomain = failureDomain;
      if (userDataSecretName !== undefined) result.userDataSecretName = userDataSecretName;
      return result;
    });
}
