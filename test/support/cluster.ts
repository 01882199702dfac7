// Helpers that give each test its own namespaces and clients on the shared control plane.
import { randomBytes } from 'node:crypto';
import { KubeConfig } from '@kubernetes/client-node';
import type { ControlPlane, IdentityName } from '../environment/control-plane.js';
import { grantControllerRbac } from '../environment/controller-rbac.js';
import type { KubeObject } from '../../src/api/types.js';
import { NAMESPACE, SERVICE_ACCOUNT } from '../../src/kube/builtin-resources.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig.js';
import type { ObjectClient } from '../../src/kube/objects.js';
import type { Resource } from '../../src/kube/resources.js';
import { objectsFor } from './kube-client.js';

let plane: ControlPlane | undefined;
let admin: ObjectClient | undefined;
const namespacesToDelete: string[] = [];
/** The label of every namespace a test creates. */
const TEST_NAMESPACE_LABEL = 'mapi-capi-sync/test';
let discoveredMachineResources: Promise<Resource[]> | undefined;

export function setControlPlane(value: ControlPlane | undefined): void {
  discoveredMachineResources = undefined;
  plane = value;
  admin?.close();
  admin = undefined;
}

export function controlPlane(): ControlPlane {
  if (!plane)
    throw new Error('no control plane: run integration tests with .mocharc.integration.json');
  return plane;
}

/** A fresh admin KubeConfig (system:masters). */
export function adminConfig(): KubeConfig {
  return loadKubeConfig({ path: controlPlane().kubeconfigPath, env: {} });
}

/** An administrator's object client (system:masters), one for the control plane's lifetime. */
export function adminObjects(): ObjectClient {
  admin ??= objectsFor(adminConfig());
  return admin;
}

/**
 * A fresh KubeConfig of the controller's own identity in a cluster
 * (system:serviceaccount:openshift-cluster-api:mapi-capi-sync, with the ServiceAccount's groups
 * and only the RBAC of manifests/): what admission policies exempt as this project's controller.
 */
export function controllerConfig(): KubeConfig {
  return identityConfig('mapi-capi-sync');
}

/** A fresh KubeConfig of one of the controllers' identities (IDENTITIES in test/environment/control-plane.ts). */
export function identityConfig(identity: IdentityName): KubeConfig {
  return loadKubeConfig({ path: controlPlane().identityKubeconfigPaths[identity], env: {} });
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/**
 * Creates a namespace that is deleted after the current test. A 'mapi' or 'capi' namespace is one
 * a controller runs on, as openshift-machine-api or openshift-cluster-api: the controller's
 * identity gets the Roles manifests/ gives it in that namespace, and nothing else.
 */
export async function testNamespace(prefix = 'test'): Promise<string> {
  const name = uniqueName(prefix);
  await adminObjects().create(NAMESPACE, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { [TEST_NAMESPACE_LABEL]: 'true' } },
  });
  namespacesToDelete.push(name);
  if (prefix === 'mapi' || prefix === 'capi') {
    await grantControllerRbac(adminObjects(), prefix, name);
  }
  return name;
}

/**
 * Deletes the namespaces created since the last call, once their machines are let go (see
 * `letMachinesGo`); the namespace controller finishes the job.
 */
export async function deleteTestNamespaces(): Promise<void> {
  const objects = adminObjects();
  const names = namespacesToDelete.splice(0);
  await Promise.all(
    names.map(async (name) => {
      await letMachinesGo(objects, name);
      try {
        await objects.delete({ ...NAMESPACE, name });
      } catch (err) {
        if ((err as { code?: number }).code !== 404) throw err;
      }
    }),
  );
}

/** How many test namespaces are being deleted still. */
export async function terminatingTestNamespaces(): Promise<number> {
  const { items } = await adminObjects().list<KubeObject & { status?: { phase?: string } }>(
    NAMESPACE,
    { labelSelector: `${TEST_NAMESPACE_LABEL}=true` },
  );
  return items.filter((ns) => ns.status?.phase === 'Terminating').length;
}

/** The API groups of the machine objects tests create, whose controllers put finalizers on them. */
const MACHINE_GROUPS = [
  'machine.openshift.io',
  'cluster.x-k8s.io',
  'infrastructure.cluster.x-k8s.io',
];

/**
 * Deletes every machine object in `namespace` and releases its finalizers. The test's own
 * controller is stopped by then, a paused object's controller will not act on its deletion, and
 * no cloud is behind the providers: such a finalizer is never released, the namespace stays
 * Terminating, and the namespace controller goes through every resource type in it again and
 * again until the control plane stops, slowing every test after. Best effort: a namespace left
 * Terminating costs time, not correctness.
 */
async function letMachinesGo(objects: ObjectClient, namespace: string): Promise<void> {
  const letGo = async (resource: Resource) => {
    const listed = await objects
      .list<KubeObject>({ ...resource, namespace })
      .catch(() => ({ items: [] as KubeObject[] }));
    await Promise.all(
      listed.items.map(async ({ metadata: { name } }) => {
        const at = { ...resource, namespace, name };
        // Deleted first: no finalizer can be added to an object being deleted.
        await objects.delete(at).catch(() => undefined);
        await objects
          .patch(at, { type: 'merge', body: { metadata: { finalizers: null } } })
          .catch(() => undefined);
      }),
    );
  };
  await Promise.all((await machineResources(objects)).map(letGo));
}

/** The namespaced resources of MACHINE_GROUPS the API server serves, asked once per run. */
function machineResources(objects: ObjectClient): Promise<Resource[]> {
  discoveredMachineResources ??= (async () => {
    const found = new Map<string, Resource>();
    for (const group of MACHINE_GROUPS) {
      const { versions = [] } = await objects.client.request<{ versions?: { version: string }[] }>(
        'GET',
        `/apis/${group}`,
      );
      for (const { version } of versions) {
        const { resources = [] } = await objects.client.request<{
          resources?: { name: string; kind: string; namespaced: boolean }[];
        }>('GET', `/apis/${group}/${version}`);
        for (const { name, kind, namespaced } of resources) {
          if (!namespaced || name.includes('/') || found.has(`${name}.${group}`)) continue;
          found.set(`${name}.${group}`, { group, version, plural: name, kind, namespaced });
        }
      }
    }
    return [...found.values()];
  })();
  return discoveredMachineResources;
}

/**
 * A second, non-admin identity: a ServiceAccount with a bound token. It can do
 * nothing until a test binds roles to `system:serviceaccount:<namespace>:<name>`.
 */
export async function createLimitedIdentity(
  namespace: string,
  name: string,
): Promise<{ username: string; token: string; kubeConfig: KubeConfig }> {
  const objects = adminObjects();
  await objects.create(
    { ...SERVICE_ACCOUNT, namespace },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } },
  );
  const request = await objects.create<{ status?: { token?: string } }>(
    { ...SERVICE_ACCOUNT, namespace, name },
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { audiences: [], expirationSeconds: 3600 },
    },
    { subresource: 'token' },
  );
  const token = request.status?.token;
  if (!token) throw new Error(`no token issued for service account ${namespace}/${name}`);
  const admin = adminConfig();
  const cluster = admin.getCurrentCluster();
  if (!cluster) throw new Error('admin kubeconfig has no cluster');
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [cluster],
    users: [{ name, token }],
    contexts: [{ name, cluster: cluster.name, user: name }],
    currentContext: name,
  });
  return { username: `system:serviceaccount:${namespace}:${name}`, token, kubeConfig };
}
