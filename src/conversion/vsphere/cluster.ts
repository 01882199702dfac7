// What the vSphere converter reads of the Infrastructure: the vCenter Cluster API connects to,
// and the IP families of the nodes' networks.
import { isIP } from 'node:net';
import type { Infrastructure } from '../../api/types.js';

export interface VSphereCluster {
  /**
   * The vCenter of CAPV's VSphereCluster: cluster-capi-operator sets it to the first of the
   * Infrastructure's vCenters and gives it that vCenter's credentials (undefined when the
   * Infrastructure names none; it then takes the server of a Machine API providerSpec).
   */
  server?: string;
  /** The families of the Infrastructure's machine networks (none when it names none). */
  families: { ipv4: boolean; ipv6: boolean };
  infrastructureName?: string;
}

export function vsphereCluster(infrastructure: Infrastructure): VSphereCluster {
  const spec = infrastructure.spec?.platformSpec?.vsphere;
  const status = infrastructure.status?.platformStatus?.vsphere;
  const first = Array.isArray(spec?.vcenters) ? spec.vcenters[0] : undefined;
  const server =
    typeof first?.server === 'string' && first.server !== '' ? first.server : undefined;
  const networks = stringsOf(status?.machineNetworks) ?? stringsOf(spec?.machineNetworks) ?? [];
  const families = { ipv4: false, ipv6: false };
  for (const cidr of networks) {
    const family = isIP(cidr.split('/')[0] ?? '');
    if (family === 4) families.ipv4 = true;
    if (family === 6) families.ipv6 = true;
  }
  const cluster: VSphereCluster = { families };
  if (server !== undefined) cluster.server = server;
  const name = infrastructure.status?.infrastructureName;
  if (name) cluster.infrastructureName = name;
  return cluster;
}

function stringsOf(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.filter((v): v is string => typeof v === 'string');
}

/**
 * Whether a network device that gets its addresses by DHCP asks CAPV for IPv4, IPv6 or both:
 * CAPV waits for a lease of every family it is told, and RHCOS asks for both by itself, so the
 * cluster's primary family only — IPv6 when the machine networks are IPv6 alone, else IPv4.
 */
export function dhcpFamilies(cluster: VSphereCluster): { dhcp4?: true; dhcp6?: true } {
  const { ipv4, ipv6 } = cluster.families;
  return ipv6 && !ipv4 ? { dhcp6: true } : { dhcp4: true };
}
