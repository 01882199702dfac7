// Benchmarks: prints figures, asserts nothing. `npm run bench [-- --machinesets N]`
// - the pure conversion of an installer-style AWS MachineSet (per call);
// - the controller against a real local control plane: time for N new MachineSets to
//   reach Synchronized=True, time for a no-op resync of all of them, and memory.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import type { Infrastructure, MapiMachineSet } from '../src/api/types.js';
import { startController } from '../src/controller/controller.js';
import { convertMachineSet } from '../src/conversion/machine-set/index.js';
import { awsConverter } from '../src/conversion/aws/index.js';
import { converterFor } from '../src/conversion/platforms.js';
import { silentLogger } from '../src/logging.js';
import { awsMachineSet, setInfrastructure } from '../test/support/controller.js';
import { startControlPlane } from './control-plane.js';

const { values } = parseArgs({
  options: { machinesets: { type: 'string', default: '100' } },
});
const count = Number(values.machinesets);
const MAPI = { group: 'machine.openshift.io', version: 'v1beta1', plural: 'machinesets' };

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

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function benchController(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'mapi-capi-sync-bench-'));
  const plane = await startControlPlane({ dir });
  try {
    const custom = plane.kubeConfig.makeApiClient(CustomObjectsApi);
    const core = plane.kubeConfig.makeApiClient(CoreV1Api);
    for (const name of ['bench-mapi', 'bench-capi']) {
      await core.createNamespace({ body: { metadata: { name } } });
    }
    await setInfrastructure(infrastructure.status ?? {}, custom);
    const heapBefore = process.memoryUsage().heapUsed;
    const controller = startController({
      kubeConfig: plane.kubeConfig,
      mapiNamespace: 'bench-mapi',
      capiNamespace: 'bench-capi',
      workers: 4,
      converterFor,
      logger: silentLogger,
    });
    await controller.ready;

    const names = Array.from({ length: count }, (_, i) => `bench-${i}`);
    const start = performance.now();
    for (const name of names) {
      await custom.createNamespacedCustomObject({
        ...MAPI,
        namespace: 'bench-mapi',
        body: awsMachineSet(name, 'bench-mapi'),
      });
      await custom.patchNamespacedCustomObjectStatus({
        ...MAPI,
        namespace: 'bench-mapi',
        name,
        body: [{ op: 'add', path: '/status', value: { authoritativeAPI: 'MachineAPI' } }],
      });
    }
    const createdMs = performance.now() - start;
    const allSynchronized = () =>
      controller
        .machineSets()
        .filter(
          (ms: MapiMachineSet) =>
            ms.status?.conditions?.some((c) => c.type === 'Synchronized' && c.status === 'True') &&
            ms.status.synchronizedGeneration === ms.metadata.generation,
        ).length === count;
    await waitUntil(() => Promise.resolve(allSynchronized()), 300_000);
    const convergedMs = performance.now() - start;

    const before = controller.reconciler.completed;
    const resyncStart = performance.now();
    controller.resyncAll();
    await waitUntil(
      () => Promise.resolve(controller.reconciler.completed >= before + count),
      60_000,
    );
    const resyncMs = performance.now() - resyncStart;
    const memory = process.memoryUsage();
    await controller.stop();

    console.log(`controller, ${count} MachineSets, 4 workers, real kube-apiserver on loopback:`);
    console.log(`  creating them (client side):         ${(createdMs / 1000).toFixed(2)} s`);
    console.log(
      `  all Synchronized=True after:         ${(convergedMs / 1000).toFixed(2)} s from the first create`,
    );
    console.log(
      `  no-op resync of all of them:         ${resyncMs.toFixed(0)} ms (${((resyncMs * 1000) / count).toFixed(0)} µs per MachineSet)`,
    );
    console.log(
      `  heap used by the process:            ${mb(memory.heapUsed)} (${mb(memory.heapUsed - heapBefore)} more than before the controller)`,
    );
    console.log(`  resident set size of the process:    ${mb(memory.rss)}`);
  } finally {
    await plane.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

benchConversion();
await benchController();
