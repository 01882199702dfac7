// The RBAC manifests/ grants the controller's ServiceAccount, granted on the local control plane
// to the identity the controller runs as there (IDENTITIES['mapi-capi-sync'] in control-plane.ts:
// the ServiceAccount's user name and groups, not system:masters). The ClusterRole and its binding
// as written, once per control plane; the Roles and RoleBindings of openshift-machine-api and
// openshift-cluster-api in whichever namespaces a controller runs on (tests use their own), their
// subjects unchanged. Nothing more: a permission the manifests lack fails here as in a cluster.
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject } from '../../src/api/types.js';
import { NAMESPACE, SUBJECT_ACCESS_REVIEW } from '../../src/kube/builtin-resources.js';
import type { ObjectClient } from '../../src/kube/objects.js';
import {
  bindsTo,
  CAPI_NAMESPACE,
  CONTROLLER_USER,
  loadManifests,
  MAPI_NAMESPACE,
  SERVICE_ACCOUNT,
  type ManifestObject,
} from '../support/manifests.js';

export { CONTROLLER_USER };

/** The namespace of each side in manifests/. */
const MANIFEST_NAMESPACES = { mapi: MAPI_NAMESPACE, capi: CAPI_NAMESPACE } as const;
export type Side = keyof typeof MANIFEST_NAMESPACES;

/** The groups the API server gives a ServiceAccount's token (system:authenticated is added). */
export const CONTROLLER_GROUPS = [
  'system:serviceaccounts',
  `system:serviceaccounts:${CAPI_NAMESPACE}`,
];

interface RbacObject extends ManifestObject {
  roleRef?: { kind: string; name: string };
  subjects?: { kind: string; name: string; namespace?: string }[];
}

const RBAC_KINDS = new Set(['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);

/** The roles bound to the controller's ServiceAccount in manifests/, and those bindings. */
async function controllerRbac(): Promise<RbacObject[]> {
  const objects = (await loadManifests()).filter((o): o is RbacObject => RBAC_KINDS.has(o.kind));
  const bindings = objects.filter((o) => bindsTo(o.subjects, CAPI_NAMESPACE, SERVICE_ACCOUNT));
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
  if (rule) {
    await waitUntilAuthorized(client, [
      {
        namespace,
        group: rule.apiGroups?.[0] ?? '',
        resource: rule.resources?.[0] ?? '',
        verb: rule.verbs?.[0] ?? '',
      },
    ]);
  }
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

/** How long a new binding may take to reach the authorizer on a busy machine. */
const AUTHORIZER_WAIT_MS = 30_000;

/** What a SubjectAccessReview asks: may this identity do this verb on this resource here? */
export interface AccessCheck {
  namespace?: string;
  group: string;
  resource: string;
  verb: string;
}

/**
 * Resolves once the API server's RBAC authorizer allows every check to the identity (it sees a
 * new binding a moment after it is stored); the identity is the controller's unless given.
 */
export async function waitUntilAuthorized(
  client: ObjectClient,
  checks: AccessCheck[],
  identity: { user: string; groups: string[] } = {
    user: CONTROLLER_USER,
    groups: CONTROLLER_GROUPS,
  },
): Promise<void> {
  const deadline = Date.now() + AUTHORIZER_WAIT_MS;
  while (Date.now() < deadline) {
    const allowed = await Promise.all(
      checks.map(async ({ namespace, group, resource, verb }) => {
        const review = await client.create<{ status?: { allowed?: boolean } }>(
          SUBJECT_ACCESS_REVIEW,
          {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SubjectAccessReview',
            spec: {
              user: identity.user,
              groups: [...identity.groups, 'system:authenticated'],
              resourceAttributes: { ...(namespace ? { namespace } : {}), group, resource, verb },
            },
          },
        );
        return review.status?.allowed === true;
      }),
    );
    if (allowed.every(Boolean)) return;
    await sleep(50);
  }
  throw new Error(
    `${identity.user} was not allowed ${checks.map((c) => `${c.verb} ${c.resource}`).join(', ')} after ${AUTHORIZER_WAIT_MS / 1000} s`,
  );
}
