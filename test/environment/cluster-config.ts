// What the control plane writes into itself once the API server serves: the upstream CRDs (and
// their wait until clients can use them), our controller's ClusterRole, and the cluster-scoped
// config objects every OpenShift cluster has (Infrastructure and DNS `cluster`).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { loadAll } from 'js-yaml';
import { CUSTOM_RESOURCE_DEFINITION } from '../../src/kube/builtin-resources.js';
import { clusterAccess } from '../../src/kube/cluster-access.js';
import { currentContext } from '../../src/kube/kubeconfig.js';
import { KubeClient } from '../../src/kube/http-client.js';
import { ObjectClient } from '../../src/kube/objects.js';
import { grantControllerClusterRbac } from './controller-rbac.js';
import { probe, waitFor } from './processes.js';

/**
 * The status of the AWS Infrastructure `cluster` the control plane creates when there is none
 * (machine-api-operator's webhooks cannot start without one, as in a cluster).
 */
export const DEFAULT_INFRASTRUCTURE = {
  infrastructureName: 'demo-abc12',
  platform: 'AWS',
  platformStatus: { type: 'AWS', aws: { region: 'us-east-1' } },
};

/** The object client the control plane sets itself up with (the controller's transport). */
function setupClient(kubeConfig: KubeConfig): ObjectClient {
  return new ObjectClient(
    new KubeClient(clusterAccess(currentContext(kubeConfig)), { userAgent: 'local-control-plane' }),
  );
}

const isConflict = (err: unknown): boolean => (err as { code?: number }).code === 409;

/** What installing a CustomResourceDefinition reads of it. */
interface CustomResourceDefinition {
  metadata?: { name?: string };
  spec: {
    group: string;
    names: { plural: string };
    versions: { name: string; served: boolean }[];
  };
  status?: { conditions?: { type: string; status: string }[] };
}

/** Where the API server is, for the discovery requests that show a CRD's resource served. */
interface Discovery {
  server: string;
  ca: Buffer;
  token: string;
}

/**
 * Creates every CustomResourceDefinition of the YAML files in `crdDir` (those that exist already
 * are left as they are); resolves once each is established and its resources are in discovery.
 */
export async function installCrds(
  kubeConfig: KubeConfig,
  crdDir: string,
  discovery: Discovery,
): Promise<void> {
  const api = setupClient(kubeConfig);
  const crds = await readCrds(crdDir);
  for (const crd of crds) {
    try {
      await api.create(CUSTOM_RESOURCE_DEFINITION, crd);
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
  }
  for (const crd of crds) await waitUntilServed(api, crd, discovery);
  api.close();
}

async function readCrds(crdDir: string): Promise<CustomResourceDefinition[]> {
  const files = (await readdir(crdDir)).filter((f) => f.endsWith('.yaml')).sort();
  const crds: CustomResourceDefinition[] = [];
  for (const file of files) {
    // As written: sent exactly as the YAML says.
    for (const doc of loadAll(await readFile(join(crdDir, file), 'utf8'))) {
      if ((doc as { kind?: string } | null)?.kind === 'CustomResourceDefinition') {
        crds.push(doc as CustomResourceDefinition);
      }
    }
  }
  return crds;
}

async function waitUntilServed(
  api: ObjectClient,
  crd: CustomResourceDefinition,
  { server, ca, token }: Discovery,
): Promise<void> {
  const name = crd.metadata?.name ?? '';
  await waitFor(
    `CRD ${name} established`,
    60_000,
    async () => {
      const current = await api.get<CustomResourceDefinition>({
        ...CUSTOM_RESOURCE_DEFINITION,
        name,
      });
      return (
        current.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ??
        false
      );
    },
    () => undefined,
  );
  // Established is not enough: clients need the resource in discovery.
  const { group, names, versions } = crd.spec;
  for (const version of versions.filter((v) => v.served)) {
    await waitFor(
      `discovery of ${names.plural}.${group}/${version.name}`,
      60_000,
      async () => {
        const res = await probe(`${server}/apis/${group}/${version.name}`, { ca, token });
        if (res.status !== 200) return false;
        const list = JSON.parse(res.body) as { resources?: { name: string }[] };
        return list.resources?.some((r) => r.name === names.plural) ?? false;
      },
      () => undefined,
    );
  }
}

/** Grants our controller's identity the ClusterRole of manifests/ (controller-rbac.ts). */
export async function grantControllerClusterRole(kubeConfig: KubeConfig): Promise<void> {
  const setup = setupClient(kubeConfig);
  await grantControllerClusterRbac(setup);
  setup.close();
}

/**
 * The Infrastructure `cluster` (AWS, DEFAULT_INFRASTRUCTURE) when there is none, and the DNS
 * `cluster` when there is none: every OpenShift cluster has both, and machine-api-operator's
 * webhooks read them.
 */
export async function ensureClusterConfig(kubeConfig: KubeConfig): Promise<void> {
  const api = setupClient(kubeConfig);
  await ensureInfrastructure(api);
  await ensureDns(api);
  api.close();
}

const CONFIG = { group: 'config.openshift.io', version: 'v1' };

async function ensureInfrastructure(api: ObjectClient): Promise<void> {
  try {
    const created = await api.create<object>(
      { ...CONFIG, plural: 'infrastructures' },
      {
        apiVersion: 'config.openshift.io/v1',
        kind: 'Infrastructure',
        metadata: { name: 'cluster' },
        spec: { platformSpec: { type: 'AWS' } },
      },
    );
    await api.replace(
      { ...CONFIG, plural: 'infrastructures', name: 'cluster' },
      { ...created, status: DEFAULT_INFRASTRUCTURE },
      { subresource: 'status' },
    );
  } catch (err) {
    if (!isConflict(err)) throw err;
  }
}

async function ensureDns(api: ObjectClient): Promise<void> {
  const name = DEFAULT_INFRASTRUCTURE.infrastructureName;
  try {
    await api.create(
      { ...CONFIG, plural: 'dnses' },
      {
        apiVersion: 'config.openshift.io/v1',
        kind: 'DNS',
        metadata: { name: 'cluster' },
        spec: {
          baseDomain: `${name}.example.com`,
          // a connected cluster: its public zone (machine-api-operator's validator reads it)
          publicZone: { id: 'Z0000000000LOCAL' },
          privateZone: {
            tags: { Name: `${name}-int`, [`kubernetes.io/cluster/${name}`]: 'owned' },
          },
        },
      },
    );
  } catch (err) {
    if (!isConflict(err)) throw err;
  }
}
