// One Machine's migration handshake (planMachineHandshake), stepped by hand, with
// machine-api-operator, Cluster API and the Machine sync acting after every write.
import { expect } from 'chai';
import type { KubeObject, MapiMachine } from '../../../src/api/types.js';
import { MIGRATION_CONDITION, MigrationReason } from '../../../src/migration/status.js';
import {
  AUTHORITY_ANNOTATION,
  MAPI_MACHINE_FINALIZER,
  PAUSED_ANNOTATION,
} from '../../../src/model/markers.js';
import { ADMITTED_SHAPES, mapiMachineSet, World } from '../sync/machine-set/world.js';
import { FAKE_MACHINE, Fleet } from './fleet.js';

type Authority = 'MachineAPI' | 'ClusterAPI';
const INFRA = 'FakeMachine openshift-cluster-api/m1';

/** One synchronized Machine under `authority`; its handshake runs only when stepped. */
function machineWorld(authority: Authority = 'MachineAPI'): { world: World; fleet: Fleet } {
  const world = new World(mapiMachineSet());
  world.mapi!.spec.authoritativeAPI = 'MachineAPI';
  world.migration = true;
  world.converge();
  const fleet = new Fleet(world);
  fleet.handshakes = false;
  fleet.add('m1', authority);
  expect(condition(fleet.mapi.get('m1'), 'Synchronized')?.status).to.equal('True');
  return { world, fleet };
}

function condition(machine: MapiMachine | undefined, type: string) {
  return machine?.status?.conditions?.find((c) => c.type === type);
}

/** What an administrator does: edit the Machine's spec (which bumps its generation). */
function wish(world: World, fleet: Fleet, authority: Authority): void {
  const machine = fleet.mapi.get('m1')!;
  machine.spec.authoritativeAPI = authority;
  machine.metadata.generation! += 1;
  machine.metadata.resourceVersion = `${machine.metadata.resourceVersion}-edited`;
  world.othersAct();
}

/** Runs the Machine's handshake until it has nothing to write; returns the notes (at most `limit`). */
function run(world: World, fleet: Fleet, limit = 30): string[] {
  const notes: string[] = [];
  for (let i = 0; i < limit; i++) {
    const step = fleet.plan('m1');
    if (!step || step.kind === 'done') return notes;
    world.apply(step);
    notes.push(step.note);
  }
  if (limit === 30) throw new Error(`the handshake did not settle: ${notes.join(' | ')}`);
  return notes;
}

/** Deleted, and held by machine-api-operator's finalizer until it has deleted the instance. */
function deleteHeld(machine: KubeObject): void {
  machine.metadata.finalizers = [MAPI_MACHINE_FINALIZER];
  machine.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
}

function paused(fleet: Fleet) {
  return {
    capi: fleet.capi.get('m1')?.metadata.annotations?.[PAUSED_ANNOTATION] !== undefined,
    infra: fleet.infra.get('m1')?.metadata.annotations?.[PAUSED_ANNOTATION] !== undefined,
  };
}

function expectOn(fleet: Fleet, authority: Authority) {
  const machine = fleet.mapi.get('m1');
  expect(machine?.status?.authoritativeAPI).to.equal(authority);
  expect(machine?.status?.synchronizedAPI).to.equal(authority);
  const mapiSide = authority === 'MachineAPI';
  expect(paused(fleet)).to.deep.equal({ capi: mapiSide, infra: mapiSide });
  expect(fleet.capi.get('m1')?.metadata.annotations?.[AUTHORITY_ANNOTATION]).to.equal(authority);
  expect(condition(machine, 'Paused')?.status).to.equal(mapiSide ? 'False' : 'True');
  expect(condition(machine, 'Synchronized')?.status).to.equal('True');
}

/** The handshake's writes from ClusterAPI up to waiting for Cluster API's Paused=True. */
const HAND_BACK_PAUSES = [
  'entering Migrating (ClusterAPI → MachineAPI)',
  'pausing the CAPI machine',
  `pausing the ${INFRA}`,
];

/** A Machine on ClusterAPI asked back to MachineAPI: Migrating, its CAPI side paused. */
function pausedForHandBack(): { world: World; fleet: Fleet } {
  const { world, fleet } = machineWorld('ClusterAPI');
  wish(world, fleet, 'MachineAPI');
  run(world, fleet, 3); // Migrating, the CAPI Machine and its infrastructure machine paused
  expect(paused(fleet)).to.deep.equal({ capi: true, infra: true });
  return { world, fleet };
}

describe('Machine migration handshake', () => {
  it('MachineAPI → ClusterAPI: Migrating, marked, then the infrastructure machine and the CAPI Machine unpaused, in that order', () => {
    const { world, fleet } = machineWorld();
    wish(world, fleet, 'ClusterAPI');
    expect(run(world, fleet)).to.deep.equal([
      'entering Migrating (MachineAPI → ClusterAPI)',
      'marking the CAPI machine as migrating',
      `unpausing the ${INFRA}`,
      'unpausing the CAPI machine',
      'leaving Migrating: ClusterAPI is authoritative',
    ]);
    expectOn(fleet, 'ClusterAPI');
    expect(fleet.mapi.get('m1')?.status?.synchronizedGeneration).to.equal(
      fleet.capi.get('m1')?.metadata.generation,
    );
    expect(condition(fleet.mapi.get('m1'), MIGRATION_CONDITION)).to.include({
      status: 'False',
      reason: MigrationReason.Completed,
    });
  });

  it('MachineAPI → ClusterAPI: nothing is unpaused before machine-api-operator reports the Machine Paused=True', () => {
    const { world, fleet } = machineWorld();
    fleet.machineApiOperator = false;
    wish(world, fleet, 'ClusterAPI');
    fleet.mapi.get('m1')!.status!.authoritativeAPI = 'MachineAPI';
    run(world, fleet);
    const waiting = condition(fleet.mapi.get('m1'), MIGRATION_CONDITION);
    expect(waiting?.reason).to.equal(MigrationReason.WaitingForPause);
    expect(waiting?.message).to.match(/machine-api-operator to pause this Machine/);
    expect(waiting?.message).to.match(/Set spec\.authoritativeAPI to MachineAPI to cancel/);
    expect(paused(fleet)).to.deep.equal({ capi: true, infra: true });
    fleet.machineApiOperator = true;
    world.othersAct();
    run(world, fleet);
    expectOn(fleet, 'ClusterAPI');
  });

  it('MachineAPI → ClusterAPI: the CAPI Machine is unpaused only once the provider has taken the infrastructure machine in hand (its finalizer)', () => {
    const { world, fleet } = machineWorld();
    fleet.provider = false;
    wish(world, fleet, 'ClusterAPI');
    expect(run(world, fleet).slice(-2)).to.deep.equal([
      `unpausing the ${INFRA}`,
      'reporting MigrationProgressing=True',
    ]);
    const waiting = condition(fleet.mapi.get('m1'), MIGRATION_CONDITION);
    expect(waiting?.reason).to.equal(MigrationReason.WaitingForProvider);
    expect(waiting?.message).to.include(`take ${INFRA} in hand`);
    expect(waiting?.message).to.include(FAKE_MACHINE.finalizer);
    expect(waiting?.message).to.match(/Set spec\.authoritativeAPI to MachineAPI to cancel/);
    expect(fleet.mapi.get('m1')?.status?.authoritativeAPI).to.equal('Migrating');
    expect(paused(fleet)).to.deep.equal({ capi: true, infra: false });
    fleet.provider = true;
    world.othersAct();
    expect(run(world, fleet)).to.deep.equal([
      'unpausing the CAPI machine',
      'leaving Migrating: ClusterAPI is authoritative',
    ]);
    expectOn(fleet, 'ClusterAPI');
  });

  it('MachineAPI → ClusterAPI, the MAPI Machine deleted before the provider took the infrastructure machine in hand: MachineAPI carries the deletion out', () => {
    const { world, fleet } = machineWorld();
    fleet.provider = false;
    wish(world, fleet, 'ClusterAPI');
    run(world, fleet);
    deleteHeld(fleet.mapi.get('m1')!);
    expect(run(world, fleet)).to.deep.equal([
      `pausing the ${INFRA} again: the MAPI machine is being deleted`,
      'leaving Migrating: MachineAPI is authoritative',
    ]);
    expect(fleet.mapi.get('m1')?.status?.authoritativeAPI).to.equal('MachineAPI');
    expect(paused(fleet)).to.deep.equal({ capi: true, infra: true });
  });

  it('ClusterAPI → MachineAPI: the CAPI Machine and then the infrastructure machine are paused, and Cluster API reports Paused=True, before MAPI takes over', () => {
    const { world, fleet } = machineWorld('ClusterAPI');
    expectOn(fleet, 'ClusterAPI');
    fleet.clusterApi = false;
    wish(world, fleet, 'MachineAPI');
    expect(run(world, fleet)).to.deep.equal(HAND_BACK_PAUSES);
    const waiting = condition(fleet.mapi.get('m1'), MIGRATION_CONDITION);
    expect(waiting?.reason).to.equal(MigrationReason.WaitingForPause);
    expect(waiting?.message).to.match(/Cluster API to pause openshift-cluster-api\/m1/);
    expect(fleet.capi.get('m1')?.metadata.annotations?.[AUTHORITY_ANNOTATION]).to.equal(
      'Migrating',
    );
    fleet.clusterApi = true;
    world.othersAct();
    expect(run(world, fleet)).to.deep.equal(['leaving Migrating: MachineAPI is authoritative']);
    expectOn(fleet, 'MachineAPI');
  });

  it('a cancel after Cluster API began deleting the unpaused CAPI Machine: the handshake never pauses its infrastructure machine', () => {
    const { world, fleet } = machineWorld();
    wish(world, fleet, 'ClusterAPI');
    expect(run(world, fleet, 4)).to.deep.equal([
      'entering Migrating (MachineAPI → ClusterAPI)',
      'marking the CAPI machine as migrating',
      `unpausing the ${INFRA}`,
      'unpausing the CAPI machine',
    ]);
    const capi = fleet.capi.get('m1')!;
    capi.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    capi.metadata.finalizers = ['machine.cluster.x-k8s.io'];
    wish(world, fleet, 'MachineAPI');
    const step = fleet.plan('m1');
    expect(step?.note ?? '').to.not.match(/pausing the FakeMachine/);
    expect(paused(fleet).infra, 'Cluster API deletes it unpaused').to.equal(false);
  });

  it('the gate holds while the Machine is not synchronized, says why, then proceeds by itself', () => {
    const { world, fleet } = machineWorld();
    fleet.broken.set('m1', 'spec.providerSpec.value.size: is required');
    wish(world, fleet, 'ClusterAPI');
    run(world, fleet);
    const machine = fleet.mapi.get('m1');
    expect(machine?.status?.authoritativeAPI).to.equal('MachineAPI');
    const waiting = condition(machine, MIGRATION_CONDITION);
    expect(waiting?.reason).to.equal(MigrationReason.WaitingForSynchronization);
    expect(waiting?.message).to.match(/Synchronized is False \(FailedToConvertMAPIMachineToCAPI\)/);
    expect(waiting?.message).to.match(/generation of this Machine \(authoritative\) is 2/);
    fleet.broken.delete('m1');
    world.othersAct();
    run(world, fleet);
    expectOn(fleet, 'ClusterAPI');
  });

  it('the gate from ClusterAPI compares with the CAPI Machine generation', () => {
    const { world, fleet } = machineWorld('ClusterAPI');
    fleet.unsynced.add('m1');
    const capi = fleet.capi.get('m1')!;
    capi.spec.providerID = 'fake://m1';
    capi.metadata.generation = 2;
    wish(world, fleet, 'MachineAPI');
    run(world, fleet);
    const waiting = condition(fleet.mapi.get('m1'), MIGRATION_CONDITION);
    expect(waiting?.reason).to.equal(MigrationReason.WaitingForSynchronization);
    expect(waiting?.message).to.match(
      /synchronizedGeneration is 1 while the generation of openshift-cluster-api\/m1 \(authoritative\) is 2/,
    );
    fleet.unsynced.delete('m1');
    world.othersAct();
    run(world, fleet);
    expectOn(fleet, 'MachineAPI');
  });

  it('the gate holds while the CAPI Machine does not exist', () => {
    const { world, fleet } = machineWorld();
    fleet.capi.delete('m1');
    wish(world, fleet, 'ClusterAPI');
    run(world, fleet);
    expect(condition(fleet.mapi.get('m1'), MIGRATION_CONDITION)?.message).to.match(
      /the Cluster API Machine openshift-cluster-api\/m1 does not exist yet/,
    );
  });

  it('a CAPI Machine gone while migrating to ClusterAPI: MachineAPI is authoritative again, and the migration waits at the gate for its mirror', () => {
    const { world, fleet } = machineWorld();
    wish(world, fleet, 'ClusterAPI');
    run(world, fleet, 1);
    fleet.capi.delete('m1');
    const notes = run(world, fleet);
    expect(notes).to.include('leaving Migrating: MachineAPI is authoritative');
    expect(fleet.mapi.get('m1')?.status?.authoritativeAPI).to.equal('MachineAPI');
    const waiting = condition(fleet.mapi.get('m1'), MIGRATION_CONDITION);
    expect(waiting?.reason).to.equal(MigrationReason.WaitingForSynchronization);
    expect(waiting?.message).to.match(
      /the Cluster API Machine openshift-cluster-api\/m1 does not exist yet/,
    );
    expect(fleet.infra.get('m1')?.metadata.annotations).to.have.property(PAUSED_ANNOTATION);
  });

  it('an unpaused infrastructure machine is paused again when its CAPI Machine goes while migrating to ClusterAPI', () => {
    const { world, fleet } = machineWorld();
    wish(world, fleet, 'ClusterAPI');
    run(world, fleet, 1);
    delete fleet.infra.get('m1')!.metadata.annotations![PAUSED_ANNOTATION];
    fleet.capi.delete('m1');
    expect(run(world, fleet).slice(0, 2)).to.deep.equal([
      `pausing the ${INFRA} again: the CAPI machine is gone`,
      'leaving Migrating: MachineAPI is authoritative',
    ]);
  });

  it('copies spec into an empty status, and leaves a Machine being deleted alone', () => {
    const { fleet } = machineWorld();
    const machine = fleet.mapi.get('m1')!;
    machine.spec.authoritativeAPI = 'ClusterAPI';
    delete machine.status!.authoritativeAPI;
    const step = fleet.plan('m1');
    expect(step?.kind).to.equal('patch');
    expect(step && 'patch' in step && step.patch).to.deep.include({
      body: {
        status: { authoritativeAPI: 'ClusterAPI' },
        metadata: { resourceVersion: machine.metadata.resourceVersion },
      },
    });
    machine.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    expect(fleet.plan('m1')).to.equal(undefined);
  });

  it('a Machine changed after its CAPI side was unpaused: paused again (both), back to MachineAPI, then migrated again', () => {
    const { world, fleet } = machineWorld();
    wish(world, fleet, 'ClusterAPI');
    run(world, fleet, 4); // up to 'unpausing the CAPI machine'
    expect(paused(fleet)).to.deep.equal({ capi: false, infra: false });
    const machine = fleet.mapi.get('m1')!;
    machine.spec.providerSpec = { value: { size: 'huge' } };
    machine.metadata.generation! += 1;
    fleet.clusterApi = false; // Cluster API has not seen the pause yet
    const notes = run(world, fleet);
    expect(notes).to.deep.equal([
      'pausing the CAPI machine again',
      `pausing the ${INFRA} again`,
      'reporting MigrationProgressing=True',
    ]);
    expect(condition(fleet.mapi.get('m1'), MIGRATION_CONDITION)?.reason).to.equal(
      MigrationReason.Restarting,
    );
    fleet.clusterApi = true;
    world.othersAct();
    const after = run(world, fleet);
    expect(after[0]).to.equal('leaving Migrating: MachineAPI is authoritative');
    expect(after.at(-1)).to.equal('leaving Migrating: ClusterAPI is authoritative');
    expectOn(fleet, 'ClusterAPI');
  });

  it('a CAPI Machine changed while migrating to MachineAPI: unpaused again, back to ClusterAPI, then migrated again', () => {
    const { world, fleet } = machineWorld('ClusterAPI');
    wish(world, fleet, 'MachineAPI');
    run(world, fleet, 3); // paused both
    const capi = fleet.capi.get('m1')!;
    capi.spec.providerID = 'fake://m1';
    capi.metadata.generation! += 1;
    const notes = run(world, fleet);
    expect(notes.slice(0, 3)).to.deep.equal([
      `unpausing the ${INFRA} again`,
      'unpausing the CAPI machine again',
      'leaving Migrating: ClusterAPI is authoritative',
    ]);
    expect(notes.at(-1)).to.equal('leaving Migrating: MachineAPI is authoritative');
    expectOn(fleet, 'MachineAPI');
  });

  for (const to of ['ClusterAPI', 'MachineAPI'] as const) {
    const from = to === 'ClusterAPI' ? 'MachineAPI' : 'ClusterAPI';
    const total = (() => {
      const { world, fleet } = machineWorld(from);
      wish(world, fleet, to);
      return run(world, fleet).length;
    })();

    it(`${from} → ${to}: cancelled after any step, it returns to ${from}`, () => {
      for (let k = 0; k <= total; k++) {
        const { world, fleet } = machineWorld(from);
        wish(world, fleet, to);
        run(world, fleet, k);
        wish(world, fleet, from);
        const notes = run(world, fleet);
        const at = `cancelled after ${k} of ${total} steps: ${notes.join(' | ')}`;
        if (k === total) {
          // Completed before the cancellation arrived: a cancellation is then a migration back.
          expect(fleet.mapi.get('m1')?.status?.authoritativeAPI, at).to.equal(from);
          continue;
        }
        expectOn(fleet, from);
        if (k > 0) {
          expect(condition(fleet.mapi.get('m1'), MIGRATION_CONDITION)?.reason, at).to.equal(
            MigrationReason.Cancelled,
          );
        }
      }
    });
  }

  describe('every shape the CRD admits', () => {
    for (const [shape, change] of ADMITTED_SHAPES) {
      for (const authority of ['MachineAPI', 'ClusterAPI'] as const) {
        it(`a Machine ${shape}, its MachineSet migrating from ${authority}: the handshakes settle`, () => {
          const { world, fleet } = machineWorld(authority);
          fleet.handshakes = true;
          world.mapi!.status!.authoritativeAPI = authority;
          change(fleet.mapi.get('m1')!);
          expect(run(world, fleet)).to.be.an('array');
          const to = authority === 'MachineAPI' ? 'ClusterAPI' : 'MachineAPI';
          world.mapi!.spec.authoritativeAPI = to;
          world.mapi!.metadata.generation! += 1;
          world.othersAct();
          expect(() => world.converge(60)).to.not.throw();
        });
      }
    }
  });

  it('ClusterAPI → MachineAPI, the CAPI Machine deleted mid-hand-over: both unpaused again, ClusterAPI stays authoritative', () => {
    const { world, fleet } = pausedForHandBack();
    fleet.capi.get('m1')!.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    fleet.infra.get('m1')!.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    const notes = run(world, fleet);
    expect(notes.slice(0, 3)).to.deep.equal([
      `unpausing the ${INFRA} being deleted`,
      'unpausing the CAPI machine being deleted',
      'leaving Migrating: ClusterAPI is authoritative',
    ]);
    // Unpaused, Cluster API finishes the deletion; ClusterAPI stays authoritative.
    expect(fleet.capi.get('m1')).to.equal(undefined);
    const machine = fleet.mapi.get('m1');
    expect(machine?.status?.authoritativeAPI).to.equal('ClusterAPI');
    expect(machine?.status?.synchronizedAPI).to.equal('ClusterAPI');
  });

  it('ClusterAPI → MachineAPI, the MAPI Machine deleted mid-hand-over: the hand-back stops, both unpaused before it goes', () => {
    const { world, fleet } = pausedForHandBack();
    fleet.mapi.get('m1')!.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    expect(run(world, fleet)).to.deep.equal([
      `unpausing the ${INFRA}: the MAPI machine is being deleted`,
      'unpausing the CAPI machine: the MAPI machine is being deleted',
    ]);
    // Cluster API, still authoritative, acts on its Machine again; nothing of it is deleted.
    expect(paused(fleet)).to.deep.equal({ capi: false, infra: false });
    const capi = fleet.capi.get('m1');
    expect(capi?.metadata.annotations?.[AUTHORITY_ANNOTATION]).to.equal('ClusterAPI');
    expect(capi?.metadata.deletionTimestamp).to.equal(undefined);
  });

  it('MachineAPI → ClusterAPI, the MAPI Machine deleted mid-hand-over: the hand-over stops, MachineAPI carries the deletion out', () => {
    const { world, fleet } = machineWorld();
    wish(world, fleet, 'ClusterAPI');
    run(world, fleet, 2); // Migrating, the CAPI Machine marked
    deleteHeld(fleet.mapi.get('m1')!);
    expect(run(world, fleet)).to.deep.equal(['leaving Migrating: MachineAPI is authoritative']);
    expect(fleet.mapi.get('m1')?.status).to.include({ authoritativeAPI: 'MachineAPI' });
    expect(paused(fleet)).to.deep.equal({ capi: true, infra: true });
  });

  it('MachineAPI → ClusterAPI, the MAPI Machine deleted once its infrastructure machine is unpaused: paused again first', () => {
    const { world, fleet } = machineWorld();
    wish(world, fleet, 'ClusterAPI');
    run(world, fleet, 2); // Migrating, the CAPI Machine marked
    const infra = fleet.infra.get('m1')!;
    delete infra.metadata.annotations![PAUSED_ANNOTATION];
    deleteHeld(fleet.mapi.get('m1')!);
    expect(run(world, fleet)).to.deep.equal([
      `pausing the ${INFRA} again: the MAPI machine is being deleted`,
      'leaving Migrating: MachineAPI is authoritative',
    ]);
    expect(paused(fleet)).to.deep.equal({ capi: true, infra: true });
  });

  it("the provider's instance object (CAPO's OpenStackServer) is paused and unpaused with the infrastructure machine", () => {
    const { world, fleet } = machineWorld('ClusterAPI');
    fleet.servers.set('m1', {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha1',
      kind: 'FakeServer',
      metadata: { name: 'm1', namespace: 'openshift-cluster-api', uid: 'uid-server-m1' },
    });
    const server = () => fleet.servers.get('m1')?.metadata.annotations?.[PAUSED_ANNOTATION];
    fleet.clusterApi = false;
    wish(world, fleet, 'MachineAPI');
    expect(run(world, fleet)).to.deep.equal([
      ...HAND_BACK_PAUSES,
      'pausing the FakeServer openshift-cluster-api/m1',
    ]);
    expect(server()).to.not.equal(undefined);
    fleet.clusterApi = true;
    world.othersAct();
    run(world, fleet);
    expectOn(fleet, 'MachineAPI');
    wish(world, fleet, 'ClusterAPI');
    expect(run(world, fleet)).to.include.members([
      `unpausing the ${INFRA}`,
      'unpausing the FakeServer openshift-cluster-api/m1',
      'unpausing the CAPI machine',
    ]);
    expect(server()).to.equal(undefined);
  });

  it('never pauses an infrastructure machine being deleted', () => {
    const { world, fleet } = machineWorld('ClusterAPI');
    fleet.infra.get('m1')!.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    wish(world, fleet, 'MachineAPI');
    const notes = run(world, fleet);
    expect(notes.filter((n) => n.includes(INFRA))).to.deep.equal([]);
  });

  it('Migrating without synchronizedAPI, written by someone else: back to what the paused CAPI Machine proves, nothing unpaused', () => {
    const { world, fleet } = machineWorld('MachineAPI');
    const machine = fleet.mapi.get('m1')!;
    machine.status = { ...machine.status, authoritativeAPI: 'Migrating' };
    delete machine.status.synchronizedAPI;
    const notes = run(world, fleet);
    expect(notes[0]).to.equal('leaving Migrating: MachineAPI is authoritative');
    expect(notes.filter((n) => n.includes('unpausing'))).to.deep.equal([]);
    world.othersAct();
    expect(fleet.mapi.get('m1')?.status?.authoritativeAPI).to.equal('MachineAPI');
    expect(condition(fleet.mapi.get('m1'), MIGRATION_CONDITION)?.reason).to.equal(
      MigrationReason.NotStarted,
    );
  });
});
