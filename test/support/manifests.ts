// The deployment manifests in manifests/, loaded as objects, rewritten for a test's own
// namespaces, and the RBAC they grant to the controller's ServiceAccount.
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type {
  KubernetesObject,
  V1ClusterRole,
  V1ClusterRoleBinding,
  V1PolicyRule,
  V1Role,
  V1RoleBinding,
  RbacV1Subject,
} from '@kubernetes/client-node';
import { loadAll } from 'js-yaml';

export const MANIFESTS_DIR = resolve(import.meta.dirname, '..', '..', 'manifests');
export const KUSTOMIZATION = 'kustomization.yaml';

/** The namespaces the manifests are written for. */
export const MAPI_NAMESPACE = 'openshift-machine-api';
export const CAPI_NAMESPACE = 'openshift-cluster-api';
/** The controller's ServiceAccount (in CAPI_NAMESPACE). */
export const SERVICE_ACCOUNT = 'mapi-capi-sync';

const SOURCE = Symbol('manifest source file');

export interface ManifestObject extends KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: NonNullable<KubernetesObject['metadata']> & { name: string };
  /** The file it came from, relative to manifests/ (not sent to the server). */
  [SOURCE]?: string;
}

export function sourceOf(object: ManifestObject): string {
  return object[SOURCE] ?? '(unknown file)';
}

/** The manifest files (manifests/*.yaml), without the kustomization. */
export async function manifestFiles(): Promise<string[]> {
  return (await readdir(MANIFESTS_DIR))
    .filter((f) => /\.ya?ml$/.test(f) && f !== KUSTOMIZATION)
    .sort();
}

/** Every object in manifests/*.yaml, in file order, exactly as written (no model round trip). */
export async function loadManifests(): Promise<ManifestObject[]> {
  const objects: ManifestObject[] = [];
  for (const file of await manifestFiles()) {
    const docs = loadAll(await readFile(join(MANIFESTS_DIR, file), 'utf8'));
    for (const doc of docs) {
      if (doc === null || doc === undefined) continue;
      const object = doc as Partial<ManifestObject>;
      if (!object.apiVersion || !object.kind || !object.metadata?.name) {
        throw new Error(`manifests/${file}: a document without apiVersion, kind or metadata.name`);
      }
      objects.push(Object.assign(object as ManifestObject, { [SOURCE]: file }));
    }
  }
  return objects;
}

export interface ManifestRewrite {
  /** Replaces openshift-machine-api. */
  mapiNamespace: string;
  /** Replaces openshift-cluster-api. */
  capiNamespace: string;
  /** Appended to the names of cluster-scoped objects (and references to them). */
  suffix: string;
  /**
   * The user the controller runs as, in place of its ServiceAccount's in the admission policies'
   * exemptions (default: unchanged, the identity the local control plane gives the controller).
   */
  controllerUser?: string;
}

/** The user name of the controller's ServiceAccount, as the admission policies exempt it. */
export const CONTROLLER_USER = `system:serviceaccount:${CAPI_NAMESPACE}:${SERVICE_ACCOUNT}`;

const CLUSTER_SCOPED_KINDS = new Set([
  'ClusterRole',
  'ClusterRoleBinding',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
]);

/**
 * A copy of the objects for a test's own namespaces: every string value that is exactly one of
 * the two namespaces is replaced (metadata.namespace, subjects, selectors, …) and cluster-scoped
 * objects get a unique name, so that many tests can apply the manifests side by side.
 */
export function rewriteManifests(
  objects: ManifestObject[],
  rewrite: ManifestRewrite,
): ManifestObject[] {
  const namespaces: Record<string, string> = {
    [MAPI_NAMESPACE]: rewrite.mapiNamespace,
    [CAPI_NAMESPACE]: rewrite.capiNamespace,
  };
  const user = rewrite.controllerUser;
  const replace = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const exact = namespaces[value];
      if (exact !== undefined) return exact;
      return user ? value.replaceAll(`'${CONTROLLER_USER}'`, `'${user}'`) : value;
    }
    if (Array.isArray(value)) return value.map(replace);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replace(v)]));
    }
    return value;
  };
  const renamed = (name: string) => `${name}-${rewrite.suffix}`;
  return objects.map((original) => {
    const object = replace(original) as ManifestObject;
    object[SOURCE] = original[SOURCE];
    if (CLUSTER_SCOPED_KINDS.has(object.kind)) object.metadata.name = renamed(object.metadata.name);
    const roleRef = (object as { roleRef?: { kind?: string; name?: string } }).roleRef;
    if (roleRef?.kind === 'ClusterRole' && roleRef.name) roleRef.name = renamed(roleRef.name);
    const binding = object as { kind: string; spec?: { policyName?: string } };
    if (binding.kind === 'ValidatingAdmissionPolicyBinding' && binding.spec?.policyName) {
      binding.spec.policyName = renamed(binding.spec.policyName);
    }
    return object;
  });
}

/** One permission: a verb on a resource (with subresource, e.g. machinesets/status). */
export interface Permission {
  /** The Role's namespace, or '' for a ClusterRole bound cluster-wide. */
  namespace: string;
  apiGroup: string;
  resource: string;
  verb: string;
}

export function permissionKey(p: Permission): string {
  return `${p.namespace || '(cluster)'} ${p.apiGroup || 'core'}/${p.resource} ${p.verb}`;
}

export interface Grant extends Permission {
  /** Restricts the grant to these object names (empty: any). */
  resourceNames: string[];
  /** The Role or ClusterRole granting it. */
  role: string;
}

const isRoleBinding = (o: ManifestObject): o is ManifestObject & V1RoleBinding =>
  o.kind === 'RoleBinding';
const isClusterRoleBinding = (o: ManifestObject): o is ManifestObject & V1ClusterRoleBinding =>
  o.kind === 'ClusterRoleBinding';

/** Whether the subjects name the ServiceAccount `namespace/name`. */
export function bindsTo(
  subjects: RbacV1Subject[] | undefined,
  namespace: string,
  name: string,
): boolean {
  return (subjects ?? []).some(
    (s) => s.kind === 'ServiceAccount' && s.namespace === namespace && s.name === name,
  );
}

/**
 * Every permission the bindings in `objects` give the ServiceAccount `namespace/name`, one per
 * (namespace, group, resource, verb). Throws on what a least-privilege review forbids outright:
 * wildcards, non-resource URLs, and bindings to roles that are not in the manifests.
 */
export function grantsTo(objects: ManifestObject[], namespace: string, name: string): Grant[] {
  const findRole = (kind: string, roleName: string, roleNamespace?: string) => {
    const role: (ManifestObject & (V1Role | V1ClusterRole)) | undefined = objects.find(
      (o) =>
        o.kind === kind &&
        o.metadata.name === roleName &&
        (kind === 'ClusterRole' || o.metadata.namespace === roleNamespace),
    );
    if (!role) {
      throw new Error(`a binding refers to ${kind} ${roleName}, which is not in the manifests`);
    }
    return role;
  };
  const grants: Grant[] = [];
  const expand = (role: ManifestObject & (V1Role | V1ClusterRole), scope: string) => {
    for (const rule of role.rules ?? []) grants.push(...expandRule(rule, scope, role));
  };
  for (const binding of objects) {
    if (isRoleBinding(binding) && bindsTo(binding.subjects, namespace, name)) {
      const scope = binding.metadata.namespace ?? '';
      expand(findRole(binding.roleRef.kind, binding.roleRef.name, scope), scope);
    } else if (isClusterRoleBinding(binding) && bindsTo(binding.subjects, namespace, name)) {
      if (binding.roleRef.kind !== 'ClusterRole') {
        throw new Error(`ClusterRoleBinding ${binding.metadata.name} refers to a Role`);
      }
      expand(findRole('ClusterRole', binding.roleRef.name), '');
    }
  }
  return grants;
}

function expandRule(rule: V1PolicyRule, scope: string, role: ManifestObject): Grant[] {
  const where = `${role.kind} ${role.metadata.name} (manifests/${sourceOf(role)})`;
  if (rule.nonResourceURLs?.length) throw new Error(`${where} grants non-resource URLs`);
  const groups = rule.apiGroups ?? [];
  const resources = rule.resources ?? [];
  for (const value of [...groups, ...resources, ...rule.verbs]) {
    if (value.includes('*')) throw new Error(`${where} uses the wildcard "${value}"`);
  }
  if (!groups.length || !resources.length || !rule.verbs.length) {
    throw new Error(`${where} has a rule without apiGroups, resources or verbs`);
  }
  return groups.flatMap((apiGroup) =>
    resources.flatMap((resource) =>
      rule.verbs.map((verb) => ({
        namespace: scope,
        apiGroup,
        resource,
        verb,
        resourceNames: rule.resourceNames ?? [],
        role: `${role.kind} ${role.metadata.name}`,
      })),
    ),
  );
}

export interface ApiUsage extends Permission {
  /** The code path that makes this request. */
  usedBy: string;
}

const TEMPLATE_RESOURCES = [
  'awsmachinetemplates',
  'azuremachinetemplates',
  'gcpmachinetemplates',
  'ibmpowervsmachinetemplates',
  'openstackmachinetemplates',
  'vspheremachinetemplates',
];

export const INFRASTRUCTURE_MACHINE_RESOURCES = [
  'awsmachines',
  'azuremachines',
  'gcpmachines',
  'ibmpowervsmachines',
  'openstackmachines',
  'vspheremachines',
];

/**
 * Every request the controller makes, audited from src/ (the informers list and watch; writes go
 * through src/kube/writer.ts create/replace/patch/delete and src/kube/events.ts). The
 * manifests must grant exactly these (manifests.test.ts); rbac.test.ts checks against the API
 * server's audit log that the code uses them and nothing else.
 */
export const CONTROLLER_API_USAGE: readonly ApiUsage[] = [
  ...usage(MAPI_NAMESPACE, 'machine.openshift.io', 'machinesets', {
    list: 'MAPI MachineSet informer (src/controller/controller.ts, src/kube/informer.ts)',
    watch: 'MAPI MachineSet informer',
    patch:
      'adding and releasing the finalizer; the record of the authoritative CAPI MachineSet (src/sync/steps.ts via src/kube/writer.ts)',
    delete:
      'the MAPI mirror of a deleted authoritative CAPI MachineSet (src/sync/machine-set/deletion.ts)',
  }),
  ...usage(MAPI_NAMESPACE, 'machine.openshift.io', 'machinesets/status', {
    patch: 'the Synchronized condition and status.synchronizedGeneration (merge patch)',
  }),
  ...usage(MAPI_NAMESPACE, 'machine.openshift.io', 'machines', {
    list: 'MAPI Machine informer (src/controller/controller.ts)',
    watch: 'MAPI Machine informer',
    create:
      'the MAPI mirror of a Machine an authoritative CAPI MachineSet created (src/sync/machine/reverse.ts)',
    patch:
      "finalizers (ours; machine-api-operator's on a deleted Machine it pauses); the record of the authoritative CAPI Machine; a mirror's spec and labels; spec.authoritativeAPI of a MachineSet's Machines (src/migration/machines.ts)",
    delete:
      'the MAPI mirror of a deleted authoritative CAPI Machine (src/sync/machine/deletion.ts)',
  }),
  ...usage(MAPI_NAMESPACE, 'machine.openshift.io', 'machinesets/finalizers', {
    update:
      'checked by OwnerReferencesPermissionEnforcement when a MAPI mirror is created controlled by its MachineSet with blockOwnerDeletion (src/sync/machine/reverse.ts)',
  }),
  ...usage(MAPI_NAMESPACE, 'machine.openshift.io', 'machines/status', {
    patch:
      "a Machine's Synchronized condition, handshake fields, and a mirror's status (merge patch)",
  }),
  ...usage(MAPI_NAMESPACE, '', 'events', {
    create: 'Events on the MAPI MachineSet or Machine (src/kube/events.ts)',
    get: 'a repeated Event (409 on create) is read to raise its count (src/kube/events.ts)',
    update: 'a repeated Event: count and lastTimestamp raised (src/kube/events.ts)',
  }),
  ...usage(CAPI_NAMESPACE, 'cluster.x-k8s.io', 'machinesets', {
    list: 'CAPI MachineSet informer',
    watch: 'CAPI MachineSet informer',
    create: 'creating the mirror',
    update: 'mirror spec/labels/annotations/ownerReferences',
    patch: "releasing finalizers (ours, and Cluster API's on a deleted paused mirror)",
    delete: 'deleting the mirror of a deleted MAPI MachineSet (or of one gone without us)',
  }),
  ...usage(CAPI_NAMESPACE, 'cluster.x-k8s.io', 'machinesets/status', {
    patch: "the paused mirror's status fields we own, copied from MAPI (merge patch)",
  }),
  ...usage(CAPI_NAMESPACE, 'cluster.x-k8s.io', 'machines', {
    list: 'CAPI Machine informer',
    watch: 'CAPI Machine informer',
    create: 'creating the paused mirror of a MAPI Machine (src/sync/machine/forward.ts)',
    update: 'mirror spec/labels/annotations/ownerReferences',
    patch: "finalizers (ours, and Cluster API's on a deleted paused mirror); pausing and unpausing",
    delete: 'deleting the mirror of a deleted MAPI Machine (or of one gone without us)',
  }),
  ...usage(CAPI_NAMESPACE, 'cluster.x-k8s.io', 'machinesets/finalizers', {
    update:
      'checked by OwnerReferencesPermissionEnforcement when a CAPI Machine mirror is written controlled by its CAPI MachineSet with blockOwnerDeletion (src/sync/machine/forward.ts)',
  }),
  ...usage(CAPI_NAMESPACE, 'cluster.x-k8s.io', 'machines/finalizers', {
    update:
      'checked by OwnerReferencesPermissionEnforcement when an infrastructure machine is written controlled by its CAPI Machine with blockOwnerDeletion (src/sync/machine/forward.ts)',
  }),
  ...usage(CAPI_NAMESPACE, 'cluster.x-k8s.io', 'machines/status', {
    patch: "a paused CAPI Machine's status, copied from MAPI (merge patch)",
  }),
  ...usage(CAPI_NAMESPACE, 'cluster.x-k8s.io', 'clusters', {
    list: 'CAPI Cluster informer (ownerReference of the mirrors)',
    watch: 'CAPI Cluster informer',
  }),
  ...TEMPLATE_RESOURCES.flatMap((resource) =>
    usage(CAPI_NAMESPACE, 'infrastructure.cluster.x-k8s.io', resource, {
      list: 'template informer of the cluster platform (watchedInformers in controller.ts)',
      watch: 'template informer of the cluster platform',
      create: 'creating the hash-named template',
      update: 'adopting a template (ownerReference, pause marker); releasing an old one',
      delete: 'deleting an old template this controller created',
    }),
  ),
  ...INFRASTRUCTURE_MACHINE_RESOURCES.flatMap((resource) =>
    usage(CAPI_NAMESPACE, 'infrastructure.cluster.x-k8s.io', resource, {
      list: 'infrastructure machine informer of the cluster platform (controller.ts)',
      watch: 'infrastructure machine informer of the cluster platform',
      create: "creating a Machine mirror's infrastructure machine, owned by the CAPI Machine",
      update: 'a changed spec, adoption, or the pause marker on the way out of the initial sync',
      patch: 'pausing and unpausing in the migration handshake (src/migration/)',
    }),
  ),
  ...usage(CAPI_NAMESPACE, 'infrastructure.cluster.x-k8s.io', 'openstackservers', {
    list: "CAPO's OpenStackServer informer on OpenStack, when the cluster serves them (controller.ts)",
    watch: 'OpenStackServer informer',
    patch:
      'pausing and unpausing with its machine; its finalizer let go when deleted paused (src/sync/machine/)',
  }),
  ...usage(CAPI_NAMESPACE, 'infrastructure.cluster.x-k8s.io', 'vspherevms', {
    list: "CAPV's VSphereVM informer on vSphere, when the cluster serves them (controller.ts)",
    watch: 'VSphereVM informer',
    patch:
      'pausing and unpausing with its machine; its finalizer let go when deleted paused (src/sync/machine/)',
  }),
  ...usage(CAPI_NAMESPACE, 'coordination.k8s.io', 'leases', {
    create:
      'leader election: the Lease (--leader-elect-id) is created once (src/kube/leader-election.ts)',
    get: 'leader election: reading the Lease before each acquire or renew',
    update: 'leader election: acquiring, renewing and releasing the Lease',
  }),
  ...usage('', 'config.openshift.io', 'infrastructures', {
    list: 'Infrastructure informer (cluster name, platform, region)',
    watch: 'Infrastructure informer',
  }),
  ...usage('', 'config.openshift.io', 'clusteroperators', {
    create:
      'the ClusterOperator (--cluster-operator), when it does not exist (src/status/reporter.ts)',
    get: 'reading the ClusterOperator before deriving its status',
  }),
  ...usage('', 'config.openshift.io', 'clusteroperators/status', {
    update: 'the ClusterOperator status, when it changes (src/status/reporter.ts)',
  }),
];

function usage(
  namespace: string,
  apiGroup: string,
  resource: string,
  verbs: Record<string, string>,
): ApiUsage[] {
  return Object.entries(verbs).map(([verb, usedBy]) => ({
    namespace,
    apiGroup,
    resource,
    verb,
    usedBy,
  }));
}
