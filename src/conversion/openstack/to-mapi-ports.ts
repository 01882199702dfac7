// CAPO `ports[]` → MAPI `networks[]` and `ports[]`. Machine API has two ways to describe a port:
// a network entry (a network by UUID or query, subnets by UUID or query, the cluster's virtual
// IPs as address pairs unless noAllowedAddressPairs) and a port entry (everything by UUID, its
// own address pairs, security groups, name suffix…). It creates the ports of every network entry
// before those of every port entry, so the CAPO list splits into a prefix of network entries and
// a suffix of port entries. Where a port fits both, the split of the current providerSpec is
// kept; without one, network entries come first as far as they can.
import type { JsonObject, ObjectReader } from '../common/field-reader.js';
import { KEEP_ON_CLUSTER_API, readReference, rejectFields } from './to-mapi-filters.js';
import type { MapiReference } from './to-mapi-filters.js';
import { requireUuid } from './filters.js';

export interface PortContext {
  /** The address pairs Machine API gives network ports (none with a user-managed load balancer). */
  vips: readonly string[];
  userManaged: boolean;
  /** How many of the current providerSpec's ports come from its network entries. */
  networkPortsHint?: number;
}

interface FixedIp {
  subnet: MapiReference;
  ipAddress?: string;
}

interface ReadPort {
  path: string;
  network?: MapiReference;
  fixedIPs: FixedIp[];
  pairs: { ipAddress: string; macAddress?: string }[];
  securityGroups: string[];
  tags: string[];
  /** Fields both MAPI forms write the same way. */
  shared: JsonObject;
  /** Fields only a MAPI port entry holds, by their MAPI name. */
  portOnly: JsonObject;
}

type Form = { entry: JsonObject } | { blockers: string[] };

export function reversePorts(
  readers: ObjectReader[],
  context: PortContext,
): { networks: JsonObject[]; ports: JsonObject[] } {
  const read = readers.flatMap((reader) => readPort(reader) ?? []);
  if (read.length !== readers.length) return { networks: [], ports: [] };
  const report = readers[0]?.report;
  const asNetwork = read.map((port) => networkForm(port, context));
  const asPort = read.map((port) => portForm(port, context));
  let failed = false;
  read.forEach((port, index) => {
    const network = asNetwork[index];
    const own = asPort[index];
    if (network === undefined || own === undefined) return;
    if ('blockers' in network && 'blockers' in own) {
      failed = true;
      report?.error(
        port.path,
        `cannot be written in Machine API: as a network entry it cannot hold ` +
          `${network.blockers.join(', ')}; as a port entry it cannot hold ` +
          `${own.blockers.join(', ')}; ${KEEP_ON_CLUSTER_API}.`,
      );
    }
  });
  if (failed) return { networks: [], ports: [] };
  const networkOnly = read.map((_, index) => 'blockers' in (asPort[index] ?? { blockers: [] }));
  const portOnly = read.map((_, index) => 'blockers' in (asNetwork[index] ?? { blockers: [] }));
  const lastNetworkOnly = networkOnly.lastIndexOf(true);
  const firstPortOnly = portOnly.indexOf(true) === -1 ? read.length : portOnly.indexOf(true);
  if (lastNetworkOnly >= firstPortOnly) {
    report?.error(
      read[lastNetworkOnly]?.path ?? '',
      `can only be written as a Machine API network entry, which Machine API attaches before ` +
        `every port entry, but it comes after ${read[firstPortOnly]?.path ?? ''}, which only a ` +
        `port entry can hold; reorder the ports or keep the MachineSet on Cluster API.`,
    );
    return { networks: [], ports: [] };
  }
  const preferred = context.networkPortsHint ?? firstPortOnly;
  const split = Math.min(Math.max(preferred, lastNetworkOnly + 1), firstPortOnly);
  const entry = (form: Form | undefined) =>
    form !== undefined && 'entry' in form ? [form.entry] : [];
  return {
    networks: asNetwork.slice(0, split).flatMap(entry),
    ports: asPort.slice(split).flatMap(entry),
  };
}

function readPort(reader: ObjectReader): ReadPort | undefined {
  const report = reader.report;
  const errorsBefore = report.errors.length;
  const networkReader = reader.object('network');
  const network = networkReader && readReference(networkReader, 'network');
  const fixedIPs = (reader.objects('fixedIPs') ?? []).flatMap(
    (fixedIp) => readFixedIp(fixedIp) ?? [],
  );
  const pairs = (reader.objects('allowedAddressPairs') ?? []).flatMap((pair) => {
    const ipAddress = pair.requiredString('ipAddress', 'set the IP address (or CIDR) to allow.');
    const macAddress = pair.string('macAddress');
    pair.finishToMachineApi({ orKeepOnClusterApi: true });
    if (ipAddress === undefined) return [];
    return [macAddress === undefined ? { ipAddress } : { ipAddress, macAddress }];
  });
  const securityGroups = readPortSecurityGroups(reader);
  const tags = reader.strings('tags') ?? [];
  const shared: JsonObject = {};
  const vnicType = reader.string('vnicType');
  if (vnicType !== undefined) shared.vnicType = vnicType;
  const profile = readProfile(reader.object('profile'));
  if (profile !== undefined) shared.profile = profile;
  const disablePortSecurity = reader.boolean('disablePortSecurity');
  if (disablePortSecurity !== undefined) shared.portSecurity = !disablePortSecurity;
  const portOnly: JsonObject = {};
  for (const key of ['nameSuffix', 'description', 'macAddress'] as const) {
    const value = reader.string(key);
    if (value !== undefined) portOnly[key] = value;
  }
  for (const key of ['adminStateUp', 'trunk'] as const) {
    const value = reader.boolean(key);
    if (value !== undefined) portOnly[key] = value;
  }
  rejectFields(reader, ['hostID', 'propagateUplinkStatus', 'valueSpecs']);
  reader.finishToMachineApi({ orKeepOnClusterApi: true });
  if (report.errors.length > errorsBefore) return undefined;
  if (networkReader === undefined && fixedIPs.length === 0) {
    report.error(
      reader.path,
      "names no network and no fixed IP, so Cluster API attaches it to the cluster's default " +
        `network, which Machine API cannot name; set network or fixedIPs, or ${KEEP_ON_CLUSTER_API}.`,
    );
    return undefined;
  }
  const read: ReadPort = {
    path: reader.path,
    fixedIPs,
    pairs,
    securityGroups,
    tags,
    shared,
    portOnly,
  };
  if (network !== undefined) read.network = network;
  return read;
}

function readFixedIp(fixedIp: ObjectReader): FixedIp | undefined {
  const report = fixedIp.report;
  const errorsBefore = report.errors.length;
  const subnetReader = fixedIp.object('subnet');
  const subnet = subnetReader && readReference(subnetReader, 'subnet');
  const ipAddress = fixedIp.string('ipAddress');
  fixedIp.finishToMachineApi({ orKeepOnClusterApi: true });
  if (report.errors.length > errorsBefore) return undefined;
  if (subnet === undefined) {
    report.error(
      fixedIp.pathOf('subnet'),
      `is not set, but Machine API needs the subnet of every fixed IP; name the subnet or ${KEEP_ON_CLUSTER_API}.`,
    );
    return undefined;
  }
  return ipAddress === undefined ? { subnet } : { subnet, ipAddress };
}

/** A port's security groups: MAPI takes them by UUID only. An empty list is the machine's groups. */
function readPortSecurityGroups(reader: ObjectReader): string[] {
  const groups: string[] = [];
  for (const group of reader.objects('securityGroups') ?? []) {
    const errorsBefore = group.report.errors.length;
    const id = group.string('id');
    if (group.raw('filter') !== undefined) {
      group.report.error(
        group.pathOf('filter'),
        'names a port security group by a filter, but Machine API takes the security groups of a ' +
          `port by UUID only; set the id of the group instead, or ${KEEP_ON_CLUSTER_API}.`,
      );
    }
    group.finishToMachineApi({ orKeepOnClusterApi: true });
    if (group.report.errors.length > errorsBefore) continue;
    if (id === undefined) {
      group.report.error(group.path, 'names no security group; set its id or remove the entry.');
      continue;
    }
    const uuid = requireUuid(id, group.pathOf('id'), 'the security group', group.report);
    if (uuid !== undefined) groups.push(uuid);
  }
  return groups;
}

/** CAPO's binding profile → MAPI's binding:profile strings; a false offload says nothing. */
function readProfile(profile: ObjectReader | undefined): JsonObject | undefined {
  if (profile === undefined) return undefined;
  const converted: JsonObject = {};
  const trustedVF = profile.boolean('trustedVF');
  if (trustedVF !== undefined) converted.trusted = String(trustedVF);
  if (profile.boolean('ovsHWOffload') === true) converted.capabilities = '["switchdev"]';
  profile.finishToMachineApi({ orKeepOnClusterApi: true });
  return Object.keys(converted).length > 0 ? converted : undefined;
}

function vipsApply(port: ReadPort, context: PortContext): boolean {
  return context.vips.length > 0 && port.shared.portSecurity !== false;
}

function hasVipPairs(port: ReadPort, context: PortContext): boolean {
  return (
    port.pairs.length === context.vips.length &&
    port.pairs.every(
      (pair, i) => pair.macAddress === undefined && pair.ipAddress === context.vips[i],
    )
  );
}

function networkForm(port: ReadPort, context: PortContext): Form {
  const blockers = Object.keys(port.portOnly);
  if (port.securityGroups.length > 0) blockers.push('securityGroups');
  if (port.fixedIPs.some((fixedIp) => fixedIp.ipAddress !== undefined)) {
    blockers.push('fixedIPs[].ipAddress');
  }
  const vips = vipsApply(port, context);
  if (port.pairs.length > 0 && !(vips && hasVipPairs(port, context))) {
    blockers.push("allowedAddressPairs other than the cluster's virtual IPs");
  }
  if (port.network === undefined && port.fixedIPs.length > 1) {
    blockers.push('several fixed IPs without a network');
  }
  if (blockers.length > 0) return { blockers };
  const entry: JsonObject = {};
  if (port.network !== undefined) Object.assign(entry, port.network);
  if (port.fixedIPs.length > 0) entry.subnets = port.fixedIPs.map((fixedIp) => fixedIp.subnet);
  if (port.tags.length > 0) entry.portTags = port.tags;
  if (vips && port.pairs.length === 0) entry.noAllowedAddressPairs = true;
  return { entry: { ...entry, ...structuredClone(port.shared) } };
}

function portForm(port: ReadPort, context: PortContext): Form {
  const blockers: string[] = [];
  const networkId =
    port.network !== undefined && 'uuid' in port.network ? port.network.uuid : undefined;
  if (networkId === undefined) blockers.push('a network other than one named by id');
  const fixedIPs = port.fixedIPs.map(({ subnet, ipAddress }) => {
    if (!('uuid' in subnet)) return undefined;
    return ipAddress === undefined
      ? { subnetID: subnet.uuid }
      : { subnetID: subnet.uuid, ipAddress };
  });
  if (fixedIPs.includes(undefined)) blockers.push('a fixed IP subnet named by a filter');
  if (port.pairs.length > 0 && context.userManaged) {
    blockers.push('allowedAddressPairs (ignored with a user-managed load balancer)');
  }
  if (port.shared.portSecurity === false) {
    if (port.securityGroups.length > 0) blockers.push('securityGroups with port security disabled');
    if (port.pairs.length > 0) blockers.push('allowedAddressPairs with port security disabled');
  }
  if (blockers.length > 0) return { blockers };
  const entry: JsonObject = { networkID: networkId, ...port.portOnly };
  if (fixedIPs.length > 0) entry.fixedIPs = fixedIPs;
  if (port.securityGroups.length > 0) entry.securityGroups = [...port.securityGroups];
  if (port.pairs.length > 0) entry.allowedAddressPairs = structuredClone(port.pairs);
  if (port.tags.length > 0) entry.tags = [...port.tags];
  return { entry: { ...entry, ...structuredClone(port.shared) } };
}
