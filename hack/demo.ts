// The demo: a local control plane with the real CRDs, the controller running as
// a process, and what an administrator sees with kubectl. Finishes by itself
// and leaves no process behind.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MapiMachineSet } from '../src/api/types.js';
import { SECRET } from '../src/kube/builtin-resources.js';
import { createCapiCluster } from '../test/support/capi-cluster.js';
import { setControlPlane } from '../test/support/cluster.js';
import { awsMachineSet, setInfrastructure } from '../test/support/controller.js';
import { PLATFORM_FIXTURES } from '../test/support/fixtures/index.js';
import { objectsFor } from '../test/support/kube-client.js';
import { CAPI_MACHINES, provisionInfrastructure } from '../test/support/machines.js';
import {
  demoNeighbours,
  startControlPlane,
  type ControlPlane,
} from '../test/environment/control-plane.js';
import { createControllerNamespaces } from '../test/environment/controller-rbac.js';

const ROOT = resolve(import.meta.dirname, '..');
const MAPI_NAMESPACE = 'openshift-machine-api';
const CAPI_NAMESPACE = 'openshift-cluster-api';
const INFRASTRUCTURE_NAME = 'demo-abc12';
const MAPI = { group: 'machine.openshift.io', version: 'v1beta1', plural: 'machinesets' };
const ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1c'];
const MACHINE_SETS = ZONES.map((zone) => `${INFRASTRUCTURE_NAME}-worker-${zone}`);
const BROKEN = `${INFRASTRUCTURE_NAME}-kept-volume`;

function banner(text: string): void {
  console.log(`\n=== ${text} ===`);
}

function kubectl(plane: ControlPlane, args: string[]): void {
  console.log(`$ oc ${args.join(' ')}`);
  const out = execFileSync(
    join(plane.binDir, 'kubectl'),
    ['--kubeconfig', plane.kubeconfigPath, ...args],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  process.stdout.write(out);
}

const SYNC_COLUMNS = [
  'NAME:.metadata.name',
  'REPLICAS:.spec.replicas',
  'AUTHORITY:.status.authoritativeAPI',
  'SYNCHRONIZED:.status.conditions[?(@.type=="Synchronized")].status',
  'REASON:.status.conditions[?(@.type=="Synchronized")].reason',
  'SYNCED-GEN:.status.synchronizedGeneration',
  'GEN:.metadata.generation',
].join(',');

async function seed(plane: ControlPlane): Promise<void> {
  const custom = objectsFor(plane.kubeConfig);
  await createControllerNamespaces(custom, { mapi: MAPI_NAMESPACE, capi: CAPI_NAMESPACE });
  // The machines' user data, in both namespaces, as the installer and cluster-capi-operator put it.
  for (const namespace of [MAPI_NAMESPACE, CAPI_NAMESPACE]) {
    await custom.create(
      { ...SECRET, namespace },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'worker-user-data' },
        stringData: { userData: '{"ignition":{"version":"3.2.0"}}' },
      },
    );
  }
  await setInfrastructure(
    {
      infrastructureName: INFRASTRUCTURE_NAME,
      platform: 'AWS',
      platformStatus: { type: 'AWS', aws: { region: 'us-east-1' } },
    },
    custom,
  );
  // The CAPI Cluster as cluster-capi-operator makes it: an externally managed AWSCluster whose
  // infrastructure is ready (the providers take no machine in hand before), and the workload
  // cluster's kubeconfig.
  setControlPlane(plane);
  await createCapiCluster(CAPI_NAMESPACE, { name: INFRASTRUCTURE_NAME });

  const machineSets: MapiMachineSet[] = MACHINE_SETS.map((name, i) =>
    awsMachineSet(name, MAPI_NAMESPACE, { zone: ZONES[i] ?? 'us-east-1a' }),
  );
  // A data volume kept after the instance ends: machine-api-operator's webhooks accept it,
  // Cluster API always deletes non-root volumes with the instance.
  const broken = awsMachineSet(BROKEN, MAPI_NAMESPACE);
  const value = broken.spec.template!.spec!.providerSpec!.value as { blockDevices: object[] };
  value.blockDevices = [
    ...value.blockDevices,
    {
      deviceName: '/dev/xvdb',
      ebs: { volumeSize: 100, volumeType: 'gp3', deleteOnTermination: false },
    },
  ];
  for (const body of [...machineSets, broken]) {
    await custom.create({ ...MAPI, namespace: MAPI_NAMESPACE }, body);
    // What the Machine API migration controller does: copy the wish into status.
    await custom.patch(
      { ...MAPI, namespace: MAPI_NAMESPACE, name: body.metadata.name },
      {
        type: 'json',
        operations: [{ op: 'add', path: '/status', value: { authoritativeAPI: 'MachineAPI' } }],
      },
      { subresource: 'status' },
    );
  }
}

/**
 * Waits until every MachineSet of the namespace has a Synchronized condition for its current
 * generation (False for BROKEN), and `ready` holds.
 */
async function settledIn(
  plane: ControlPlane,
  namespace: string,
  ready: () => Promise<boolean> | boolean,
): Promise<void> {
  const custom = objectsFor(plane.kubeConfig);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const list = await custom.list<MapiMachineSet>({ ...MAPI, namespace });
    const done = list.items.every((ms) => {
      const condition = ms.status?.conditions?.find((c) => c.type === 'Synchronized');
      if (ms.metadata.name === BROKEN) return condition?.status === 'False';
      return (
        condition?.status === 'True' && ms.status?.synchronizedGeneration === ms.metadata.generation
      );
    });
    if (done && (await ready())) return;
    await sleep(250);
  }
  throw new Error(`the MachineSets in ${namespace} did not settle within 60 s`);
}

/** The AWS MachineSets settled; with `expectTemplate`, a template of that instance type exists. */
async function settled(plane: ControlPlane, expectTemplate?: string): Promise<void> {
  const custom = objectsFor(plane.kubeConfig);
  await settledIn(plane, MAPI_NAMESPACE, async () => {
    // Cluster API's own controller marks each paused mirror with its Paused condition.
    const mirrors = await custom.list<{
      status?: { conditions?: { type: string; status: string }[] };
    }>({
      group: 'cluster.x-k8s.io',
      version: 'v1beta2',
      plural: 'machinesets',
      namespace: CAPI_NAMESPACE,
    });
    const pausedByClusterApi = mirrors.items.every((m) =>
      m.status?.conditions?.some((c) => c.type === 'Paused' && c.status === 'True'),
    );
    if (!pausedByClusterApi) return false;
    if (!expectTemplate) return true;
    const templates = await custom.list<{
      spec: { template: { spec: { instanceType?: string } } };
    }>({
      group: 'infrastructure.cluster.x-k8s.io',
      version: 'v1beta2',
      plural: 'awsmachinetemplates',
      namespace: CAPI_NAMESPACE,
    });
    return (
      templates.items.length === MACHINE_SETS.length &&
      templates.items.some((t) => t.spec.template.spec.instanceType === expectTemplate)
    );
  });
}

/** The metrics port the controller logged. */
async function servingPort(logFile: string): Promise<number> {
  for (const line of (await readFile(logFile, 'utf8')).split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { message?: string; metricsPort?: number };
    if (entry.message === 'serving metrics and probes' && entry.metricsPort)
      return entry.metricsPort;
  }
  throw new Error('the controller did not report its metrics port');
}

/** Prints the controller's JSON log as short text lines. */
function printLog(text: string): void {
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    const { timestamp, level, message, ...meta } = JSON.parse(line) as Record<string, unknown>;
    const time = String(timestamp).slice(11, 23);
    const rest = Object.keys(meta).length ? ` ${JSON.stringify(meta)}` : '';
    console.log(`${time} ${String(level).toUpperCase().padEnd(5)} ${String(message)}${rest}`);
  }
}

function showState(plane: ControlPlane): void {
  banner('Machine API MachineSets (the authoritative side)');
  kubectl(plane, [
    'get',
    'machinesets.machine.openshift.io',
    '-n',
    MAPI_NAMESPACE,
    '-o',
    `custom-columns=${SYNC_COLUMNS}`,
  ]);
  banner('Cluster API MachineSets (the mirrors; PAUSED is the condition Cluster API itself sets)');
  kubectl(plane, [
    'get',
    'machinesets.cluster.x-k8s.io',
    '-n',
    CAPI_NAMESPACE,
    '-o',
    'custom-columns=NAME:.metadata.name,REPLICAS:.spec.replicas,PAUSED:.status.conditions[?(@.type=="Paused")].status,BY-CLUSTER-API:.status.conditions[?(@.type=="Paused")].message,TEMPLATE:.spec.template.spec.infrastructureRef.name',
  ]);
  banner('AWSMachineTemplates (hash-named, owned by their CAPI MachineSet)');
  kubectl(plane, [
    'get',
    'awsmachinetemplates',
    '-n',
    CAPI_NAMESPACE,
    '-o',
    'custom-columns=NAME:.metadata.name,INSTANCE-TYPE:.spec.template.spec.instanceType,OWNER:.metadata.ownerReferences[0].name',
  ]);
}

/** Runs one of the program's own commands (the plugin, `check`) as an administrator would. */
function program(plane: ControlPlane, shown: string, entry: string, args: string[]): void {
  console.log(`$ ${shown} ${args.join(' ')}`);
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', entry, ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, KUBECONFIG: plane.kubeconfigPath },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    process.stdout.write(out);
  } catch (err) {
    // `check` exits 1 when some MachineSet cannot migrate: its report is the point.
    process.stdout.write((err as { stdout?: string }).stdout ?? '');
    console.log(`(exit code ${(err as { status?: number }).status})`);
  }
}

/** What an administrator looks at first: the ClusterOperator, the plugin, the readiness check. */
function showOverview(plane: ControlPlane): void {
  banner('the ClusterOperator');
  kubectl(plane, ['get', 'clusteroperator', 'mapi-capi-sync']);
  kubectl(plane, [
    'get',
    'clusteroperator',
    'mapi-capi-sync',
    '-o',
    'jsonpath={range .status.conditions[*]}{.type}={.status} {.reason}: {.message}{"\\n"}{end}',
  ]);
  banner('the oc plugin');
  program(plane, 'oc mapi-capi-sync', 'src/cli/plugin/main.ts', ['status']);
  banner('which MachineSets can migrate');
  program(plane, 'mapi-capi-sync', 'src/main.ts', ['check']);
}

/** Starts the controller as a process, its output going to `logFile`. */
function startControllerProcess(
  plane: ControlPlane,
  args: string[],
  logFile: string,
): ChildProcess {
  // The log file itself, not a pipe through this process: the demo blocks while a command such
  // as `migrate` runs, and a controller writing into an undrained pipe would stop with it.
  const log = openSync(logFile, 'a');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/main.ts',
      // as its ServiceAccount, with the RBAC of manifests/ (test/environment/controller-rbac.ts)
      '--kubeconfig',
      plane.identityKubeconfigPaths['mapi-capi-sync'],
      '--log-format=json',
      '--metrics-bind-address=127.0.0.1:0',
      '--health-probe-bind-address=127.0.0.1:0',
      ...args,
    ],
    { cwd: ROOT, stdio: ['ignore', log, log] },
  );
  closeSync(log);
  return child;
}

async function stopControllerProcess(child: ChildProcess | undefined): Promise<void> {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

/**
 * Every other platform, one after the other: the Infrastructure switched to it, an installer-style
 * worker MachineSet in namespaces of its own, and a controller for those namespaces.
 */
async function otherPlatforms(plane: ControlPlane): Promise<void> {
  const custom = objectsFor(plane.kubeConfig);
  for (const fixture of PLATFORM_FIXTURES) {
    const platform = fixture.platform.toLowerCase();
    const mapiNamespace = `${platform}-machine-api`;
    const capiNamespace = `${platform}-cluster-api`;
    const name = `${INFRASTRUCTURE_NAME}-worker-${platform}`;
    banner(`${fixture.platform}: a worker MachineSet and its ${fixture.templates.kind}`);
    await setInfrastructure(fixture.infrastructure, custom);
    await createControllerNamespaces(custom, { mapi: mapiNamespace, capi: capiNamespace });
    await custom.create(
      { ...MAPI, namespace: mapiNamespace },
      fixture.machineSet(name, mapiNamespace),
    );
    await custom.patch(
      { ...MAPI, namespace: mapiNamespace, name },
      {
        type: 'json',
        operations: [{ op: 'add', path: '/status', value: { authoritativeAPI: 'MachineAPI' } }],
      },
      { subresource: 'status' },
    );
    const logFile = join(dir, `controller-${platform}.log`);
    const child = startControllerProcess(
      plane,
      [`--mapi-namespace=${mapiNamespace}`, `--capi-namespace=${capiNamespace}`],
      logFile,
    );
    try {
      await settledIn(plane, mapiNamespace, () => true);
    } catch (err) {
      printLog(await readFile(logFile, 'utf8').catch(() => ''));
      throw err;
    } finally {
      await stopControllerProcess(child);
    }
    kubectl(plane, [
      'get',
      'machinesets.machine.openshift.io',
      '-n',
      mapiNamespace,
      '-o',
      `custom-columns=${SYNC_COLUMNS}`,
    ]);
    kubectl(plane, [
      'get',
      'machinesets.cluster.x-k8s.io',
      '-n',
      capiNamespace,
      '-o',
      'custom-columns=NAME:.metadata.name,PAUSED:.metadata.annotations.cluster\\.x-k8s\\.io/paused,FAILURE-DOMAIN:.spec.template.spec.failureDomain,TEMPLATE-KIND:.spec.template.spec.infrastructureRef.kind,TEMPLATE:.spec.template.spec.infrastructureRef.name',
    ]);
  }
}

interface HandshakeView {
  status?: string;
  migration?: string;
  mapiPaused?: string;
  capiPaused?: string;
  annotation?: string;
  synchronized?: string;
}

/** One line per state the handshake passes through, until `done` holds. */
async function watchHandshake(
  plane: ControlPlane,
  name: string,
  done: (view: HandshakeView) => boolean,
): Promise<void> {
  const custom = objectsFor(plane.kubeConfig);
  const condition = (
    o: { status?: { conditions?: { type: string; status?: string; reason?: string }[] } },
    type: string,
  ) => o.status?.conditions?.find((c) => c.type === type);
  const row = (v: HandshakeView) =>
    [v.status, v.migration, v.mapiPaused, v.capiPaused, v.annotation, v.synchronized]
      .map((x, i) => String(x ?? '-').padEnd([14, 28, 11, 11, 9, 0][i] ?? 0))
      .join(' ');
  console.log(
    `  ${row({ status: 'AUTHORITY', migration: 'MigrationProgressing', mapiPaused: 'MAPI-PAUSED', capiPaused: 'CAPI-PAUSED', annotation: 'ANNOT.', synchronized: 'SYNCHRONIZED' })}`,
  );
  let last = '';
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const mapi = await custom.get<MapiMachineSet>({ ...MAPI, namespace: MAPI_NAMESPACE, name });
    const capi = await custom.get<{
      metadata: { annotations?: Record<string, string> };
      status?: { conditions?: { type: string; status: string }[] };
    }>({
      group: 'cluster.x-k8s.io',
      version: 'v1beta2',
      plural: 'machinesets',
      namespace: CAPI_NAMESPACE,
      name,
    });
    const migration = condition(mapi, 'MigrationProgressing');
    const synchronized = condition(mapi, 'Synchronized');
    const view: HandshakeView = {
      status: mapi.status?.authoritativeAPI,
      migration: migration && `${migration.status} ${migration.reason ?? ''}`,
      mapiPaused: condition(mapi, 'Paused')?.status,
      capiPaused: condition(capi, 'Paused')?.status,
      annotation:
        capi.metadata.annotations?.['cluster.x-k8s.io/paused'] === undefined
          ? 'unpaused'
          : 'paused',
      synchronized: synchronized && `${synchronized.status} ${synchronized.reason ?? ''}`,
    };
    const line = row(view);
    if (line !== last) console.log(`  ${line}`);
    last = line;
    if (done(view)) return;
    await sleep(50);
  }
  throw new Error(`the migration of ${name} did not finish within 60 s`);
}

function scale(plane: ControlPlane, api: 'MAPI' | 'CAPI', name: string, replicas: number): void {
  const [resource, namespace] =
    api === 'MAPI'
      ? ['machinesets.machine.openshift.io', MAPI_NAMESPACE]
      : ['machinesets.cluster.x-k8s.io', CAPI_NAMESPACE];
  kubectl(plane, ['scale', resource, name, '-n', namespace, `--replicas=${replicas}`]);
}

function wish(plane: ControlPlane, name: string, authority: 'MachineAPI' | 'ClusterAPI'): void {
  kubectl(plane, [
    'patch',
    'machinesets.machine.openshift.io',
    name,
    '-n',
    MAPI_NAMESPACE,
    '--type=merge',
    '-p',
    JSON.stringify({ spec: { authoritativeAPI: authority } }),
  ]);
}

function migrationMessage(plane: ControlPlane, name: string): void {
  kubectl(plane, [
    'get',
    'machinesets.machine.openshift.io',
    name,
    '-n',
    MAPI_NAMESPACE,
    '-o',
    'jsonpath={.status.conditions[?(@.type=="MigrationProgressing")].message}{"\\n"}',
  ]);
}

const settledAt = (authority: 'MachineAPI' | 'ClusterAPI') => (v: HandshakeView) =>
  v.status === authority &&
  (authority === 'ClusterAPI' ? v.capiPaused === 'False' : v.mapiPaused === 'False') &&
  v.synchronized?.startsWith('True') === true;

/** The label machine-api-operator puts on a MachineSet's Machines; kept on their mirrors. */
const SET_LABEL = 'machine.openshift.io/cluster-api-machineset';

/** The Machines on both sides: authority and pause of each, as `oc get` shows them. */
function showMachines(plane: ControlPlane, name: string): void {
  kubectl(plane, [
    'get',
    'machines.machine.openshift.io',
    '-n',
    MAPI_NAMESPACE,
    '-l',
    `${SET_LABEL}=${name}`,
    '-o',
    'custom-columns=MAPI MACHINE:.metadata.name,AUTHORITY:.status.authoritativeAPI,PHASE:.status.phase,SYNCHRONIZED:.status.conditions[?(@.type=="Synchronized")].status,MAPI-PAUSED:.status.conditions[?(@.type=="Paused")].status',
  ]);
  kubectl(plane, [
    'get',
    'machines.cluster.x-k8s.io',
    '-n',
    CAPI_NAMESPACE,
    '-l',
    `${SET_LABEL}=${name}`,
    '-o',
    'custom-columns=CAPI MACHINE:.metadata.name,PAUSED-ANNOTATION:.metadata.annotations.cluster\\.x-k8s\\.io/paused,CAPI-PAUSED:.status.conditions[?(@.type=="Paused")].status,PROVIDERID:.spec.providerID',
  ]);
}

async function waitMachineCount(plane: ControlPlane, name: string, count: number): Promise<void> {
  const labelSelector = `${SET_LABEL}=${name}`;
  const custom = objectsFor(plane.kubeConfig);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [mapi, capi] = await Promise.all([
      custom.list({ ...MAPI, plural: 'machines', namespace: MAPI_NAMESPACE }, { labelSelector }),
      custom.list(
        {
          group: 'cluster.x-k8s.io',
          version: 'v1beta2',
          plural: 'machines',
          namespace: CAPI_NAMESPACE,
        },
        { labelSelector },
      ),
    ]);
    if (mapi?.items.length === count && capi?.items.length === count) return;
    if (Date.now() > deadline) throw new Error(`the Machines did not reach ${count} on both sides`);
    await sleep(200);
  }
}

/**
 * Reports the instance of each new AWSMachine of the MachineSet as running, as CAPA would (its
 * controllers need AWS): a machine still provisioning cannot move back to Machine API.
 */
async function provisionNewInstances(plane: ControlPlane, name: string): Promise<void> {
  const api = objectsFor(plane.kubeConfig);
  const list = await api.list<{ metadata: { name: string }; spec: { providerID?: string } }>(
    { ...CAPI_MACHINES, namespace: CAPI_NAMESPACE },
    { labelSelector: `${SET_LABEL}=${name}` },
  );
  // Cluster API names each AWSMachine after its Machine.
  const pending = list.items.filter((m) => !m.spec.providerID).map((m) => m.metadata.name);
  await provisionInfrastructure(CAPI_NAMESPACE, pending, api);
}

/**
 * Migrates one MachineSet with its Machines to Cluster API by editing spec, scales it there,
 * and migrates it back. The Machines follow the MachineSet: none is created or deleted.
 */
async function migrationTour(plane: ControlPlane, name: string): Promise<void> {
  banner(`the Machines of ${name}: mirrored to Cluster API, paused`);
  showMachines(plane, name);

  banner(`migrating ${name} to Cluster API: the administrator edits spec.authoritativeAPI`);
  console.log(
    '  (MAPI-PAUSED from machine-api-operator, CAPI-PAUSED from Cluster API; the Machines follow before the CAPI MachineSet is unpaused)',
  );
  wish(plane, name, 'ClusterAPI');
  await watchHandshake(plane, name, settledAt('ClusterAPI'));
  migrationMessage(plane, name);
  showMachines(plane, name);

  banner(`scaling ${name} to 3 on the Cluster API side, which is authoritative now`);
  scale(plane, 'CAPI', name, 3);
  await waitMachineCount(plane, name, 3);
  await provisionNewInstances(plane, name);
  console.log(
    '  Cluster API created one machine; its MAPI mirror appears with authority ClusterAPI:',
  );
  showMachines(plane, name);

  banner(`migrating ${name} back to Machine API`);
  wish(plane, name, 'MachineAPI');
  await watchHandshake(plane, name, settledAt('MachineAPI'));
  migrationMessage(plane, name);
  showMachines(plane, name);
}

/**
 * The whole fleet to Cluster API with one command, in waves of two, and back: refused at first
 * (one MachineSet cannot convert), planned, then run with that one skipped, showing its
 * progress; then the way back it printed, so that the rest of the demo runs under Machine API.
 */
function fleetMigration(plane: ControlPlane): void {
  const migrate = (args: string[]) =>
    program(plane, 'oc mapi-capi-sync', 'src/cli/plugin/main.ts', ['migrate', ...args]);
  const fleet = ['--all', '--to', 'ClusterAPI', '--max-in-flight', '2'];
  banner('migrating the fleet with one command: refused while one MachineSet cannot convert');
  migrate(fleet);
  banner('the plan, skipping it (--dry-run writes nothing)');
  migrate([...fleet, '--skip-blocked', '--dry-run']);
  banner('the fleet to Cluster API, two MachineSets at a time, each wave waited for');
  migrate([...fleet, '--skip-blocked']);
  program(plane, 'oc mapi-capi-sync', 'src/cli/plugin/main.ts', ['status']);
  banner('and back to Machine API (--rollback)');
  migrate([...fleet, '--skip-blocked', '--rollback']);
}

const dir = await mkdtemp(join(tmpdir(), 'mapi-capi-sync-demo-'));
let plane: ControlPlane | undefined;
let controller: ChildProcess | undefined;
const controllerLog = join(dir, 'controller.log');
let awsLogShown = false;
try {
  banner('starting a local control plane (etcd, kube-apiserver, kube-controller-manager)');
  plane = await startControlPlane({
    dir,
    log: (m) => console.log(`  ${m}`),
    neighbours: demoNeighbours(),
  });
  await seed(plane);
  console.log(
    `  created Infrastructure "cluster" (AWS, ${INFRASTRUCTURE_NAME}), CAPI Cluster ${INFRASTRUCTURE_NAME},`,
  );
  console.log(`  and MAPI MachineSets ${[...MACHINE_SETS, BROKEN].join(', ')}`);

  banner(
    'starting the controller: mapi-capi-sync --kubeconfig … --cluster-operator=mapi-capi-sync',
  );
  controller = startControllerProcess(
    plane,
    ['--cluster-operator=mapi-capi-sync', '--operator-status-interval=1s', '--degraded-after=5s'],
    controllerLog,
  );
  await settled(plane);
  showState(plane);
  await sleep(6000); // past --degraded-after: the broken MachineSet degrades the ClusterOperator
  showOverview(plane);

  banner(`why ${BROKEN} is not synchronized`);
  kubectl(plane, [
    'get',
    'machinesets.machine.openshift.io',
    BROKEN,
    '-n',
    MAPI_NAMESPACE,
    '-o',
    'jsonpath={.status.conditions[?(@.type=="Synchronized")].message}{"\\n"}',
  ]);
  kubectl(plane, [
    'get',
    'events',
    '-n',
    MAPI_NAMESPACE,
    '-o',
    'custom-columns=TYPE:.type,REASON:.reason,OBJECT:.involvedObject.name,COUNT:.count',
  ]);

  const rotated = MACHINE_SETS[0] ?? '';
  banner(`changing the instanceType of ${rotated} to m6i.2xlarge`);
  kubectl(plane, [
    'patch',
    'machinesets.machine.openshift.io',
    rotated,
    '-n',
    MAPI_NAMESPACE,
    '--type=json',
    '-p',
    '[{"op":"replace","path":"/spec/template/spec/providerSpec/value/instanceType","value":"m6i.2xlarge"}]',
  ]);
  await settled(plane, 'm6i.2xlarge');
  showState(plane);
  console.log('\n  the old template of that MachineSet is gone; a new one points at m6i.2xlarge');

  await migrationTour(plane, MACHINE_SETS[1] ?? '');
  await settled(plane);
  showState(plane);

  fleetMigration(plane);
  await settled(plane);

  const deleted = MACHINE_SETS[MACHINE_SETS.length - 1] ?? '';
  banner(
    `deleting MAPI MachineSet ${deleted}: its paused mirror carries Cluster API's finalizer too`,
  );
  kubectl(plane, [
    'get',
    'machinesets.cluster.x-k8s.io',
    deleted,
    '-n',
    CAPI_NAMESPACE,
    '-o',
    'jsonpath={.metadata.finalizers}{"\\n"}',
  ]);
  kubectl(plane, [
    'delete',
    'machinesets.machine.openshift.io',
    deleted,
    '-n',
    MAPI_NAMESPACE,
    '--wait=true',
    '--timeout=60s',
  ]);
  kubectl(plane, [
    'wait',
    '--for=delete',
    `machinesets.cluster.x-k8s.io/${deleted}`,
    '-n',
    CAPI_NAMESPACE,
    '--timeout=60s',
  ]);
  console.log('\n  both sides are gone: the deletion finished, nothing is left Terminating');
  showState(plane);

  const metricsPort = await servingPort(controllerLog);
  banner(`metrics (curl http://127.0.0.1:${metricsPort}/metrics, selected lines)`);
  const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const shown =
    /^(mapi_capi_sync_machinesets\{synchronized="(True|False)",authority="MachineAPI"\}|controller_runtime_reconcile_total|workqueue_depth|leader_election_master_status)/;
  for (const line of metrics.split('\n')) if (shown.test(line)) console.log(`  ${line}`);

  await stopControllerProcess(controller);
  banner('controller log (AWS)');
  printLog(await readFile(controllerLog, 'utf8'));
  awsLogShown = true;
  await otherPlatforms(plane);
} catch (err) {
  console.error(`demo failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await stopControllerProcess(controller);
  if (!awsLogShown) {
    banner('controller log');
    printLog(await readFile(controllerLog, 'utf8').catch(() => ''));
  }
  await plane?.stop();
  if (!process.env.KEEP_DEMO_DIR) await rm(dir, { recursive: true, force: true });
  banner('controller and control plane stopped');
}
