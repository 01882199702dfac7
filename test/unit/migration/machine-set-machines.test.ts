// A MachineSet's Machines follow its migration: the gate waits for them to be mirrored, the
// MachineSet hands each over and waits for their own handshakes before the new side of the
// MachineSet takes over. Driven through the world with its Machines and their controllers.
import { expect } from 'chai';
import type { KubeObject, MapiMachineSet } from '../../../src/api/types.js';
import { migrationWantedOrUnderWay } from '../../../src/migration/handshake.js';
import { planMachineSetHandshake } from '../../../src/migration/machine-set.js';
import { MIGRATION_CONDITION, MigrationReason } from '../../../src/migration/status.js';
import { PAUSED_ANNOTATION } from '../../../src/model/markers.js';
import type { Step } from '../../../src/sync/machine-set/plan.js';
import { mapiMachineSet, World } from '../sync/machine-set/world.js';
import { Fleet } from './fleet.js';

type Authority = 'MachineAPI' | 'ClusterAPI';

const cluster: KubeObject = {
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Cluster',
  metadata: { name: 'demo-abc12', namespace: 'openshift-cluster-api', uid: 'cluster-uid' },
};

/** A synchronized MachineAPI MachineSet with its Machines, all of them synchronized. */
function fleetWorld(names = ['m1', 'm2', 'm3']): { world: World; fleet: Fleet } {
  const world = new World(mapiMachineSet());
  world.mapi!.spec.authoritativeAPI = 'MachineAPI';
  world.cluster = cluster;
  world.migration = true;
  const fleet = new Fleet(world);
  for (const name of names) fleet.add(name);
  world.converge();
  return { world, fleet };
}

function migration(mapi: MapiMachineSet | undefined) {
  return mapi?.status?.conditions?.find((c) => c.type === MIGRATION_CONDITION);
}

function wish(world: World, authority: Authority): void {
  const mapi = world.mapi!;
  mapi.spec.authoritativeAPI = authority;
  mapi.metadata.generation! += 1;
  mapi.metadata.resourceVersion = `${mapi.metadata.resourceVersion}-edited`;
  world.othersAct();
}

function notesOf(steps: Step[]): string[] {
  return steps.map((s) => ('note' in s ? s.note : ''));
}

function machinesOn(fleet: Fleet) {
  return [...fleet.mapi.values()].map((m) => [
    m.metadata.name,
    m.spec.authoritativeAPI,
    m.status?.authoritativeAPI,
  ]);
}

function expectAllOn(world: World, fleet: Fleet, authority: Authority) {
  expect(world.mapi?.status?.authoritativeAPI).to.equal(authority);
  for (const [name, spec, status] of machinesOn(fleet)) {
    expect([spec, status], name).to.deep.equal([authority, authority]);
  }
  const paused = authority === 'MachineAPI';
  expect(world.mirror?.metadata.annotations?.[PAUSED_ANNOTATION] !== undefined).to.equal(paused);
  for (const capi of fleet.capi.values()) {
    const name = capi.metadata.name;
    expect(capi.metadata.annotations?.[PAUSED_ANNOTATION] !== undefined, name).to.equal(paused);
    const infra = fleet.infra.get(name);
    expect(infra?.metadata.annotations?.[PAUSED_ANNOTATION] !== undefined, name).to.equal(paused);
  }
}

/** A MachineSet and its Machines moved to ClusterAPI. */
function clusterApiWorld(): { world: World; fleet: Fleet } {
  const { world, fleet } = fleetWorld();
  wish(world, 'ClusterAPI');
  world.converge();
  expectAllOn(world, fleet, 'ClusterAPI');
  return { world, fleet };
}

describe('a MachineSet migration with its Machines', () => {
  it('MachineAPI → ClusterAPI: every Machine is handed over and on ClusterAPI before the CAPI MachineSet is unpaused', () => {
    const { world, fleet } = fleetWorld();
    wish(world, 'ClusterAPI');
    const notes = notesOf(world.converge());
    expectAllOn(world, fleet, 'ClusterAPI');
    const entered = notes.indexOf('entering Migrating (MachineAPI → ClusterAPI)');
    const handed = ['m1', 'm2', 'm3'].map((n) =>
      notes.indexOf(`handing Machine ${n} to ClusterAPI`),
    );
    const unpaused = notes.indexOf('unpausing the CAPI machine set');
    expect(entered, notes.join(' | ')).to.be.greaterThan(-1);
    for (const index of handed) {
      expect(index, notes.join(' | ')).to.be.greaterThan(entered);
      expect(index).to.be.lessThan(unpaused);
    }
    expect(migration(world.mapi)?.reason).to.equal(MigrationReason.Completed);
  });

  it('waits for the Machines’ own handshakes, says which, and finishes only when all are over', () => {
    const { world, fleet } = fleetWorld(['m1', 'm2']);
    fleet.handshakes = false;
    wish(world, 'ClusterAPI');
    world.converge();
    expect(world.mapi?.status?.authoritativeAPI).to.equal('Migrating');
    expect(machinesOn(fleet)).to.deep.equal([
      ['m1', 'ClusterAPI', 'MachineAPI'],
      ['m2', 'ClusterAPI', 'MachineAPI'],
    ]);
    expect(world.mirror?.metadata.annotations).to.have.property(PAUSED_ANNOTATION);
    const waiting = migration(world.mapi);
    expect(waiting?.reason).to.equal(MigrationReason.WaitingForMachines);
    expect(waiting?.message).to.equal(
      'Migrating from MachineAPI to ClusterAPI: 0 of 2 Machines are on ClusterAPI; waiting for m1, m2 (their own handshake: see their MigrationProgressing condition). Set spec.authoritativeAPI to MachineAPI to cancel.',
    );
    // One Machine's reconciler runs its handshake to the end.
    for (let step = fleet.plan('m1'); step && step.kind !== 'done'; step = fleet.plan('m1')) {
      world.apply(step);
    }
    world.converge();
    expect(world.mapi?.status?.authoritativeAPI).to.equal('Migrating');
    expect(migration(world.mapi)?.message).to.match(
      /1 of 2 Machines are on ClusterAPI; waiting for m2 \(/,
    );
    expect(world.mirror?.metadata.annotations).to.have.property(PAUSED_ANNOTATION);
    fleet.handshakes = true;
    world.othersAct();
    world.converge();
    expectAllOn(world, fleet, 'ClusterAPI');
  });

  it('ClusterAPI → MachineAPI: the CAPI MachineSet is paused first, the Machines follow, then MAPI takes over', () => {
    const { world, fleet } = clusterApiWorld();
    world.mapi!.spec.template!.spec!.authoritativeAPI = 'ClusterAPI';
    wish(world, 'MachineAPI');
    const notes = notesOf(world.converge());
    expectAllOn(world, fleet, 'MachineAPI');
    const paused = notes.indexOf('pausing the CAPI machine set');
    const handed = notes.indexOf('handing Machine m3 to MachineAPI');
    const template = notes.indexOf(
      'giving the machines this MAPI machine set creates back to Machine API',
    );
    const left = notes.indexOf('leaving Migrating: MachineAPI is authoritative');
    expect([paused, handed, template, left], notes.join(' | ')).to.satisfy((order: number[]) =>
      order.every((v, i) => v >= 0 && (i === 0 || v > (order[i - 1] ?? v))),
    );
  });

  it('the gate from MachineAPI holds while a Machine is not synchronized, names it, says how to get out, and proceeds by itself', () => {
    const { world, fleet } = fleetWorld();
    fleet.broken.set('m2', 'spec.providerSpec.value.size: is required; set it to a size');
    world.othersAct();
    wish(world, 'ClusterAPI');
    world.converge();
    expect(world.mapi?.status?.authoritativeAPI).to.equal('MachineAPI');
    const waiting = migration(world.mapi);
    expect(waiting?.reason).to.equal(MigrationReason.MachinesNotMirrored);
    expect(waiting?.message).to.equal(
      'Migration from MachineAPI to ClusterAPI is waiting: 1 of 3 Machines of this MachineSet are not fully mirrored, and ClusterAPI must find every one of them: m2 (Synchronized is False, FailedToConvertMAPIMachineToCAPI: "spec.providerSpec.value.size: is required; set it to a size"). It starts by itself once they are. Fix what their Synchronized condition names, or delete them (the MachineSet replaces them), or set spec.authoritativeAPI back to MachineAPI to withdraw the request.',
    );
    expect(machinesOn(fleet).map(([, spec]) => spec)).to.deep.equal(Array(3).fill('MachineAPI'));
    fleet.broken.delete('m2');
    world.othersAct();
    world.converge();
    expectAllOn(world, fleet, 'ClusterAPI');
  });

  it('the gate holds while a Machine is Provisioning (OpenShift refuses moving its authority), and proceeds once it is Running', () => {
    const { world, fleet } = fleetWorld();
    const m2 = fleet.mapi.get('m2')!;
    m2.status = { ...m2.status, phase: 'Provisioning' };
    wish(world, 'ClusterAPI');
    world.converge();
    expect(world.mapi?.status?.authoritativeAPI).to.equal('MachineAPI');
    const waiting = migration(world.mapi);
    expect(waiting?.reason).to.equal(MigrationReason.MachinesNotMirrored);
    expect(waiting?.message).to.contain(
      'm2 (it is Provisioning, and its authority can move only once its instance exists (Provisioned or Running))',
    );
    expect(machinesOn(fleet).map(([, spec]) => spec)).to.deep.equal(Array(3).fill('MachineAPI'));
    m2.status = { ...m2.status, phase: 'Running' };
    world.othersAct();
    world.converge();
    expectAllOn(world, fleet, 'ClusterAPI');
  });

  it('the gate holds while the platform needs the providerSpec to say more, names it, and proceeds once it does', () => {
    const { world, fleet } = fleetWorld(['m1']);
    let blockers = [
      {
        path: 'spec.template.spec.providerSpec.value.resourceManagerTags',
        message: 'lacks the tag env; add it here, then migrate.',
      },
    ];
    world.converter = { ...world.converter!, migrationBlockers: () => blockers };
    wish(world, 'ClusterAPI');
    world.converge();
    expect(world.mapi?.status?.authoritativeAPI).to.equal('MachineAPI');
    expect(migration(world.mapi)).to.include({
      status: 'True',
      reason: MigrationReason.ProviderSpecIncomplete,
    });
    expect(migration(world.mapi)?.message).to.include(
      'spec.template.spec.providerSpec.value.resourceManagerTags: lacks the tag env',
    );
    blockers = [];
    world.othersAct();
    world.converge(60);
    expectAllOn(world, fleet, 'ClusterAPI');
  });

  it('the gate names a Machine behind its generation, at most five Machines, and ignores Machines being deleted', () => {
    const names = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'gone'];
    const { world, fleet } = fleetWorld(names);
    for (const name of names) {
      fleet.unsynced.add(name);
      fleet.mapi.get(name)!.metadata.generation = 2;
    }
    fleet.mapi.get('gone')!.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    wish(world, 'ClusterAPI');
    world.converge();
    const message = migration(world.mapi)?.message ?? '';
    expect(message).to.match(
      /7 of 7 Machines of this MachineSet are not fully mirrored.*: m1 \(synchronizedGeneration 1, its generation 2\), m2 .*m5 \(synchronizedGeneration 1, its generation 2\) and 2 more\./,
    );
    expect(message).not.to.match(/gone/);
    for (const name of names) fleet.unsynced.delete(name);
    world.othersAct();
    world.converge();
    expect(world.mapi?.status?.authoritativeAPI).to.equal('ClusterAPI');
    expect(fleet.mapi.get('gone')?.spec.authoritativeAPI, 'not handed over').to.equal('MachineAPI');
  });

  it('the gate from ClusterAPI needs a synchronized MAPI Machine at each CAPI Machine’s generation', () => {
    const { world, fleet } = clusterApiWorld();
    fleet.unsynced.add('m1');
    fleet.capi.get('m1')!.metadata.generation = 5;
    fleet.mapi.delete('m3');
    wish(world, 'MachineAPI');
    world.converge();
    expect(world.mapi?.status?.authoritativeAPI).to.equal('ClusterAPI');
    const waiting = migration(world.mapi);
    expect(waiting?.reason).to.equal(MigrationReason.MachinesNotMirrored);
    expect(waiting?.message).to.contain(
      '2 of 3 Machines of the Cluster API MachineSet openshift-cluster-api/worker-a are not fully mirrored, and MachineAPI must find every one of them: m1 (synchronizedGeneration 1, its Cluster API Machine generation 5), m3 (no Machine API Machine mirrors it yet).',
    );
    expect(waiting?.message).to.match(/set spec\.authoritativeAPI back to ClusterAPI/);
  });

  it('a Machine moved on its own to the target already holds nothing', () => {
    const { world, fleet } = fleetWorld();
    const machine = fleet.mapi.get('m1')!;
    machine.spec.authoritativeAPI = 'ClusterAPI';
    machine.metadata.generation! += 1;
    world.othersAct();
    expect(fleet.mapi.get('m1')?.status?.authoritativeAPI).to.equal('ClusterAPI');
    wish(world, 'ClusterAPI');
    const notes = notesOf(world.converge());
    expectAllOn(world, fleet, 'ClusterAPI');
    expect(notes).not.to.include('handing Machine m1 to ClusterAPI');
  });

  it('a MachineSet changed after its Machines were handed over sends them back, then migrates again', () => {
    const { world, fleet } = fleetWorld(['m1', 'm2']);
    fleet.handshakes = false;
    wish(world, 'ClusterAPI');
    world.converge();
    fleet.handshakes = true;
    const mapi = world.mapi!;
    (mapi.spec.template!.spec!.providerSpec!.value as { size: string }).size = 'huge';
    mapi.metadata.generation! += 1;
    mapi.status!.observedGeneration = mapi.metadata.generation;
    const notes = notesOf(world.converge(60));
    expect(notes).to.include('handing Machine m1 to MachineAPI');
    expect(notes.indexOf('leaving Migrating: MachineAPI is authoritative')).to.be.lessThan(
      notes.lastIndexOf('handing Machine m1 to ClusterAPI'),
    );
    expectAllOn(world, fleet, 'ClusterAPI');
  });

  it('a CAPI MachineSet changed while its Machines return to MachineAPI: they go back to ClusterAPI with it, then all migrate again', () => {
    const { world, fleet } = clusterApiWorld();
    fleet.handshakes = false;
    wish(world, 'MachineAPI');
    world.converge();
    expect(migration(world.mapi)?.reason).to.equal(MigrationReason.WaitingForMachines);
    const mirror = world.mirror!;
    mirror.spec.deletion = { order: 'Oldest' };
    mirror.metadata.generation! += 1;
    fleet.handshakes = true;
    const notes = notesOf(world.converge(60));
    const back = notes.indexOf('leaving Migrating: ClusterAPI is authoritative');
    expect(notes.indexOf('handing Machine m1 to ClusterAPI')).to.be.within(0, back);
    expect(notes.indexOf('unpausing the CAPI machine set again')).to.be.within(0, back);
    expect(notes.lastIndexOf('handing Machine m1 to MachineAPI')).to.be.greaterThan(back);
    expectAllOn(world, fleet, 'MachineAPI');
    expect(world.mapi?.spec.deletePolicy).to.equal('Oldest');
  });

  for (const to of ['ClusterAPI', 'MachineAPI'] as const) {
    const from = to === 'ClusterAPI' ? 'MachineAPI' : 'ClusterAPI';
    const start = from === 'MachineAPI' ? fleetWorld : clusterApiWorld;

    it(`${from} → ${to}, scaled again and again on ${from} while its Machines move: no restart, the last count carried over`, () => {
      const { world, fleet } = start();
      fleet.handshakes = false;
      wish(world, to);
      world.converge();
      expect(migration(world.mapi)?.reason).to.equal(MigrationReason.WaitingForMachines);
      const old = from === 'MachineAPI' ? world.mapi! : world.mirror!;
      for (const replicas of [5, 2, 4]) {
        old.spec.replicas = replicas;
        old.metadata.generation! += 1;
        world.converge();
        expect(migration(world.mapi)?.reason, `at ${replicas}`).to.equal(
          MigrationReason.WaitingForMachines,
        );
      }
      fleet.handshakes = true;
      world.othersAct();
      const notes = notesOf(world.converge(60));
      expect(notes.filter((n) => n.startsWith('leaving Migrating'))).to.deep.equal([
        `leaving Migrating: ${to} is authoritative`,
      ]);
      const carried =
        to === 'ClusterAPI'
          ? "carrying the MAPI machine set's 4 replicas over to the CAPI one"
          : "carrying the CAPI machine set's 4 replicas over to the MAPI one";
      expect(notes).to.include(carried);
      expectAllOn(world, fleet, to);
      expect([world.mapi?.spec.replicas, world.mirror?.spec.replicas]).to.deep.equal([4, 4]);
    });
  }

  for (const to of ['ClusterAPI', 'MachineAPI'] as const) {
    const from = to === 'ClusterAPI' ? 'MachineAPI' : 'ClusterAPI';
    const start = from === 'MachineAPI' ? fleetWorld : clusterApiWorld;
    const total = (() => {
      const { world } = start();
      wish(world, to);
      return world.converge().length;
    })();

    it(`${from} → ${to} with Machines: cancelled after any step, the MachineSet and every Machine return to ${from}`, () => {
      for (let k = 0; k <= total; k++) {
        const { world, fleet } = start();
        wish(world, to);
        for (let i = 0; i < k; i++) world.apply(world.plan());
        wish(world, from);
        world.converge(60);
        // After the last step the cancellation is a migration back: the same end.
        expectAllOn(world, fleet, from);
      }
    });
  }

  it('reads its Machines only while a migration is wanted or under way, as the watch that wakes it assumes', () => {
    // Through a migration there and back, at every state: where migrationWantedOrUnderWay says
    // no, the handshake plans the same with the Machines, with none, and with none mirrored.
    const { world, fleet } = fleetWorld();
    const states: boolean[] = [];
    const check = () => {
      const observed = world.observe();
      const unmirrored = {
        mapi: [...fleet.mapi.values()].map((m) => ({ ...m, status: {} })),
        capi: [],
      };
      const plans = [observed, { ...observed, machines: { mapi: [], capi: [] } }].map(
        planMachineSetHandshake,
      );
      plans.push(planMachineSetHandshake({ ...observed, machines: unmirrored }));
      const reads = migrationWantedOrUnderWay(world.mapi!);
      states.push(reads);
      if (!reads) expect(plans[1]).to.deep.equal(plans[0]).and.deep.equal(plans[2]);
      return reads && JSON.stringify(plans[0]) !== JSON.stringify(plans[2]);
    };
    let dependedOnMachines = false;
    for (const to of ['ClusterAPI', 'MachineAPI'] as const) {
      dependedOnMachines = check() || dependedOnMachines;
      wish(world, to);
      for (let i = 0; i < 60; i++) {
        dependedOnMachines = check() || dependedOnMachines;
        const step = world.plan();
        if (step.kind === 'done') break;
        world.apply(step);
      }
      expectAllOn(world, fleet, to);
    }
    expect(states).to.include(false).and.to.include(true);
    expect(dependedOnMachines, 'some state where the Machines decide the plan').to.equal(true);
  });
});
