// Labels, annotations and finalizers through which this controller recognises
// its own objects.

/** The prefix of this controller's own labels and annotations (never mirrored to the other API). */
const SYNC_KEY_PREFIX = 'sync.machine.openshift.io/';

/** Whether a label or annotation key is this controller's own bookkeeping. */
export const isOurKey = (key: string): boolean => key.startsWith(SYNC_KEY_PREFIX);

/** On both MAPI and CAPI MachineSets while this controller may have work to do on deletion. */
export const FINALIZER = 'sync.machine.openshift.io/finalizer';

/** On templates we created: the source MachineSet (label value, possibly shortened). */
export const SOURCE_LABEL = 'sync.machine.openshift.io/machine-set';
/** On templates we created: the source MachineSet's full name. */
export const SOURCE_ANNOTATION = 'sync.machine.openshift.io/machine-set-name';
/** On templates we created. */
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const MANAGED_BY = 'mapi-capi-sync';

/** CAPI's pause marker; CAPI ignores its value, "true" reads well in `oc get`. */
export const PAUSED_ANNOTATION = 'cluster.x-k8s.io/paused';
export const PAUSED_VALUE = 'true';
export const CLUSTER_NAME_LABEL = 'cluster.x-k8s.io/cluster-name';

export const SYNCHRONIZED = 'Synchronized';

/** The migration handshake's condition on MAPI objects: True while a migration is wanted. */
export const MIGRATION_CONDITION = 'MigrationProgressing';

/**
 * kstatus's standard condition (sigs.k8s.io/cli-utils): True reads as InProgress to Flux, Argo CD
 * and `kubectl wait`. Ours on MAPI objects from a migration's first write until the new authority
 * is synchronized, so that a migrating object never reads Current.
 */
export const RECONCILING = 'Reconciling';

/** Cluster API's own finalizers; it never removes them from a paused object. */
export const CAPI_MACHINE_SET_FINALIZER = 'cluster.x-k8s.io/machineset';
export const CAPI_MACHINE_FINALIZER = 'machine.cluster.x-k8s.io';

/**
 * machine-api-operator's finalizer on MAPI Machines: added while Machine API is authoritative,
 * never removed while machine-api-operator pauses the Machine.
 */
export const MAPI_MACHINE_FINALIZER = 'machine.machine.openshift.io';

/**
 * On infrastructure machines we write: the hash of the spec we last wrote, so that what a
 * provider's defaulting adds is never mistaken for a change to write again.
 */
export const SPEC_HASH_ANNOTATION = 'sync.machine.openshift.io/spec-hash';

/**
 * On CAPI MachineSets we write: the authoritative API when we last wrote it
 * (MachineAPI for a paused mirror, ClusterAPI for the initial sync), so that a
 * MachineSet whose MAPI side vanished is deleted only if it was our mirror.
 */
export const AUTHORITY_ANNOTATION = 'sync.machine.openshift.io/authoritative-api';

/**
 * On the paused CAPI mirrors we create: their own uid, recorded once the API server has given
 * them one. Only a paused mirror that carries its own uid here is ours to delete when its MAPI
 * side is gone: a copy (`oc get -o yaml`, a backup restored) carries the original's uid, or none,
 * and so does our finalizer; it is someone else's.
 */
export const MIRROR_UID_ANNOTATION = 'sync.machine.openshift.io/mirror-uid';

/**
 * On MAPI MachineSets under ClusterAPI: the uid of the CAPI MachineSet that is
 * authoritative for it. Records that the CAPI side exists(ed), so a deleted
 * one is never recreated by an "initial" sync.
 */
export const CLUSTER_API_UID_ANNOTATION = 'sync.machine.openshift.io/cluster-api-uid';

/**
 * On the mirrors and templates we write: which of their labels and annotations are ours (JSON,
 * `{"labels":[…],"annotations":[…]}`), as `kubectl apply` records what it applied, so that a key
 * we stop writing is removed and a key someone else adds is left alone.
 */
export const OWNED_METADATA_ANNOTATION = 'sync.machine.openshift.io/owned-metadata';
