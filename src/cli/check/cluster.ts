// Reading the cluster for `check`: the MAPI MachineSets of one namespace and the Infrastructure.
// Reads only; every request is bounded in time.
import type { KubeConfig } from '@kubernetes/client-node';
import type {
  CapiMachineSet,
  Infrastructure,
  MachineAutoscaler,
  MapiMachineSet,
} from '../../api/types.js';
import { clusterAccess } from '../../kube/cluster-access.js';
import { describeError, isNotFound, statusCode } from '../../kube/errors.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, KubeClient } from '../../kube/http-client.js';
import {
  currentContext,
  KubeConfigError,
  loadKubeConfig as loadKubeConfigFile,
} from '../../kube/kubeconfig.js';
import {
  CAPI_MACHINE_SET,
  INFRASTRUCTURE,
  INFRASTRUCTURE_NAME,
  MACHINE_AUTOSCALER,
  MAPI_MACHINE_SET,
  resourcePath,
  type Resource,
} from '../../kube/resources.js';
import { SECRET } from '../../kube/builtin-resources.js';
import { CheckInputError } from './flags.js';

const PAGE_SIZE = 500;

export interface ClusterRead {
  machineSets: MapiMachineSet[];
  /** The Cluster API MachineSets of the Cluster API namespace, or why they were not read. */
  capiMachineSets: CapiMachineSet[] | { notRead: string };
  /** Absent when the cluster has no Infrastructure `cluster`. */
  infrastructure?: Infrastructure;
  /** The MachineAutoscalers of the namespace, or why they were not read. */
  autoscalers: MachineAutoscaler[] | { notRead: string };
}

/**
 * --kubeconfig, else the files of $KUBECONFIG (merged as kubectl merges them), else the pod's
 * service account; CheckInputError otherwise.
 */
export function loadKubeConfig(
  kubeconfig: string | undefined,
  env: Record<string, string | undefined>,
): KubeConfig {
  try {
    return loadKubeConfigFile({ ...(kubeconfig !== undefined ? { path: kubeconfig } : {}), env });
  } catch (err) {
    if (!(err instanceof KubeConfigError)) throw err;
    throw new CheckInputError(
      err.reason === 'missing'
        ? 'no cluster to read: pass -f FILE (or -f - for stdin), --kubeconfig PATH, set KUBECONFIG, or run in a pod'
        : err.message,
    );
  }
}

export async function readCluster(
  kubeConfig: KubeConfig,
  namespace: string,
  capiNamespace: string,
  timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  env: Record<string, string | undefined> = process.env,
): Promise<ClusterRead> {
  let client: KubeClient;
  try {
    client = new KubeClient(clusterAccess(currentContext(kubeConfig), { env }), {
      timeoutMs,
      userAgent: 'mapi-capi-sync-check',
    });
  } catch (err) {
    if (err instanceof KubeConfigError) throw new CheckInputError(err.message);
    throw err;
  }
  const server = client.server;
  try {
    const [machineSets, infrastructure, autoscalers, capiMachineSets] = await Promise.all([
      listAll<MapiMachineSet>(client, MAPI_MACHINE_SET, namespace).catch((err: unknown) => {
        throw failure(err, `cannot list machinesets.machine.openshift.io in ${namespace}`, server);
      }),
      getInfrastructure(client).catch((err: unknown) => {
        throw failure(err, `cannot read infrastructures.config.openshift.io/cluster`, server);
      }),
      // a check without them is still worth having: said, not fatal
      listAll<MachineAutoscaler>(client, MACHINE_AUTOSCALER, namespace).catch((err: unknown) => {
        const what = `cannot list machineautoscalers.autoscaling.openshift.io in ${namespace}`;
        return {
          notRead: isNotFound(err)
            ? 'the cluster does not serve machineautoscalers.autoscaling.openshift.io'
            : failure(err, what, server).message,
        };
      }),
      listAll<CapiMachineSet>(client, CAPI_MACHINE_SET, capiNamespace).catch((err: unknown) => ({
        notRead: failure(
          err,
          `cannot list machinesets.cluster.x-k8s.io in ${capiNamespace}`,
          server,
        ).message,
      })),
    ]);
    return {
      machineSets,
      ...(infrastructure ? { infrastructure } : {}),
      autoscalers,
      capiMachineSets,
    };
  } finally {
    client.close();
  }
}

/**
 * Which of the named Secrets do not exist in `namespace` (one GET each; nothing else is read), or
 * why they could not be looked for.
 */
export async function readMissingSecrets(
  kubeConfig: KubeConfig,
  namespace: string,
  names: readonly string[],
  timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  env: Record<string, string | undefined> = process.env,
): Promise<{ missing: Set<string> } | { notRead: string }> {
  if (names.length === 0) return { missing: new Set() };
  const client = new KubeClient(clusterAccess(currentContext(kubeConfig), { env }), {
    timeoutMs,
    userAgent: 'mapi-capi-sync-check',
  });
  try {
    return await missingSecrets(client, namespace, names);
  } finally {
    client.close();
  }
}

/** The same, through a client the caller keeps. */
export async function missingSecrets(
  client: KubeClient,
  namespace: string,
  names: readonly string[],
): Promise<{ missing: Set<string> } | { notRead: string }> {
  try {
    const found = await Promise.all(
      names.map((name) =>
        client
          .request('GET', `${resourcePath({ ...SECRET, namespace })}/${encodeURIComponent(name)}`)
          .then(
            () => true,
            (err: unknown) => {
              if (isNotFound(err)) return false;
              throw err;
            },
          ),
      ),
    );
    return { missing: new Set(names.filter((_, i) => !found[i])) };
  } catch (err) {
    return { notRead: failure(err, `cannot get secrets in ${namespace}`, client.server).message };
  }
}

async function listAll<T>(client: KubeClient, resource: Resource, namespace: string): Promise<T[]> {
  const items: T[] = [];
  const path = resourcePath({ ...resource, namespace });
  let continueToken: string | undefined;
  do {
    const page = await client.request<{
      items?: T[];
      metadata?: { continue?: string };
    }>('GET', path, {
      query: { limit: String(PAGE_SIZE), ...(continueToken ? { continue: continueToken } : {}) },
    });
    items.push(...(page.items ?? []));
    continueToken = page.metadata?.continue || undefined;
  } while (continueToken);
  return items;
}

/** The Infrastructure `cluster`, or undefined when the cluster has none. */
export async function getInfrastructure(client: KubeClient): Promise<Infrastructure | undefined> {
  try {
    const path = `${resourcePath(INFRASTRUCTURE)}/${INFRASTRUCTURE_NAME}`;
    return await client.request<Infrastructure>('GET', path);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

function failure(err: unknown, what: string, server: string): CheckInputError {
  const code = statusCode(err);
  const detail = code === undefined ? `${server}: ${describeError(err)}` : describeError(err);
  return new CheckInputError(`${what}: ${detail}`);
}
