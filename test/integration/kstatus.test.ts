// What readiness tools built on kstatus (Flux, Argo CD) read for every object this controller
// writes, computed by the real library (test/support/kstatus.ts), next to machine-api-operator
// and Cluster API: every version of every object is sampled by watch while a MachineSet is
// created, rotated and migrated to ClusterAPI. Every object reads what it should once
// synchronized; from the first write of a migration on, the MAPI MachineSet never reads Current
// until it is synchronized with its new authority. Before that (a creation, an edit under
// MachineAPI) kstatus reads machine-api-operator's observedGeneration, which no write of ours can
// precede: those samples are counted and shown, not failed (docs/observing.md, "kstatus").
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { createCapiCluster } from '../support/capi-cluster.js';
import { adminObjects, controlPlane } from '../support/cluster.js';
import {
  AWS_TEMPLATES,
  awsMachineSet,
  CAPI,
  createMachineSet,
  DEFAULT_INFRASTRUCTURE,
  MAPI,
  setInfrastructure,
  startTestController,
  type TestController,
  unadmitted,
} from '../support/controller.js';
import { eventually } from '../support/eventually.js';
import { computeKstatus, stopKstatus } from '../support/kstatus.js';
import {
  isSynchronized,
  judge,
  mapiVerdicts,
  verdictsByKind,
  verdictTimelines,
} from '../support/kstatus-samples.js';
import { getCapi, getMapi } from '../support/machine-sets.js';
import { AWS_MACHINES, CAPI_MACHINES, MAPI_MACHINES, mapiMachines } from '../support/machines.js';
import {
  currentObjects,
  sampleObjects,
  type Resource,
  type SampledObject,
} from '../support/object-samples.js';
import type { JsonPatchOperation, MapiMachineSet } from '../../src/api/types.js';

const WAIT = { timeoutMs: 60_000 };
const NAME = 'workers';

const CURRENT = ['Current: Resource is current'];

/**
 * What each object reads at the end under MachineAPI (one Machine; no Node ever joins): Current,
 * every one by the rule "no Ready condition, observedGeneration absent or equal to generation".
 */
const FINAL_MACHINE_API = {
  'machine.openshift.io MachineSet': CURRENT,
  'machine.openshift.io Machine': CURRENT,
  'cluster.x-k8s.io MachineSet': CURRENT,
  'cluster.x-k8s.io Machine': CURRENT,
  'infrastructure.cluster.x-k8s.io AWSMachineTemplate': CURRENT,
  'infrastructure.cluster.x-k8s.io AWSMachine': CURRENT,
};

/**
 * The same after the migration to ClusterAPI, but for the CAPI Machine: unpaused, its status is
 * Cluster API's own, whose v1beta2 Ready condition is False as long as no Node has joined (here
 * the Cluster has no control plane to initialise one): InProgress, and rightly so.
 */
const FINAL_CLUSTER_API = {
  ...FINAL_MACHINE_API,
  'cluster.x-k8s.io Machine': [
    'InProgress: * NodeHealthy: Waiting for Cluster control plane to be initialized',
  ],
};

/** Every kind of object the controller writes (or mirrors) for a MachineSet with one Machine. */
function watched(c: TestController): { resource: Resource; namespace: string }[] {
  return [
    { resource: MAPI, namespace: c.mapiNamespace },
    { resource: MAPI_MACHINES, namespace: c.mapiNamespace },
    { resource: CAPI, namespace: c.capiNamespace },
    { resource: AWS_TEMPLATES, namespace: c.capiNamespace },
    { resource: CAPI_MACHINES, namespace: c.capiNamespace },
    { resource: AWS_MACHINES, namespace: c.capiNamespace },
  ];
}

async function start(): Promise<TestController> {
  const c = await startTestController();
  await createCapiCluster(c.capiNamespace);
  return c;
}

/** The MachineSet synchronized at its authoritative generation, with `machines` Machines. */
async function waitSynchronized(c: TestController, authority: 'MachineAPI' | 'ClusterAPI') {
  return eventually(async () => {
    const mapi = await getMapi(c, NAME);
    const capi = await getCapi(c, NAME);
    const at = JSON.stringify({ mapi: mapi?.status, capi: capi?.metadata });
    expect(mapi?.status?.authoritativeAPI, at).to.equal(authority);
    expect(isSynchronized(mapi as SampledObject, capi?.metadata.generation), at).to.equal(true);
    const machines = await mapiMachines(c);
    expect(machines, at).to.have.length(1);
    for (const m of machines) {
      expect(m.status?.authoritativeAPI, JSON.stringify(m.status)).to.equal(authority);
      const synced = m.status?.conditions?.find((x) => x.type === 'Synchronized');
      expect(synced?.status, JSON.stringify(m.status)).to.equal('True');
    }
    return { mapi: mapi!, capi: capi! };
  }, WAIT);
}

/**
 * Samples every object while `act` runs and the MachineSet settles on `authority`; asserts what
 * each object reads at the end and that none of the MAPI MachineSet's samples read Current once
 * a migration was announced on it before it was synchronized; counts the others (the header).
 */
async function sampleWhile(
  c: TestController,
  authority: 'MachineAPI' | 'ClusterAPI',
  expected: Record<string, string[]>,
  act: () => Promise<void>,
): Promise<void> {
  const sampler = await sampleObjects(watched(c));
  await act();
  await waitSynchronized(c, authority);
  let final: Record<string, string[]> = {};
  await eventually(
    async () => {
      final = await verdictsByKind(await currentObjects(watched(c)));
      expect(final).to.deep.equal(expected);
    },
    { timeoutMs: 15_000 },
  ).catch(() => undefined); // reported with the samples below
  const judged = await judge(sampler.stop());
  const { early, earlyWhileMigrating, earlyNotByOthers, timeline } = mapiVerdicts(judged, NAME);
  const report = [
    'MAPI MachineSet samples:',
    ...timeline,
    'every object, as its verdict changed:',
    ...verdictTimelines(judged),
  ].join('\n  ');
  if (process.env.KSTATUS_TIMELINE) console.log(`  ${report}`);
  expect(timeline.length, report).to.be.greaterThan(0);
  expect(final, `what each object reads at the end\n  ${report}`).to.deep.equal(expected);
  // From the first write announcing a migration, our Reconciling condition holds the MachineSet
  // InProgress until the new authority is synchronized.
  expect(earlyWhileMigrating, `read Current while migrating\n  ${report}`).to.deep.equal([]);
  // The others come before any write of ours could: a new object, machine-api-operator's
  // observedGeneration right after an edit. None may carry an observedGeneration of ours.
  expect(
    earlyNotByOthers,
    `read Current by an observedGeneration of ours\n  ${report}`,
  ).to.deep.equal([]);
  if (early.length) {
    console.log(
      `    (${early.length} samples of the MAPI MachineSet read Current before it was synchronized; KSTATUS_TIMELINE=1 shows them)`,
    );
  }
}

/**
 * A MachineSet that cannot be converted (a GCP providerSpec on AWS): Synchronized=False. One
 * machine-api-operator's webhooks never saw: they refuse it on AWS.
 */
async function createUnconvertible(c: TestController, name: string): Promise<MapiMachineSet> {
  const wrong = unadmitted(awsMachineSet(name, c.mapiNamespace, { replicas: 0 }));
  wrong.spec.template!.spec!.providerSpec = {
    value: { apiVersion: 'machine.openshift.io/v1beta1', kind: 'GCPMachineProviderSpec' },
  };
  await createMachineSet(c.mapiNamespace, wrong);
  return eventually(async () => {
    const mapi = await getMapi(c, name);
    const synced = mapi?.status?.conditions?.find((x) => x.type === 'Synchronized');
    expect(synced?.status, JSON.stringify(mapi?.status)).to.equal('False');
    // machine-api-operator has seen this generation too: what a reader sees from then on
    expect(mapi?.status?.observedGeneration).to.equal(mapi?.metadata.generation);
    return mapi!;
  }, WAIT);
}

async function patchMapi(c: TestController, body: JsonPatchOperation[]): Promise<MapiMachineSet> {
  return await adminObjects().patch<MapiMachineSet>(
    { ...MAPI, namespace: c.mapiNamespace, name: NAME },
    { type: 'json', operations: body },
  );
}

describe('what kstatus reads for the objects we write', function () {
  this.timeout(180_000);
  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));
  after(() => stopKstatus());

  it('the checker answers with the real library', async () => {
    const object = (status: object, metadata: object = {}) => ({
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'MachineSet',
      metadata: { name: 'm', namespace: 'ns', generation: 2, ...metadata },
      status,
    });
    const results = await computeKstatus([
      object({ observedGeneration: 1 }),
      object({ observedGeneration: 2 }),
      // Synchronized and synchronizedGeneration are not what kstatus reads
      object({
        synchronizedGeneration: 1,
        conditions: [{ type: 'Synchronized', status: 'False', reason: 'R', message: 'behind' }],
      }),
      object({ conditions: [{ type: 'Ready', status: 'False', reason: 'R', message: 'not yet' }] }),
      object({
        conditions: [{ type: 'Reconciling', status: 'True', reason: 'R', message: 'busy' }],
      }),
      object({}, { deletionTimestamp: '2026-01-01T00:00:00Z' }),
      { metadata: { name: 'no-kind' } },
    ]);
    expect(results.map((r) => r.status)).to.deep.equal([
      'InProgress',
      'Current',
      'Current',
      'InProgress',
      'InProgress',
      'Terminating',
      'Error',
    ]);
    expect(results[0]).to.deep.equal({
      kind: 'MachineSet',
      name: 'm',
      namespace: 'ns',
      generation: 2,
      status: 'InProgress',
      message: 'MachineSet generation is 2, but latest observed generation is 1',
    });
    expect(results[6]!.message).to.match(/Kind.*is missing/);
  });

  it('(a) creation: every object reads Current once the MachineSet is synchronized', async () => {
    const c = await start();
    await sampleWhile(c, 'MachineAPI', FINAL_MACHINE_API, () =>
      createMachineSet(c.mapiNamespace, awsMachineSet(NAME, c.mapiNamespace, { replicas: 1 })),
    );
  });

  it('(b) rotation: a providerSpec change (a new template): every object reads Current once it is mirrored', async () => {
    const c = await start();
    await createMachineSet(c.mapiNamespace, awsMachineSet(NAME, c.mapiNamespace, { replicas: 1 }));
    const before = await waitSynchronized(c, 'MachineAPI');
    await sampleWhile(c, 'MachineAPI', FINAL_MACHINE_API, async () => {
      await patchMapi(c, [
        {
          op: 'replace',
          path: '/spec/template/spec/providerSpec/value/instanceType',
          value: 'm6i.2xlarge',
        },
      ]);
    });
    const after = await getCapi(c, NAME);
    expect(after?.spec.template.spec.infrastructureRef.name).not.to.equal(
      before.capi.spec.template.spec.infrastructureRef.name,
    );
  });

  it('(c) migration to ClusterAPI: every object reads what it should once the CAPI side is mirrored back', async () => {
    const c = await start();
    await createMachineSet(c.mapiNamespace, awsMachineSet(NAME, c.mapiNamespace, { replicas: 1 }));
    await waitSynchronized(c, 'MachineAPI');
    await sampleWhile(c, 'ClusterAPI', FINAL_CLUSTER_API, async () => {
      await patchMapi(c, [{ op: 'replace', path: '/spec/authoritativeAPI', value: 'ClusterAPI' }]);
    });
  });

  it('kubectl wait --for=condition=Synchronized returns 0 for a synchronized MachineSet, and 1 for one that is not', async () => {
    const c = await start();
    const kubectl = (...args: string[]) =>
      promisify(execFile)(join(controlPlane().binDir, 'kubectl'), [
        `--kubeconfig=${controlPlane().kubeconfigPath}`,
        `--namespace=${c.mapiNamespace}`,
        ...args,
      ]).then(
        () => 0,
        (err: { code?: number }) => err.code ?? -1,
      );
    await createMachineSet(c.mapiNamespace, awsMachineSet(NAME, c.mapiNamespace, { replicas: 0 }));
    const wait = `--for=condition=Synchronized`;
    expect(
      await kubectl('wait', wait, `machinesets.machine.openshift.io/${NAME}`, '--timeout=60s'),
    ).to.equal(0);

    // The same wait on a MachineSet that cannot be converted fails.
    await createUnconvertible(c, 'wrong-platform');
    expect(
      await kubectl(
        'wait',
        wait,
        'machinesets.machine.openshift.io/wrong-platform',
        '--timeout=2s',
      ),
    ).to.equal(1);

    // After a spec change, waiting for the generation itself: synchronizedGeneration = generation.
    const changed = await patchMapi(c, [
      {
        op: 'replace',
        path: '/spec/template/spec/providerSpec/value/instanceType',
        value: 'm6i.large',
      },
    ]);
    const generation = changed.metadata.generation;
    expect(
      await kubectl(
        'wait',
        `--for=jsonpath={.status.synchronizedGeneration}=${generation}`,
        `machinesets.machine.openshift.io/${NAME}`,
        '--timeout=60s',
      ),
    ).to.equal(0);
  });
});
