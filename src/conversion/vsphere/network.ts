// MAPI → CAPI: the VM's network devices. Each device keeps its port group, nameservers and IP
// address pools; its gateway goes to gateway4 or gateway6 by its family. A device without static
// addresses or pools gets its addresses by DHCP in Machine API (RHCOS asks for them itself), which
// CAPV must be told, or it waits for addresses forever.
//
// Machine API hands static settings (pools, gateway, nameservers) to RHCOS as afterburn kernel
// arguments; CAPV writes them only as cloud-init metadata, which RHCOS does not read. So they
// convert, but they block a migration (staticNetworkBlockers).
import { isIP } from 'node:net';
import {
  isJsonObject,
  type JsonObject,
  type ObjectReader,
  withoutUndefined,
} from '../common/field-reader.js';
import { quote } from '../common/quote.js';
import type { ConversionContext, FieldError } from '../types.js';
import { dhcpFamilies, type VSphereCluster } from './cluster.js';
import { MAX_NETWORK_DEVICES, MAX_NETWORK_NAME } from './names.js';

export function convertNetwork(
  spec: ObjectReader,
  cluster: VSphereCluster,
): { devices: JsonObject[] } | undefined {
  const network = spec.objectOrEmpty('network');
  if (network === undefined) return undefined;
  const errorsBefore = spec.report.errors.length;
  const devices = network.objects('devices');
  network.finish();
  if (devices === undefined || devices.length === 0) {
    if (spec.report.errors.length === errorsBefore) {
      spec.report.error(
        network.pathOf('devices'),
        'is required: every machine has at least one network device; add one with the ' +
          'networkName of its port group.',
      );
    }
    return undefined;
  }
  if (devices.length > MAX_NETWORK_DEVICES) {
    spec.report.error(
      network.pathOf('devices'),
      `has ${devices.length} devices, more than the ${MAX_NETWORK_DEVICES} a vSphere VM can have; remove some.`,
    );
  }
  const converted = devices.map((device) => convertDevice(device, cluster));
  if (converted.some((d) => d === undefined)) return undefined;
  return { devices: converted as JsonObject[] };
}

function convertDevice(device: ObjectReader, cluster: VSphereCluster): JsonObject | undefined {
  const { report } = device;
  const errorsBefore = report.errors.length;
  const networkName = device.requiredString(
    'networkName',
    'set it to the port group the device connects to (Cluster API requires it).',
  );
  if (networkName !== undefined && networkName.length > MAX_NETWORK_NAME) {
    report.error(
      device.pathOf('networkName'),
      `is ${quote(networkName)}, longer than the ${MAX_NETWORK_NAME} characters of a port group name; correct it.`,
    );
  }
  refuseStaticAddresses(device);
  const gateway = convertGateway(device);
  const nameservers = convertAddresses(device, 'nameservers');
  const pools = device.objects('addressesFromPools')?.map(convertPool) ?? [];
  device.finish();
  if (report.errors.length > errorsBefore) return undefined;
  const byDhcp = pools.length === 0;
  return withoutUndefined({
    networkName,
    ...(byDhcp ? dhcpFamilies(cluster) : {}),
    ...gateway,
    nameservers: nameservers?.length ? nameservers : undefined,
    addressesFromPools: pools.length > 0 ? pools : undefined,
  });
}

/** A template cannot hold addresses: every machine made from it would have the same. */
function refuseStaticAddresses(device: ObjectReader): void {
  const ipAddrs = device.strings('ipAddrs');
  if (ipAddrs === undefined || ipAddrs.length === 0) return;
  device.report.error(
    device.pathOf('ipAddrs'),
    `sets ${ipAddrs.length === 1 ? 'a static address' : 'static addresses'}, which Cluster ` +
      "API's vSphere provider refuses in a machine template and hands to the guest in a form " +
      'RHCOS does not read; take the addresses from an IP pool (addressesFromPools), or keep ' +
      'this on Machine API.',
  );
}

function convertGateway(device: ObjectReader): { gateway4?: string; gateway6?: string } {
  const gateway = device.string('gateway');
  if (gateway === undefined) return {};
  const family = isIP(gateway);
  if (family === 4) return { gateway4: gateway };
  if (family === 6) return { gateway6: gateway };
  device.report.error(
    device.pathOf('gateway'),
    `is ${quote(gateway)}, which is not an IPv4 or IPv6 address; set the subnet's gateway address.`,
  );
  return {};
}

function convertAddresses(device: ObjectReader, key: string): string[] | undefined {
  const values = device.strings(key);
  values?.forEach((value, index) => {
    if (isIP(value) === 0) {
      device.report.error(
        `${device.pathOf(key)}[${index}]`,
        `is ${quote(value)}, which is not an IPv4 or IPv6 address; correct it.`,
      );
    }
  });
  return values;
}

/**
 * `{group, resource, name}` → `{apiGroup, kind, name}`: Machine API puts `resource` into its
 * IPAddressClaims' poolRef.kind (the installer writes the kind, e.g. IPPool), as CAPV puts `kind`.
 */
function convertPool(pool: ObjectReader): JsonObject {
  const apiGroup = pool.requiredString(
    'group',
    'set it to the API group of the IP pool, e.g. ipamcontroller.openshift.io.',
  );
  const kind = pool.requiredString('resource', 'set it to the kind of the IP pool, e.g. IPPool.');
  const name = pool.requiredString('name', 'set it to the name of the IP pool.');
  pool.finish();
  return { apiGroup, kind, name };
}

const STATIC_FIELDS = ['addressesFromPools', 'gateway', 'nameservers'] as const;

/**
 * The static network settings of a providerSpec: Cluster API would create machines without
 * them. Machine API passes them to RHCOS as afterburn kernel arguments
 * (guestinfo.afterburn.initrd.network-kargs); CAPV v1.15 only as cloud-init metadata
 * (guestinfo.metadata), which RHCOS does not read.
 */
export function staticNetworkBlockers(
  providerSpec: unknown,
  context: ConversionContext,
): FieldError[] {
  const network = isJsonObject(providerSpec) ? providerSpec.network : undefined;
  const devices = isJsonObject(network) ? network.devices : undefined;
  if (!Array.isArray(devices)) return [];
  return devices.flatMap((device: unknown, index) =>
    STATIC_FIELDS.filter((key) => isSet(isJsonObject(device) ? device[key] : undefined)).map(
      (key) => ({
        path: `${context.path}.network.devices[${index}].${key}`,
        message:
          'is a static network setting, which Machine API passes to RHCOS as afterburn kernel ' +
          "arguments, while Cluster API's vSphere provider passes it as cloud-init metadata " +
          'that RHCOS does not read: machines Cluster API creates would come up without it; ' +
          'keep this MachineSet on Machine API.',
      }),
    ),
  );
}

function isSet(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return typeof value === 'string' ? value !== '' : value !== undefined && value !== null;
}
