// fast-check generators for the vSphere round trips: valid MAPI providerSpecs over every field
// the forward converter accepts (in every spelling it accepts: Go's empty values included), and
// template specs over every template field that has a Machine API equivalent, in the form the
// forward converter writes them and in the other forms CAPV takes.
import fc from 'fast-check';
import { TAG, VCENTER } from './support.js';

export type Json = Record<string, unknown>;

/** The keys whose value is undefined removed, as a JSON document has them. */
export function compact(fields: Json): Json {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

const name = fc.stringMatching(/^[a-z0-9][-a-z0-9]{0,11}$/);
const path = fc.stringMatching(/^\/DC[0-9]\/[a-z]{1,6}\/[-a-zA-Z0-9 _]{1,12}$/);
const ipv4 = fc.ipV4();
const ipv6 = fc.ipV6();
const tag = fc
  .uuid()
  .map((uuid) => `urn:vmomi:InventoryServiceTag:${uuid}:GLOBAL`)
  .chain((urn) => fc.constantFrom(urn, TAG));

/** Absent, or Go's empty value, or a value: what an omitempty field looks like. */
function optional<T>(value: fc.Arbitrary<T>, empty: T): fc.Arbitrary<T | undefined> {
  return fc.oneof(fc.constant(undefined), fc.constant(empty), value);
}

const mapiPool = fc.record({
  group: fc.constantFrom('ipamcontroller.openshift.io', 'ipam.cluster.x-k8s.io'),
  resource: fc.constantFrom('IPPool', 'InClusterIPPool', 'GlobalInClusterIPPool'),
  name,
});

const mapiDevice = fc
  .record({
    networkName: name,
    gateway: optional(fc.oneof(ipv4, ipv6), ''),
    nameservers: optional(fc.array(fc.oneof(ipv4, ipv6), { minLength: 1, maxLength: 3 }), []),
    addressesFromPools: optional(fc.array(mapiPool, { minLength: 1, maxLength: 2 }), []),
    ipAddrs: fc.constantFrom(undefined, []),
  })
  .map(compact);

const dataDisks = fc.uniqueArray(
  fc
    .record({
      name: fc.stringMatching(/^[a-zA-Z0-9]([-_a-zA-Z0-9]{0,10}[a-zA-Z0-9])?$/),
      sizeGiB: fc.integer({ min: 1, max: 16384 }),
      provisioningMode: fc.constantFrom(undefined, 'Thin', 'Thick', 'EagerlyZeroed'),
    })
    .map(compact),
  { minLength: 1, maxLength: 3, selector: (disk) => disk.name },
);

const workspace = fc
  .record({
    server: fc.constant(VCENTER),
    datacenter: optional(fc.constantFrom('DC0', 'DC1'), ''),
    folder: optional(path, ''),
    datastore: optional(path, ''),
    resourcePool: optional(path, ''),
    vmGroup: fc.constantFrom(undefined, ''),
  })
  .map(compact);

/** A MAPI providerSpec the forward converter accepts. */
export const mapiProviderSpec: fc.Arbitrary<Json> = fc
  .record({
    apiVersion: fc.constantFrom(undefined, 'machine.openshift.io/v1beta1'),
    kind: fc.constantFrom(undefined, 'VSphereMachineProviderSpec'),
    metadata: fc.constantFrom(undefined, { creationTimestamp: null }, { labels: { a: 'b' } }),
    template: fc.oneof(name, path),
    cloneMode: fc.constantFrom(undefined, '', 'fullClone', 'linkedClone'),
    snapshot: optional(name, ''),
    workspace,
    network: fc.record({ devices: fc.array(mapiDevice, { minLength: 1, maxLength: 3 }) }),
    numCPUs: fc.integer({ min: 2, max: 128 }),
    numCoresPerSocket: optional(fc.integer({ min: 1, max: 64 }), 0),
    memoryMiB: fc.integer({ min: 1, max: 4 * 1024 * 1024 }),
    diskGiB: optional(fc.integer({ min: 1, max: 4096 }), 0),
    tagIDs: optional(fc.array(tag, { minLength: 1, maxLength: 10 }), []),
    dataDisks: optional(dataDisks, []),
    userDataSecret: fc.constantFrom(
      undefined,
      { name: '' },
      { name: 'worker-user-data' },
      {
        name: 'infra-user-data',
      },
    ),
    credentialsSecret: fc.constantFrom(
      undefined,
      {},
      { name: '' },
      {
        name: 'vsphere-cloud-credentials',
      },
    ),
  })
  .map(compact);

const capvPool = fc.record({
  apiGroup: fc.constantFrom('ipamcontroller.openshift.io', 'ipam.cluster.x-k8s.io'),
  kind: fc.constantFrom('IPPool', 'InClusterIPPool'),
  name,
});

/** A device as the forward converter writes it (IPv4 cluster: DHCP is dhcp4). */
const capvDevice = fc
  .record({
    networkName: name,
    gateway: fc.constantFrom(undefined, 'gateway4', 'gateway6'),
    nameservers: fc.option(fc.array(fc.oneof(ipv4, ipv6), { minLength: 1, maxLength: 3 }), {
      nil: undefined,
    }),
    addressesFromPools: fc.option(fc.array(capvPool, { minLength: 1, maxLength: 2 }), {
      nil: undefined,
    }),
  })
  .chain((device) =>
    fc.tuple(ipv4, ipv6).map(([v4, v6]) =>
      compact({
        networkName: device.networkName,
        dhcp4: device.addressesFromPools ? undefined : true,
        gateway4: device.gateway === 'gateway4' ? v4 : undefined,
        gateway6: device.gateway === 'gateway6' ? v6 : undefined,
        nameservers: device.nameservers,
        addressesFromPools: device.addressesFromPools,
      }),
    ),
  );

/** A template spec as the forward converter writes it. */
export const templateSpec: fc.Arbitrary<Json> = fc
  .record({
    template: fc.oneof(name, path),
    cloneMode: fc.constantFrom('fullClone', 'linkedClone'),
    snapshot: fc.option(name, { nil: undefined }),
    server: fc.constant(VCENTER),
    datacenter: fc.constantFrom('*', 'DC0'),
    folder: fc.option(path, { nil: undefined }),
    datastore: fc.option(path, { nil: undefined }),
    resourcePool: fc.option(path, { nil: undefined }),
    network: fc.record({ devices: fc.array(capvDevice, { minLength: 1, maxLength: 3 }) }),
    numCPUs: fc.integer({ min: 2, max: 128 }),
    numCoresPerSocket: fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined }),
    memoryMiB: fc.integer({ min: 1, max: 4 * 1024 * 1024 }),
    diskGiB: fc.option(fc.integer({ min: 1, max: 4096 }), { nil: undefined }),
    tagIDs: fc.option(fc.array(tag, { minLength: 1, maxLength: 10 }), { nil: undefined }),
    dataDisks: fc.option(dataDisks, { nil: undefined }),
    powerOffMode: fc.constant('hard'),
  })
  .map(compact);

/** The same with what CAPV reads the same way spelled otherwise, or left to its defaults. */
export const looseTemplateSpec: fc.Arbitrary<Json> = fc
  .tuple(
    templateSpec,
    fc.record(
      {
        cloneMode: fc.constant(undefined),
        server: fc.constant(undefined),
        datacenter: fc.constant(undefined),
        numCPUs: fc.constantFrom(undefined, 0, 1),
        memoryMiB: fc.constantFrom(undefined, 0),
        powerOffMode: fc.constant(undefined),
        os: fc.constant('Linux'),
        thumbprint: fc.constant(''),
        customVMXKeys: fc.constant({}),
        dhcp6: fc.constant(true),
      },
      { requiredKeys: [] },
    ),
  )
  .map(([spec, loose]) => {
    const { dhcp6, ...fields } = loose;
    const merged: Json = { ...spec, ...fields };
    if (dhcp6) {
      const { devices } = spec.network as { devices: Json[] };
      merged.network = {
        devices: devices.map((d) => (d.dhcp4 ? compact({ ...d, dhcp4: undefined, dhcp6 }) : d)),
      };
    }
    return compact(merged);
  });
