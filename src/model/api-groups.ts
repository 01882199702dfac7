// The API groups and versions of the objects mirrored, where code compares or writes them.

/** Machine API: MachineSets and Machines (machine.openshift.io/v1beta1). */
export const MAPI_GROUP = 'machine.openshift.io';
/** Cluster API: MachineSets and Machines. */
export const CAPI_GROUP = 'cluster.x-k8s.io';
export const CAPI_VERSION = 'v1beta2';
/** Cluster API providers' machine templates and infrastructure machines. */
export const INFRASTRUCTURE_GROUP = 'infrastructure.cluster.x-k8s.io';

// How every apiVersion of a group starts (`machine.openshift.io/v1beta1`): owner references are
// matched on it, whatever their version.
export const MAPI_GROUP_PREFIX = `${MAPI_GROUP}/`;
export const CAPI_GROUP_PREFIX = `${CAPI_GROUP}/`;
