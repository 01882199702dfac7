// Reading the cluster for `check`: the MAPI MachineSets of one namespace and the Infrastructure.
// Reads only; every request is bounded in time.
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import type { Infrastructure, MapiMachineSet } from '../../api/types.js';
import { createApiClient, DEFAULT_REQUEST_TIMEOUT_MS } from '../../kube/api-client.js';
import { describeError, isNotFound, statusCode } from '../../kube/errors.js';
import { INFRASTRUCTURE, INFRASTRUCTURE_NAME, MAPI_MACHINE_SET } from '../../kube/resources.js';
import { CheckInputError } from './flags.js';

const PAGE_SIZE = 500;

export interface ClusterRead {
  machineSets: MapiMachineSet[];
  /** Absent when the cluster has no Infrastructure `cluster`. */
  infrastructure?: Infrastructure;
}

/** --kubeconfig (or $KUBECONFIG), else the pod's service account; CheckInputError otherwise. */
export function loadKubeConfig(
  kubeconfig: string | undefined,
  env: Record<string, string | undefined>,
): KubeConfig {
  const config = new KubeConfig();
  try {
    if (kubeconfig !== undefined) config.loadFromFile(kubeconfig);
    else if (env.KUBERNETES_SERVICE_HOST && env.KUBERNETES_SERVICE_PORT) config.loadFromCluster();
  } catch (err) {
    throw new CheckInputError(
      `cannot load the kubeconfig ${kubeconfig ?? '(in-cluster)'}: ${describeError(err)}`,
    );
  }
  if (!config.getCurrentCluster()) {
    throw new CheckInputError(
      'no cluster to read: pass -f FILE (or -f - for stdin), --kubeconfig PATH, set KUBECONFIG, or run in a pod',
    );
  }
  return config;
}

export async function readCluster(
  kubeConfig: KubeConfig,
  namespace: string,
  timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
): Promise<ClusterRead> {
  const api = createApiClient(kubeConfig, CustomObjectsApi, { timeoutMs });
  const server = kubeConfig.getCurrentCluster()?.server ?? 'the API server';
  const [machineSets, infrastructure] = await Promise.all([
    listMachineSets(api, namespace).catch((err: unknown) => {
      throw failure(err, `cannot list machinesets.machine.openshift.io in ${namespace}`, server);
    }),
    getInfrastructure(api).catch((err: unknown) => {
      throw failure(err, `cannot read infrastructures.config.openshift.io/cluster`, server);
    }),
  ]);
  return { machineSets, ...(infrastructure ? { infrastructure } : {}) };
}

async function listMachineSets(
  api: CustomObjectsApi,
  namespace: string,
): Promise<MapiMachineSet[]> {
  const items: MapiMachineSet[] = [];
  let continueToken: string | undefined;
  do {
    const page = (await api.listNamespacedCustomObject({
      group: MAPI_MACHINE_SET.group,
      version: MAPI_MACHINE_SET.version,
      plural: MAPI_MACHINE_SET.plural,
      namespace,
      limit: PAGE_SIZE,
      ...(continueToken ? { _continue: continueToken } : {}),
    })) as { items?: MapiMachineSet[]; metadata?: { _continue?: string; continue?: string } };
    items.push(...(page.items ?? []));
    continueToken = page.metadata?.continue || page.metadata?._continue || undefined;
  } while (continueToken);
  return items;
}

/** The Infrastructure `cluster`, or undefined when the cluster has none. */
export async function getInfrastructure(
  api: CustomObjectsApi,
): Promise<Infrastructure | undefined> {
  try {
    return (await api.getClusterCustomObject({
      group: INFRASTRUCTURE.group,
      version: INFRASTRUCTURE.version,
      plural: INFRASTRUCTURE.plural,
      name: INFRASTRUCTURE_NAME,
    })) as Infrastructure;
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
