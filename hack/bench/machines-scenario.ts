// The Machines scenario of the benchmark: prints figures, asserts nothing.
//   npm run bench -- --scenario machines [--machinesets N] [--machines M] [--workers W]
// - the pure conversion of an installer-style AWS MachineSet (per call);
// - the controller in-process against a real local control plane with Cluster API and
//   machine-api-operator: N new MachineSets of M Machines each until all are Synchronized, the
//   writes per object by kind and verb, a no-op resync of all of them, 30 s idle, CPU and memory.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Infrastructure } from '../../src/api/types.js';
import { NAMESPACE } from '../../src/kube/builtin-resources.js';
import { startController } from '../../src/controller/controller.js';
import { convertMachineSet } from '../../src/conversion/machine-set/to-capi.js';
import { awsConverter } from '../../src/conversion/aws/index.js';
import { converterFor } from '../../src/conversion/platforms.js';
import { silentLogger } from '../../src/logging.js';
import { synchronizedAtGeneration } from '../../src/sync/report.js';
import { createCapiCluster } from '../../test/support/capi-cluster.js';
import { setControlPlane } from '../../test/support/cluster.js';
import {
  awsMachineSet,
  createMachineSet,
  setInfrastructure,
} from '../../test/support/controller.js';
import { clientFor, objectsFor } from '../../test/support/kube-client.js';
import { WriteLog } from '../../test/support/writes.js';
import { startControlPlane } from '../control-plane.js';

import type { MachinesBenchOptions } from './cli.js';

const MAPI_NAMESPACE = 'bench-mapi';
const CAPI_NAMESPACE = 'bench-capi';
const QUIET_MS = 3000;
const IDLE_MS = 30_000;

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

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function benchConversion(): void {
  const mapi = awsMachineSet('bench-worker-us-east-1a', 'openshift-machine-api');
  const convert = () =>
    convertMachineSet({
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

async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** CPU seconds (user + system) of this process since `from`. */
function cpuSeconds(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1e6;
}

/** One line per kind and verb: objects, writes per object (mean and most). */
function printWrites(
  title: string,
  writes: WriteLog,
  machineSets: number,
  showNotes = false,
): void {
  const summary = writes.summary();
  const { busiest } = writes.take();
  console.log(`  ${title}:`);
  const rows = Object.entries(summary).sort(([a], [b]) => a.localeCompare(b));
  if (rows.length === 0) {
    console.log('    none');
    return;
  }
  let total = 0;
  for (const [what, { objects, writes: n, most }] of rows) {
    total += n;
    const mean = (n / objects).toFixed(2);
    console.log(
      `    ${what.padEnd(64)} ${String(objects).padStart(6)} objects  ${mean.padStart(5)} per object (most ${most})`,
    );
    if (showNotes) console.log(`      e.g. ${busiest[what]?.join('; ')}`);
  }
  console.log(
    `    in all: ${total} writes, ${(total / machineSets).toFixed(2)} per MachineSet with its Machines`,
  );
}

async function benchController({
  machineSets: count,
  machines,
  workers: WORKERS,
}: MachinesBenchOptions): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'mapi-capi-sync-bench-'));
  const plane = await startControlPlane({ dir });
  setControlPlane(plane);
  const custom = objectsFor(plane.kubeConfig);
  try {
    for (const name of [MAPI_NAMESPACE, CAPI_NAMESPACE]) {
      await custom.create(NAMESPACE, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    }
    await setInfrastructure(infrastructure.status ?? {}, custom);
    await createCapiCluster(CAPI_NAMESPACE);
    const writes = new WriteLog();
    let lastWriteAt = performance.now();
    const cpuBefore = process.cpuUsage();
    const controller = startController({
      client: clientFor(plane.kubeConfig),
      mapiNamespace: MAPI_NAMESPACE,
      capiNamespace: CAPI_NAMESPACE,
      workers: WORKERS,
      converterFor,
      logger: silentLogger,
      onWrite: (write) => {
        lastWriteAt = performance.now();
        writes.record(write);
      },
    });
    await controller.ready;

    // Created as the installer would, each with `machines` replicas: machine-api-operator's
    // MachineSet controller creates the Machines and its stand-in actuator provisions them.
    const names = Array.from({ length: count }, (_, i) => `bench-${i}`);
    const start = performance.now();
    for (let i = 0; i < names.length; i += 20) {
      await Promise.all(
        names
          .slice(i, i + 20)
          .map((name) =>
            createMachineSet(
              MAPI_NAMESPACE,
              awsMachineSet(name, MAPI_NAMESPACE, { replicas: machines }),
              'MachineAPI',
              custom,
            ),
          ),
      );
    }
    const createdMs = performance.now() - start;
    await waitUntil(
      () => controller.machineSets().filter(synchronizedAtGeneration).length === count,
      600_000,
      'MachineSets to be Synchronized',
    );
    const machineSetsMs = performance.now() - start;
    await waitUntil(
      () =>
        controller.machines().filter((m) => m.spec.providerID && synchronizedAtGeneration(m))
          .length ===
        count * machines,
      600_000,
      'Machines to be provisioned and Synchronized',
    );
    const machinesMs = performance.now() - start;
    // Settled: the controller has had nothing to write for a while (status catching up with
    // machine-api-operator's last changes), so that the resync below starts from a quiet cluster.
    await waitUntil(() => performance.now() - lastWriteAt > QUIET_MS, 600_000, 'a quiet cluster');
    const settledMs = lastWriteAt - start;
    const cpuInitial = cpuSeconds(cpuBefore);

    console.log(
      `controller, ${count} MachineSets × ${machines} Machines, ${WORKERS} workers, real kube-apiserver, Cluster API and machine-api-operator on loopback:`,
    );
    console.log(`  creating the MachineSets (client side):  ${(createdMs / 1000).toFixed(2)} s`);
    console.log(
      `  all MachineSets Synchronized=True after:  ${(machineSetsMs / 1000).toFixed(2)} s from the first create`,
    );
    console.log(
      `  all Machines provisioned and mirrored:    ${(machinesMs / 1000).toFixed(2)} s from the first create`,
    );
    const objects = count * (1 + machines);
    console.log(
      `  controller CPU (this process):            ${cpuInitial.toFixed(1)} s, ${((cpuInitial * 1000) / objects).toFixed(1)} ms per MachineSet or Machine`,
    );
    console.log(
      `  the controller's last write:              ${(settledMs / 1000).toFixed(2)} s from the first create`,
    );
    printWrites('writes while creating and provisioning', writes, count);

    const before = controller.reconciler.completed + controller.machineReconciler.completed;
    const cpuResync = process.cpuUsage();
    const resyncStart = performance.now();
    controller.resyncAll();
    await waitUntil(
      () =>
        controller.reconciler.completed + controller.machineReconciler.completed >=
        before + objects,
      120_000,
      'the resync',
    );
    const resyncMs = performance.now() - resyncStart;
    console.log(
      `  no-op resync of all of them:              ${resyncMs.toFixed(0)} ms, ${((cpuSeconds(cpuResync) * 1e6) / objects).toFixed(0)} µs CPU per object`,
    );
    printWrites('writes of the no-op resync', writes, count, true);

    const idleFrom = process.cpuUsage();
    await new Promise((r) => setTimeout(r, IDLE_MS));
    console.log(
      `  idle for ${IDLE_MS / 1000} s:                            ${((cpuSeconds(idleFrom) * 60_000) / IDLE_MS).toFixed(2)} CPU s per minute`,
    );
    printWrites('writes while idle', writes, count, true);
    const memory = process.memoryUsage();
    await controller.stop();
    console.log(`  heap used by the process:                 ${mb(memory.heapUsed)}`);
    console.log(`  resident set size of the process:         ${mb(memory.rss)}`);
  } finally {
    custom.close();
    setControlPlane(undefined);
    await plane.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function runMachinesScenario(options: MachinesBenchOptions): Promise<void> {
  benchConversion();
  await benchController(options);
}
