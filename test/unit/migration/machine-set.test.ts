// The migration handshake driven through the in-memory world, with
// machine-api-operator's and Cluster API's pause behaviour acting after every write.
import { expect } from 'chai';
import type { KubeObject, MapiMachineSet } from '../../../src/api/types.js';
import { MIGRATION_CONDITION, MigrationReason } from '../../../src/migration/status.js';
import { AUTHORITY_ANNOTATION, PAUSED_ANNOTATION } from '../../../src/model/markers.js';
import type { Step } from '../../../src/sync/machine-set/plan.js';
import { ADMITTED_SHAPES, mapiMachineSet, World } from '../sync/machine-set/world.js';

const cluster: KubeObject = {
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Cluster',
  metadata: { name: 'demo-abc12', namespace: 'openshift-cluster-api', uid: 'cluster-uid' },
};

function condition(mapi: MapiMachineSet | undefined, type: string) {
  return mapi?.status?.conditions?.find((c) => c.type === type);
}

function capiPaused(world: World) {
  return world.mirror?.status?.conditions?.find((c) => c.type === 'Paused')?.status;
}

/** A synchronized MachineAPI MachineSet with its paused mirror, the handshake on. */
function synchronizedWorld(replicas = 0): World {
  const world = new World(mapiMachineSet());
  world.mapi!.spec.authoritativeAPI = 'MachineAPI';
  world.mapi!.spec.replicas = replicas;
  world.mapi!.status = { ...world.mapi!.status, replicas, readyReplicas: 0, availableReplicas: 0 };
  world.cluster = cluster;
  world.migration = true;
  world.converge();
  expect(condition(world.mapi, 'Synchronized')?.status).to.equal('True');
  return world;
}

/** What an administrator does: edit spec (which bumps the generation). */
function wish(world: World, authority: 'MachineAPI' | 'ClusterAPI'): void {
  const mapi = world.mapi!;
  mapi.spec.authoritativeAPI = authority;
  mapi.metadata.generation! += 1;
  mapi.metadata.resourceVersion = `${mapi.metadata.resourceVersion}-edited`;
  world.othersAct();
}

function changeSize(world: World, size: string): void {
  const mapi = world.mapi!;
  (mapi.spec.template!.spec!.providerSpec!.value as { size: string }).size = size;
  mapi.metadata.generation! += 1;
  mapi.status!.observedGeneration = mapi.metadata.generation;
  mapi.metadata.resourceVersion = `${mapi.metadata.resourceVersion}-resized`;
}

/** Applies planned steps until `stop` holds after one (or `limit` steps); throws if the plan settles first. */
function stepUntil(world: World, stop: (step: Step) => boolean, limit = Infinity): void {
  for (let i = 0; i < limit; i++) {
    const step = world.plan();
    if (step.kind === 'done') {
      if (limit === Infinity) throw new Error('the plan settled before the point sought');
      return;
    }
    world.apply(step);
    if (stop(step)) return;
  }
}

/** The notes of the steps a migration takes, to stop it after any of them. */
function migrationSteps(to: 'MachineAPI' | 'ClusterAPI', prepare: (w: World) => void): number {
  const world = synchronizedWorld();
  prepare(world);
  wish(world, to);
  return world.converge().length;
}

function expectMachineApiAuthoritative(world: World) {
  expect(world.mapi?.status?.authoritativeAPI).to.equal('MachineAPI');
  expect(world.mirror?.metadata.annotations).to.have.property(PAUSED_ANNOTATION);
  expect(world.mirror?.metadata.annotations?.[AUTHORITY_ANNOTATION]).to.equal('MachineAPI');
  expect(condition(world.mapi, 'Paused')?.status).to.equal('False');
  expect(condition(world.mapi, 'Synchronized')?.status).to.equal('True');
}

function expectClusterApiAuthoritative(world: World) {
  expect(world.mapi?.status?.authoritativeAPI).to.equal('ClusterAPI');
  expect(world.mapi?.status?.synchronizedAPI).to.equal('ClusterAPI');
  expect(world.mirror?.metadata.annotations).not.to.have.property(PAUSED_ANNOTATION);
  expect(world.mirror?.metadata.annotations?.[AUTHORITY_ANNOTATION]).to.equal('ClusterAPI');
  expect(condition(world.mapi, 'Paused')?.status).to.equal('True');
  expect(capiPaused(world)).to.equal('False');
}

describe('migration handshake', () => {
  it('MachineAPI → ClusterAPI: Migrating, MAPI paused, CAPI unpaused, one final status write', () => {
    const world = synchronizedWorld();
    const mirrorUid = world.mirror?.metadata.uid;
    wish(world, 'ClusterAPI');
    const steps = world.converge();
    expectClusterApiAuthoritative(world);
    expect(world.mirror?.metadata.uid, 'the same CAPI MachineSet, never recreated').to.equal(
      mirrorUid,
    );
    expect(condition(world.mapi, MIGRATION_CONDITION)).to.include({
      status: 'False',
      reason: MigrationReason.Completed,
    });
    const notes = steps.map((s) => ('note' in s ? s.note : ''));
    const entered = notes.indexOf('entering Migrating (MachineAPI → ClusterAPI)');
    const unpaused = notes.indexOf('unpausing the CAPI machine set');
    const left = notes.indexOf('leaving Migrating: ClusterAPI is authoritative');
    expect(entered, notes.join(' | ')).to.be.greaterThan(-1);
    expect(unpaused).to.be.greaterThan(entered);
    expect(left).to.be.greaterThan(unpaused);
    expect(world.events.map((e) => e.reason)).to.include.members([
      'MigrationStarted',
      'MigrationCompleted',
    ]);
  });

  it('the final write sets Synchronized=Unknown and synchronizedGeneration 0, then the sync reports', () => {
    const world = synchronizedWorld();
    wish(world, 'ClusterAPI');
    stepUntil(world, () => world.mapi?.status?.authoritativeAPI === 'ClusterAPI');
    expect(world.mapi?.status?.synchronizedGeneration).to.equal(0);
    expect(condition(world.mapi, 'Synchronized')).to.include({
      status: 'Unknown',
      reason: 'AuthoritativeAPIChanged',
    });
    world.converge();
    expect(condition(world.mapi, 'Synchronized')?.status).to.equal('True');
    expect(world.mapi?.status?.synchronizedGeneration).to.equal(world.mirror?.metadata.generation);
  });

  it('ClusterAPI → MachineAPI: the CAPI MachineSet is paused and Paused=True before MAPI takes over', () => {
    const world = synchronizedWorld();
    wish(world, 'ClusterAPI');
    world.converge();
    wish(world, 'MachineAPI');
    const steps = world.converge();
    expectMachineApiAuthoritative(world);
    expect(capiPaused(world)).to.equal('True');
    const notes = steps.map((s) => ('note' in s ? s.note : ''));
    expect(notes.indexOf('pausing the CAPI machine set')).to.be.lessThan(
      notes.indexOf('leaving Migrating: MachineAPI is authoritative'),
    );
  });

  it('the gate holds while the current authority is not synchronized, says why, then proceeds by itself', () => {
    const world = synchronizedWorld();
    changeSize(world, 42 as unknown as string); // the fake converter refuses a non-string size
    wish(world, 'ClusterAPI');
    world.converge();
    expect(world.mapi?.status?.authoritativeAPI).to.equal('MachineAPI');
    const waiting = condition(world.mapi, MIGRATION_CONDITION);
    expect(waiting).to.include({
      status: 'True',
      reason: MigrationReason.WaitingForSynchronization,
    });
    expect(waiting?.message).to.match(
      /Synchronized is False \(FailedToConvertMAPIMachineSetToCAPI\)/,
    );
    expect(waiting?.message).to.match(/set spec\.authoritativeAPI back to MachineAPI/);
    changeSize(world, 'xlarge');
    world.converge();
    expectClusterApiAuthoritative(world);
  });

  it('replicas alone no longer hold a migration: Machines follow their MachineSet', () => {
    const world = synchronizedWorld(2);
    wish(world, 'ClusterAPI');
    world.converge();
    expectClusterApiAuthoritative(world);
    const mirror = world.mirror!;
    mirror.status = { ...mirror.status, replicas: 1 };
    mirror.metadata.resourceVersion = `${mirror.metadata.resourceVersion}-machine`;
    wish(world, 'MachineAPI');
    world.converge();
    expectMachineApiAuthoritative(world);
  });

  it('a request withdrawn before the gate opened leaves MachineAPI in place and says so', () => {
    const world = synchronizedWorld();
    changeSize(world, 42 as unknown as string);
    wish(world, 'ClusterAPI');
    world.converge();
    wish(world, 'MachineAPI');
    changeSize(world, 'xlarge');
    world.converge();
    expectMachineApiAuthoritative(world);
    expect(condition(world.mapi, MIGRATION_CONDITION)?.reason).to.equal(
      MigrationReason.NotRequested,
    );
  });

  for (const [from, to] of [
    ['MachineAPI', 'ClusterAPI'],
    ['ClusterAPI', 'MachineAPI'],
  ] as const) {
    it(`${from} → ${to}: Reconciling=True (what kstatus reads as InProgress) from the first migration write until the new authority is synchronized`, () => {
      const world = synchronizedWorld();
      if (from === 'ClusterAPI') {
        wish(world, 'ClusterAPI');
        world.converge();
      }
      expect(condition(world.mapi, 'Reconciling')?.status ?? 'False').to.equal('False');
      wish(world, to);
      const seen: string[] = [];
      let handshakeWrote = false;
      for (;;) {
        const step = world.plan();
        if (step.kind === 'done') break;
        world.apply(step);
        const mapi = world.mapi!;
        handshakeWrote ||= condition(mapi, MIGRATION_CONDITION)?.status === 'True';
        const reconciling = condition(mapi, 'Reconciling')?.status ?? '-';
        const synchronized =
          mapi.status?.authoritativeAPI === to &&
          condition(mapi, 'Synchronized')?.status === 'True' &&
          mapi.status.synchronizedGeneration ===
            (to === 'MachineAPI' ? mapi.metadata.generation : world.mirror?.metadata.generation);
        seen.push(`${step.note}: Reconciling=${reconciling} synchronized=${synchronized}`);
        if (handshakeWrote) {
          expect(reconciling, seen.join('\n')).to.equal(synchronized ? 'False' : 'True');
        }
      }
      expect(handshakeWrote, seen.join('\n')).to.equal(true);
      expect(condition(world.mapi, 'Reconciling')).to.include({
        status: 'False',
        reason: 'ResourceSynchronized',
      });
      expect(seen.at(-1)).to.match(/synchronized=true/);
    });
  }

  it('Reconciling is True while a held request waits, and False once it is withdrawn', () => {
    const world = synchronizedWorld();
    changeSize(world, 42 as unknown as string);
    wish(world, 'ClusterAPI');
    world.converge();
    expect(condition(world.mapi, 'Reconciling')).to.include({
      status: 'True',
      reason: MigrationReason.WaitingForSynchronization,
    });
    wish(world, 'MachineAPI');
    changeSize(world, 'xlarge');
    world.converge();
    expect(condition(world.mapi, 'Reconciling')).to.include({
      status: 'False',
      reason: MigrationReason.NotRequested,
    });
  });

  it('copies spec into an empty status when machine-api-operator has not', () => {
    const world = new World(mapiMachineSet('worker-a', null));
    world.mapi!.spec.authoritativeAPI = 'ClusterAPI';
    world.machineApiOperator = false;
    world.migration = true;
    const step = world.plan();
    expect(step.kind).to.equal('patch');
    world.apply(step);
    expect(world.mapi?.status?.authoritativeAPI).to.equal('ClusterAPI');
  });

  describe('every shape the CRD admits', () => {
    const authorities = [null, 'MachineAPI', 'ClusterAPI', 'Migrating'] as const;
    for (const [shape, change] of ADMITTED_SHAPES) {
      for (const authority of authorities) {
        it(`settles for a MachineSet ${shape} (status.authoritativeAPI ${authority ?? 'empty'})`, () => {
          const world = synchronizedWorld();
          const status = world.mapi!.status!;
          if (authority === null) delete status.authoritativeAPI;
          else status.authoritativeAPI = authority;
          if (authority === 'Migrating') status.synchronizedAPI = 'MachineAPI';
          change(world.mapi!);
          world.converge();
          expect(world.mapi?.status?.authoritativeAPI).to.be.oneOf(['MachineAPI', 'ClusterAPI']);
        });
      }
    }

    it('a MachineSet without spec asks for no migration: its authority stays', () => {
      const world = synchronizedWorld();
      wish(world, 'ClusterAPI');
      world.converge();
      expect(world.mapi?.status?.authoritativeAPI).to.equal('ClusterAPI');
      const migration = condition(world.mapi, MIGRATION_CONDITION);
      delete (world.mapi as { spec?: unknown }).spec;
      world.converge();
      expect(world.mapi?.status?.authoritativeAPI).to.equal('ClusterAPI');
      expect(condition(world.mapi, MIGRATION_CONDITION)).to.deep.equal(migration);
    });
  });

  it('marks the writes that move authority, and only those, for the log at info', () => {
    const world = synchronizedWorld();
    wish(world, 'ClusterAPI');
    const steps = world.converge(60);
    const notable = steps.filter((s) => 'notable' in s && s.notable).map((s) => s.note);
    expect(notable).to.deep.equal([
      'entering Migrating (MachineAPI → ClusterAPI)',
      'leaving Migrating: ClusterAPI is authoritative',
    ]);
  });

  it('switched off, it writes nothing for a changed spec.authoritativeAPI', () => {
    const world = synchronizedWorld();
    world.migration = false;
    wish(world, 'ClusterAPI');
    world.converge();
    expect(world.mapi?.status?.authoritativeAPI).to.equal('MachineAPI');
    expect(condition(world.mapi, MIGRATION_CONDITION)).to.equal(undefined);
  });

  it('a MachineSet changed during the handshake goes back, synchronizes the change, and migrates again', () => {
    const world = synchronizedWorld();
    wish(world, 'ClusterAPI');
    while (world.mapi?.status?.authoritativeAPI !== 'Migrating') world.apply(world.plan());
    changeSize(world, 'huge');
    const steps = world.converge(60);
    expectClusterApiAuthoritative(world);
    const template = world.templates.find(
      (t) => t.metadata.name === world.mirror?.spec.template.spec.infrastructureRef.name,
    );
    expect(template?.spec.template.spec).to.deep.equal({ size: 'huge' });
    expect(steps.map((s) => ('note' in s ? s.note : ''))).to.include(
      'leaving Migrating: MachineAPI is authoritative',
    );
  });

  it('a MachineSet changed after the CAPI side was unpaused: paused again (and reported so) before MAPI is authoritative again', () => {
    const world = synchronizedWorld();
    wish(world, 'ClusterAPI');
    stepUntil(world, (step) => 'note' in step && step.note === 'unpausing the CAPI machine set');
    changeSize(world, 'huge');
    world.clusterApi = false; // Cluster API has not seen the pause yet
    world.converge();
    expect(world.mapi?.status?.authoritativeAPI).to.equal('Migrating');
    expect(world.mirror?.metadata.annotations).to.have.property(PAUSED_ANNOTATION);
    expect(condition(world.mapi, MIGRATION_CONDITION)?.reason).to.equal(MigrationReason.Restarting);
    world.clusterApi = true;
    world.othersAct();
    world.converge(60);
    expectClusterApiAuthoritative(world);
  });

  for (const to of ['ClusterAPI', 'MachineAPI'] as const) {
    const from = to === 'ClusterAPI' ? 'MachineAPI' : 'ClusterAPI';
    const prepare = (world: World) => {
      if (to === 'MachineAPI') {
        wish(world, 'ClusterAPI');
        world.converge();
      }
    };
    const total = migrationSteps(to, prepare);

    it(`${from} → ${to}: cancelled after any step, it returns to ${from} with nothing lost`, () => {
      for (let k = 0; k <= total; k++) {
        const world = synchronizedWorld();
        prepare(world);
        const mirrorUid = world.mirror?.metadata.uid;
        wish(world, to);
        stepUntil(world, () => false, k);
        wish(world, from);
        world.converge(60);
        const at = `cancelled after ${k} of ${total} steps`;
        expect(world.mirror?.metadata.uid, at).to.equal(mirrorUid);
        if (world.mapi?.status?.authoritativeAPI === to) {
          // Completed before the cancellation arrived: a cancellation is then a migration back.
          expect(k, at).to.equal(total);
          continue;
        }
        if (from === 'MachineAPI') expectMachineApiAuthoritative(world);
        else expectClusterApiAuthoritative(world);
      }
    });

    it(`${from} → ${to}: the MAPI MachineSet deleted after any step finishes; the mirror goes only with an authoritative MAPI side`, () => {
      for (let k = 0; k <= total; k++) {
        const world = synchronizedWorld();
        prepare(world);
        wish(world, to);
        stepUntil(world, () => false, k);
        const authority = world.mapi?.status?.authoritativeAPI;
        world.apply({ kind: 'delete', object: world.mapi!, note: 'administrator deletes' });
        world.converge(60);
        const at = `deleted after ${k} of ${total} steps, authority ${authority}`;
        expect(world.mapi, at).to.equal(undefined);
        // Only the mirror of an authoritative MAPI MachineSet goes with it (deletion table).
        if (authority === 'MachineAPI') expect(world.mirror, at).to.equal(undefined);
        else expect(world.mirror?.metadata.deletionTimestamp, at).to.equal(undefined);
      }
    });

    it(`${from} → ${to}: the CAPI MachineSet deleted after any step: the migration ends`, () => {
      for (let k = 0; k <= total; k++) {
        const world = synchronizedWorld();
        prepare(world);
        wish(world, to);
        stepUntil(world, () => false, k);
        world.apply({ kind: 'delete', object: world.mirror!, note: 'administrator deletes' });
        world.converge(60);
        const at = `deleted after ${k} of ${total} steps`;
        // Gone with its CAPI side (ClusterAPI authoritative), or on an authority, never waiting.
        if (world.mapi) {
          expect(world.mapi.status?.authoritativeAPI, at).to.be.oneOf(['MachineAPI', 'ClusterAPI']);
        }
      }
    });
  }

  it('ClusterAPI → MachineAPI, the CAPI MachineSet deleted mid-hand-over: the deletion wins and both sides go', () => {
    const prepare = (world: World) => {
      wish(world, 'ClusterAPI');
      world.converge();
    };
    const total = migrationSteps('MachineAPI', prepare);
    let handedOver = 0;
    for (let k = 1; k < total; k++) {
      const world = synchronizedWorld();
      prepare(world);
      wish(world, 'MachineAPI');
      stepUntil(world, () => false, k);
      const at = `deleted after ${k} of ${total} steps`;
      if (world.mapi?.status?.authoritativeAPI !== 'Migrating') continue;
      handedOver++;
      world.apply({ kind: 'delete', object: world.mirror!, note: 'administrator deletes' });
      world.converge(60);
      expect(world.mirror, at).to.equal(undefined);
      expect(world.mapi, at).to.equal(undefined);
    }
    expect(handedOver).to.be.greaterThan(1);
  });

  describe('status.authoritativeAPI Migrating written by someone else, without synchronizedAPI', () => {
    function stray(world: World) {
      world.mapi!.status = { ...world.mapi!.status, authoritativeAPI: 'Migrating' };
      delete world.mapi!.status.synchronizedAPI;
    }

    it('a paused mirror proves MachineAPI: status returns there and Cluster API never takes over', () => {
      const world = synchronizedWorld();
      world.mirror!.metadata.generation! += 1; // the mirror's generation ahead, as in the field
      stray(world);
      const steps: Step[] = [];
      stepUntil(world, (step) => (steps.push(step), false), 30);
      expect(steps.map((s) => s.note)[0]).to.equal(
        'leaving Migrating: MachineAPI is authoritative',
      );
      for (const step of steps) expect(step.note).to.not.match(/unpausing/);
      expectMachineApiAuthoritative(world);
      const said = condition(world.mapi, MIGRATION_CONDITION);
      expect(said).to.include({ status: 'False', reason: MigrationReason.NotStarted });
      expect(said?.message).to.match(/paused/);
    });

    it('an unpaused CAPI MachineSet proves ClusterAPI: status returns there', () => {
      const world = synchronizedWorld();
      wish(world, 'ClusterAPI');
      world.converge();
      stray(world);
      world.converge(60);
      expectClusterApiAuthoritative(world);
      expect(condition(world.mapi, MIGRATION_CONDITION)?.reason).to.equal(
        MigrationReason.NotStarted,
      );
    });
  });
});
