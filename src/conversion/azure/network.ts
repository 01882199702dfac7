// MAPI networking fields → CAPZ `networkInterfaces` and `allocatePublicIP`. CAPZ places every
// machine in the virtual network of the cluster's AzureCluster and attaches it to that
// cluster's load balancers; a machine cannot pick another network, security group or load
// balancer. So the names Machine API carries per MachineSet are checked against the cluster
// (Infrastructure) where possible: equal ones are redundant, others cannot be honoured.
import { describeValue, type ConversionReport, type ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';

/** What the Infrastructure object tells about the cluster's Azure resources. */
export interface AzureClusterFacts {
  infrastructureName?: string;
  resourceGroup?: string;
  /** The network resource group; the cluster's resource group when the Infrastructure names none. */
  networkResourceGroup?: string;
}

interface CapzNetworkInterface {
  subnetName?: string;
  /** Always explicit: CAPZ would otherwise decide from the VM size; Machine API means false. */
  acceleratedNetworking: boolean;
  /** CAPZ's webhook defaults it to 1; written out so the stored template equals ours. */
  privateIPConfigs: number;
}

export interface ConvertedNetwork {
  networkInterfaces: CapzNetworkInterface[];
  allocatePublicIP?: true;
}

export function convertNetwork(
  spec: ObjectReader,
  cluster: AzureClusterFacts,
  controlPlane: boolean,
  report: ConversionReport,
): ConvertedNetwork {
  const subnetName = readSubnet(spec, report);
  checkVnet(spec, cluster, report);
  checkResourceGroup(spec, 'networkResourceGroup', cluster.networkResourceGroup, report);
  checkNetworkSecurity(spec, report);
  checkPublicLoadBalancer(spec, cluster, report);
  checkInternalLoadBalancer(spec, cluster, controlPlane, report);
  const acceleratedNetworking = spec.boolean('acceleratedNetworking') ?? false;
  const publicIP = spec.boolean('publicIP');

  const networkInterface: CapzNetworkInterface = { acceleratedNetworking, privateIPConfigs: 1 };
  if (subnetName !== undefined) networkInterface.subnetName = subnetName;
  const converted: ConvertedNetwork = { networkInterfaces: [networkInterface] };
  // false is CAPZ's default and its webhook drops it, so only true is written.
  if (publicIP === true) converted.allocatePublicIP = true;
  return converted;
}

function readSubnet(spec: ObjectReader, report: ConversionReport): string | undefined {
  const errorsBefore = report.errors.length;
  const subnet = spec.string('subnet');
  if (subnet === undefined && report.errors.length === errorsBefore) {
    report.error(
      spec.pathOf('subnet'),
      "is required; name the subnet of the cluster's virtual network for the machines' network interface.",
    );
  }
  return subnet;
}

/** Azure resource names are case-insensitive. */
function sameName(a: string, b: string | undefined): boolean {
  return b !== undefined && a.toLowerCase() === b.toLowerCase();
}

function checkVnet(spec: ObjectReader, cluster: AzureClusterFacts, report: ConversionReport): void {
  const vnet = spec.string('vnet');
  if (vnet === undefined) return;
  const installerVnet =
    cluster.infrastructureName === undefined ? undefined : `${cluster.infrastructureName}-vnet`;
  if (sameName(vnet, installerVnet)) return;
  report.warn(
    `${spec.pathOf('vnet')} is ${quote(vnet)}, not the installer's virtual network` +
      `${installerVnet === undefined ? '' : ` ${quote(installerVnet)}`}; Cluster API ` +
      "always places machines in the virtual network of the cluster's AzureCluster, so make " +
      `sure that is ${quote(vnet)}.`,
  );
}

/** `resourceGroup` and `networkResourceGroup` must be the cluster's: CAPZ takes them from there. */
export function checkResourceGroup(
  spec: ObjectReader,
  key: 'resourceGroup' | 'networkResourceGroup',
  clusterValue: string | undefined,
  report: ConversionReport,
): void {
  const value = spec.string(key);
  if (value === undefined || sameName(value, clusterValue)) return;
  const what = key === 'resourceGroup' ? 'resource group' : 'network resource group';
  if (clusterValue === undefined) {
    report.warn(
      `${spec.pathOf(key)} is ${quote(value)}, but the Infrastructure object names no ` +
        `${what} to check it against; Cluster API uses the ${what} of the cluster's AzureCluster.`,
    );
    return;
  }
  report.error(
    spec.pathOf(key),
    `is ${quote(value)}, but the cluster's ${what} is ${quote(clusterValue)} ` +
      `and Cluster API uses the cluster's ${what} for every machine; set ${key} to ` +
      `${quote(clusterValue)} or remove it.`,
  );
}

function checkNetworkSecurity(spec: ObjectReader, report: ConversionReport): void {
  if (spec.string('securityGroup') !== undefined) {
    report.error(
      spec.pathOf('securityGroup'),
      "attaches a network security group to each machine's network interface, which Cluster " +
        'API cannot do (it relies on the security group of the subnet); move the rules to the ' +
        "subnet's security group and remove securityGroup.",
    );
  }
  const groups = spec.strings('applicationSecurityGroups');
  if (groups !== undefined && groups.length > 0) {
    report.error(
      spec.pathOf('applicationSecurityGroups'),
      "adds each machine's network interface to application security groups, which Cluster " +
        'API cannot do; remove applicationSecurityGroups or keep this MachineSet on Machine API.',
    );
  }
  const natRule = spec.raw('natRule');
  if (natRule !== undefined) {
    report.error(
      spec.pathOf('natRule'),
      `is ${describeValue(natRule)}, an inbound NAT rule per machine on the public load ` +
        'balancer, which Cluster API cannot create for a machine; remove natRule.',
    );
  }
}

const LOAD_BALANCER_WARNING =
  "Cluster API attaches machines to the load balancers configured on the cluster's AzureCluster " +
  '(the node outbound load balancer for workers, the API server load balancers for control-plane ' +
  'machines), so it is not converted; make sure the AzureCluster configures it.';

function checkPublicLoadBalancer(
  spec: ObjectReader,
  cluster: AzureClusterFacts,
  report: ConversionReport,
): void {
  const name = spec.string('publicLoadBalancer');
  if (name === undefined) return;
  if (sameName(name, cluster.infrastructureName)) {
    report.warn(
      `${spec.pathOf('publicLoadBalancer')} names the cluster's public load balancer ` +
        `${quote(name)}; ${LOAD_BALANCER_WARNING}`,
    );
    return;
  }
  report.error(
    spec.pathOf('publicLoadBalancer'),
    `is ${quote(name)}, which is not the cluster's public load balancer` +
      `${cluster.infrastructureName === undefined ? '' : ` ${quote(cluster.infrastructureName)}`}` +
      "; Cluster API only attaches machines to the cluster's own load balancers, so remove " +
      'publicLoadBalancer or keep this MachineSet on Machine API.',
  );
}

function checkInternalLoadBalancer(
  spec: ObjectReader,
  cluster: AzureClusterFacts,
  controlPlane: boolean,
  report: ConversionReport,
): void {
  const name = spec.string('internalLoadBalancer');
  if (name === undefined) return;
  const path = spec.pathOf('internalLoadBalancer');
  if (!controlPlane) {
    report.error(
      path,
      'puts the machines behind an internal load balancer, which Cluster API does only for the ' +
        'control plane (behind the API server load balancer); remove internalLoadBalancer from ' +
        'this worker MachineSet.',
    );
    return;
  }
  const clusterLoadBalancer =
    cluster.infrastructureName === undefined ? undefined : `${cluster.infrastructureName}-internal`;
  if (sameName(name, clusterLoadBalancer)) {
    report.warn(
      `${path} names the cluster's internal API load balancer ${quote(name)}; ${LOAD_BALANCER_WARNING}`,
    );
    return;
  }
  report.error(
    path,
    `is ${quote(name)}, which is not the cluster's internal API load balancer` +
      `${clusterLoadBalancer === undefined ? '' : ` ${quote(clusterLoadBalancer)}`}` +
      "; Cluster API only uses the cluster's own load balancers, so remove internalLoadBalancer.",
  );
}
