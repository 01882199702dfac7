// MAPI `networkInterfaces[]` → CAPG's `subnet` and `publicIP`. CAPG attaches exactly one
// interface, always in the network (and network project) of the cluster's GCPCluster, which
// this pure converter cannot see: a network other than the installer's is therefore converted
// with a warning, and the administrator is told what to check.
import type { ConversionReport, ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';
import { installerNetwork } from './cluster.js';

export interface ConvertedNetwork {
  subnet?: string;
  publicIP?: true;
}

export interface NetworkContext {
  /** The Infrastructure's infrastructureName: the installer names the network after it. */
  infrastructureName?: string;
  /** The Infrastructure's GCP projectID. */
  projectID?: string;
}

export function convertNetworkInterfaces(
  spec: ObjectReader,
  context: NetworkContext,
  report: ConversionReport,
): ConvertedNetwork {
  const listPath = spec.pathOf('networkInterfaces');
  const errorsBefore = report.errors.length;
  const readers = spec.objects('networkInterfaces');
  const interfaces = (readers ?? []).map((reader) => {
    const nic = {
      reader,
      publicIP: reader.boolean('publicIP'),
      network: reader.string('network'),
      projectID: reader.string('projectID'),
      subnetwork: reader.string('subnetwork'),
    };
    reader.finish();
    return nic;
  });
  const primary = interfaces[0];
  if (primary === undefined) {
    if (report.errors.length === errorsBefore) {
      report.error(
        listPath,
        'is required; set one network interface with the subnetwork of the machines.',
      );
    }
    return {};
  }
  if (interfaces.length > 1) {
    report.error(
      listPath,
      `has ${interfaces.length} network interfaces, but Cluster API attaches exactly one to each ` +
        'machine; keep only one interface.',
    );
  }
  const { reader, publicIP, network, projectID, subnetwork } = primary;
  if (network !== undefined && network !== installerNetwork(context)) {
    report.warn(
      `${reader.pathOf('network')} is ${quote(network)}, but Cluster API attaches machines ` +
        "to the network of the cluster's GCPCluster (spec.network.name), which this controller " +
        'cannot see; make sure it is the same network.',
    );
  }
  if (projectID !== undefined && projectID !== context.projectID) {
    report.warn(
      `${reader.pathOf('projectID')} is ${quote(projectID)}, but Cluster API takes the ` +
        "network's project from the cluster's GCPCluster (spec.network.hostProject, or else its " +
        'project); make sure it is the same project.',
    );
  }
  const converted: ConvertedNetwork = {};
  if (subnetwork === undefined) {
    report.warn(
      `${reader.pathOf('subnetwork')} is not set; Cluster API will place the machines in the ` +
        "first subnetwork of the cluster's network in the region.",
    );
  } else {
    converted.subnet = subnetwork;
  }
  // false and absent both mean "no external IP", in MAPI and in CAPG.
  if (publicIP === true) converted.publicIP = true;
  return converted;
}
