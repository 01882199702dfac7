import { expect } from 'chai';
import { clusterFacts, reportMachineSet } from '../../../../src/cli/check/report.js';
import type { Selector } from '../../../../src/cli/migrate/selector.js';
import { parseSelector } from '../../../../src/cli/migrate/selector.js';
import {
  judgeWave,
  operatorForWave,
  planMigration,
  selectMachineSets,
  type Candidate,
  type InFlight,
} from '../../../../src/cli/migrate/plan.js';
import {
  arrived,
  failureOf,
  machineChanges,
  machineSnapshot,
  objectsOf,
  phaseOf,
  progressOf,
} from '../../../../src/cli/migrate/state.js';
import { mapiCondition } from '../plugin/objects.js';
import { fleetOf, INFRASTRUCTURE, machinePair, machineSet, ON_CLUSTER_API } from './fleet.js';

const facts = clusterFacts(INFRASTRUCTURE, { capiNamespace: 'openshift-cluster-api' });

describe('migrate: one MachineSet from its objects', () => {
  it('pending, cancel, moving, done', () => {
    const fleet = fleetOf(
      [
        machineSet('never'),
        machineSet('leaving', {
          spec: 'MachineAPI',
          status: 'Migrating',
          synchronizedAPI: 'ClusterAPI',
        }),
        machineSet('asked', {
          spec: 'ClusterAPI',
          status: 'MachineAPI',
          migration: 'WaitingForSynchronization',
        }),
        machineSet('there', { ...ON_CLUSTER_API, synchronizedGeneration: 5 }),
      ],
      [machinePair('asked-1', 'asked')],
    );
    const phase = (name: string) => phaseOf(objectsOf(fleet, name)!, 'ClusterAPI');
    expect(['never', 'leaving', 'asked', 'there'].map(phase)).to.deep.equal([
      'pending',
      'cancel',
      'moving',
      'done',
    ]);
    expect(progressOf(objectsOf(fleet, 'asked')!, 'ClusterAPI')).to.deep.include({
      authority: 'ClusterAPI→MachineAPI',
      step: 'WaitingForSynchronization',
      machines: { onTarget: 0, total: 1 },
    });
  });

  it('has arrived only with Synchronized=True at the new authority’s generation, its Machines too', () => {
    const at = (syncGen: number, machineGen: number) =>
      fleetOf(
        [machineSet('m', { ...ON_CLUSTER_API, synchronizedGeneration: syncGen })],
        [machinePair('m-1', 'm', { ...ON_CLUSTER_API, synchronizedGeneration: machineGen })],
      );
    // the CAPI MachineSet is at generation 5, the CAPI Machine at 1
    expect(arrived(objectsOf(at(5, 1), 'm')!, 'ClusterAPI')).to.equal(true);
    expect(arrived(objectsOf(at(3, 1), 'm')!, 'ClusterAPI'), 'MAPI generation').to.equal(false);
    expect(arrived(objectsOf(at(0, 1), 'm')!, 'ClusterAPI'), 'just switched').to.equal(false);
    expect(arrived(objectsOf(at(5, 2), 'm')!, 'ClusterAPI'), 'a Machine behind').to.equal(false);
    expect(arrived(objectsOf(at(5, 1), 'm')!, 'MachineAPI')).to.equal(false);
  });

  it('fails on what will not resolve by itself, not on a retried write', () => {
    const failing = (state: Parameters<typeof machineSet>[1]) =>
      failureOf(objectsOf(fleetOf([machineSet('m', state)]), 'm'), 'ClusterAPI');
    expect(failing({ spec: 'ClusterAPI', status: 'Migrating' })).to.equal(undefined);
    expect(failing({ spec: 'MachineAPI' })).to.match(/withdrew or cancelled/);
    const refused = mapiCondition(
      'Synchronized',
      'False',
      'FailedToUpdateCAPIMachineSet',
      'The API server refused unpausing the CAPI machine set (MachineSet x/m): denied. Fix the MachineSet (or what refuses it); the write is tried again when something changes, and otherwise within 5 minutes.',
    );
    expect(failing({ spec: 'ClusterAPI', status: 'Migrating', synchronized: refused })).to.match(
      /^Synchronized=False, reason FailedToUpdateCAPIMachineSet: The API server refused unpausing/,
    );
    const retried = mapiCondition(
      'Synchronized',
      'False',
      'Retrying',
      'Failed x: 503. Retrying with backoff.',
    );
    expect(failing({ spec: 'ClusterAPI', synchronized: retried })).to.equal(undefined);
    // the message alone does not make a failure one the controller retries
    const sameWords = mapiCondition(
      'Synchronized',
      'False',
      'FailedToUpdateCAPIMachineSet',
      'Failed x: 503. Retrying with backoff.',
    );
    expect(failing({ spec: 'ClusterAPI', synchronized: sameWords })).to.match(
      /^Synchronized=False/,
    );
    expect(failureOf(undefined, 'ClusterAPI')).to.match(/gone/);
  });

  it('tells machines created, deleted or replaced from mirrors appearing', () => {
    const a = machinePair('m-a', 'm');
    const b = machinePair('m-b', 'm');
    const before = machineSnapshot(objectsOf(fleetOf([machineSet('m')], [a, b]), 'm')!);
    const same = fleetOf([machineSet('m')], [a, b]);
    expect(machineChanges(before, objectsOf(same, 'm')!)).to.deep.equal([]);

    const c = machinePair('m-c', 'm');
    const replaced = machinePair('m-b', 'm');
    replaced.capi.metadata.uid = 'another';
    const changed = fleetOf([machineSet('m')], [replaced, c]);
    expect(machineChanges(before, objectsOf(changed, 'm')!)).to.deep.equal([
      'MAPI Machine m-a was deleted',
      'CAPI Machine m-a was deleted',
      'CAPI Machine m-b was replaced',
      'Machine m-c was created',
    ]);
  });
});

describe('migrate: selection and waves', () => {
  const sets = [
    machineSet('b', { labels: { tier: 'gold' } }),
    machineSet('a', { labels: { tier: 'silver' } }),
    machineSet('c', { labels: { tier: 'gold' } }),
  ];

  it('by name (reporting the missing), by selector, all; sorted', () => {
    expect(selectMachineSets(sets, { kind: 'names', names: ['c', 'x', 'a'] })).to.deep.equal({
      selected: ['a', 'c'],
      missing: ['x'],
    });
    const selector = parseSelector('tier=gold') as Selector;
    expect(
      selectMachineSets(sets, { kind: 'selector', text: '', selector }).selected,
    ).to.deep.equal(['b', 'c']);
    expect(selectMachineSets(sets, { kind: 'all' }).selected).to.deep.equal(['a', 'b', 'c']);
  });

  const candidate = (name: string, phase: Candidate['phase'], blocked = false): Candidate => ({
    name,
    phase,
    authority: 'MachineAPI',
    blocking: blocked ? [{ stage: 'mirror', path: 'spec.x', message: 'no' }] : [],
  });

  it('six MachineSets two at a time: three waves, in name order', () => {
    const plan = planMigration(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => candidate(n, 'pending')),
      'ClusterAPI',
      2,
      false,
    );
    expect(plan.waves.map((w) => w.map((s) => `${s.name}:${s.action}`))).to.deep.equal([
      ['a:patch', 'b:patch'],
      ['c:patch', 'd:patch'],
      ['e:patch', 'f:patch'],
    ]);
    expect(plan.refused).to.equal(false);
  });

  it('resuming: what is moving already comes first and is waited for, what is done is left', () => {
    const plan = planMigration(
      [
        candidate('a', 'done'),
        candidate('b', 'done'),
        candidate('c', 'moving'),
        candidate('d', 'pending'),
        candidate('e', 'cancel'),
        candidate('f', 'pending'),
      ],
      'ClusterAPI',
      2,
      false,
    );
    expect(plan.waves.map((w) => w.map((s) => `${s.name}:${s.action}`))).to.deep.equal([
      ['c:wait', 'd:patch'],
      ['e:cancel', 'f:patch'],
    ]);
    expect(plan.done).to.deep.equal(['a', 'b']);
  });

  it('refuses when one cannot migrate; skips it with --skip-blocked', () => {
    const candidates = [candidate('a', 'pending'), candidate('b', 'pending', true)];
    const refused = planMigration(candidates, 'ClusterAPI', 1, false);
    expect(refused.refused).to.equal(true);
    expect(refused.blocked.map((b) => b.name)).to.deep.equal(['b']);
    const skipping = planMigration(candidates, 'ClusterAPI', 1, true);
    expect(skipping.refused).to.equal(false);
    expect(skipping.waves.flat().map((s) => s.name)).to.deep.equal(['a']);
  });

  it('the checks are check’s own: a MachineSet that cannot convert names its field', () => {
    const { blocking } = reportMachineSet(machineSet('bad', { broken: true }), facts);
    expect(blocking.map((p) => p.path)).to.include('spec.deletePolicy');
    expect(reportMachineSet(machineSet('good'), facts).blocking).to.deep.equal([]);
  });
});

describe('migrate: is the wave done?', () => {
  const START = 1_000_000;
  const member = (fleet: ReturnType<typeof fleetOf>, name: string): InFlight => ({
    name,
    since: START,
    machines: machineSnapshot(objectsOf(fleet, name)!),
  });
  const before = fleetOf([machineSet('m')], [machinePair('m-1', 'm')]);
  const wave = [member(before, 'm')];
  const there = fleetOf(
    [machineSet('m', { ...ON_CLUSTER_API, synchronizedGeneration: 5 })],
    [machinePair('m-1', 'm', { ...ON_CLUSTER_API, synchronizedGeneration: 1 })],
  );
  const healthy = { kind: 'healthy' } as const;

  it('waits, then is done once all arrived and the ClusterOperator is not Degraded', () => {
    const moving = fleetOf(
      [
        machineSet('m', {
          spec: 'ClusterAPI',
          status: 'Migrating',
          migration: 'WaitingForMachines',
        }),
      ],
      [machinePair('m-1', 'm')],
    );
    expect(judgeWave(wave, moving, 'ClusterAPI', healthy, START + 1000, 60_000)).to.deep.equal({
      kind: 'waiting',
      reason: 'waiting for m',
    });
    expect(judgeWave(wave, there, 'ClusterAPI', healthy, START + 1000, 60_000)).to.deep.equal({
      kind: 'done',
    });
    expect(judgeWave(wave, there, 'ClusterAPI', { kind: 'absent' }, START, 60_000).kind).to.equal(
      'done',
    );
    const degraded = { kind: 'degraded', message: 'MigrationBlocked: x' } as const;
    expect(judgeWave(wave, there, 'ClusterAPI', degraded, START + 1000, 60_000)).to.deep.equal({
      kind: 'waiting',
      reason: 'the ClusterOperator is Degraded: MigrationBlocked: x',
    });
    expect(judgeWave(wave, there, 'ClusterAPI', degraded, START + 61_000, 60_000).kind).to.equal(
      'failed',
    );
  });

  it('fails on a timeout, saying where it stood', () => {
    const stuck = fleetOf(
      [machineSet('m', { spec: 'ClusterAPI', status: 'Migrating', migration: 'WaitingForPause' })],
      [machinePair('m-1', 'm')],
    );
    expect(judgeWave(wave, stuck, 'ClusterAPI', healthy, START + 61_000, 60_000)).to.deep.equal({
      kind: 'failed',
      name: 'm',
      message:
        'not on ClusterAPI after 60s (--timeout): authority ClusterAPI→Migrating, step WaitingForPause, Machines 0/1 on ClusterAPI, Synchronized True',
    });
  });

  it('fails when a machine was created or deleted, even once arrived', () => {
    const grown = fleetOf(there.mapiMachineSets, [
      machinePair('m-1', 'm', { ...ON_CLUSTER_API, synchronizedGeneration: 1 }),
      machinePair('m-2', 'm', { ...ON_CLUSTER_API, synchronizedGeneration: 1 }),
    ]);
    const verdict = judgeWave(wave, grown, 'ClusterAPI', healthy, START, 60_000);
    expect(verdict).to.deep.equal({
      kind: 'failed',
      name: 'm',
      message: 'a machine was created or deleted during its migration: Machine m-2 was created',
    });
  });

  it('a ClusterOperator Degraded as it was when the wave started is not the wave’s doing', () => {
    const before = { kind: 'degraded', message: 'SynchronizationFailed: broken' } as const;
    expect(operatorForWave(before, before)).to.deep.equal({ kind: 'healthy' });
    const other = { kind: 'degraded', message: 'MigrationBlocked: m' } as const;
    expect(operatorForWave(before, other)).to.equal(other);
    expect(operatorForWave({ kind: 'healthy' }, before)).to.equal(before);
  });
});
