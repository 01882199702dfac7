// Helpers that give each test its own namespaces and clients on the shared control plane.
import { randomBytes } from 'node:crypto';
import { KubeConfig } from '@kubernetes/client-node';
import type { ControlPlane, IdentityName } from '../environment/control-plane.js';
import { grantControllerRbac } from '../environment/controller-rbac.js';
import { NAMESPACE, SERVICE_ACCOUNT } from '../../src/kube/builtin-resources.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig.js';
import type { ObjectClient } from '../../src/kube/objects.js';
import { objectsFor } from './kube-client.js';

let plane: ControlPlane | undefined;
let admin: ObjectClient | undefined;
const namespacesToDelete: string[] = [];

export function setControlPlane(value: ControlPlane | undefined): void {
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
    metadata: { name, labels: { 'mapi-capi-sync/test': 'true' } },
  });
  namespacesToDelete.push(name);
  if (prefix === 'mapi' || prefix === 'capi') {
    await grantControllerRbac(adminObjects(), prefix, name);
  }
  return name;
}

/** Deletes the namespaces created since the last call; the namespace controller finishes the job. */
export async function deleteTestNamespaces(): Promise<void> {
  const objects = adminObjects();
  const names = namespacesToDelete.splice(0);
  await Promise.all(
    names.map(async (name) => {
      try {
        await objects.delete({ ...NAMESPACE, name });
      } catch (err) {
        if ((err as { code?: number }).code !== 404) throw err;
      }
    }),
  );
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
