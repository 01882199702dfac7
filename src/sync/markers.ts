// Labels, annotations and finalizers through which this controller recognises
// its own objects.

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
