// The names both directions of the vSphere converter share.

export const PROVIDER_SPEC_KIND = 'VSphereMachineProviderSpec';
/** The current (and only) apiVersion of VSphereMachineProviderSpec. */
export const PROVIDER_SPEC_API_VERSION = 'machine.openshift.io/v1beta1';
/**
 * The only credentials secret Cluster API can honour (machine-api-operator's default): CAPV
 * connects with the VSphereCluster's identity, not a secret per machine.
 */
export const DEFAULT_CREDENTIALS_SECRET = 'vsphere-cloud-credentials';

/** CAPV's API version of VSphereMachineTemplate, VSphereMachine and VSphereVM. */
export const CAPV_API_VERSION = 'infrastructure.cluster.x-k8s.io/v1beta1';

export const CLONE_MODES = ['fullClone', 'linkedClone'] as const;
export type CloneMode = (typeof CLONE_MODES)[number];
/** Machine API clones fully unless told otherwise; CAPV links unless told otherwise. */
export const MACHINE_API_CLONE_MODE: CloneMode = 'fullClone';
export const CAPV_CLONE_MODE: CloneMode = 'linkedClone';

export const PROVISIONING_MODES = ['Thin', 'Thick', 'EagerlyZeroed'] as const;

/**
 * How Machine API powers a VM off before destroying it (a hard power-off), and CAPV's CRD
 * default: written out, so the stored template is what we wrote.
 */
export const POWER_OFF_MODE = 'hard';

/**
 * CAPV clones at least this many vCPUs (it raises 0 and 1 to 2) and, without memoryMiB, this
 * much memory; Machine API keeps the VM template's values instead.
 */
export const CAPV_MIN_CPUS = 2;
export const CAPV_DEFAULT_MEMORY_MIB = 2048;

/** The datacenter CAPV's VSphereMachine webhook writes when none is set: the only one there is. */
export const DEFAULT_DATACENTER = '*';

/** Machine API's limits (its webhook and openshift/api's markers). */
export const MAX_NETWORK_DEVICES = 10;
export const MAX_NETWORK_NAME = 80;
export const MAX_TAG_IDS = 10;
export const MAX_DATA_DISKS = 29;
export const MAX_DATA_DISK_NAME = 80;
export const MAX_DATA_DISK_GIB = 16384;
/** The Infrastructure's limits for a vCenter host name and an inventory path. */
export const MAX_SERVER = 255;
export const MAX_DATACENTER = 80;
export const MAX_INVENTORY_PATH = 2048;
