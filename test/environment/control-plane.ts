// A real, local Kubernetes control plane: etcd, kube-apiserver (RBAC on) and a
// kube-controller-manager running only the garbage-collector and namespace
// controllers, all on loopback, with the upstream CRDs installed; and, unless turned off, the
// real controllers and admission webhooks that run next to this project's controller in a
// cluster (its "neighbours": Cluster API core, the AWS, OpenStack, GCP and vSphere providers'
// webhooks with stand-ins for their machine controllers' finalizers, machine-api-operator's
// MachineSet and Machine controllers and admission webhooks), built from their Go modules by
// hack/build-neighbours.sh from the mains in test/environment/neighbours/, with the
// cluster-scoped config objects they read (Infrastructure and DNS `cluster`).
// Used by the test harness (one per test run), the local-cluster command, the demo and the bench.
//
// This file starts the components in turn; each has its own starter: etcd.ts, kube-apiserver.ts
// (with OpenShift's admission plugins and the controllers' identities), cluster-config.ts (the
// CRDs, our ClusterRole, the Infrastructure and DNS `cluster`), kube-controller-manager.ts and
// neighbours.ts. processes.ts launches, probes, waits for and stops them; builds.ts runs the
// hack/ scripts that build them.
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { ensureBinaries, ensureCrds } from './builds.js';
import { ensureClusterConfig, grantControllerClusterRole, installCrds } from './cluster-config.js';
import { startEtcd } from './etcd.js';
import { startKubeApiserver, type ApiServer, type IdentityName } from './kube-apiserver.js';
import { startKubeControllerManager } from './kube-controller-manager.js';
import { startNeighbours, type Neighbour, type NeighbourName } from './neighbours.js';
import { Processes } from './processes.js';

export { ensureBinaries, ensureCrds } from './builds.js';
export { DEFAULT_INFRASTRUCTURE } from './cluster-config.js';
export { IDENTITIES, OPENSHIFT_ADMISSION_PLUGINS, type IdentityName } from './kube-apiserver.js';
export {
  demoNeighbours,
  ensureNeighbours,
  UNADMITTED_LABEL,
  type Neighbour,
  type NeighbourName,
} from './neighbours.js';
export { isAlive, killAll } from './processes.js';

export interface ControlPlaneOptions {
  /** Working directory for data, credentials, logs and the kubeconfig. */
  dir: string;
  /**
   * Detached processes outlive this Node process (the local-cluster command);
   * attached ones are killed when it dies, even by SIGKILL.
   */
  detached?: boolean;
  log?: (message: string) => void;
  /**
   * Also run the neighbouring controllers and webhooks (NEIGHBOURS in neighbours.ts); default true.
   * `false` gives only etcd, kube-apiserver, kube-controller-manager and the CRDs; a list, only
   * those neighbours (the demo's: `demoNeighbours()`).
   */
  neighbours?: boolean | readonly NeighbourName[];
}

export type CoreComponentName = 'etcd' | 'kube-apiserver' | 'kube-controller-manager';
export type ComponentName = CoreComponentName | NeighbourName;

export interface ControlPlaneState {
  dir: string;
  /** Where the control-plane binaries (and kubectl) live. */
  binDir: string;
  /** An administrator's kubeconfig (user `admin`, group system:masters): a person. */
  kubeconfigPath: string;
  /**
   * Kubeconfigs of the controllers' own identities (IDENTITIES in kube-apiserver.ts): admission
   * policies exempt controllers by user name, as in a cluster. Ours has only the RBAC of
   * manifests/.
   */
  identityKubeconfigPaths: Record<IdentityName, string>;
  server: string;
  adminToken: string;
  /** Every running component's pid, in start order. */
  pids: Partial<Record<ComponentName, number>>;
  /** The neighbours that run (empty with `neighbours: false`). */
  neighbours: Neighbour[];
  /**
   * The API server's audit log (JSON lines, level Metadata for every request): who did what to
   * which resource, e.g. to check that an identity used exactly the permissions it was granted.
   */
  auditLogPath?: string;
}

export interface ControlPlane extends ControlPlaneState {
  auditLogPath: string;
  kubeConfig: KubeConfig;
  stop(): Promise<void>;
}

/**
 * Starts every component in turn, each once the one before is ready: etcd, kube-apiserver, the
 * CRDs and our controller's ClusterRole, kube-controller-manager, then the neighbours. When one
 * fails, those already started are stopped and the error carries the end of each one's log.
 */
export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const log = options.log ?? (() => undefined);
  const dir = resolve(options.dir);
  const binDir = ensureBinaries();
  const crdDir = ensureCrds();
  await mkdir(join(dir, 'logs'), { recursive: true });
  const processes = new Processes<ComponentName>(dir, binDir, options.detached ?? false);
  try {
    const etcdUrl = await startEtcd(processes, dir, log);
    const api = await startKubeApiserver(processes, { dir, etcdUrl, log });

    log(`installing CRDs from ${crdDir}`);
    await installCrds(api.kubeConfig, crdDir, {
      server: api.server,
      ca: api.ca,
      token: api.adminToken,
    });
    log("granting the controller's identity the ClusterRole of manifests/");
    await grantControllerClusterRole(api.kubeConfig);

    // Started after the CRDs so that its garbage collector watches them from the start.
    await startKubeControllerManager(processes, api.kubeconfigPath, log);

    const neighbours = await startWantedNeighbours(options.neighbours ?? true, {
      dir,
      api,
      processes,
      log,
    });
    return running({ dir, binDir, api, processes, neighbours });
  } catch (err) {
    throw await startFailed(processes, err);
  }
}

/**
 * The neighbours wanted, if any: started after the CRDs they watch and serve webhooks for, and
 * after the config objects they read, which are created first.
 */
async function startWantedNeighbours(
  wanted: boolean | readonly NeighbourName[],
  ctx: {
    dir: string;
    api: ApiServer;
    processes: Processes<ComponentName>;
    log: (message: string) => void;
  },
): Promise<Neighbour[]> {
  if (wanted === false) return [];
  const { dir, api, processes, log } = ctx;
  log('creating the Infrastructure and DNS `cluster` where missing');
  await ensureClusterConfig(api.kubeConfig);
  return startNeighbours(wanted, {
    dir,
    processes,
    identityKubeconfigPaths: api.identityKubeconfigPaths,
    server: api.server,
    ca: api.ca,
    adminToken: api.adminToken,
    log,
  });
}

/** The running control plane: its state (what local-cluster keeps), a client, and stop(). */
function running(parts: {
  dir: string;
  binDir: string;
  api: ApiServer;
  processes: Processes<ComponentName>;
  neighbours: Neighbour[];
}): ControlPlane {
  const { dir, binDir, api, processes, neighbours } = parts;
  const state: ControlPlaneState = {
    dir,
    binDir,
    kubeconfigPath: api.kubeconfigPath,
    identityKubeconfigPaths: api.identityKubeconfigPaths,
    server: api.server,
    adminToken: api.adminToken,
    auditLogPath: api.auditLogPath,
    pids: processes.pids(),
    neighbours,
  };
  return {
    ...state,
    auditLogPath: api.auditLogPath,
    kubeConfig: api.kubeConfig,
    stop: () => processes.stop(),
  };
}

/** Stops what has started; the error to throw, with the end of every component's log. */
async function startFailed(processes: Processes<ComponentName>, err: unknown): Promise<Error> {
  const logs = await processes.logTails();
  await processes.stop();
  return new Error(`control plane failed to start: ${(err as Error).message}\n${logs.join('\n')}`, {
    cause: err,
  });
}
