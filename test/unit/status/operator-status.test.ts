// The ClusterOperator's conditions for each state of the cluster (product.md, "The controller's
// own health"): healthy, stuck MachineSets, no Infrastructure, refused writes, migrations.
import { expect } from 'chai';
import type { MapiMachineSet } from '../../../src/api/types.js';
import {
  deriveOperatorStatus,
  operatorStatusChanged,
  type OperatorCondition,
  type OperatorFacts,
} from '../../../src/status/operator-status.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const MINUTE = 60_000;

function machineSet(
  name: string,
  synchronized: { status: 'True' | 'False' | 'Unknown'; reason: string; since: Date },
  options: {
    generation?: number;
    synchronizedGeneration?: number;
    spec?: string;
    status?: string;
    migration?: { status: 'True' | 'False'; reason: string; since: Date };
  } = {},
): MapiMachineSet {
  const generation = options.generation ?? 2;
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    metadata: { name, namespace: 'openshift-machine-api', generation },
    spec: { authoritativeAPI: options.spec ?? 'MachineAPI' },
    status: {
      authoritativeAPI: options.status ?? 'MachineAPI',
      synchronizedGeneration: options.synchronizedGeneration ?? generation,
      conditions: [
        {
          type: 'Synchronized',
          status: synchronized.status,
          reason: synchronized.reason,
          lastTransitionTime: synchronized.since.toISOString(),
        },
        ...(options.migration
          ? [
              {
                type: 'MigrationProgressing',
                status: options.migration.status,
                reason: options.migration.reason,
                lastTransitionTime: options.migration.since.toISOString(),
              },
            ]
          : []),
      ],
    },
  } as MapiMachineSet;
}

const synced = (name: string) =>
  machineSet(name, { status: 'True', reason: 'ResourceSynchronized', since: NOW });

function facts(overrides: Partial<OperatorFacts> = {}): OperatorFacts {
  return {
    now: NOW,
    version: '0.1.0',
    mapiNamespace: 'openshift-machine-api',
    capiNamespace: 'openshift-cluster-api',
    synced: true,
    infrastructureFound: true,
    platform: 'AWS',
    platformSupported: true,
    clusterName: 'demo-abc12',
    clusterFound: true,
    machineSets: [synced('a'), synced('b')],
    refusedWrites: [],
    degradedAfterMs: 15 * MINUTE,
    ...overrides,
  };
}

function condition(f: OperatorFacts, type: OperatorCondition['type']): OperatorCondition {
  return deriveOperatorStatus(f).conditions.find((c) => c.type === type)!;
}

describe('ClusterOperator status', () => {
  it('healthy: Available, not Progressing, not Degraded, Upgradeable; versions and related objects', () => {
    const status = deriveOperatorStatus(facts());
    expect(status.conditions.map((c) => [c.type, c.status, c.reason])).to.deep.equal([
      ['Available', 'True', 'AsExpected'],
      ['Progressing', 'False', 'AsExpected'],
      ['Degraded', 'False', 'AsExpected'],
      ['Upgradeable', 'True', 'AsExpected'],
    ]);
    expect(status.versions).to.deep.equal([{ name: 'operator', version: '0.1.0' }]);
    expect(status.relatedObjects).to.deep.include({
      group: 'machine.openshift.io',
      resource: 'machinesets',
      namespace: 'openshift-machine-api',
      name: '',
    });
    expect(status.relatedObjects).to.deep.include({
      group: '',
      resource: 'namespaces',
      name: 'openshift-cluster-api',
    });
    for (const c of status.conditions) expect(c.message).to.not.equal('');
  });

  it('a MachineSet Synchronized=False beyond the threshold: Degraded, naming it and its reason', () => {
    const stuck = machineSet('stuck', {
      status: 'False',
      reason: 'FailedToConvertMAPIMachineSetToCAPI',
      since: new Date(NOW.getTime() - 16 * MINUTE),
    });
    const degraded = condition(facts({ machineSets: [synced('a'), stuck] }), 'Degraded');
    expect(degraded).to.include({ status: 'True', reason: 'MachineSetsNotSynchronized' });
    expect(degraded.message).to.include('stuck (FailedToConvertMAPIMachineSetToCAPI)');
    expect(degraded.message).to.include('more than 15m');
    const progressing = condition(facts({ machineSets: [synced('a'), stuck] }), 'Progressing');
    expect(progressing).to.include({ status: 'False' });
    expect(progressing.message).to.equal(
      '1 of 2 MachineSets are synchronized; the others wait for a fix (see Degraded).',
    );
    for (const [ms, text] of [
      [5000, 'more than 5s'],
      [90 * 60_000, 'more than 1h30m'],
      [2 * 3_600_000, 'more than 2h'],
    ] as const) {
      const f = facts({
        machineSets: [stuck],
        degradedAfterMs: ms,
        now: new Date(NOW.getTime() + 3 * 3_600_000),
      });
      expect(condition(f, 'Degraded').message).to.include(text);
    }
  });

  it('a MachineSet Synchronized=False within the threshold is Progressing, not Degraded', () => {
    const fresh = machineSet('fresh', {
      status: 'False',
      reason: 'FailedToCreateCAPIMachineSet',
      since: new Date(NOW.getTime() - 14 * MINUTE),
    });
    const f = facts({ machineSets: [fresh] });
    expect(condition(f, 'Degraded')).to.include({ status: 'False' });
    expect(condition(f, 'Progressing')).to.include({ status: 'True', reason: 'Synchronizing' });
    expect(condition(f, 'Progressing').message).to.include('fresh');
  });

  it('a MachineSet behind its generation is Progressing', () => {
    const behind = machineSet(
      'behind',
      { status: 'True', reason: 'ResourceSynchronized', since: NOW },
      { generation: 3, synchronizedGeneration: 2 },
    );
    expect(condition(facts({ machineSets: [behind] }), 'Progressing')).to.include({
      status: 'True',
      reason: 'Synchronizing',
    });
  });

  it('no Infrastructure: Degraded InfrastructureMissing, saying what to check', () => {
    const degraded = condition(
      facts({ infrastructureFound: false, platform: undefined, platformSupported: false }),
      'Degraded',
    );
    expect(degraded).to.include({ status: 'True', reason: 'InfrastructureMissing' });
    expect(degraded.message).to.include('oc get infrastructure cluster');
  });

  it('an unsupported platform: Degraded PlatformUnsupported', () => {
    expect(
      condition(facts({ platform: 'BareMetal', platformSupported: false }), 'Degraded'),
    ).to.include({ status: 'True', reason: 'PlatformUnsupported' });
  });

  it('no CAPI Cluster: Degraded ClusterMissing naming it', () => {
    const degraded = condition(facts({ clusterFound: false }), 'Degraded');
    expect(degraded).to.include({ status: 'True', reason: 'ClusterMissing' });
    expect(degraded.message).to.include('openshift-cluster-api/demo-abc12');
  });

  it('refused writes: Degraded WritesRefused naming the write; several problems at once', () => {
    const refused = { what: 'create machinesets.cluster.x-k8s.io', error: 'forbidden' };
    const one = condition(facts({ refusedWrites: [refused] }), 'Degraded');
    expect(one).to.include({ status: 'True', reason: 'WritesRefused' });
    expect(one.message).to.include('create machinesets.cluster.x-k8s.io (forbidden)');
    const two = condition(facts({ refusedWrites: [refused], clusterFound: false }), 'Degraded');
    expect(two.reason).to.equal('MultipleProblems');
    expect(two.message).to.include('refuses').and.include('demo-abc12');
  });

  it('a migration under way: Progressing MigrationInProgress and not Upgradeable', () => {
    const migrating = machineSet(
      'moving',
      { status: 'Unknown', reason: 'AuthoritativeAPIChanged', since: NOW },
      { spec: 'ClusterAPI', status: 'Migrating' },
    );
    const f = facts({ machineSets: [synced('a'), migrating] });
    expect(condition(f, 'Progressing')).to.include({
      status: 'True',
      reason: 'MigrationInProgress',
    });
    expect(condition(f, 'Upgradeable')).to.include({
      status: 'False',
      reason: 'MigrationInProgress',
    });
    expect(condition(f, 'Upgradeable').message).to.include('moving');
  });

  it('a migration request stuck at the gate is Degraded, neither Progressing nor blocking upgrades', () => {
    const cannotConvert = machineSet(
      'broken',
      {
        status: 'False',
        reason: 'FailedToConvertMAPIMachineSetToCAPI',
        since: new Date(NOW.getTime() - 16 * MINUTE),
      },
      {
        spec: 'ClusterAPI',
        status: 'MachineAPI',
        generation: 3,
        synchronizedGeneration: 2,
        migration: {
          status: 'True',
          reason: 'WaitingForSynchronization',
          since: new Date(NOW.getTime() - 16 * MINUTE),
        },
      },
    );
    const f = facts({ machineSets: [synced('a'), cannotConvert] });
    const degraded = condition(f, 'Degraded');
    expect(degraded).to.include({ status: 'True', reason: 'MigrationBlocked' });
    expect(degraded.message).to.include(
      'broken (MachineAPI → ClusterAPI: Synchronized=False, FailedToConvertMAPIMachineSetToCAPI)',
    );
    expect(degraded.message).to.include('more than 15m').and.include('spec.authoritativeAPI back');
    // Named once, as a blocked migration, not also as an unsynchronized MachineSet.
    expect(degraded.message).to.not.include('been Synchronized=False');
    expect(condition(f, 'Progressing')).to.include({ status: 'False', reason: 'AsExpected' });
    expect(condition(f, 'Upgradeable')).to.include({ status: 'True', reason: 'AsExpected' });
  });

  it('a migration request held by its Machines beyond the threshold is Degraded with that reason', () => {
    const held = machineSet(
      'held',
      { status: 'True', reason: 'ResourceSynchronized', since: NOW },
      {
        spec: 'ClusterAPI',
        status: 'MachineAPI',
        migration: {
          status: 'True',
          reason: 'MachinesNotMirrored',
          since: new Date(NOW.getTime() - 20 * MINUTE),
        },
      },
    );
    const f = facts({ machineSets: [held] });
    expect(condition(f, 'Degraded')).to.include({ status: 'True', reason: 'MigrationBlocked' });
    expect(condition(f, 'Degraded').message).to.include(
      'held (MachineAPI → ClusterAPI: MigrationProgressing=True, MachinesNotMirrored)',
    );
    expect(condition(f, 'Progressing')).to.include({ status: 'False' });
    expect(condition(f, 'Upgradeable')).to.include({ status: 'True' });
  });

  it('a migration request the sync is still catching up with is neither a migration nor Degraded', () => {
    const requested = machineSet(
      'requested',
      { status: 'True', reason: 'ResourceSynchronized', since: NOW },
      {
        spec: 'ClusterAPI',
        status: 'MachineAPI',
        generation: 3,
        synchronizedGeneration: 2,
        migration: { status: 'True', reason: 'WaitingForSynchronization', since: NOW },
      },
    );
    const f = facts({ machineSets: [requested] });
    expect(condition(f, 'Progressing')).to.include({ status: 'True', reason: 'Synchronizing' });
    expect(condition(f, 'Degraded')).to.include({ status: 'False' });
    expect(condition(f, 'Upgradeable')).to.include({ status: 'True' });
  });

  it('caches not synced: not Available', () => {
    expect(condition(facts({ synced: false }), 'Available')).to.include({
      status: 'False',
      reason: 'CachesNotSynced',
    });
  });

  it('names at most five MachineSets and counts the rest', () => {
    const many = Array.from({ length: 8 }, (_, i) =>
      machineSet(`ms-${i}`, { status: 'Unknown', reason: 'X', since: NOW }),
    );
    const message = condition(facts({ machineSets: many }), 'Progressing').message;
    expect(message).to.include('ms-4 and 3 more').and.not.include('ms-5');
  });

  it('keeps lastTransitionTime while a status stays, and moves it when the status changes', () => {
    const first = deriveOperatorStatus(facts());
    const later = { ...facts(), now: new Date(NOW.getTime() + 5 * MINUTE) };
    const same = deriveOperatorStatus(later, first);
    expect(same.conditions).to.deep.equal(first.conditions);
    expect(operatorStatusChanged(first, same)).to.equal(false);
    const broken = deriveOperatorStatus({ ...later, clusterFound: false }, first);
    const degraded = broken.conditions.find((c) => c.type === 'Degraded')!;
    expect(degraded.lastTransitionTime).to.equal('2026-03-01T12:05:00Z');
    expect(operatorStatusChanged(first, broken)).to.equal(true);
  });

  it('sees no change in a status that differs only in order or in fields it does not set', () => {
    const status = deriveOperatorStatus(facts());
    const stored = {
      ...status,
      conditions: [...status.conditions].reverse().map((c) => ({ ...c, extra: 1 })),
    };
    expect(operatorStatusChanged(stored, status)).to.equal(false);
    expect(operatorStatusChanged(undefined, status)).to.equal(true);
  });
});
