// MAPI → CAPI label and annotation transforms (product.md, "Label/annotation transforms").

const ROLE_LABELS = [
  'machine.openshift.io/cluster-api-machine-role',
  'machine.openshift.io/cluster-api-machine-type',
];
/** Facts about the instance, owned by the MAPI provider; meaningless on the CAPI side. */
const DROPPED_LABELS = new Set([
  'machine.openshift.io/instance-type',
  'machine.openshift.io/region',
  'machine.openshift.io/zone',
]);
const RENAMED_ANNOTATIONS: Record<string, string> = {
  'machine.openshift.io/delete-machine': 'cluster.x-k8s.io/delete-machine',
};
const DROPPED_ANNOTATIONS = new Set(['machine.openshift.io/instance-state']);

export function convertLabels(labels: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(labels ?? {})) {
    if (DROPPED_LABELS.has(key)) continue;
    if (ROLE_LABELS.includes(key)) {
      if (value) out[`node-role.kubernetes.io/${value}`] = '';
      continue;
    }
    out[key] = value;
  }
  return out;
}

export function convertAnnotations(
  annotations: Record<string, string> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(annotations ?? {})) {
    if (DROPPED_ANNOTATIONS.has(key)) continue;
    out[RENAMED_ANNOTATIONS[key] ?? key] = value;
  }
  return out;
}

/** True when the MachineSet's machines are control-plane machines. */
export function isControlPlane(labels: Record<string, string> | undefined): boolean {
  return ROLE_LABELS.some((key) => labels?.[key] === 'master');
}
