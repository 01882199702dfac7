// MAPI → CAPI label and annotation transforms (product.md, "Label/annotation transforms").
// Keys are looked up in Maps and Sets, never as properties of plain objects, so that keys such
// as "constructor" or "__proto__" are ordinary keys.

export const ROLE_LABEL = 'machine.openshift.io/cluster-api-machine-role';
export const TYPE_LABEL = 'machine.openshift.io/cluster-api-machine-type';
const ROLE_LABELS = new Set([ROLE_LABEL, TYPE_LABEL]);
/** Facts about the instance, owned by the MAPI provider; meaningless on the CAPI side. */
const DROPPED_LABELS = new Set([
  'machine.openshift.io/instance-type',
  'machine.openshift.io/region',
  'machine.openshift.io/zone',
]);
/**
 * MAPI annotations whose Cluster API counterparts are spelled in Cluster API's group: the Machine
 * to delete first on scale-down, and the size of a node group for the cluster autoscaler (which
 * reads `<its API group>/cluster-api-autoscaler-node-group-{min,max}-size`).
 */
export const RENAMED_ANNOTATIONS: ReadonlyMap<string, string> = new Map([
  ['machine.openshift.io/delete-machine', 'cluster.x-k8s.io/delete-machine'],
  [
    'machine.openshift.io/cluster-api-autoscaler-node-group-min-size',
    'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size',
  ],
  [
    'machine.openshift.io/cluster-api-autoscaler-node-group-max-size',
    'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size',
  ],
]);
const DROPPED_ANNOTATIONS = new Set(['machine.openshift.io/instance-state']);

export const NODE_ROLE_PREFIX = 'node-role.kubernetes.io/';
/** Lifecycle hooks are annotations of these prefixes on Cluster API Machines, named after them. */
export const PRE_DRAIN_HOOK = 'pre-drain.delete.hook.machine.cluster.x-k8s.io/';
export const PRE_TERMINATE_HOOK = 'pre-terminate.delete.hook.machine.cluster.x-k8s.io/';

/** What one MAPI label becomes on the CAPI side: nothing, or one label. */
export function convertLabel(key: string, value: string): [string, string] | undefined {
  if (DROPPED_LABELS.has(key)) return undefined;
  if (ROLE_LABELS.has(key)) return value ? [`${NODE_ROLE_PREFIX}${value}`, ''] : undefined;
  return [key, value];
}

/** What one MAPI annotation becomes on the CAPI side: nothing, or one annotation. */
export function convertAnnotation(key: string, value: string): [string, string] | undefined {
  if (DROPPED_ANNOTATIONS.has(key)) return undefined;
  return [RENAMED_ANNOTATIONS.get(key) ?? key, value];
}

export function convertLabels(labels: Record<string, string> | undefined): Record<string, string> {
  return convertEach(labels, convertLabel);
}

export function convertAnnotations(
  annotations: Record<string, string> | undefined,
): Record<string, string> {
  return convertEach(annotations, convertAnnotation);
}

function convertEach(
  values: Record<string, string> | undefined,
  convert: (key: string, value: string) => [string, string] | undefined,
): Record<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(values ?? {})) {
    const converted = convert(key, value);
    if (converted) out.set(...converted);
  }
  return Object.fromEntries(out);
}

/** True when the MachineSet's machines are control-plane machines. */
export function isControlPlane(labels: Record<string, string> | undefined): boolean {
  if (labels === undefined) return false;
  return [...ROLE_LABELS].some((key) => Object.hasOwn(labels, key) && labels[key] === 'master');
}
