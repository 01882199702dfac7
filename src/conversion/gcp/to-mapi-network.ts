// CAPG `subnet` and `publicIP` → MAPI's one network interface. The network and its project are
// the GCPCluster's in CAPG and are not in the template: they come from the MachineSet's current
// providerSpec (kept-from-current.ts). Alias IP ranges have no MAPI field.
import type { ObjectReader } from '../common/field-reader.js';
import { rejectWithoutEquivalent } from './template-errors.js';

export interface MapiNetworkInterface {
  network?: string;
  projectID?: string;
  subnetwork?: string;
  publicIP?: true;
}

export function networkInterfaceToMapi(
  spec: ObjectReader,
  kept: { network?: string; networkProjectID?: string },
): MapiNetworkInterface {
  const nic: MapiNetworkInterface = {};
  if (kept.network !== undefined) nic.network = kept.network;
  if (kept.networkProjectID !== undefined) nic.projectID = kept.networkProjectID;
  const errorsBefore = spec.report.errors.length;
  const subnet = spec.string('subnet');
  if (subnet !== undefined) nic.subnetwork = subnet;
  else if (spec.report.errors.length === errorsBefore) {
    spec.report.error(
      spec.pathOf('subnet'),
      "is required, because Machine API needs the machines' subnetwork where Cluster API " +
        "picks the first subnetwork of the cluster's network in the region; set subnet.",
    );
  }
  // false and absent both mean "no external IP", in CAPG and in MAPI.
  if (spec.boolean('publicIP') === true) nic.publicIP = true;
  rejectWithoutEquivalent(
    spec,
    'aliasIPRanges',
    'assigns alias IP ranges to the network interface',
  );
  return nic;
}
