// The controller next to Cluster API's real controllers and webhooks: its
// finalizer and Paused condition on every mirror, its webhooks refusing what it
// refuses. Every row of the deletion table, authority changes, and churn.
import { expect } from 'chai';
import type { CapiMachineSet, KubeObject, MapiMachineSet } from '../../src/api/types.js';
import {
  CAPI_MACHINE_SET_FINALIZER,
  FINALIZER,
  PAUSED_ANNOTATION,
} from '../../src/model/markers.js';
import { createCapiCluster } from '../support/capi-cluster.js';
import { eventually } from '../support/eventually.js';
import { getCapi, getMapi } from '../support/machine-sets.js';
import { mapiMachines, names, capiMachines } from '../support/machines.js';
import { QUIET_WINDOW_MS, WriteLog, writesQuiet } from '../support/writes.js';
import {
  AWS_TEMPLATES,
  awsMachineSet,
  CAPI,
  createMachineSet,
  DEFAULT_INFRASTRUCTURE,
  MAPI,
  setAuthority as setStatusAuthority,
  setInfrastructure,
  startTestController,
  type TestController,
} from '../support/controller.js';
import { adminObjects } from '../support/cluster.js';
import { releaseFinalizers } from '../support/release-finalizers.js';
import { namespaceEvents } from '../support/events.js';

const api = adminObjects;

async function startWithClusterApi(): Promise<TestController> {
  // These tests move status.authoritativeAPI by hand, as OpenShift's migration controller would.
  const c = await startTestController({ migration: false });
  // Without it Cluster API does not act on the mirrors.
  await createCapiCluster(c.capiNamespace);
  return c;
}

async function templates(c: TestController): Promise<KubeObject[]> {
  const list = await api().list<KubeObject>({ ...AWS_TEMPLATES, namespace: c.capiNamespace });
  return list.items;
}

async function setAuthority(
  c: TestController,
  name: string,
  authority: 'MachineAPI' | 'ClusterAPI' | 'Migrating',
) {
  await setStatusAuthority(c.mapiNamespace, name, authority);
}

async function createMapi(
  c: TestController,
  body: MapiMachineSet,
  authority: 'MachineAPI' | 'ClusterAPI' = 'MachineAPI',
): Promise<void> {
  await createMachineSet(c.mapiNamespace, body, authority);
}

function synchronized(mapi: MapiMachineSet | undefined) {
  return mapi?.status?.conditions?.find((c) => c.type === 'Synchronized');
}

/** Synchronized=True at the current generation, and Cluster API has marked the mirror. */
async function waitMirrored(c: TestController, name: string): Promise<CapiMachineSet> {
  return eventually(
    async () => {
      const mapi = await getMapi(c, name);
      expect(synchronized(mapi), JSON.stringify(mapi?.status)).to.include({ status: 'True' });
      const mirror = (await getCapi(c, name))!;
      // Synchronized at the generation of the authoritative side.
      const authoritative = mapi?.status?.authoritativeAPI === 'ClusterAPI' ? mirror : mapi;
      expect(mapi?.status?.synchronizedGeneration).to.equal(authoritative?.metadata.generation);
      expect(mirror.metadata.finalizers).to.include(CAPI_MACHINE_SET_FINALIZER);
      if (mirror.metadata.annotations?.[PAUSED_ANNOTATION] !== undefined) {
        const paused = mirror.status?.conditions?.find((x) => x.type === 'Paused');
        expect(paused, JSON.stringify(mirror.status)).to.include({ status: 'True' });
      }
      return mirror;
    },
    { timeoutMs: 60_000 },
  );
}

async function deleteMapi(c: TestController, name: string) {
  await api().delete({ ...MAPI, namespace: c.mapiNamespace, name });
}

async function deleteCapi(c: TestController, name: string) {
  await api().delete({ ...CAPI, namespace: c.capiNamespace, name });
}

const gone = async (read: () => Promise<unknown>, what: string) =>
  eventually(async () => expect(await read(), what).to.equal(undefined), { timeoutMs: 60_000 });

describe('next to Cluster API’s controllers and webhooks', function () {
  this.timeout(240_000);

  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('leaves the Paused condition to Cluster API: no write ping-pong on a paused mirror over 10 s', async () => {
    const c = await startWithClusterApi();
    await createMapi(c, awsMachineSet('steady', c.mapiNamespace));
    const mirror = await waitMirrored(c, 'steady');
    const paused = mirror.status?.conditions?.find((x) => x.type === 'Paused');
    // Cluster API's own wording, not ours
    expect(paused?.message).to.equal('MachineSet has the cluster.x-k8s.io/paused annotation');
    expect(mirror.status?.conditions?.map((x) => x.type)).to.include.members([
      'ScalingUp',
      'ScalingDown',
      'MachinesReady',
      'Paused',
    ]);

    const versions = async () => ({
      mapi: (await getMapi(c, 'steady'))?.metadata.resourceVersion,
      mirror: (await getCapi(c, 'steady'))?.metadata.resourceVersion,
      templates: (await templates(c)).map((t) => t.metadata.resourceVersion),
    });
    // First let the start settle: machine-api-operator moves the new Machines on for a few
    // seconds, and a step the MachineSet's plan reads wakes it once.
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    for (let settled = -1, i = 0; settled !== c.machineSetReconciler.completed && i < 10; i++) {
      settled = c.machineSetReconciler.completed;
      await sleep(3_000);
    }
    const before = await versions();
    const completed = c.machineSetReconciler.completed;
    await sleep(QUIET_WINDOW_MS);
    expect(await versions(), 'resourceVersions after the quiet window').to.deep.equal(before);
    // Nothing woke the controller either: no write of ours or Cluster API's triggered it.
    expect(c.machineSetReconciler.completed).to.equal(completed);
  });

  it('Cluster API authoritative, with machine-api-operator’s webhooks on both MAPI kinds: no write of ours over 10 s once synchronized', async () => {
    const writes = new WriteLog();
    const c = await startTestController({ migration: false, onWrite: writes.record });
    await createCapiCluster(c.capiNamespace);
    // As a person writes it: no credentials secret, which the defaulting webhook fills in as it
    // re-serialises the providerSpec.
    const body = awsMachineSet('capi-steady', c.mapiNamespace, { replicas: 1 });
    delete (body.spec.template!.spec!.providerSpec!.value as { credentialsSecret?: unknown })
      .credentialsSecret;
    await createMapi(c, body, 'ClusterAPI');
    await waitMirrored(c, 'capi-steady');

    // Scaled on the Cluster API side: the MAPI spec is written from it (through the validating
    // webhook), and each new CAPI Machine gets a MAPI mirror (through the Machine webhooks).
    await api().patch(
      { ...CAPI, namespace: c.capiNamespace, name: 'capi-steady' },
      { type: 'json', operations: [{ op: 'replace', path: '/spec/replicas', value: 2 }] },
    );
    await eventually(
      async () => {
        const mapi = await getMapi(c, 'capi-steady');
        expect(mapi?.spec.replicas).to.equal(2);
        expect(synchronized(mapi)).to.include({ status: 'True' });
        const machines = await mapiMachines(c);
        expect(names(machines)).to.have.length(2);
        expect(names(machines)).to.deep.equal(names(await capiMachines(c)));
        for (const machine of machines) {
          const condition = machine.status?.conditions?.find((x) => x.type === 'Synchronized');
          expect(condition, machine.metadata.name).to.include({ status: 'True' });
        }
      },
      { timeoutMs: 90_000 },
    );
    const providerSpec = (await getMapi(c, 'capi-steady'))!.spec.template!.spec!.providerSpec!
      .value as { credentialsSecret?: unknown };
    expect(providerSpec.credentialsSecret, 'the default kept').to.deep.equal({
      name: 'aws-cloud-credentials',
    });

    await writesQuiet(writes, 5_000);
    writes.take();
    await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
    const after = writes.take();
    expect(after.counts, JSON.stringify(after.busiest)).to.deep.equal({});
  });

  describe('the deletion table, with Cluster API’s finalizer on every CAPI MachineSet', () => {
    it('MachineAPI, MAPI deleted: the paused mirror and templates go, nothing stays Terminating', async () => {
      const c = await startWithClusterApi();
      await createMapi(c, awsMachineSet('row1', c.mapiNamespace));
      await waitMirrored(c, 'row1');
      await deleteMapi(c, 'row1');
      await gone(() => getMapi(c, 'row1'), 'MAPI MachineSet');
      await gone(() => getCapi(c, 'row1'), 'mirror');
      await eventually(async () => expect(await templates(c)).to.deep.equal([]));
    });

    it('MachineAPI, mirror deleted: released (with Cluster API’s finalizer) and created again; MAPI kept', async () => {
      const c = await startWithClusterApi();
      await createMapi(c, awsMachineSet('row2', c.mapiNamespace));
      const before = await waitMirrored(c, 'row2');
      await deleteCapi(c, 'row2');
      const after = await eventually(
        async () => {
          const mirror = await waitMirrored(c, 'row2');
          expect(mirror.metadata.uid).to.not.equal(before.metadata.uid);
          return mirror;
        },
        { timeoutMs: 90_000 },
      );
      expect(after.metadata.finalizers).to.include(FINALIZER);
      expect((await getMapi(c, 'row2'))?.metadata.deletionTimestamp).to.equal(undefined);
      // the garbage collector drops the deleted mirror's reference from the reused template
      await eventually(async () => {
        const [template] = await templates(c);
        expect(template?.metadata.ownerReferences?.map((r) => r.uid)).to.deep.equal([
          after.metadata.uid,
        ]);
      });
    });

    it('ClusterAPI, CAPI MachineSet deleted: Cluster API finishes, the MAPI mirror follows, nothing is recreated', async () => {
      const c = await startWithClusterApi();
      await createMapi(c, awsMachineSet('row3', c.mapiNamespace, { replicas: 0 }), 'ClusterAPI');
      const capi = await waitMirrored(c, 'row3');
      expect(capi.metadata.annotations ?? {}).to.not.have.property(PAUSED_ANNOTATION);
      await deleteCapi(c, 'row3');
      await gone(() => getCapi(c, 'row3'), 'CAPI MachineSet');
      await gone(() => getMapi(c, 'row3'), 'MAPI mirror');
      // With the MAPI side gone too there is nothing to create it from again; the planner's
      // record of the CAPI uid covers the case where only the CAPI side disappears (unit tests).
    });

    it('ClusterAPI, MAPI deleted: released; the CAPI MachineSet stays as it was', async () => {
      const c = await startWithClusterApi();
      await createMapi(c, awsMachineSet('row4', c.mapiNamespace, { replicas: 0 }), 'ClusterAPI');
      const before = await waitMirrored(c, 'row4');
      await deleteMapi(c, 'row4');
      await gone(() => getMapi(c, 'row4'), 'MAPI MachineSet');
      const after = await eventually(async () => {
        const capi = (await getCapi(c, 'row4'))!;
        expect(capi.metadata.finalizers).to.not.include(FINALIZER);
        return capi;
      });
      expect(after.metadata.deletionTimestamp).to.equal(undefined);
      expect(after.spec).to.deep.equal(before.spec);
      expect(after.metadata.finalizers).to.include(CAPI_MACHINE_SET_FINALIZER);
    });

    it('Migrating, MAPI deleted: released; the paused CAPI side is never deleted', async () => {
      const c = await startWithClusterApi();
      await createMapi(c, awsMachineSet('row5', c.mapiNamespace));
      await waitMirrored(c, 'row5');
      await setAuthority(c, 'row5', 'Migrating');
      await deleteMapi(c, 'row5');
      await gone(() => getMapi(c, 'row5'), 'MAPI MachineSet');
      const capi = await eventually(async () => {
        const current = (await getCapi(c, 'row5'))!;
        expect(current.metadata.finalizers).to.not.include(FINALIZER);
        return current;
      });
      expect(capi.metadata.deletionTimestamp).to.equal(undefined);
    });

    it('Migrating, CAPI side deleted: released, MAPI never deleted', async () => {
      const c = await startWithClusterApi();
      await createMapi(c, awsMachineSet('row6', c.mapiNamespace));
      await waitMirrored(c, 'row6');
      await setAuthority(c, 'row6', 'Migrating');
      await deleteCapi(c, 'row6');
      await gone(() => getCapi(c, 'row6'), 'CAPI MachineSet');
      const mapi = await getMapi(c, 'row6');
      expect(mapi?.metadata.deletionTimestamp).to.equal(undefined);
    });

    it('MAPI gone without us (after an uninstall): our paused mirror is deleted', async () => {
      const c = await startWithClusterApi();
      await createMapi(c, awsMachineSet('row7', c.mapiNamespace));
      await waitMirrored(c, 'row7');
      await c.stop();
      await releaseFinalizers(c.mapiNamespace, c.capiNamespace);
      await deleteMapi(c, 'row7');
      await gone(() => getMapi(c, 'row7'), 'MAPI MachineSet');
      const again = await startTestControllerIn(c);
      await gone(() => getCapi(again, 'row7'), 'mirror');
      await eventually(async () => expect(await templates(again)).to.deep.equal([]));
    });
  });

  it('goes MachineAPI → Migrating → ClusterAPI → Migrating → MachineAPI with a deletion at each point, losing nothing authoritative', async () => {
    const c = await startWithClusterApi();
    await createMapi(c, awsMachineSet('flip', c.mapiNamespace, { replicas: 0 }));
    await waitMirrored(c, 'flip');

    // Migrating: the CAPI side deleted is let go, not recreated, MAPI untouched
    await setAuthority(c, 'flip', 'Migrating');
    await deleteCapi(c, 'flip');
    await gone(() => getCapi(c, 'flip'), 'CAPI side deleted while Migrating');
    expect((await getMapi(c, 'flip'))?.metadata.deletionTimestamp).to.equal(undefined);

    // ClusterAPI with no CAPI side ever recorded: the initial sync creates it, unpaused
    await setAuthority(c, 'flip', 'ClusterAPI');
    const capi = await waitMirrored(c, 'flip');
    expect(capi.metadata.annotations ?? {}).to.not.have.property(PAUSED_ANNOTATION);

    // Migrating back: the handshake pauses CAPI; a MAPI spec edit is written nowhere
    await api().patch(
      { ...CAPI, namespace: c.capiNamespace, name: 'flip' },
      {
        type: 'json',
        operations: [
          { op: 'add', path: '/metadata/annotations/cluster.x-k8s.io~1paused', value: '' },
        ],
      },
    );
    await setAuthority(c, 'flip', 'Migrating');
    await api().patch(
      { ...MAPI, namespace: c.mapiNamespace, name: 'flip' },
      { type: 'json', operations: [{ op: 'replace', path: '/spec/replicas', value: 0 }] },
    );
    const during = (await getCapi(c, 'flip'))!;

    // MachineAPI again: the paused CAPI side becomes our mirror again; deleting it recreates it
    await setAuthority(c, 'flip', 'MachineAPI');
    const mirror = await waitMirrored(c, 'flip');
    expect(mirror.metadata.uid).to.equal(during.metadata.uid);
    await deleteCapi(c, 'flip');
    await eventually(
      async () => {
        const recreated = await waitMirrored(c, 'flip');
        expect(recreated.metadata.uid).to.not.equal(mirror.metadata.uid);
      },
      { timeoutMs: 90_000 },
    );
    expect((await getMapi(c, 'flip'))?.metadata.deletionTimestamp).to.equal(undefined);
  });

  it('reports a mirror refused by Cluster API’s webhook on the MAPI MachineSet, once, and leaves nothing ownerless', async () => {
    const c = await startWithClusterApi();
    const body = awsMachineSet('refused', c.mapiNamespace);
    // A taint Cluster API's MachineSet webhook refuses on workers (deprecated since 1.24).
    body.spec.template!.spec!.taints = [
      { key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' },
    ];
    await createMapi(c, body);
    const refused = await eventually(
      async () => {
        const mapi = await getMapi(c, 'refused');
        expect(synchronized(mapi), JSON.stringify(mapi?.status)).to.include({
          status: 'False',
          reason: 'FailedToCreateCAPIMachineSet',
        });
        return mapi!;
      },
      { timeoutMs: 60_000 },
    );
    expect(synchronized(refused)?.message).to.contain('spec.template.spec.taints[0].key');
    expect(await getCapi(c, 'refused')).to.equal(undefined);
    expect(await templates(c), 'no ownerless template').to.deep.equal([]);

    // retried only when the MachineSet changes: a resync reports nothing new
    const completed = c.machineSetReconciler.completed;
    c.resyncAll();
    await eventually(() => {
      expect(c.machineSetReconciler.completed).to.be.above(completed);
    });
    expect(synchronized(await getMapi(c, 'refused'))).to.deep.equal(synchronized(refused));
    const warnings = await namespaceEvents(c.mapiNamespace, {
      fieldSelector: 'reason=FailedToCreateCAPIMachineSet',
    });
    expect(warnings.items.map((e) => [e.involvedObject.name, e.count])).to.deep.equal([
      ['refused', 1],
    ]);

    await api().patch(
      { ...MAPI, namespace: c.mapiNamespace, name: 'refused' },
      { type: 'json', operations: [{ op: 'remove', path: '/spec/template/spec/taints' }] },
    );
    await waitMirrored(c, 'refused');
  });
});

/** A second controller on the namespaces of a stopped one (a restart). */
async function startTestControllerIn(stopped: TestController): Promise<TestController> {
  return startTestController({
    namespaces: { mapi: stopped.mapiNamespace, capi: stopped.capiNamespace },
    migration: false,
  });
}
