// One subject's run: a fresh control plane without neighbours, N installer-style AWS MachineSets
// created before the subject starts, then the phases, each measured from kube-apiserver's own
// request counts and the subject's process.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MapiMachineSet } from '../../src/api/types.js';
import type { ObjectClient } from '../../src/kube/objects.js';
import { createCapiCluster } from '../../test/support/capi-cluster.js';
import { setControlPlane } from '../../test/support/cluster.js';
import {
  awsMachineSet,
  DEFAULT_INFRASTRUCTURE,
  MAPI,
  setInfrastructure,
} from '../../test/support/controller.js';
import { objectsFor } from '../../test/support/kube-client.js';
import { startControlPlane, type ControlPlane } from '../../test/environment/control-plane.js';
import { createControllerNamespaces } from '../../test/environment/controller-rbac.js';
import type { Phase } from './cli.js';
import { countWrite, totalWrites, writeDelta, writeKey, type WriteCounts } from './metrics.js';
import { MachineSetObserver } from './observer.js';
import { readProcessUsage } from './process-usage.js';
import type { PhaseResult, SubjectResult } from './report.js';
import { scrapeWrites } from './scrape.js';
import type { Subject } from './subject.js';

export const MAPI_NAMESPACE = 'bench-mapi';
export const CAPI_NAMESPACE = 'bench-capi';
/** Two minutes: the first after the work, the second with nothing at all to do. */
const IDLE_MINUTES = 2;
/** A phase ends once nothing has been written for this long and the subject's CPU is quiet. */
const QUIET_MS = 5_000;
export const PHASE_TIMEOUT_MS = 30 * 60_000;
/** Requests the bench itself has in flight at once when creating or changing MachineSets. */
const BENCH_CONCURRENCY = 20;
const ROTATED_INSTANCE_TYPE = 'm6i.2xlarge';

export interface RunContext {
  plane: ControlPlane;
  logDir: string;
}

function log(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

async function inBatches<T>(items: T[], act: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += BENCH_CONCURRENCY) {
    await Promise.all(items.slice(i, i + BENCH_CONCURRENCY).map(act));
  }
}

/**
 * Polls `check` until it holds; fails at once when the subject has failed, or after `timeoutMs`
 * (the phase timeout by default).
 */
export async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  subject?: Subject,
  timeoutMs = PHASE_TIMEOUT_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    const failure = subject?.failure();
    if (failure) throw new Error(`${subject?.name}: ${failure.message} (waiting for ${what})`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * N MachineSets as the installer creates them, with the status machine-api-operator gives them
 * (authoritativeAPI copied from spec, observedGeneration), before anything syncs them.
 */
async function createMachineSets(api: ObjectClient, count: number): Promise<void> {
  const names = Array.from({ length: count }, (_, i) => `bench-${i}`);
  await inBatches(names, async (name) => {
    const body = awsMachineSet(name, MAPI_NAMESPACE);
    const created = await api.create<MapiMachineSet>(
      { ...MAPI, namespace: MAPI_NAMESPACE },
      { ...body, spec: { ...body.spec, authoritativeAPI: 'MachineAPI' } },
    );
    await api.patch(
      { ...MAPI, namespace: MAPI_NAMESPACE, name },
      {
        type: 'json',
        operations: [
          {
            op: 'add',
            path: '/status',
            value: {
              authoritativeAPI: 'MachineAPI',
              observedGeneration: created.metadata.generation,
              replicas: 0,
            },
          },
        ],
      },
      { subresource: 'status' },
    );
  });
}

/**
 * Changes every MachineSet's instance type (a new template for each), and bumps its
 * status.observedGeneration as machine-api-operator would; returns the new generations.
 */
async function rotate(
  api: ObjectClient,
  names: string[],
  own: WriteCounts,
): Promise<Map<string, number>> {
  const generations = new Map<string, number>();
  await inBatches(names, async (name) => {
    const patched = await api.patch<MapiMachineSet>(
      { ...MAPI, namespace: MAPI_NAMESPACE, name },
      {
        type: 'json',
        operations: [
          {
            op: 'replace',
            path: '/spec/template/spec/providerSpec/value/instanceType',
            value: ROTATED_INSTANCE_TYPE,
          },
        ],
      },
    );
    const generation = patched.metadata.generation ?? 0;
    generations.set(name, generation);
    await api.patch(
      { ...MAPI, namespace: MAPI_NAMESPACE, name },
      {
        type: 'json',
        operations: [{ op: 'replace', path: '/status/observedGeneration', value: generation }],
      },
      { subresource: 'status' },
    );
  });
  const key = (subresource: string) =>
    writeKey({ verb: 'PATCH', resource: 'machinesets', subresource, group: MAPI.group });
  countWrite(own, key(''), names.length);
  countWrite(own, key('status'), names.length);
  return generations;
}

/** Waits until nothing is written and the subject uses (almost) no CPU for QUIET_MS. */
async function quiet(plane: ControlPlane, subject: Subject): Promise<void> {
  let last = totalWrites(await scrapeWrites(plane.kubeConfig));
  let cpu = subject.usage()?.cpuSeconds ?? 0;
  let since = Date.now();
  await waitUntil('a quiet cluster', async () => {
    await sleep(1000);
    const now = totalWrites(await scrapeWrites(plane.kubeConfig));
    const nowCpu = subject.usage()?.cpuSeconds ?? 0;
    // under 5 % of a core: housekeeping, not work
    if (now !== last || nowCpu - cpu > 0.05) since = Date.now();
    last = now;
    cpu = nowCpu;
    return Date.now() - since >= QUIET_MS;
  });
}

async function runPhase(
  phase: Phase,
  count: number,
  subject: Subject,
  plane: ControlPlane,
  observer: MachineSetObserver,
  api: ObjectClient,
): Promise<PhaseResult> {
  const own: WriteCounts = {};
  const before = await scrapeWrites(plane.kubeConfig);
  const usageBefore = subject.usage();
  const servingBefore = servingCpu(plane);
  const byMinute: number[] = [];
  const start = performance.now();
  switch (phase) {
    case 'initial':
      await subject.begin(phase);
      await waitUntil(
        'every MachineSet Synchronized',
        () => observer.allSynchronized(count),
        subject,
      );
      break;
    case 'rotation': {
      const oldTemplates = observer.templates();
      const names = observer.mapi.list().map((m) => m.metadata.name);
      const generations = await rotate(api, names, own);
      await subject.begin(phase);
      await waitUntil(
        'every MachineSet Synchronized with a new template',
        () => observer.allSynchronized(count, { generations, oldTemplates }),
        subject,
      );
      break;
    }
    case 'idle': {
      await subject.begin(phase);
      let last = usageBefore?.cpuSeconds ?? 0;
      for (let minute = 0; minute < IDLE_MINUTES; minute++) {
        await sleep(60_000);
        const now = subject.usage()?.cpuSeconds;
        if (now !== undefined) byMinute.push(now - last);
        last = now ?? last;
      }
      break;
    }
    case 'restart':
      await subject.begin(phase);
      await subject.ready();
      await waitUntil(
        'every MachineSet Synchronized',
        () => observer.allSynchronized(count),
        subject,
      );
      break;
  }
  // The floor's pass ends when its process does, also when it found nothing to do.
  await subject.finished();
  const failure = subject.failure();
  if (failure) throw new Error(`${subject.name}: ${failure.message} (during ${phase})`);
  const seconds = (performance.now() - start) / 1000;
  if (phase !== 'idle') await quiet(plane, subject);
  const writes = writeDelta(before, await scrapeWrites(plane.kubeConfig), own);
  const usageAfter = subject.usage();
  const serving = servingCpu(plane);
  const sameProcess = usageBefore && usageAfter && usageBefore.process === usageAfter.process;
  const cpuSeconds = (usageAfter?.cpuSeconds ?? 0) - (sameProcess ? usageBefore.cpuSeconds : 0);
  return {
    seconds,
    writes,
    writesPerMachineSet: totalWrites(writes) / count,
    cpuSeconds,
    ...(usageAfter?.peakRssBytes !== undefined
      ? { peakRssMiB: usageAfter.peakRssBytes / 1024 / 1024 }
      : {}),
    apiServerCpuSeconds: serving.apiServer - servingBefore.apiServer,
    etcdCpuSeconds: serving.etcd - servingBefore.etcd,
    ...(byMinute.length > 0 ? { cpuSecondsByMinute: byMinute } : {}),
    ...(phase === 'idle' && usageAfter?.rssBytes !== undefined
      ? { endRssMiB: usageAfter.rssBytes / 1024 / 1024 }
      : {}),
  };
}

/**
 * CPU seconds so far of kube-apiserver and etcd. Besides the subject they serve the bench's own
 * watches and its edits of the rotation, the same for every subject.
 */
function servingCpu(plane: ControlPlane): { apiServer: number; etcd: number } {
  const cpu = (pid: number | undefined) =>
    pid === undefined ? 0 : (readProcessUsage(pid)?.cpuSeconds ?? 0);
  return { apiServer: cpu(plane.pids['kube-apiserver']), etcd: cpu(plane.pids.etcd) };
}

/** A fresh control plane for one subject, its phases, and everything torn down afterwards. */
export async function runSubject(
  count: number,
  phases: readonly Phase[],
  makeSubject: (context: RunContext) => Subject,
): Promise<SubjectResult> {
  const dir = await mkdtemp(join(tmpdir(), 'mapi-capi-sync-bench-'));
  log(`starting a control plane without neighbours in ${dir}`);
  const plane = await startControlPlane({ dir, neighbours: false });
  setControlPlane(plane);
  let subject: Subject | undefined;
  const observer = new MachineSetObserver(plane.kubeConfig, MAPI_NAMESPACE, CAPI_NAMESPACE);
  let finished = false;
  const api = objectsFor(plane.kubeConfig);
  try {
    await createControllerNamespaces(api, { mapi: MAPI_NAMESPACE, capi: CAPI_NAMESPACE });
    await setInfrastructure(DEFAULT_INFRASTRUCTURE, api);
    // Cluster API does not run here: the Cluster only has to exist, as in an OpenShift cluster.
    await createCapiCluster(CAPI_NAMESPACE, { waitForClusterApi: false });
    log(`creating ${count} MachineSets`);
    await createMachineSets(api, count);
    await observer.start();
    subject = makeSubject({ plane, logDir: join(dir, 'logs') });
    const results: SubjectResult = { subject: subject.name, label: subject.label, phases: {} };
    for (const phase of phases) {
      log(`${subject.name}: ${phase}`);
      results.phases[phase] = await runPhase(phase, count, subject, plane, observer, api);
      log(`${subject.name}: ${phase} took ${results.phases[phase]?.seconds.toFixed(1)} s`);
    }
    finished = true;
    return results;
  } finally {
    await subject?.stop();
    await observer.stop();
    api.close();
    setControlPlane(undefined);
    await plane.stop();
    // After a failure, or when asked (BENCH_KEEP_LOGS=1), the logs stay for a reader.
    if (finished && !process.env.BENCH_KEEP_LOGS) await rm(dir, { recursive: true, force: true });
    else log(`logs kept in ${join(dir, 'logs')}`);
  }
}
