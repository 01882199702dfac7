// A real, local Kubernetes control plane: etcd, kube-apiserver (RBAC on) and a
// kube-controller-manager running only the garbage-collector and namespace
// controllers, all on loopback, with the upstream CRDs installed; and, unless turned off, the
// real controllers and admission webhooks that run next to this project's controller in a
// cluster (its "neighbours": Cluster API core, the AWS, OpenStack, GCP and vSphere providers'
// webhooks with stand-ins for their machine controllers' finalizers, machine-api-operator's
// MachineSet and Machine controllers and admission webhooks), built from their Go modules by
// hack/build-neighbours.sh from the mains in test/environment/neighbours/, with the
// cluster-scoped config objects they read (Infrastructure and DNS `cluster`).
// Used by the test harness (one per test run), the local-cluster command and the demo.
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { KubeConfig } from '@kubernetes/client-node';
import { loadAll } from 'js-yaml';
import { CUSTOM_RESOURCE_DEFINITION } from '../../src/kube/builtin-resources.js';
import {
  CONTROLLER_GROUPS,
  CONTROLLER_USER,
  grantControllerClusterRbac,
} from './controller-rbac.js';
import { clusterAccess } from '../../src/kube/cluster-access.js';
import { currentContext } from '../../src/kube/kubeconfig.js';
import { KubeClient } from '../../src/kube/http-client.js';
import { ObjectClient } from '../../src/kube/objects.js';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
/** The neighbours' Go modules (one per neighbour) and the demo's list of them. */
const NEIGHBOURS_DIR = join(import.meta.dirname, 'neighbours');

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
   * Also run the neighbouring controllers and webhooks (NEIGHBOURS below); default true.
   * `false` gives only etcd, kube-apiserver, kube-controller-manager and the CRDs; a list, only
   * those neighbours (the demo's: `demoNeighbours()`).
   */
  neighbours?: boolean | readonly NeighbourName[];
}

export type CoreComponentName = 'etcd' | 'kube-apiserver' | 'kube-controller-manager';
export type NeighbourName =
  | 'cluster-api'
  | 'cluster-api-provider-aws'
  | 'cluster-api-provider-openstack'
  | 'cluster-api-provider-gcp'
  | 'cluster-api-provider-vsphere'
  | 'machine-api-operator';
export type ComponentName = CoreComponentName | NeighbourName;

/**
 * The user names the controllers run as in an OpenShift cluster (their ServiceAccounts), so that
 * admission policies that exempt controllers by user name (ours in manifests/, OpenShift's) see
 * what they would see in a cluster. The neighbours' identities are in system:masters: their RBAC
 * is theirs to test. Ours is not: it has the ServiceAccount's groups and exactly the RBAC of
 * manifests/ (controller-rbac.ts), so that a permission the manifests lack, or one an admission
 * plugin demands, fails here as it would in a cluster.
 */
export const IDENTITIES = {
  'machine-api-operator': 'system:serviceaccount:openshift-machine-api:machine-api-controllers',
  'cluster-api': 'system:serviceaccount:openshift-cluster-api:capi-controllers',
  'mapi-capi-sync': CONTROLLER_USER,
} as const;

/**
 * The admission plugins OpenShift turns on beside the upstream defaults that exist upstream
 * (openshift/kubernetes, openshift-kube-apiserver/admission/admissionenablement/register.go,
 * additionalDefaultOnPlugins). OwnerReferencesPermissionEnforcement is the one our writes meet:
 * setting blockOwnerDeletion needs `update` on the owner's `finalizers`. OpenShift's own plugins
 * (image.openshift.io/ImagePolicy, security.openshift.io/*, quota.openshift.io/*, route.openshift.io/*)
 * exist only in its fork and act on pods, images, routes and quotas, none of which we write.
 */
export const OPENSHIFT_ADMISSION_PLUGINS = [
  'NodeRestriction',
  'OwnerReferencesPermissionEnforcement',
  'PodNodeSelector',
  'PodTolerationRestriction',
  'Priority',
  'StorageObjectInUseProtection',
] as const;
export type IdentityName = keyof typeof IDENTITIES;

/** The groups of an identity: the ServiceAccount's for ours, system:masters for the neighbours. */
function identityGroups(name: IdentityName): string[] {
  return name === 'mapi-capi-sync' ? CONTROLLER_GROUPS : ['system:masters'];
}

/**
 * The label of an object machine-api-operator's admission webhooks never saw: created while they
 * were down or before they existed. Their registration leaves out objects carrying it set to
 * "true" (an objectSelector), so that tests can create the bad input a cluster may hold (the
 * webhooks' failurePolicy is Ignore, and objects may predate them) and that the controller must
 * report.
 */
export const UNADMITTED_LABEL = 'test.mapi-capi-sync/unadmitted';

/**
 * The status of the AWS Infrastructure `cluster` the control plane creates when there is none
 * (machine-api-operator's webhooks cannot start without one, as in a cluster).
 */
export const DEFAULT_INFRASTRUCTURE = {
  infrastructureName: 'demo-abc12',
  platform: 'AWS',
  platformStatus: { type: 'AWS', aws: { region: 'us-east-1' } },
};

/** Which identity each neighbour runs as (the providers' webhooks are Cluster API's). */
const NEIGHBOUR_IDENTITY: Record<NeighbourName, IdentityName> = {
  'cluster-api': 'cluster-api',
  'cluster-api-provider-aws': 'cluster-api',
  'cluster-api-provider-openstack': 'cluster-api',
  'cluster-api-provider-gcp': 'cluster-api',
  'cluster-api-provider-vsphere': 'cluster-api',
  'machine-api-operator': 'machine-api-operator',
};

/** A neighbouring controller or webhook server that runs next to the API server. */
export interface Neighbour {
  name: NeighbourName;
  /** The upstream Go module it is built from, and its version (from test/environment/neighbours/<name>/go.mod). */
  module: string;
  version: string;
  /** The reconcilers and admission webhooks it runs. */
  runs: string[];
  /** Its webhook server, when it serves admission webhooks (https, CA in `caFile`). */
  webhookUrl?: string;
  caFile?: string;
  /** Its /healthz and /readyz. */
  probeUrl: string;
}

export interface ControlPlaneState {
  dir: string;
  /** Where the control-plane binaries (and kubectl) live. */
  binDir: string;
  /** An administrator's kubeconfig (user `admin`, group system:masters): a person. */
  kubeconfigPath: string;
  /**
   * Kubeconfigs of the controllers' own identities (IDENTITIES below): admission policies exempt
   * controllers by user name, as in a cluster. Ours has only the RBAC of manifests/.
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

/** Runs a hack/ script that prints a directory on its last line; returns that directory. */
function runHackScript(script: string, args: readonly string[] = []): string {
  const out = execFileSync('bash', [join(REPO_ROOT, 'hack', script), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  const dir = out.trim().split('\n').pop();
  if (!dir) throw new Error(`hack/${script} printed no directory`);
  return dir;
}

export function ensureBinaries(): string {
  return runHackScript('build-controlplane.sh');
}

export function ensureCrds(): string {
  return runHackScript('fetch-crds.sh');
}

/** Builds the neighbours named (none named: all) unless built; the directory of their binaries. */
export function ensureNeighbours(names: readonly NeighbourName[] = []): string {
  return runHackScript('build-neighbours.sh', names);
}

/** The neighbours the demo runs (neighbours/demo.list, which hack/build-all.sh --demo builds). */
export function demoNeighbours(): NeighbourName[] {
  const list = readFileSync(join(NEIGHBOURS_DIR, 'demo.list'), 'utf8');
  const names = list.split('\n').filter((line) => line.trim() && !line.startsWith('#'));
  const unknown = names.filter((name) => !NEIGHBOURS.some((spec) => spec.name === name));
  if (unknown.length)
    throw new Error(`test/environment/neighbours/demo.list: no neighbour ${unknown.join(', ')}`);
  return names as NeighbourName[];
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

interface Probe {
  status: number;
  body: string;
}

/** A request (GET unless a body is given) that never throws: connection errors come back as status 0. */
async function probe(
  url: string,
  opts: { ca?: Buffer; token?: string; insecure?: boolean; method?: string; body?: unknown } = {},
): Promise<Probe> {
  const doRequest = url.startsWith('https:') ? httpsRequest : httpRequest;
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolveProbe) => {
    const req = doRequest(
      url,
      {
        method: opts.method ?? (payload === undefined ? 'GET' : 'POST'),
        ca: opts.ca,
        rejectUnauthorized: !opts.insecure,
        headers: {
          ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}),
          ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        timeout: 5000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolveProbe({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolveProbe({ status: 0, body: String(err) }));
    req.end(payload);
  });
}

async function waitFor(
  what: string,
  timeoutMs: number,
  check: () => Promise<boolean>,
  alive: () => void,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    alive();
    if (await check()) return;
    await sleep(200);
  }
  throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
}

async function tail(file: string, lines = 30): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM, then SIGKILL after the grace period; resolves when every pid is gone. */
export async function killAll(pids: number[], graceMs = 10_000): Promise<void> {
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (pids.some(isAlive) && Date.now() < deadline) await sleep(100);
  for (const pid of pids.filter(isAlive)) signal(pid, 'SIGKILL');
  while (pids.some(isAlive)) await sleep(50);
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const log = options.log ?? (() => undefined);
  const dir = resolve(options.dir);
  const binDir = ensureBinaries();
  const crdDir = ensureCrds();
  await mkdir(join(dir, 'logs'), { recursive: true });

  const children: Partial<Record<ComponentName, ChildProcess>> = {};
  const pids = (): number[] =>
    Object.values(children).flatMap((c) => (c?.pid === undefined ? [] : [c.pid]));
  const killSync = (): void => pids().forEach((pid) => signal(pid, 'SIGKILL'));
  if (!options.detached) process.on('exit', killSync);

  const launch = (name: ComponentName, args: string[], fromDir = binDir): ChildProcess => {
    // The log file is the child's own stdout/stderr: no pipe through this process.
    const out = openSync(join(dir, 'logs', `${name}.log`), 'w');
    const binary = join(fromDir, name);
    // setpriv --pdeathsig: an attached component dies with us even if we are SIGKILLed.
    const [cmd, argv] = options.detached
      ? [binary, args]
      : ['setpriv', ['--pdeathsig', 'KILL', '--', binary, ...args]];
    const child = spawn(cmd, argv, {
      detached: options.detached ?? false,
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    if (options.detached) child.unref();
    children[name] = child;
    return child;
  };
  const ensureRunning = (name: ComponentName) => () => {
    const child = children[name];
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      const how = child.exitCode !== null ? `code ${child.exitCode}` : `signal ${child.signalCode}`;
      throw new Error(`${name} exited with ${how}; see ${dir}/logs/${name}.log`);
    }
  };

  try {
    // etcd
    const [etcdPort, peerPort, apiPort, kcmPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const etcdUrl = `http://127.0.0.1:${etcdPort}`;
    const peerUrl = `http://127.0.0.1:${peerPort}`;
    log(`starting etcd on ${etcdUrl}`);
    launch('etcd', [
      '--name=etcd',
      `--data-dir=${join(dir, 'etcd')}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=etcd=${peerUrl}`,
      '--unsafe-no-fsync',
      '--log-level=warn',
    ]);
    await waitFor(
      'etcd /health',
      30_000,
      async () => (await probe(`${etcdUrl}/health`)).status === 200,
      ensureRunning('etcd'),
    );

    // credentials
    const adminToken = randomBytes(24).toString('hex');
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const saKey = join(dir, 'sa.key');
    const saPub = join(dir, 'sa.pub');
    await writeFile(saKey, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    await writeFile(saPub, publicKey.export({ type: 'spki', format: 'pem' }));
    const identityTokens = Object.fromEntries(
      Object.keys(IDENTITIES).map((name) => [name, randomBytes(24).toString('hex')]),
    ) as Record<IdentityName, string>;
    const tokens = join(dir, 'tokens.csv');
    const tokenLines = [
      `${adminToken},admin,admin,system:masters`,
      ...Object.entries(IDENTITIES).map(
        ([name, user]) =>
          `${identityTokens[name as IdentityName]},${user},${name},"${identityGroups(name as IdentityName).join(',')}"`,
      ),
    ];
    await writeFile(tokens, tokenLines.join('\n') + '\n', { mode: 0o600 });

    // audit: every request at level Metadata (user, verb, resource, namespace, name, response code)
    const auditPolicy = join(dir, 'audit-policy.yaml');
    const auditLogPath = join(dir, 'logs', 'audit.log');
    await writeFile(auditPolicy, AUDIT_POLICY);

    // kube-apiserver
    const server = `https://127.0.0.1:${apiPort}`;
    const certDir = join(dir, 'certs');
    log(`starting kube-apiserver on ${server}`);
    launch('kube-apiserver', [
      `--etcd-servers=${etcdUrl}`,
      `--cert-dir=${certDir}`,
      `--secure-port=${apiPort}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      '--service-cluster-ip-range=10.0.0.0/24',
      '--authorization-mode=RBAC',
      '--service-account-issuer=https://kubernetes.default.svc',
      `--service-account-key-file=${saPub}`,
      `--service-account-signing-key-file=${saKey}`,
      `--token-auth-file=${tokens}`,
      `--enable-admission-plugins=${OPENSHIFT_ADMISSION_PLUGINS.join(',')}`,
      // it mounts tokens into pods, and there is no tokens controller or pod here
      '--disable-admission-plugins=ServiceAccount',
      '--enable-priority-and-fairness=false',
      // a loopback address cannot be a Service endpoint; nothing here needs the kubernetes Service
      '--endpoint-reconciler-type=none',
      `--audit-policy-file=${auditPolicy}`,
      `--audit-log-path=${auditLogPath}`,
      // rotated files (audit-<time>.log beside it) keep a long-running local cluster bounded
      '--audit-log-maxsize=200',
      '--audit-log-maxbackup=2',
      '--v=1',
    ]);
    const caFile = join(certDir, 'apiserver.crt');
    await waitFor(
      'kube-apiserver serving certificate',
      60_000,
      () => Promise.resolve(existsSync(caFile)),
      ensureRunning('kube-apiserver'),
    );
    const ca = await readFile(caFile);
    await waitFor(
      'kube-apiserver /readyz',
      90_000,
      async () => (await probe(`${server}/readyz`, { ca, token: adminToken })).status === 200,
      ensureRunning('kube-apiserver'),
    );
    await waitFor(
      'namespace default',
      60_000,
      async () =>
        (await probe(`${server}/api/v1/namespaces/default`, { ca, token: adminToken })).status ===
        200,
      ensureRunning('kube-apiserver'),
    );

    const kubeconfigPath = join(dir, 'kubeconfig');
    await writeFile(kubeconfigPath, kubeconfigYaml(server, ca, 'admin', adminToken), {
      mode: 0o600,
    });
    const identityKubeconfigPaths = {} as Record<IdentityName, string>;
    for (const name of Object.keys(IDENTITIES) as IdentityName[]) {
      const path = join(dir, `kubeconfig-${name}`);
      await writeFile(path, kubeconfigYaml(server, ca, name, identityTokens[name]), {
        mode: 0o600,
      });
      identityKubeconfigPaths[name] = path;
    }
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(kubeconfigPath);

    log(`installing CRDs from ${crdDir}`);
    await installCrds(kubeConfig, crdDir, server, ca, adminToken);
    log("granting the controller's identity the ClusterRole of manifests/");
    const setup = setupClient(kubeConfig);
    await grantControllerClusterRbac(setup);
    setup.close();

    // Started after the CRDs so that its garbage collector watches them from the start.
    // kube-controller-manager: real ownerReference garbage collection and namespace deletion
    log('starting kube-controller-manager (garbage collector, namespace controllers)');
    launch('kube-controller-manager', [
      `--kubeconfig=${kubeconfigPath}`,
      '--controllers=garbagecollector,namespace',
      `--secure-port=${kcmPort}`,
      '--bind-address=127.0.0.1',
      '--leader-elect=false',
      '--use-service-account-credentials=false',
      '--v=1',
    ]);
    await waitFor(
      'kube-controller-manager /healthz',
      60_000,
      async () =>
        (await probe(`https://127.0.0.1:${kcmPort}/healthz`, { insecure: true })).status === 200,
      ensureRunning('kube-controller-manager'),
    );

    // The neighbours: started after the CRDs they watch and serve webhooks for, and after the
    // config objects they read.
    if (options.neighbours !== false) {
      log('creating the Infrastructure and DNS `cluster` where missing');
      await ensureClusterConfig(kubeConfig);
    }
    const wanted = options.neighbours ?? true;
    const neighbours =
      wanted !== false
        ? await startNeighbours(
            wanted === true ? NEIGHBOURS : NEIGHBOURS.filter((spec) => wanted.includes(spec.name)),
            {
              dir,
              identityKubeconfigPaths,
              server,
              ca,
              adminToken,
              launch,
              ensureRunning,
              log,
            },
          )
        : [];

    const componentPids: Partial<Record<ComponentName, number>> = {};
    for (const [name, child] of Object.entries(children)) {
      if (child?.pid !== undefined) componentPids[name as ComponentName] = child.pid;
    }
    const state: ControlPlaneState = {
      dir,
      binDir,
      kubeconfigPath,
      identityKubeconfigPaths,
      server,
      adminToken,
      auditLogPath,
      pids: componentPids,
      neighbours,
    };
    return {
      ...state,
      auditLogPath,
      kubeConfig,
      stop: async () => {
        await killAll(pids());
        process.off('exit', killSync);
      },
    };
  } catch (err) {
    const logs = await Promise.all(
      (Object.keys(children) as ComponentName[]).map(
        async (name) => `--- ${name} ---\n${await tail(join(dir, 'logs', `${name}.log`))}`,
      ),
    );
    await killAll(pids());
    process.off('exit', killSync);
    throw new Error(
      `control plane failed to start: ${(err as Error).message}\n${logs.join('\n')}`,
      {
        cause: err,
      },
    );
  }
}

interface NeighbourSpec {
  name: NeighbourName;
  module: string;
  runs: string[];
  /** Serves admission webhooks (and registers them from the module's config/webhook/manifests.yaml). */
  webhooks: boolean;
  /**
   * `false`: the module has no config/webhook/manifests.yaml; the binary registers the webhook
   * configurations the module's Go functions build.
   */
  webhookManifests?: false;
  args?: string[];
  /**
   * A dry-run request through the API server whose answer proves that the API server calls this
   * neighbour's webhooks (the registration has reached it and the server answers).
   */
  webhookCheck?: { what: string; path: string; body: object; answered: (res: Probe) => boolean };
}

/** What runs next to the API server, each built by hack/build-neighbours.sh from neighbours/<name>/. */
const NEIGHBOURS: readonly NeighbourSpec[] = [
  {
    name: 'cluster-api',
    module: 'sigs.k8s.io/cluster-api',
    runs: [
      'Cluster controller',
      'Machine controller',
      'MachineSet controller',
      'ClusterCache (kubeconfig from Secret <cluster>-kubeconfig)',
      'Cluster webhook',
      'Machine webhook',
      'MachineSet webhook',
    ],
    webhooks: true,
    webhookCheck: {
      what: 'the Cluster API MachineSet webhook defaulting a dry-run MachineSet',
      path: '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/machinesets?dryRun=All',
      body: {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'MachineSet',
        metadata: { name: 'webhook-check' },
        spec: {
          clusterName: 'webhook-check',
          selector: { matchLabels: { check: 'webhook' } },
          template: {
            metadata: { labels: { check: 'webhook' } },
            spec: {
              clusterName: 'webhook-check',
              bootstrap: { dataSecretName: 'webhook-check' },
              infrastructureRef: {
                apiGroup: 'infrastructure.cluster.x-k8s.io',
                kind: 'AWSMachineTemplate',
                name: 'webhook-check',
              },
            },
          },
        },
      },
      // the defaulting webhook labels a MachineSet with its cluster name
      answered: (res) =>
        res.status === 201 &&
        (JSON.parse(res.body) as { metadata?: { labels?: Record<string, string> } }).metadata
          ?.labels?.['cluster.x-k8s.io/cluster-name'] === 'webhook-check',
    },
  },
  {
    name: 'cluster-api-provider-aws',
    module: 'sigs.k8s.io/cluster-api-provider-aws/v2',
    runs: [
      'AWSMachineTemplate webhook',
      'AWSMachine webhook',
      'AWSCluster webhook',
      'AWSClusterTemplate webhook',
      "a stand-in for CAPA's AWSMachine controller: its finalizer only (no cloud)",
    ],
    webhooks: true,
    // OpenShift machines boot from Ignition: without this gate CAPA refuses spec.ignition.
    args: ['--feature-gates=BootstrapFormatIgnition=true'],
    webhookCheck: {
      what: 'the AWSMachineTemplate webhook refusing a dry-run template with a providerID',
      path: '/apis/infrastructure.cluster.x-k8s.io/v1beta2/namespaces/default/awsmachinetemplates?dryRun=All',
      body: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'AWSMachineTemplate',
        metadata: { name: 'webhook-check' },
        spec: {
          template: { spec: { instanceType: 'm6i.large', providerID: 'aws:///us-east-1a/i-0' } },
        },
      },
      answered: (res) => res.status >= 400 && res.body.includes('cannot be set in templates'),
    },
  },
  {
    name: 'cluster-api-provider-openstack',
    module: 'sigs.k8s.io/cluster-api-provider-openstack',
    runs: [
      'OpenStackMachineTemplate webhook',
      'OpenStackMachine webhook',
      'OpenStackCluster webhook',
      'OpenStackClusterTemplate webhook',
      "a stand-in for CAPO's OpenStackMachine and OpenStackServer controllers: their finalizers only (no cloud)",
    ],
    webhooks: true,
    webhookCheck: {
      what: 'the OpenStackMachineTemplate webhook refusing a dry-run template with a providerID',
      path: '/apis/infrastructure.cluster.x-k8s.io/v1beta1/namespaces/default/openstackmachinetemplates?dryRun=All',
      body: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'OpenStackMachineTemplate',
        metadata: { name: 'webhook-check' },
        spec: {
          template: {
            spec: {
              flavor: 'm1.large',
              image: { filter: { name: 'rhcos' } },
              providerID: 'openstack:///webhook-check',
            },
          },
        },
      },
      answered: (res) => res.status >= 400 && res.body.includes('cannot be set in templates'),
    },
  },
  {
    name: 'cluster-api-provider-gcp',
    module: 'sigs.k8s.io/cluster-api-provider-gcp',
    runs: [
      'GCPMachineTemplate webhook',
      'GCPMachine webhook',
      'GCPCluster webhook',
      'GCPClusterTemplate webhook',
      "a stand-in for CAPG's GCPMachine controller: its finalizer only (no cloud)",
    ],
    webhooks: true,
    webhookCheck: {
      what: 'the GCPMachineTemplate webhook refusing a dry-run confidential template on an e2 machine',
      path: '/apis/infrastructure.cluster.x-k8s.io/v1beta1/namespaces/default/gcpmachinetemplates?dryRun=All',
      body: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'GCPMachineTemplate',
        metadata: { name: 'webhook-check' },
        spec: {
          template: {
            spec: {
              instanceType: 'e2-standard-4',
              confidentialCompute: 'Enabled',
              onHostMaintenance: 'Terminate',
            },
          },
        },
      },
      answered: (res) =>
        res.status >= 400 && res.body.includes('requires any of the following machine series'),
    },
  },
  {
    name: 'cluster-api-provider-vsphere',
    module: 'sigs.k8s.io/cluster-api-provider-vsphere',
    runs: [
      'VSphereMachineTemplate webhook',
      'VSphereMachine webhook',
      'VSphereFailureDomain webhook',
      'VSphereDeploymentZone webhook',
      "a stand-in for CAPV's VSphereMachine controller: its finalizer only (no vCenter)",
    ],
    webhooks: true,
    webhookCheck: {
      what: 'the VSphereMachineTemplate webhook refusing a dry-run template with a providerID',
      path: '/apis/infrastructure.cluster.x-k8s.io/v1beta1/namespaces/default/vspheremachinetemplates?dryRun=All',
      body: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'VSphereMachineTemplate',
        metadata: { name: 'webhook-check' },
        spec: {
          template: {
            spec: {
              template: 'rhcos',
              network: { devices: [{ networkName: 'VM Network' }] },
              providerID: 'vsphere://00000000-0000-0000-0000-000000000000',
            },
          },
        },
      },
      answered: (res) => res.status >= 400 && res.body.includes('cannot be set in templates'),
    },
  },
  {
    name: 'machine-api-operator',
    module: 'github.com/openshift/machine-api-operator',
    runs: [
      'MachineSet controller (MachineAPIMigration feature gate on)',
      'Machine and drain controllers with a cloud-free stand-in actuator (MachineAPIMigration feature gate on)',
      'MachineHealthCheck controller (deletes the Machine of an unhealthy node, whatever its authority)',
      'MachineSet and Machine defaulting and validating webhooks (built anew when the Infrastructure or DNS changes)',
    ],
    webhooks: true,
    webhookManifests: false,
    args: [`--unadmitted-label=${UNADMITTED_LABEL}`],
    webhookCheck: {
      what: "machine-api-operator's MachineSet webhooks defaulting a dry-run MachineSet",
      path: '/apis/machine.openshift.io/v1beta1/namespaces/default/machinesets?dryRun=All',
      body: {
        apiVersion: 'machine.openshift.io/v1beta1',
        kind: 'MachineSet',
        metadata: { name: 'webhook-check' },
        spec: {
          selector: { matchLabels: { check: 'webhook' } },
          template: {
            metadata: { labels: { check: 'webhook' } },
            spec: {
              providerSpec: {
                value: {
                  apiVersion: 'machine.openshift.io/v1beta1',
                  kind: 'AWSMachineProviderConfig',
                  ami: { id: 'ami-0webhookcheck' },
                },
              },
            },
          },
        },
      },
      // the defaulter fills in the user-data Secret (the AWS Infrastructure is created above)
      answered: (res) =>
        res.status === 201 &&
        (
          JSON.parse(res.body) as {
            spec?: {
              template?: {
                spec?: {
                  providerSpec?: { value?: { userDataSecret?: { name?: string } } };
                };
              };
            };
          }
        ).spec?.template?.spec?.providerSpec?.value?.userDataSecret?.name === 'worker-user-data',
    },
  },
];

/** The version of `module` required by neighbours/<name>/go.mod. */
async function neighbourVersion(name: NeighbourName, module: string): Promise<string> {
  const goMod = await readFile(join(NEIGHBOURS_DIR, name, 'go.mod'), 'utf8');
  const escaped = module.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const match = new RegExp(`^\\s*(?:require\\s+)?${escaped}\\s+(v\\S+)`, 'm').exec(goMod);
  if (!match?.[1])
    throw new Error(`test/environment/neighbours/${name}/go.mod does not require ${module}`);
  return match[1];
}

interface NeighbourContext {
  dir: string;
  identityKubeconfigPaths: Record<IdentityName, string>;
  server: string;
  ca: Buffer;
  adminToken: string;
  launch: (name: ComponentName, args: string[], fromDir?: string) => ChildProcess;
  ensureRunning: (name: ComponentName) => () => void;
  log: (message: string) => void;
}

/** Starts the neighbours and resolves once each is ready and its webhooks answer. */
async function startNeighbours(
  specs: readonly NeighbourSpec[],
  ctx: NeighbourContext,
): Promise<Neighbour[]> {
  const neighbourBin = ensureNeighbours(specs.map((spec) => spec.name));
  ctx.log(`starting ${specs.map((n) => n.name).join(', ')}`);
  return Promise.all(
    specs.map(async (spec): Promise<Neighbour> => {
      const [probePort, webhookPort] = await Promise.all([freePort(), freePort()]);
      const probeUrl = `http://127.0.0.1:${probePort}`;
      const certDir = join(ctx.dir, 'neighbours', spec.name);
      const webhookArgs = spec.webhooks
        ? [
            `--webhook-port=${webhookPort}`,
            `--cert-dir=${certDir}`,
            ...(spec.webhookManifests !== false
              ? [`--webhook-manifests=${join(neighbourBin, `${spec.name}.webhooks.yaml`)}`]
              : []),
          ]
        : [];
      ctx.launch(
        spec.name,
        [
          `--kubeconfig=${ctx.identityKubeconfigPaths[NEIGHBOUR_IDENTITY[spec.name]]}`,
          `--health-probe-bind-address=127.0.0.1:${probePort}`,
          ...webhookArgs,
          ...(spec.args ?? []),
          '--v=2',
        ],
        neighbourBin,
      );
      const alive = ctx.ensureRunning(spec.name);
      await waitFor(
        `${spec.name} /readyz`,
        120_000,
        async () => (await probe(`${probeUrl}/readyz`)).status === 200,
        alive,
      );
      const check = spec.webhookCheck;
      if (check) {
        await waitFor(
          check.what,
          60_000,
          async () =>
            check.answered(
              await probe(`${ctx.server}${check.path}`, {
                ca: ctx.ca,
                token: ctx.adminToken,
                body: check.body,
              }),
            ),
          alive,
        );
      }
      ctx.log(`${spec.name} ready`);
      return {
        name: spec.name,
        module: spec.module,
        version: await neighbourVersion(spec.name, spec.module),
        runs: spec.runs,
        probeUrl,
        ...(spec.webhooks
          ? { webhookUrl: `https://127.0.0.1:${webhookPort}`, caFile: join(certDir, 'ca.crt') }
          : {}),
      };
    }),
  );
}

/**
 * The Infrastructure `cluster` (AWS, DEFAULT_INFRASTRUCTURE) when there is none, and the DNS
 * `cluster` when there is none: every OpenShift cluster has both, and machine-api-operator's
 * webhooks read them.
 */
async function ensureClusterConfig(kubeConfig: KubeConfig): Promise<void> {
  const api = setupClient(kubeConfig);
  const config = { group: 'config.openshift.io', version: 'v1' };
  const isConflict = (err: unknown): boolean => (err as { code?: number }).code === 409;
  try {
    const created = await api.create<object>(
      { ...config, plural: 'infrastructures' },
      {
        apiVersion: 'config.openshift.io/v1',
        kind: 'Infrastructure',
        metadata: { name: 'cluster' },
        spec: { platformSpec: { type: 'AWS' } },
      },
    );
    await api.replace(
      { ...config, plural: 'infrastructures', name: 'cluster' },
      { ...created, status: DEFAULT_INFRASTRUCTURE },
      { subresource: 'status' },
    );
  } catch (err) {
    if (!isConflict(err)) throw err;
  }
  const name = DEFAULT_INFRASTRUCTURE.infrastructureName;
  try {
    await api.create(
      { ...config, plural: 'dnses' },
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
  api.close();
}

/** The object client the control plane sets itself up with (the controller's transport). */
function setupClient(kubeConfig: KubeConfig): ObjectClient {
  return new ObjectClient(
    new KubeClient(clusterAccess(currentContext(kubeConfig)), { userAgent: 'local-control-plane' }),
  );
}

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

/** Level Metadata for every request; the RequestReceived stage only duplicates the others. */
const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages:
  - RequestReceived
rules:
  - level: Metadata
`;

function kubeconfigYaml(server: string, ca: Buffer, user: string, token: string): string {
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'local', cluster: { server, 'certificate-authority-data': ca.toString('base64') } },
    ],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: 'local', context: { cluster: 'local', user } }],
    'current-context': 'local',
  };
  return JSON.stringify(config, null, 2) + '\n';
}

async function installCrds(
  kubeConfig: KubeConfig,
  crdDir: string,
  server: string,
  ca: Buffer,
  token: string,
): Promise<void> {
  const api = setupClient(kubeConfig);
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
  for (const crd of crds) {
    try {
      await api.create(CUSTOM_RESOURCE_DEFINITION, crd);
    } catch (err) {
      if ((err as { code?: number }).code !== 409) throw err;
    }
  }
  for (const crd of crds) {
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
          current.status?.conditions?.some(
            (c) => c.type === 'Established' && c.status === 'True',
          ) ?? false
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
  api.close();
}
