// CAPZ `networkInterfaces` (or the deprecated top-level `subnetName` and
// `acceleratedNetworking`), `allocatePublicIP` and the other networking fields → MAPI `subnet`,
// `acceleratedNetworking` and `publicIP`. Machine API gives each machine exactly one network
// interface with one IP configuration.
import type { ObjectReader } from '../common/field-reader.js';
import { KEEP_ON_CLUSTER_API, type TemplateReport } from './template-report.js';

export interface ReversedNetwork {
  subnet?: string;
  acceleratedNetworking: boolean;
  publicIP: boolean;
}

interface InterfaceFields {
  subnetName?: string;
  acceleratedNetworking?: boolean;
  /** Where the subnet name is (or belongs), for messages. */
  subnetPath: string;
  acceleratedNetworkingPath: string;
}

export function reverseNetwork(spec: ObjectReader, report: TemplateReport): ReversedNetwork {
  const nic = readInterface(spec, report);
  const publicIP = spec.boolean('allocatePublicIP') ?? false;
  if (spec.boolean('enableIPForwarding') === true) {
    report.noEquivalent(
      spec.pathOf('enableIPForwarding'),
      'lets the network interface forward traffic addressed to other hosts',
    );
  }
  const dnsServers = spec.strings('dnsServers');
  if (dnsServers !== undefined && dnsServers.length > 0) {
    report.noEquivalent(spec.pathOf('dnsServers'), 'sets DNS servers on the network interface');
  }
  if (nic.subnetName === undefined) {
    report.error(
      nic.subnetPath,
      "is not set, so CAPZ uses the cluster's node subnet, which Machine API cannot look up; name the subnet of the machines' network interface.",
    );
  }
  if (nic.acceleratedNetworking === undefined) {
    report.warn(
      `${nic.acceleratedNetworkingPath} is not set, so CAPZ enables accelerated networking when ` +
        'the VM size supports it, which Machine API cannot express; the Machine API ' +
        'MachineSet says false (set the field in the template to choose).',
    );
  }
  const network: ReversedNetwork = {
    acceleratedNetworking: nic.acceleratedNetworking ?? false,
    publicIP,
  };
  if (nic.subnetName !== undefined) network.subnet = nic.subnetName;
  return network;
}

function readInterface(spec: ObjectReader, report: TemplateReport): InterfaceFields {
  const interfaces = spec.objects('networkInterfaces') ?? [];
  const legacySubnet = spec.string('subnetName');
  const legacyAcceleratedNetworking = spec.boolean('acceleratedNetworking');
  const [first, ...others] = interfaces;
  if (first === undefined) {
    // The fields CAPZ's webhook moves into the first network interface.
    return {
      subnetName: legacySubnet,
      acceleratedNetworking: legacyAcceleratedNetworking,
      subnetPath: spec.pathOf('subnetName'),
      acceleratedNetworkingPath: spec.pathOf('acceleratedNetworking'),
    };
  }
  for (const [key, value] of [
    ['subnetName', legacySubnet],
    ['acceleratedNetworking', legacyAcceleratedNetworking],
  ] as const) {
    if (value === undefined) continue;
    report.error(
      spec.pathOf(key),
      'is set together with networkInterfaces, which CAPZ refuses; move it into networkInterfaces[0].',
    );
  }
  if (others.length > 0) {
    for (const other of others) other.takeAll();
    report.error(
      spec.pathOf('networkInterfaces'),
      `has ${interfaces.length} network interfaces, but Machine API gives each machine one; keep one, or ${KEEP_ON_CLUSTER_API}.`,
    );
  }
  const subnetName = first.string('subnetName');
  const acceleratedNetworking = first.boolean('acceleratedNetworking');
  const ipConfigs = first.integer('privateIPConfigs');
  first.finishToMachineApi({ orKeepOnClusterApi: true });
  if (ipConfigs !== undefined && ipConfigs > 1) {
    report.error(
      first.pathOf('privateIPConfigs'),
      `is ${ipConfigs}, but Machine API gives a network interface one IP configuration; set it to 1, or ${KEEP_ON_CLUSTER_API}.`,
    );
  }
  return {
    subnetName,
    acceleratedNetworking,
    subnetPath: first.pathOf('subnetName'),
    acceleratedNetworkingPath: first.pathOf('acceleratedNetworking'),
  };
}
