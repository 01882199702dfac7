// The shapes of the Kubernetes objects this controller reads and writes,
// narrowed to the fields it uses. Unknown fields are preserved as they come.

interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: unknown[];
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

// --- Machine API (machine.openshift.io/v1beta1) ---

export type AuthoritativeAPI = 'MachineAPI' | 'ClusterAPI' | 'Migrating';

export interface MapiCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  severity?: '' | 'Error' | 'Warning' | 'Info';
  reason?: string;
  message?: string;
  lastTransitionTime: string;
}

interface LifecycleHook {
  name: string;
  owner: string;
}

interface Taint {
  key: string;
  value?: string;
  effect: string;
}

export interface MapiMachineSet extends KubeObject {
  spec: {
    replicas?: number;
    minReadySeconds?: number;
    deletePolicy?: string;
    selector: LabelSelector;
    authoritativeAPI?: 'MachineAPI' | 'ClusterAPI';
    template?: {
      metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
      spec?: {
        metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
        lifecycleHooks?: { preDrain?: LifecycleHook[]; preTerminate?: LifecycleHook[] };
        taints?: Taint[];
        providerSpec?: { value?: unknown };
        providerID?: string;
        authoritativeAPI?: string;
      };
    };
  };
  status?: {
    replicas?: number;
    fullyLabeledReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    observedGeneration?: number;
    labelSelector?: string;
    errorReason?: string;
    errorMessage?: string;
    conditions?: MapiCondition[];
    authoritativeAPI?: AuthoritativeAPI;
    synchronizedAPI?: 'MachineAPI' | 'ClusterAPI';
    synchronizedGeneration?: number;
  };
}

// --- Cluster API (cluster.x-k8s.io/v1beta2) ---

export interface CapiCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

interface ContractVersionedObjectReference {
  apiGroup: string;
  kind: string;
  name: string;
}

/** cluster-autoscaler-operator's MachineAutoscaler: what it scales, between which bounds. */
export interface MachineAutoscaler extends KubeObject {
  spec?: {
    minReplicas?: number;
    maxReplicas?: number;
    scaleTargetRef?: { apiVersion?: string; kind?: string; name?: string };
  };
}

export interface CapiMachineSet extends KubeObject {
  spec: {
    clusterName: string;
    replicas?: number;
    selector: LabelSelector;
    deletion?: { order?: 'Random' | 'Newest' | 'Oldest' };
    template: {
      metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
      spec: {
        clusterName: string;
        bootstrap: { dataSecretName?: string };
        infrastructureRef: ContractVersionedObjectReference;
        failureDomain?: string;
        minReadySeconds?: number;
      };
    };
  };
  status?: {
    replicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    upToDateReplicas?: number;
    selector?: string;
    observedGeneration?: number;
    conditions?: CapiCondition[];
  };
}

/** Any infrastructure machine template (AWSMachineTemplate, GCPMachineTemplate, ...). */
export interface MachineTemplate extends KubeObject {
  spec: { template: { spec: Record<string, unknown> } };
}

// --- OpenShift config (config.openshift.io/v1) ---

export type PlatformType =
  'AWS' | 'OpenStack' | 'GCP' | 'Azure' | 'PowerVS' | 'VSphere' | (string & {});

/** A vCenter of a vSphere cluster (`spec.platformSpec.vsphere.vcenters[]`). */
interface VSphereVCenter {
  server: string;
  port?: number;
  datacenters?: string[];
}

/** Where the machines of one vSphere failure domain are placed in vCenter. */
interface VSphereTopology {
  datacenter: string;
  /** `/<datacenter>/host/<cluster>` */
  computeCluster: string;
  /** Port group names, e.g. `/<datacenter>/network/<port group>` */
  networks: string[];
  datastore: string;
  resourcePool?: string;
  folder?: string;
  template?: string;
}

/** One region/zone of a vSphere cluster (`spec.platformSpec.vsphere.failureDomains[]`). */
interface VSphereFailureDomain {
  name: string;
  region: string;
  zone: string;
  server: string;
  topology: VSphereTopology;
  regionAffinity?: { type: string };
  zoneAffinity?: { type: string; hostGroup?: Record<string, unknown> };
}

/** The vSphere settings of the Infrastructure's spec (config.openshift.io/v1). */
export interface VSpherePlatformSpec {
  vcenters?: VSphereVCenter[];
  failureDomains?: VSphereFailureDomain[];
  /** The nodes' networks as CIDRs, IPv4 and/or IPv6. */
  machineNetworks?: string[];
  [field: string]: unknown;
}

export interface Infrastructure extends KubeObject {
  spec?: {
    platformSpec?: { type?: string; vsphere?: VSpherePlatformSpec; [platform: string]: unknown };
  };
  status?: {
    infrastructureName?: string;
    platform?: string;
    platformStatus?: {
      type?: PlatformType;
      aws?: {
        region?: string;
        resourceTags?: { key: string; value: string }[];
        ipFamily?: 'IPv4' | 'DualStackIPv4Primary' | 'DualStackIPv6Primary' | (string & {});
      };
      gcp?: {
        projectID?: string;
        region?: string;
        resourceLabels?: { key: string; value: string }[];
        resourceTags?: { parentID: string; key: string; value: string }[];
      };
      azure?: {
        resourceGroupName?: string;
        networkResourceGroupName?: string;
        cloudName?: string;
        resourceTags?: { key: string; value: string }[];
      };
      openstack?: Record<string, unknown>;
      powervs?: { region?: string; zone?: string; serviceEndpoints?: unknown[] };
      vsphere?: {
        apiServerInternalIPs?: string[];
        ingressIPs?: string[];
        /** The nodes' networks as CIDRs, IPv4 and/or IPv6. */
        machineNetworks?: string[];
        [field: string]: unknown;
      };
      [platform: string]: unknown;
    };
  };
}

// --- Patches ---

export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'test';
  path: string;
  value?: unknown;
}

/** A JSON patch (RFC 6902) or a JSON merge patch (RFC 7386). */
export type Patch =
  | { type: 'json'; operations: JsonPatchOperation[] }
  | { type: 'merge'; body: Record<string, unknown> };

// --- Machines ---

/** A Machine API Machine (machine.openshift.io/v1beta1). */
export interface MapiMachine extends KubeObject {
  spec: {
    /** Labels and annotations for the Node. */
    metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
    lifecycleHooks?: { preDrain?: LifecycleHook[]; preTerminate?: LifecycleHook[] };
    taints?: Taint[];
    providerSpec?: { value?: unknown };
    providerID?: string;
    authoritativeAPI?: 'MachineAPI' | 'ClusterAPI';
  };
  status?: {
    phase?: string;
    nodeRef?: { kind?: string; name: string; uid?: string };
    addresses?: { type: string; address: string }[];
    errorReason?: string;
    errorMessage?: string;
    conditions?: MapiCondition[];
    authoritativeAPI?: AuthoritativeAPI;
    synchronizedAPI?: 'MachineAPI' | 'ClusterAPI';
    synchronizedGeneration?: number;
  };
}

/** A Cluster API Machine (cluster.x-k8s.io/v1beta2), narrowed to the fields mirrored. */
export interface CapiMachine extends KubeObject {
  spec: {
    clusterName: string;
    bootstrap: { dataSecretName?: string };
    infrastructureRef: ContractVersionedObjectReference;
    providerID?: string;
    failureDomain?: string;
    taints?: { key: string; value?: string; effect: string; propagation: string }[];
  };
  status?: {
    phase?: string;
    nodeRef?: { name: string };
    addresses?: { type: string; address: string }[];
    initialization?: { infrastructureProvisioned?: boolean; bootstrapDataSecretCreated?: boolean };
    observedGeneration?: number;
    conditions?: CapiCondition[];
  };
}

/** Any infrastructure machine (AWSMachine, OpenStackMachine, ...). */
export interface InfrastructureMachine extends KubeObject {
  spec: Record<string, unknown>;
  status?: Record<string, unknown>;
}
