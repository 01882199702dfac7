// CAPI → MAPI: a VSphereMachineTemplate's network devices as the providerSpec's. Machine API
// takes a device's addresses by DHCP unless it names IP pools, and then only from the pools, so a
// device must do one or the other; what a device can say beyond that (routes, MTU, MAC address,
// DHCP overrides, …) has no Machine API field.
import {
  describeValue,
  type JsonObject,
  type ObjectReader,
  withoutUndefined,
} from '../common/field-reader.js';

/** Device fields Machine API has no equivalent for, refused when they hold anything. */
const DEVICE_FIELDS_WITHOUT_EQUIVALENT = [
  'deviceName',
  'macAddr',
  'mtu',
  'routes',
  'searchDomains',
  'dhcp4Overrides',
  'dhcp6Overrides',
  'skipIPAllocation',
] as const;

export function networkToMapi(network: ObjectReader): { devices: JsonObject[] } | undefined {
  const { report } = network;
  const errorsBefore = report.errors.length;
  const devices = network.objects('devices');
  if (devices === undefined || devices.length === 0) {
    if (report.errors.length === errorsBefore) {
      report.error(
        network.pathOf('devices'),
        'is required: a Machine API machine has at least one network device; add one with ' +
          'the networkName of its port group.',
      );
    }
    return undefined;
  }
  const converted = devices.map(deviceToMapi);
  if (report.errors.length > errorsBefore) return undefined;
  return { devices: converted };
}

function deviceToMapi(device: ObjectReader): JsonObject {
  const networkName = device.requiredString(
    'networkName',
    'set it to the port group the device connects to.',
  );
  const gateway = gatewayToMapi(device);
  const nameservers = device.strings('nameservers');
  const pools = device.objects('addressesFromPools')?.map(poolToMapi) ?? [];
  refuseIpAddrs(device);
  checkDhcp(device, pools.length > 0);
  refuseWithoutEquivalent(device, DEVICE_FIELDS_WITHOUT_EQUIVALENT);
  device.finishToMachineApi({ orKeepOnClusterApi: true });
  return withoutUndefined({
    networkName,
    gateway,
    nameservers: nameservers?.length ? nameservers : undefined,
    addressesFromPools: pools.length > 0 ? pools : undefined,
  });
}

function gatewayToMapi(device: ObjectReader): string | undefined {
  const gateway4 = device.string('gateway4');
  const gateway6 = device.string('gateway6');
  if (gateway4 !== undefined && gateway6 !== undefined) {
    device.report.error(
      device.pathOf('gateway6'),
      'is set beside gateway4, but a Machine API network device has one gateway, of either ' +
        'family; keep one of them, or keep the MachineSet on Cluster API.',
    );
  }
  return gateway4 ?? gateway6;
}

/**
 * Machine API uses DHCP exactly when a device names no IP pool; which families CAPV is told to
 * wait for does not change the VM (RHCOS asks for both), so any is accepted.
 */
function checkDhcp(device: ObjectReader, fromPools: boolean): void {
  const dhcp4 = device.boolean('dhcp4') ?? false;
  const dhcp6 = device.boolean('dhcp6') ?? false;
  if (fromPools && (dhcp4 || dhcp6)) {
    device.report.error(
      device.pathOf(dhcp4 ? 'dhcp4' : 'dhcp6'),
      'is true beside addressesFromPools, but Machine API configures a device with addresses ' +
        'from IP pools statically, without DHCP; set it to false, or keep the MachineSet on ' +
        'Cluster API.',
    );
  } else if (!fromPools && !dhcp4 && !dhcp6) {
    device.report.error(
      device.pathOf('dhcp4'),
      'is not set, nor dhcp6, and the device names no IP pool, so Cluster API would wait for ' +
        'addresses nobody assigns, while Machine API would use DHCP; set dhcp4 (or dhcp6) to ' +
        'true, or name an IP pool in addressesFromPools.',
    );
  }
}

/** `{apiGroup, kind, name}` → `{group, resource, name}` (Machine API claims from `resource` as the kind). */
function poolToMapi(pool: ObjectReader): JsonObject {
  const group = pool.requiredString(
    'apiGroup',
    'set it to the API group of the IP pool: Machine API claims addresses only from pools of an API group.',
  );
  const resource = pool.requiredString('kind', 'set it to the kind of the IP pool.');
  const name = pool.requiredString('name', 'set it to the name of the IP pool.');
  pool.finishToMachineApi({ orKeepOnClusterApi: true });
  return { group, resource, name };
}

/** Static addresses of one machine, refused both ways: a template cannot hold them. */
function refuseIpAddrs(device: ObjectReader): void {
  const ipAddrs = device.raw('ipAddrs');
  if (isEmpty(ipAddrs)) return;
  device.report.error(
    device.pathOf('ipAddrs'),
    'sets static addresses, which the way back to Cluster API refuses (a machine template ' +
      'cannot hold them); take the addresses from an IP pool (addressesFromPools), or keep the ' +
      'machine on Cluster API.',
  );
}

/** What the admission policy counts as not set: absent, null, "", false, 0, [] or {}. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === false || value === 0) {
    return true;
  }
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/** Reports each of `keys` that holds something, as a field Machine API has no equivalent for. */
export function refuseWithoutEquivalent(reader: ObjectReader, keys: readonly string[]): void {
  for (const key of keys) {
    const value = reader.raw(key);
    if (isEmpty(value)) continue;
    reader.report.error(
      reader.pathOf(key),
      `is ${describeValue(value)}, but Machine API has no equivalent for it; remove it, or keep ` +
        'the MachineSet on Cluster API.',
    );
  }
}
