// The RBAC manifests/ grants the controller's ServiceAccount, granted on the local control plane
// to the identity the controller runs as there (IDENTITIES['mapi-capi-sync'] in control-plane.ts:
// the ServiceAccount's user name and groups, not system:masters). The ClusterRole and its binding
// as written, once per control plane; the Roles and RoleBindings of openshift-machine-api and
// openshift-cluster-api in whichever namespaces a controller runs on (tests use their own), their
// subjects unchanged. Nothing more: a permission the manifests lack fails here as in a cluster.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadAll } from 'js-yaml';
import type { KubeObject } from '../src/api/types.js';
import { NAMESPACE, SUBJECT_ACCESS_REVIEW } from '../src/kube/builtin-resources.js';
import type { ObjectClient } from '../src/kube/objects.js';

const MANIFESTS_DIR = resolve(import.meta.dirname, '..', 'manifests');

/** The namespace of each side in manifests/. */
export const MANIFEST_NAMESPACES = {
  mapi: 'openshift-machine-api',
  capi: 'openshift-cluster-api',
} as const;
export type Side = keyof typeof MANIFEST_NAMESPACES;

/** The controller's ServiceAccount, as manifests/service-account.yaml names it. */
export const CONTROLLER_SERVICE_ACCOUNT = {
  namespace: MANIFEST_NAMESPACES.capi,
  name: 'mapi-capi-sync',
} as const;
export const CONTROLLER_USER = `system:serviceaccount:${CONTROLLER_SERVICE_ACCOUNT.namespace}:${CONTROLLER_SERVICE_ACCOUNT.name}`;
/** The groups the API server gives a ServiceAccount's token (system:authenticated is added). */
export const CONTROLLER_GROUPS = [
  'system:serviceaccounts',
  `system:serviceaccounts:${CONTROLLER_SERVICE_ACCOUNT.namespace}`,
];

interface RbacObject extends KubeObject {
  roleRef?: { kind: string; name: string };
  subjects?: { kind: string; name: string; namespace?: string }[];
}

const RBAC_KINDS = new Set(['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);

/** The roles bound to the controller's ServiceAccount in manifests/, and those bindings. */
export async function controllerRbac(): Promise<RbacObject[]> {
  const kustomization = loadAll(
    await readFile(join(MANIFESTS_DIR, 'kustomization.yaml'), 'utf8'),
  )[0] as { resources: string[] };
  const objects: RbacObject[] = [];
  for (const file of kustomization.resources) {
    for (const doc of loadAll(await readFile(join(MANIFESTS_DIR, file), 'utf8'))) {
      const object = doc as RbacObject | null;
      if (object && RBAC_KINDS.has(object.kind)) objects.push(object);
    }
  }
  const bindings = objects.filter((o) =>
    o.subjects?.some(
      (s) =>
        s.kind === 'ServiceAccount' &&
        s.name === CONTROLLER_SERVICE_ACCOUNT.name &&
        s.namespace === CONTROLLER_SERVICE_ACCOUNT.namespace,
    ),
  );
  const bound = (role: RbacObject) =>
    bindings.some(
      (b) =>
        b.roleRef?.kind === role.kind &&
        b.roleRef.name === role.metadata.name &&
        b.metadata.namespace === role.metadata.namespace,
    );
  return [...objects.filter((o) => !o.roleRef && bound(o)), ...bindings];
}

/** The ClusterRole and ClusterRoleBinding, as written (replaced when they differ). */
export async function grantControllerClusterRbac(client: ObjectClient): Promise<void> {
  for (const object of (await controllerRbac()).filter((o) => !o.metadata.namespace)) {
    await createOrReplace(client, object);
  }
}

/**
 * The Roles and RoleBindings manifests/ puts in the side's namespace, in `namespace`; resolves
 * once the API server's authorizer grants the controller the first of their rules.
 */
export async function grantControllerRbac(
  client: ObjectClient,
  side: Side,
  namespace: string,
): Promise<void> {
  const objects = (await controllerRbac())
    .filter((o) => o.metadata.namespace === MANIFEST_NAMESPACES[side])
    .map((o) => ({ ...o, metadata: { ...o.metadata, namespace } }));
  for (const object of objects) await createOrReplace(client, object);
  const rule = (objects.find((o) => o.kind === 'Role') as { rules?: Rule[] } | undefined)
    ?.rules?.[0];
  if (rule) await waitUntilGranted(client, namespace, rule);
}

/**
 * Creates the namespaces a controller runs on (where missing) and grants the controller's identity
 * the Roles manifests/ gives it there, as in openshift-machine-api and openshift-cluster-api.
 */
export async function createControllerNamespaces(
  client: ObjectClient,
  namespaces: Record<Side, string>,
): Promise<void> {
  for (const side of ['mapi', 'capi'] as const) {
    const name = namespaces[side];
    await client
      .create(NAMESPACE, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } })
      .catch((err: { code?: number }) => {
        if (err.code !== 409) throw err;
      });
    await grantControllerRbac(client, side, name);
  }
}

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
}

async function createOrReplace(client: ObjectClient, object: RbacObject): Promise<void> {
  const at = await client.locate(object);
  try {
    await client.create(at, object);
  } catch (err) {
    if ((err as { code?: number }).code !== 409) throw err;
    const current = await client.get<KubeObject>({ ...at, name: object.metadata.name });
    await client.replace(
      { ...at, name: object.metadata.name },
      {
        ...object,
        metadata: { ...object.metadata, resourceVersion: current.metadata.resourceVersion },
      },
    );
  }
}

/** RBAC's authorizer sees a new binding a moment after it is stored. */
async function waitUntilGranted(client: ObjectClient, namespace: string, rule: Rule) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const review = await client.create<{ status?: { allowed?: boolean } }>(SUBJECT_ACCESS_REVIEW, {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: CONTROLLER_USER,
        groups: [...CONTROLLER_GROUPS, 'system:authenticated'],
        resourceAttributes: {
          namespace,
          group: rule.apiGroups?.[0] ?? '',
          resource: rule.resources?.[0] ?? '',
          verb: rule.verbs?.[0] ?? '',
        },
      },
    });
    if (review.status?.allowed) return;
    await sleep(50);
  }
  throw new Error(`the controller's Role in ${namespace} was not in effect after 5 s`);
}
