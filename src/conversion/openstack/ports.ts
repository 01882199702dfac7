// MAPI `networks[]` and `ports[]` → CAPO `ports[]`, in that order (Machine API creates the
// ports of `networks` first). The rules follow what Machine API does with a NetworkParam:
// - a network named by uuid or filter makes one port, with a fixed IP on each listed subnet;
// - subnets without a network make one port per subnet (the network is the subnet's);
// - an entry naming neither makes no port at all;
// - unless noAllowedAddressPairs, the port lets the cluster's API and ingress virtual IPs
//   (from the Infrastructure status) through, so keepalived can move them to the machine;
// - with a user-managed load balancer the cluster runs no keepalived: no port gets any allowed
//   address pair, neither the virtual IPs nor those listed in ports[].
import {
  describeValue,
  isJsonObject,
  type JsonObject,
  type ObjectReader,
} from '../common/field-reader.js';
import {
  dropIgnoredFields,
  readNetworkTarget,
  readSubnet,
  requireUuid,
  unique,
  type CapoReference,
} from './filters.js';
import type { Infrastructure } from '../../api/types.js';
import { quote } from '../common/quote.js';

export type CapoPort = JsonObject;

/** Binding profile keys CAPO can express, and what it calls them. */
const PROFILE_TRUSTED = 'trusted';
const PROFILE_CAPABILITIES = 'capabilities';
const SWITCHDEV = 'switchdev';

/** `status.platformStatus.openstack.loadBalancer.type` that keeps the VIPs out of the cluster. */
const USER_MANAGED = 'UserManaged';

/**
 * True when the cluster's API and ingress load balancer is the user's own: Machine API then adds
 * no allowed address pairs to any port, since no keepalived moves the virtual IPs to the nodes.
 */
export function userManagedLoadBalancer(infrastructure: Infrastructure): boolean {
  const openstack = infrastructure.status?.platformStatus?.openstack;
  if (!isJsonObject(openstack)) return false;
  const loadBalancer = openstack.loadBalancer;
  return isJsonObject(loadBalancer) && loadBalancer.type === USER_MANAGED;
}

/**
 * The cluster's API and ingress virtual IPs, as Machine API reads them from
 * `status.platformStatus.openstack` (the lists, or the deprecated single fields), for the
 * address pairs of network ports; none with a user-managed load balancer.
 */
export function virtualIps(infrastructure: Infrastructure): string[] {
  const openstack = infrastructure.status?.platformStatus?.openstack;
  if (!isJsonObject(openstack) || userManagedLoadBalancer(infrastructure)) return [];
  const read = (plural: string, singular: string): string[] => {
    const list = openstack[plural];
    if (Array.isArray(list)) return list.filter((ip): ip is string => typeof ip === 'string');
    const single = openstack[singular];
    return typeof single === 'string' ? [single] : [];
  };
  return unique([
    ...read('apiServerInternalIPs', 'apiServerInternalIP'),
    ...read('ingressIPs', 'ingressIP'),
  ]).filter((ip) => ip !== '');
}

/** Converts `networks[]`; `vips` are the address pairs its ports get by default. */
export function convertNetworks(
  networks: ObjectReader[] | undefined,
  vips: readonly string[],
): CapoPort[] {
  return (networks ?? []).flatMap((network) => convertNetwork(network, vips));
}

function convertNetwork(network: ObjectReader, vips: readonly string[]): CapoPort[] {
  const report = network.report;
  const errorsBefore = report.errors.length;
  const target = readNetworkTarget(network);
  const subnets = (network.objects('subnets') ?? []).map(readSubnet);
  const noAllowedAddressPairs = network.boolean('noAllowedAddressPairs') ?? false;
  const portTags = network.strings('portTags') ?? [];
  const vnicType = network.string('vnicType');
  const profile = convertProfile(network.object('profile'));
  const portSecurity = network.boolean('portSecurity');
  dropIgnoredFields(network, { fixedIp: 'string' });
  network.finish();
  if (report.errors.length > errorsBefore) return [];

  if (!target.named && subnets.length === 0) {
    report.warn(
      `${network.path} names no network and no subnet, so Machine API creates no port for it; ` +
        'it is not converted.',
    );
    return [];
  }
  const common: JsonObject = {};
  // Neutron refuses address pairs on a port without port security; CAPO leaves them out there.
  if (!noAllowedAddressPairs && portSecurity !== false && vips.length > 0) {
    common.allowedAddressPairs = vips.map((ipAddress) => ({ ipAddress }));
  }
  if (vnicType !== undefined) common.vnicType = vnicType;
  if (profile !== undefined) common.profile = profile;
  if (portSecurity !== undefined) common.disablePortSecurity = !portSecurity;

  if (target.network === undefined) {
    // Subnets only: one port per subnet; CAPO finds the network from the subnet.
    return subnets.map((subnet) =>
      port(undefined, [subnet.subnet], [...portTags, ...subnet.portTags], common),
    );
  }
  return [
    port(
      target.network,
      subnets.map((subnet) => subnet.subnet),
      [...portTags, ...subnets.flatMap((subnet) => subnet.portTags)],
      common,
    ),
  ];
}

function port(
  network: CapoReference | undefined,
  subnets: (CapoReference | undefined)[],
  tags: string[],
  common: JsonObject,
): CapoPort {
  const converted: CapoPort = {};
  if (network !== undefined) converted.network = network;
  const fixedIPs = subnets.flatMap((subnet) => (subnet === undefined ? [] : [{ subnet }]));
  if (fixedIPs.length > 0) converted.fixedIPs = fixedIPs;
  if (tags.length > 0) converted.tags = unique(tags);
  return { ...converted, ...structuredClone(common) };
}

/**
 * Converts `ports[]` (Machine API's PortOpts), which map one to one. `dropAddressPairs`: the
 * load balancer is user-managed, so Machine API ignores every port's allowed address pairs.
 */
export function convertPorts(
  ports: ObjectReader[] | undefined,
  dropAddressPairs: boolean,
): CapoPort[] {
  return (ports ?? []).flatMap((reader): CapoPort[] => {
    const converted = convertPort(reader, dropAddressPairs);
    return converted === undefined ? [] : [converted];
  });
}

function convertPort(reader: ObjectReader, dropAddressPairs: boolean): CapoPort | undefined {
  const report = reader.report;
  const errorsBefore = report.errors.length;
  const converted: CapoPort = {};

  const networkId = reader.string('networkID');
  if (networkId === undefined) {
    if (report.errors.length === errorsBefore) {
      report.error(reader.pathOf('networkID'), 'is required; set the UUID of the port network.');
    }
  } else {
    const id = requireUuid(networkId, reader.pathOf('networkID'), 'the network', report);
    if (id !== undefined) converted.network = { id };
  }
  for (const key of ['nameSuffix', 'description'] as const) {
    const value = reader.string(key);
    if (value !== undefined) converted[key] = value;
  }
  const adminStateUp = reader.boolean('adminStateUp');
  if (adminStateUp !== undefined) converted.adminStateUp = adminStateUp;
  const macAddress = reader.string('macAddress');
  if (macAddress !== undefined) converted.macAddress = macAddress;
  const fixedIPs = reader.objects('fixedIPs')?.flatMap((fixedIp) => convertFixedIp(fixedIp) ?? []);
  if (fixedIPs !== undefined && fixedIPs.length > 0) converted.fixedIPs = fixedIPs;
  const securityGroups = convertPortSecurityGroups(reader);
  if (securityGroups !== undefined) converted.securityGroups = securityGroups;
  const pairs = reader.objects('allowedAddressPairs')?.flatMap((pair) => convertPair(pair) ?? []);
  if (pairs !== undefined && pairs.length > 0) {
    if (dropAddressPairs) {
      report.warn(
        `${reader.pathOf('allowedAddressPairs')} is ignored by Machine API because the cluster's ` +
          'load balancer is user-managed (loadBalancer.type UserManaged), so it is not converted.',
      );
    } else converted.allowedAddressPairs = pairs;
  }
  const tags = reader.strings('tags');
  if (tags !== undefined && tags.length > 0) converted.tags = unique(tags);
  const vnicType = reader.string('vnicType');
  if (vnicType !== undefined) converted.vnicType = vnicType;
  const profile = convertProfile(reader.object('profile'));
  if (profile !== undefined) converted.profile = profile;
  const portSecurity = reader.boolean('portSecurity');
  if (portSecurity !== undefined) converted.disablePortSecurity = !portSecurity;
  const trunk = reader.boolean('trunk');
  if (trunk !== undefined) converted.trunk = trunk;
  dropIgnoredFields(reader, { tenantID: 'string', projectID: 'string', hostID: 'string' });
  reader.finish();

  if (portSecurity === false) {
    for (const key of ['securityGroups', 'allowedAddressPairs'] as const) {
      if (converted[key] === undefined) continue;
      report.error(
        reader.pathOf(key),
        'cannot be combined with portSecurity false, which turns security off on the port; ' +
          `remove ${key} or enable port security.`,
      );
    }
  }
  return report.errors.length > errorsBefore ? undefined : converted;
}

function convertFixedIp(fixedIp: ObjectReader): JsonObject | undefined {
  const report = fixedIp.report;
  const errorsBefore = report.errors.length;
  const subnetId = fixedIp.string('subnetID');
  const ipAddress = fixedIp.string('ipAddress');
  fixedIp.finish();
  if (subnetId === undefined) {
    if (report.errors.length === errorsBefore) {
      report.error(fixedIp.pathOf('subnetID'), 'is required; set the UUID of the subnet.');
    }
    return undefined;
  }
  const id = requireUuid(subnetId, fixedIp.pathOf('subnetID'), 'the subnet', report);
  if (id === undefined) return undefined;
  return ipAddress === undefined ? { subnet: { id } } : { subnet: { id }, ipAddress };
}

/**
 * A port's own security group UUIDs. Absent and empty both mean "the machine's groups": Machine
 * API and CAPO alike give a port that resolves to no group of its own the machine's groups, so
 * an empty list is left out (CAPO's field is omitempty and reads the same).
 */
function convertPortSecurityGroups(reader: ObjectReader): { id: string }[] | undefined {
  const items = reader.items('securityGroups');
  if (items === undefined || items.length === 0) return undefined;
  const groups: { id: string }[] = [];
  for (const { value, path } of items) {
    if (typeof value !== 'string') {
      reader.report.error(path, `must be a security group UUID, but is ${describeValue(value)}.`);
      continue;
    }
    const id = requireUuid(value, path, 'the security group', reader.report);
    if (id !== undefined) groups.push({ id });
  }
  return groups;
}

function convertPair(pair: ObjectReader): JsonObject | undefined {
  const report = pair.report;
  const errorsBefore = report.errors.length;
  const ipAddress = pair.string('ipAddress');
  const macAddress = pair.string('macAddress');
  pair.finish();
  if (ipAddress === undefined) {
    if (report.errors.length === errorsBefore) {
      report.error(
        pair.pathOf('ipAddress'),
        'is required; Neutron needs the IP address (or CIDR) of every allowed address pair.',
      );
    }
    return undefined;
  }
  return macAddress === undefined ? { ipAddress } : { ipAddress, macAddress };
}

/**
 * Machine API passes `profile` to Neutron as the port's binding:profile. CAPO only knows the
 * two uses that work: trusted virtual functions and OVS hardware offload (capability switchdev).
 */
function convertProfile(
  profile: ObjectReader | undefined,
): { trustedVF?: boolean; ovsHWOffload?: boolean } | undefined {
  if (profile === undefined) return undefined;
  const report = profile.report;
  const converted: { trustedVF?: boolean; ovsHWOffload?: boolean } = {};
  for (const [key, value] of Object.entries(profile.takeAll())) {
    const path = profile.pathOf(key);
    if (typeof value !== 'string') {
      report.error(path, `must be a string, but is ${describeValue(value)}.`);
      continue;
    }
    if (key === PROFILE_TRUSTED) {
      const trusted = value.toLowerCase();
      if (trusted === 'true' || trusted === 'false') converted.trustedVF = trusted === 'true';
      else report.error(path, `is ${quote(value)}; set it to "true" or "false".`);
    } else if (key === PROFILE_CAPABILITIES) {
      const capabilities = value.split(/[^A-Za-z0-9_-]+/).filter((c) => c !== '');
      if (capabilities.length > 0 && capabilities.every((c) => c === SWITCHDEV)) {
        converted.ovsHWOffload = true;
      } else {
        report.error(
          path,
          `is ${quote(value)}, but Cluster API can only request the ${SWITCHDEV} ` +
            `capability (OVS hardware offload); set it to "[${SWITCHDEV}]" or remove it.`,
        );
      }
    } else {
      report.error(
        path,
        'is a binding profile key Cluster API cannot set; it supports only "trusted" (trusted ' +
          'virtual functions) and "capabilities" with switchdev (OVS hardware offload), so remove it.',
      );
    }
  }
  return Object.keys(converted).length > 0 ? converted : undefined;
}
