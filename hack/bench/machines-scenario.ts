// The Machines scenario of the benchmark: prints figures, asserts nothing.
//   npm run bench -- --scenario machines [--machinesets N] [--machines M] [--workers W] [--migrate K]
// Our compiled controller as the image runs it, in a process of its own, on a local control plane
// with Cluster API and machine-api-operator (whose MachineSet controller creates the Machines and
// whose stand-in actuator provisions them):
// - initial: N MachineSets of M Machines each, created as the installer would, until every
//   MachineSet and every Machine is Synchronized and the controller has stopped writing;
// - restart: a new process over the same cluster, until it is ready and quiet (nothing to write);
// - idle: two minutes of nothing;
// - migration: one more MachineSet of K Machines moved to Cluster API, from the spec edit to
//   MigrationCompleted, with no machine created or deleted.
// Writes come from the API server's audit log, per user: ours, Cluster API's, machine-api-operator's.
// CPU and memory from /proc of each process.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Infrastructure, MapiMachine, MapiMachineSet } from '../../src/api/types.js';
import { awsConverter } from '../../src/conversion/aws/index.js';
import { machineSetToCapi } from '../../src/conversion/machine-set/to-capi.js';
import { createInformer, type Informer } from '../../src/kube/informer.js';
import { silentLogger } from '../../src/logging.js';
import { synchronizedAtGeneration } from '../../src/sync/report.js';
import { createCapiCluster } from '../../test/support/capi-cluster.js';
import { setControlPlane } from '../../test/support/cluster.js';
import {
  awsMachineSet,
  createMachineSet,
  MAPI,
  setInfrastructure,
} from '../../test/support/controller.js';
import { clientFor, objectsFor } from '../../test/support/kube-client.js';
import { MAPI_MACHINES } from '../../test/support/machines.js';
import {
  IDENTITIES,
  startControlPlane,
  type ControlPlane,
} from '../../test/environment/control-plane.js';
import { createControllerNamespaces } from '../../test/environment/controller-rbac.js';
import { AuditWrites, countByKind, type AuditWrite } from './audit-writes.js';
import type { MachinesBenchOptions } from './cli.js';
import { buildProgram, ControllerProcess } from './controller-process.js';
import { readProcessUsage } from './process-usage.js';
import { PHASE_TIMEOUT_MS, waitUntil } from './run.js';

const MAPI_NAMESPACE = 'bench-mapi';
const CAPI_NAMESPACE = 'bench-capi';
/** The controller has written nothing for this long: it is done. */
const QUIET_MS = 5000;
/** How long the initial phase may take per Machine before the bench gives up. */
const MAX_MS_PER_MACHINE = 1000;
const MIGRATING = 'bench-migration';

/** Who writes, by the user name each runs as in the control plane (and in OpenShift). */
const WRITERS = {
  ours: IDENTITIES['mapi-capi-sync'],
  'cluster-api': IDENTITIES['cluster-api'],
  'machine-api-operator': IDENTITIES['machine-api-operator'],
} as const;
type Writer = keyof typeof WRITERS;

/** The processes whose CPU the scenario reports beside ours. */
const NEIGHBOURS = ['kube-apiserver', 'etcd', 'cluster-api', 'machine-api-operator'] as const;

const infrastructure: Infrastructure = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'Infrastructure',
  metadata: { name: 'cluster' },
  status: {
    infrastructureName: 'demo-abc12',
    platform: 'AWS',
    platformStatus: { type: 'AWS', aws: { region: 'us-east-1' } },
  },
};

function log(message: string): void {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

function benchConversion(): void {
  const mapi = awsMachineSet('bench-worker-us-east-1a', 'openshift-machine-api');
  const convert = () =>
    machineSetToCapi({
      mapi,
      infrastructure,
      converter: awsConverter,
      capiNamespace: 'openshift-cluster-api',
      paused: true,
    });
  for (let i = 0; i < 200; i++) convert(); // warm up
  const iterations = 5000;
  const start = performance.now();
  for (let i = 0; i < iterations; i++) convert();
  const perCallUs = ((performance.now() - start) * 1000) / iterations;
  console.log(
    `conversion (AWS MachineSet → MachineSet + template + name): ${perCallUs.toFixed(1)} µs per call`,
  );
}

/** The MAPI side, through watches: what "synchronized" means for the scenario. */
class Observer {
  readonly machineSets: Informer<MapiMachineSet>;
  readonly machines: Informer<MapiMachine>;

  constructor(plane: ControlPlane) {
    const client = clientFor(plane.kubeConfig);
    const options = { logger: silentLogger };
    this.machineSets = createInformer(client, { ...MAPI, namespace: MAPI_NAMESPACE }, options);
    this.machines = createInformer(
      client,
      { ...MAPI_MACHINES, namespace: MAPI_NAMESPACE },
      options,
    );
  }

  async start(): Promise<void> {
    this.machineSets.start();
    this.machines.start();
    await Promise.all([this.machineSets.waitForSync(), this.machines.waitForSync()]);
  }

  stop(): Promise<void[]> {
    return Promise.all([this.machineSets.stop(), this.machines.stop()]);
  }

  machinesOf(machineSet: string): MapiMachine[] {
    return this.machines
      .list()
      .filter(
        (m) => m.metadata.labels?.['machine.openshift.io/cluster-api-machineset'] === machineSet,
      );
  }

  /** Every MachineSet and every Machine Synchronized at its generation, each Machine provisioned. */
  allSynchronized(machineSets: number, machines: number): boolean {
    const sets = this.machineSets.list();
    const all = this.machines.list();
    return (
      sets.length >= machineSets &&
      sets.every(synchronizedAtGeneration) &&
      all.length >= machines &&
      all.every((m) => m.spec.providerID && synchronizedAtGeneration(m))
    );
  }
}

/** CPU seconds so far of our controller and of each neighbour. */
function cpuNow(plane: ControlPlane, controller: ControllerProcess): Record<string, number> {
  const cpu: Record<string, number> = { ours: controller.usage()?.cpuSeconds ?? 0 };
  for (const name of NEIGHBOURS) {
    const pid = plane.pids[name];
    cpu[name] = pid === undefined ? 0 : (readProcessUsage(pid)?.cpuSeconds ?? 0);
  }
  return cpu;
}

/**
 * Reads the audit log until our controller has written nothing for QUIET_MS; returns every
 * writer's writes since the last call, and when ours last wrote (ms, performance.now()).
 */
async function untilQuiet(
  audit: AuditWrites,
  controller: ControllerProcess,
): Promise<{ writes: Record<Writer, AuditWrite[]>; lastOursAt: number }> {
  const writes = { ours: [], 'cluster-api': [], 'machine-api-operator': [] } as Record<
    Writer,
    AuditWrite[]
  >;
  let lastOursAt = performance.now();
  while (performance.now() - lastOursAt < QUIET_MS) {
    const failure = controller.failure();
    if (failure) throw failure;
    await sleep(1000);
    await audit.read();
    for (const writer of Object.keys(WRITERS) as Writer[]) {
      const taken = audit.take(WRITERS[writer]);
      if (writer === 'ours' && taken.length > 0) lastOursAt = performance.now();
      writes[writer].push(...taken);
    }
  }
  return { writes, lastOursAt };
}

/** Writes by kind and verb, per object of the kind each counts against. */
function printWrites(
  title: string,
  writes: readonly AuditWrite[],
  per: (resource: string) => [string, number],
): void {
  const counts = Object.entries(countByKind(writes)).sort(([a], [b]) => a.localeCompare(b));
  console.log(`  ${title}:`);
  if (counts.length === 0) {
    console.log('    none');
    return;
  }
  const totals = new Map<string, number>();
  for (const [kind, n] of counts) {
    const [noun, objects] = per(kind.split(' ')[1] ?? '');
    totals.set(noun, (totals.get(noun) ?? 0) + n / objects);
    console.log(
      `    ${kind.padEnd(58)} ${String(n).padStart(7)}  ${(n / objects).toFixed(2).padStart(6)} per ${noun}`,
    );
  }
  const refused = writes.filter((w) => w.code >= 400);
  for (const [noun, total] of totals) console.log(`    in all per ${noun}: ${total.toFixed(2)}`);
  if (refused.length > 0) {
    console.log(
      `    of which answered 4xx/5xx: ${Object.entries(countByKind(refused))
        .map(
          ([k, n]) =>
            `${k} ${n} (${[...new Set(refused.filter((w) => `${w.verb} ${w.resource}` === k).map((w) => w.code))].join(',')})`,
        )
        .join(', ')}`,
    );
  }
}

/** Machines and AWSMachines, with their subresources. */
const isMachineResource = (resource: string) => /^(machines|awsmachines)[./]/.test(resource);

/** Machine resources count per Machine, the rest per MachineSet. */
function perObject(machineSets: number, machines: number): (resource: string) => [string, number] {
  return (resource) =>
    isMachineResource(resource) ? ['Machine', machines] : ['MachineSet', machineSets];
}

function printCpu(
  before: Record<string, number>,
  after: Record<string, number>,
  objects: { machineSets: number; machines: number },
): void {
  const used = (name: string) => (after[name] ?? 0) - (before[name] ?? 0);
  const perObjectMs = (used('ours') * 1000) / (objects.machineSets + objects.machines);
  console.log(
    `  CPU s: ours ${used('ours').toFixed(2)} (${perObjectMs.toFixed(1)} ms per MachineSet or Machine), ` +
      NEIGHBOURS.map((n) => `${n} ${used(n).toFixed(2)}`).join(', '),
  );
}

/**
 * Reconciles per object, per controller, and the writes of every writer on Machine resources per
 * Machine: each such write is a watch event that may wake a Machine's reconcile.
 */
function printReconciles(
  before: Record<string, number>,
  after: Record<string, number>,
  objects: { machineSets: number; machines: number },
  writes: Record<Writer, AuditWrite[]>,
): void {
  const used = (name: string) => (after[name] ?? 0) - (before[name] ?? 0);
  const onMachines = Object.values(writes)
    .flat()
    .filter((w) => isMachineResource(w.resource)).length;
  console.log(
    `  reconciles: ${(used('machineset-sync') / objects.machineSets).toFixed(1)} per MachineSet, ` +
      `${(used('machine-sync') / objects.machines).toFixed(1)} per Machine; ` +
      `writes on Machine resources by every writer: ${(onMachines / objects.machines).toFixed(1)} per Machine`,
  );
}

function seconds(fromMs: number, toMs = performance.now()): string {
  return `${((toMs - fromMs) / 1000).toFixed(1)} s`;
}

async function createMachineSets(
  api: ReturnType<typeof objectsFor>,
  names: string[],
  replicas: number,
): Promise<void> {
  for (let i = 0; i < names.length; i += 20) {
    await Promise.all(
      names
        .slice(i, i + 20)
        .map((name) =>
          createMachineSet(
            MAPI_NAMESPACE,
            awsMachineSet(name, MAPI_NAMESPACE, { replicas }),
            'MachineAPI',
            api,
          ),
        ),
    );
  }
}

async function benchController(options: MachinesBenchOptions): Promise<void> {
  const { machineSets: count, machines, workers, migrate } = options;
  buildProgram();
  const dir = await mkdtemp(join(tmpdir(), 'mapi-capi-sync-bench-'));
  log(`starting a control plane with Cluster API and machine-api-operator in ${dir}`);
  const plane = await startControlPlane({ dir });
  setControlPlane(plane);
  const api = objectsFor(plane.kubeConfig);
  const audit = new AuditWrites(plane.auditLogPath);
  const observer = new Observer(plane);
  const controller = new ControllerProcess({
    kubeconfigPath: plane.identityKubeconfigPaths['mapi-capi-sync'],
    mapiNamespace: MAPI_NAMESPACE,
    capiNamespace: CAPI_NAMESPACE,
    workers,
    logDir: join(dir, 'logs'),
  });
  let finished = false;
  try {
    await createControllerNamespaces(api, { mapi: MAPI_NAMESPACE, capi: CAPI_NAMESPACE });
    await setInfrastructure(infrastructure.status ?? {}, api);
    await createCapiCluster(CAPI_NAMESPACE);
    await observer.start();
    await audit.start();
    console.log(
      `${count} MachineSets × ${machines} Machines; ours: ${controller.label}; next to Cluster API and machine-api-operator on a local control plane`,
    );

    // initial
    await controller.begin('initial');
    await controller.ready();
    const cpuBefore = cpuNow(plane, controller);
    const reconcilesBefore = await controller.reconciles();
    const start = performance.now();
    log(`initial: creating ${count} MachineSets of ${machines} Machines`);
    const names = Array.from({ length: count }, (_, i) => `bench-${i}`);
    await createMachineSets(api, names, machines);
    const created = performance.now();
    // machine-api-operator provisions about three Machines a second here: a large fleet takes longer
    // than a phase's timeout.
    await waitUntil(
      'every MachineSet and Machine Synchronized',
      () => observer.allSynchronized(count, count * machines),
      controller,
      Math.max(PHASE_TIMEOUT_MS, count * machines * MAX_MS_PER_MACHINE),
    );
    const synchronized = performance.now();
    const initial = await untilQuiet(audit, controller);
    console.log('initial:');
    console.log(`  MachineSets created (client side):       ${seconds(start, created)}`);
    console.log(
      `  every MachineSet and Machine Synchronized: ${seconds(start, synchronized)} from the first create`,
    );
    console.log(
      `  our last write:                           ${seconds(start, initial.lastOursAt)} from the first create`,
    );
    printCpu(cpuBefore, cpuNow(plane, controller), {
      machineSets: count,
      machines: count * machines,
    });
    printReconciles(
      reconcilesBefore,
      await controller.reconciles(),
      { machineSets: count, machines: count * machines },
      initial.writes,
    );
    console.log(
      `  our peak RSS: ${((controller.usage()?.peakRssBytes ?? 0) / 1048576).toFixed(0)} MiB`,
    );
    printWrites('our writes', initial.writes.ours, perObject(count, count * machines));
    for (const writer of ['cluster-api', 'machine-api-operator'] as const) {
      console.log(`  ${writer}'s writes: ${initial.writes[writer].length}`);
    }

    // restart
    log('restart');
    await controller.stop();
    const restartStart = performance.now();
    const restartCpu = cpuNow(plane, controller);
    await controller.begin('restart');
    await controller.ready();
    const restarted = await untilQuiet(audit, controller);
    console.log('restart:');
    console.log(
      `  ready and quiet after:                    ${seconds(restartStart, restarted.lastOursAt)}`,
    );
    printCpu(restartCpu, cpuNow(plane, controller), {
      machineSets: count,
      machines: count * machines,
    });
    printWrites('our writes', restarted.writes.ours, perObject(count, count * machines));

    // idle
    log('idle: two minutes');
    const idleCpu: number[] = [];
    let last = controller.usage()?.cpuSeconds ?? 0;
    for (let minute = 0; minute < 2; minute++) {
      await sleep(60_000);
      const now = controller.usage()?.cpuSeconds ?? last;
      idleCpu.push(now - last);
      last = now;
    }
    await audit.read();
    const idleWrites = audit.take(WRITERS.ours);
    console.log('idle:');
    console.log(
      `  CPU s: minute 1 ${idleCpu[0]?.toFixed(2)}, minute 2 ${idleCpu[1]?.toFixed(2)}; our writes: ${idleWrites.length}; RSS at the end ${((controller.usage()?.rssBytes ?? 0) / 1048576).toFixed(0)} MiB`,
    );
    // what may have woken us: the neighbours' own periodic work
    for (const writer of ['cluster-api', 'machine-api-operator'] as const) {
      const theirs = audit.take(WRITERS[writer]);
      const kinds = Object.entries(countByKind(theirs)).map(([k, n]) => `${k} ${n}`);
      console.log(
        `  ${writer}'s writes meanwhile: ${theirs.length}${kinds.length ? ` (${kinds.join(', ')})` : ''}`,
      );
    }

    if (migrate > 0) await migration(migrate, { plane, api, audit, observer, controller });
    console.log(
      `our peak RSS over every phase: ${((controller.usage()?.peakRssBytes ?? 0) / 1048576).toFixed(0)} MiB`,
    );
    finished = true;
  } finally {
    await controller.stop();
    await observer.stop();
    api.close();
    setControlPlane(undefined);
    await plane.stop();
    if (finished) await rm(dir, { recursive: true, force: true });
    else log(`logs kept in ${join(dir, 'logs')}`);
  }
}

/** One MachineSet of `machines` Machines moved to Cluster API: time and writes, none created or deleted. */
async function migration(
  machines: number,
  context: {
    plane: ControlPlane;
    api: ReturnType<typeof objectsFor>;
    audit: AuditWrites;
    observer: Observer;
    controller: ControllerProcess;
  },
): Promise<void> {
  const { plane, api, audit, observer, controller } = context;
  log(`migration: a MachineSet of ${machines} Machines, synchronized first`);
  await createMachineSets(api, [MIGRATING], machines);
  const isSynchronized = () => {
    const set = observer.machineSets.get(MAPI_NAMESPACE, MIGRATING);
    const own = observer.machinesOf(MIGRATING);
    return (
      set !== undefined &&
      synchronizedAtGeneration(set) &&
      own.length === machines &&
      own.every((m) => m.spec.providerID && synchronizedAtGeneration(m))
    );
  };
  await waitUntil(`${MIGRATING} and its Machines Synchronized`, isSynchronized, controller);
  await untilQuiet(audit, controller);
  const uidsBefore = observer
    .machinesOf(MIGRATING)
    .map((m) => m.metadata.uid)
    .sort();
  const cpuBefore = cpuNow(plane, controller);
  const reconcilesBefore = await controller.reconciles();
  const start = performance.now();
  await api.patch(
    { ...MAPI, namespace: MAPI_NAMESPACE, name: MIGRATING },
    { type: 'merge', body: { spec: { authoritativeAPI: 'ClusterAPI' } } },
  );
  const completed = () => {
    const set = observer.machineSets.get(MAPI_NAMESPACE, MIGRATING);
    const progressing = set?.status?.conditions?.find((c) => c.type === 'MigrationProgressing');
    return (
      set?.status?.authoritativeAPI === 'ClusterAPI' &&
      progressing?.reason === 'MigrationCompleted' &&
      // at the CAPI generation now, so not comparable with the MAPI one
      set.status.conditions?.some((c) => c.type === 'Synchronized' && c.status === 'True') === true
    );
  };
  await waitUntil(`${MIGRATING} MigrationCompleted`, completed, controller);
  const done = performance.now();
  const after = await untilQuiet(audit, controller);
  const uidsAfter = observer
    .machinesOf(MIGRATING)
    .map((m) => m.metadata.uid)
    .sort();
  const onClusterApi = observer
    .machinesOf(MIGRATING)
    .filter((m) => m.status?.authoritativeAPI === 'ClusterAPI').length;
  console.log(`migration of one MachineSet with ${machines} Machines to ClusterAPI:`);
  console.log(`  spec edit to MigrationCompleted:          ${seconds(start, done)}`);
  console.log(
    `  our last write:                           ${seconds(start, after.lastOursAt)} after the edit`,
  );
  console.log(
    `  Machines on ClusterAPI: ${onClusterApi} of ${machines}; the same Machines before and after: ${JSON.stringify(uidsBefore) === JSON.stringify(uidsAfter)}`,
  );
  printCpu(cpuBefore, cpuNow(plane, controller), { machineSets: 1, machines });
  printReconciles(
    reconcilesBefore,
    await controller.reconciles(),
    { machineSets: 1, machines },
    after.writes,
  );
  printWrites('our writes', after.writes.ours, perObject(1, machines));
  for (const writer of ['cluster-api', 'machine-api-operator'] as const) {
    console.log(`  ${writer}'s writes: ${after.writes[writer].length}`);
  }
}

export async function runMachinesScenario(options: MachinesBenchOptions): Promise<void> {
  benchConversion();
  await benchController(options);
}
