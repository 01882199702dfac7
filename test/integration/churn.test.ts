// Many MachineSets created, rotated and deleted next to Cluster API's
// controllers: nothing left Terminating, no orphan template, and no object
// written more than once per change (every accepted write is counted).
import { expect } from 'chai';
import type {
  CapiMachine,
  CapiMachineSet,
  KubeObject,
  MapiMachine,
  MapiMachineSet,
} from '../../src/api/types.js';
import { CAPI_MACHINE_SET_FINALIZER } from '../../src/model/markers.js';
import { synchronizedAtGeneration } from '../../src/sync/report.js';
import { createCapiCluster } from '../support/capi-cluster.js';
import { eventually } from '../support/eventually.js';
import { recordingLogger } from '../support/logger.js';
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
} from '../support/controller.js';
import { CAPI_MACHINES, MAPI_MACHINES } from '../support/machines.js';
import { WriteLog, writesQuiet } from '../support/writes.js';
import { adminObjects } from '../support/cluster.js';

const COUNT = Number(process.env.CHURN_MACHINESETS ?? 60);
const api = adminObjects;

async function list<T extends KubeObject>(resource: typeof MAPI, namespace: string): Promise<T[]> {
  return (await api().list<T>({ ...resource, namespace })).items;
}

/**
 * Writes per Machine while it is created and mirrored (see the creation phase). The CAPI mirror's
 * status follows each machine-api-operator status write we see on its own; how many of them we
 * see apart, rather than folded into one, depends on how fast our writes are answered.
 */
const MACHINE_LIMITS = { mapiPatch: 5, capiPatch: 5 };

describe(`churn: ${COUNT} MachineSets next to Cluster API`, function () {
  this.timeout(900_000);

  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('creates, rotates and deletes them all with one write per change and nothing left behind', async () => {
    const writes = new WriteLog();
    const logger = recordingLogger();
    const c: TestController = await startTestController({
      workers: 4,
      onWrite: writes.record,
      logger,
    });
    await createCapiCluster(c.capiNamespace);
    const names = Array.from({ length: COUNT }, (_, i) => `churn-${String(i).padStart(4, '0')}`);
    const forAll = async (action: (name: string) => Promise<unknown>) => {
      for (let i = 0; i < names.length; i += 20) {
        await Promise.all(names.slice(i, i + 20).map(action));
      }
    };
    const waitAll = (check: () => Promise<void>) =>
      eventually(check, { timeoutMs: 600_000, intervalMs: 1000 });

    // 1. created
    await forAll((name) =>
      createMachineSet(c.mapiNamespace, awsMachineSet(name, c.mapiNamespace, { replicas: 1 })),
    );
    await waitAll(async () => {
      const mapis = await list<MapiMachineSet>(MAPI, c.mapiNamespace);
      expect(mapis.filter(synchronizedAtGeneration)).to.have.length(COUNT);
      const mirrors = await list<CapiMachineSet>(CAPI, c.capiNamespace);
      const marked = mirrors.filter(
        (m) =>
          m.metadata.finalizers?.includes(CAPI_MACHINE_SET_FINALIZER) &&
          m.status?.conditions?.some((x) => x.type === 'Paused' && x.status === 'True'),
      );
      expect(marked, 'mirrors marked by Cluster API').to.have.length(COUNT);
      // Each MachineSet's Machine: provisioned (a providerID) and mirrored at its generation.
      const machines = await list<MapiMachine>(MAPI_MACHINES, c.mapiNamespace);
      const settled = machines.filter((m) => m.spec.providerID && synchronizedAtGeneration(m));
      expect(settled, 'Machines mirrored with their providerID').to.have.length(COUNT);
      const machineMirrors = await list<CapiMachine>(CAPI_MACHINES, c.capiNamespace);
      expect(machineMirrors.filter((m) => m.spec.providerID)).to.have.length(COUNT);
    });
    // machine-api-operator moves the Machines on for a while after that, each step mirrored:
    // creation ends once the writes have stopped, so the resync below is measured on its own.
    await writesQuiet(writes, 5_000);
    const created = writes.take();
    // Per MachineSet: finalizer, True (MAPI patches); the mirror; its
    // template; the mirror's status. machine-api-operator copies spec.authoritativeAPI into
    // status as we do, and whichever comes first writes it. It writes MAPI status as a merge
    // patch of its whole conditions list (client.MergeFrom, no resourceVersion): when its view
    // predates our condition, it drops it and we write it once more. It also changes the replica
    // counts twice (observedGeneration, then the Machine it created), each copied to the mirror
    // once.
    const createdReport = JSON.stringify(created.busiest);
    const creationLimits: Record<string, number> = {
      'machine.openshift.io/v1beta1/MachineSet patch': 4,
      'cluster.x-k8s.io/v1beta2/MachineSet create': 1,
      'infrastructure.cluster.x-k8s.io/v1beta2/AWSMachineTemplate create': 1,
      'cluster.x-k8s.io/v1beta2/MachineSet patch': 2,
      // Each MachineSet's Machine: finalizer, True, and True again at a
      // new generation once the instance has its providerID; the mirror and its AWSMachine,
      // updated if the providerID came after them; the mirror's status as the machine moves on.
      'machine.openshift.io/v1beta1/Machine patch': MACHINE_LIMITS.mapiPatch,
      'cluster.x-k8s.io/v1beta2/Machine create': 1,
      'cluster.x-k8s.io/v1beta2/Machine patch': MACHINE_LIMITS.capiPatch,
      'infrastructure.cluster.x-k8s.io/v1beta2/AWSMachine create': 1,
    };
    const mayAlso: Record<string, number> = {
      'cluster.x-k8s.io/v1beta2/Machine update': 1,
      'infrastructure.cluster.x-k8s.io/v1beta2/AWSMachine update': 1,
    };
    expect(Object.keys(created.mostPerObject).sort(), createdReport).to.include.members(
      Object.keys(creationLimits),
    );
    const allowed = { ...creationLimits, ...mayAlso };
    expect(Object.keys(allowed), createdReport).to.include.members(
      Object.keys(created.mostPerObject),
    );
    for (const [what, n] of Object.entries(created.mostPerObject)) {
      expect(n, `${what}: ${createdReport}`).to.be.at.most(allowed[what]!);
    }
    expect(created.counts).to.not.have.any.keys(
      'cluster update',
      'AWSMachineTemplate update',
      'cluster delete',
    );

    // 2. a no-op resync writes nothing
    const before = c.machineSetReconciler.completed;
    c.resyncAll();
    await waitAll(async () => {
      await Promise.resolve();
      expect(c.machineSetReconciler.completed).to.be.at.least(before + COUNT);
    });
    expect(writes.take().counts, 'writes of a no-op resync').to.deep.equal({});

    // 3. rotated: a providerSpec change on every MachineSet
    await forAll((name) =>
      api().patch(
        { ...MAPI, namespace: c.mapiNamespace, name },
        {
          type: 'json',
          operations: [
            {
              op: 'replace',
              path: '/spec/template/spec/providerSpec/value/instanceType',
              value: 'm6i.2xlarge',
            },
          ],
        },
      ),
    );
    await waitAll(async () => {
      const mapis = await list<MapiMachineSet>(MAPI, c.mapiNamespace);
      expect(mapis.filter(synchronizedAtGeneration)).to.have.length(COUNT);
      const templates = await list<KubeObject & { spec: { template: { spec: object } } }>(
        AWS_TEMPLATES,
        c.capiNamespace,
      );
      expect(templates, 'one template per MachineSet, the new one').to.have.length(COUNT);
      expect(
        templates.every(
          (t) =>
            (t.spec.template.spec as { instanceType?: string }).instanceType === 'm6i.2xlarge' &&
            t.metadata.ownerReferences?.length === 1,
        ),
      ).to.equal(true);
    });
    const rotated = writes.take();
    for (const [what, n] of Object.entries(rotated.mostPerObject)) {
      expect(n, `${what} on a rotation: ${JSON.stringify(rotated.busiest)}`).to.equal(1);
    }

    // 4. deleted: every MAPI MachineSet
    await forAll((name) => api().delete({ ...MAPI, namespace: c.mapiNamespace, name }));
    await waitAll(async () => {
      expect(await list(MAPI, c.mapiNamespace), 'MAPI MachineSets left').to.have.length(0);
      expect(await list(CAPI, c.capiNamespace), 'mirrors left').to.have.length(0);
      expect(await list(AWS_TEMPLATES, c.capiNamespace), 'templates left').to.have.length(0);
      expect(await list(MAPI_MACHINES, c.mapiNamespace), 'MAPI Machines left').to.have.length(0);
      expect(await list(CAPI_MACHINES, c.capiNamespace), 'CAPI Machines left').to.have.length(0);
    });
    const deleted = writes.take();
    for (const [what, n] of Object.entries(deleted.mostPerObject)) {
      expect(n, `${what} on deletion: ${JSON.stringify(deleted.busiest)}`).to.equal(1);
    }

    // Nothing was wrong, so nothing said so: races were retried quietly, no reconcile failed.
    const loud = logger.records.filter((r) => r.level === 'warn' || r.level === 'error');
    expect(loud, 'warnings and errors of a healthy run').to.deep.equal([]);
  });
});
