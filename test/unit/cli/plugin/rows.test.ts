import { expect } from 'chai';
import { machineRow, machineSetRow } from '../../../../src/cli/plugin/rows.js';
import { MigrationReason } from '../../../../src/migration/status.js';
import {
  capiCondition,
  capiMachine,
  capiMachineSet,
  capiPaused,
  FIVE_MINUTES_AGO,
  mapiCondition,
  mapiMachine,
  mapiMachineSet,
  mapiPaused,
  synchronizedTrue,
} from './objects.js';

describe('plugin rows: a MAPI MachineSet and its CAPI mirror', () => {
  it('Machine API authoritative and synchronized: one authority, True, the paused mirror', () => {
    expect(machineSetRow(mapiMachineSet(), capiMachineSet())).to.deep.equal({
      name: 'workers-a',
      authority: 'MachineAPI',
      synchronized: 'True',
      synchronizedSince: FIVE_MINUTES_AGO,
      generation: '3/3',
      mirror: 'workers-a',
      paused: 'CAPI',
      template: 'workers-a-0123456789',
      replicas: '3/3 ready 3/3',
      step: '-',
      message: '-',
    });
  });

  it('Cluster API authoritative: the generation compared is the CAPI MachineSet’s, MAPI is paused', () => {
    const mapi = mapiMachineSet('workers-a', {
      generation: 9,
      spec: { authoritativeAPI: 'ClusterAPI' },
      status: {
        authoritativeAPI: 'ClusterAPI',
        synchronizedGeneration: 4,
        conditions: [synchronizedTrue(), mapiPaused('True')],
      },
    });
    const capi = capiMachineSet('workers-a', {
      generation: 5,
      status: { conditions: [capiPaused('False')] },
    });
    const row = machineSetRow(mapi, capi);
    expect(row).to.include({ authority: 'ClusterAPI', generation: '4/5', paused: 'MAPI' });
    expect(row.step).to.equal('-');
  });

  describe('Migrating: the step is the MigrationProgressing reason', () => {
    const steps = [
      MigrationReason.WaitingForPause,
      MigrationReason.WaitingForMachines,
      MigrationReason.WaitingForClusterAPIMachineSet,
      MigrationReason.Restarting,
    ];
    for (const reason of steps) {
      it(reason, () => {
        const mapi = mapiMachineSet('workers-a', {
          spec: { authoritativeAPI: 'ClusterAPI' },
          status: {
            authoritativeAPI: 'Migrating',
            synchronizedAPI: 'MachineAPI',
            conditions: [
              synchronizedTrue(),
              mapiPaused('True'),
              mapiCondition('MigrationProgressing', 'True', reason, `waiting: ${reason}`),
            ],
          },
        });
        const row = machineSetRow(mapi, capiMachineSet());
        expect(row).to.include({
          authority: 'ClusterAPI→Migrating',
          step: reason,
          paused: 'MAPI,CAPI',
          // the side the migration started from is the one compared
          generation: '3/3',
          message: `waiting: ${reason}`,
        });
      });
    }

    it('migrating back: the generation compared is the CAPI side’s, where it started', () => {
      const mapi = mapiMachineSet('workers-a', {
        generation: 8,
        spec: { authoritativeAPI: 'MachineAPI' },
        status: {
          authoritativeAPI: 'Migrating',
          synchronizedAPI: 'ClusterAPI',
          synchronizedGeneration: 2,
          conditions: [mapiCondition('MigrationProgressing', 'True', 'WaitingForPause')],
        },
      });
      const row = machineSetRow(mapi, capiMachineSet('workers-a', { generation: 2 }));
      expect(row).to.include({
        authority: 'MachineAPI→Migrating',
        generation: '2/2',
        step: 'WaitingForPause',
      });
    });

    it('at the gate (not Migrating yet): the spec differs and the waiting reason shows', () => {
      const mapi = mapiMachineSet('workers-a', {
        spec: { authoritativeAPI: 'ClusterAPI' },
        status: {
          conditions: [
            synchronizedTrue(),
            mapiCondition('MigrationProgressing', 'True', 'WaitingForSynchronization', 'behind'),
          ],
        },
      });
      expect(machineSetRow(mapi, capiMachineSet())).to.include({
        authority: 'ClusterAPI→MachineAPI',
        step: 'WaitingForSynchronization',
      });
    });

    it('finished: MigrationProgressing=False shows no step', () => {
      const mapi = mapiMachineSet('workers-a', {
        spec: { authoritativeAPI: 'ClusterAPI' },
        status: {
          authoritativeAPI: 'ClusterAPI',
          conditions: [
            synchronizedTrue(),
            mapiCondition('MigrationProgressing', 'False', 'MigrationCompleted'),
          ],
        },
      });
      expect(machineSetRow(mapi, capiMachineSet()).step).to.equal('-');
    });

    it('Migrating without a MigrationProgressing condition (another migration controller): -', () => {
      const mapi = mapiMachineSet('workers-a', {
        spec: { authoritativeAPI: 'ClusterAPI' },
        status: { authoritativeAPI: 'Migrating', conditions: [synchronizedTrue()] },
      });
      expect(machineSetRow(mapi, capiMachineSet()).step).to.equal('-');
    });
  });

  it('Synchronized=False: status and reason, and its message in the wide column', () => {
    const mapi = mapiMachineSet('workers-a', {
      status: {
        synchronizedGeneration: 2,
        conditions: [
          mapiCondition(
            'Synchronized',
            'False',
            'FailedToConvertMAPIMachineSetToCAPI',
            'spec.template.spec.providerSpec.value.ami.arn:\n  not supported',
          ),
        ],
      },
    });
    expect(machineSetRow(mapi, capiMachineSet())).to.include({
      synchronized: 'False FailedToConvertMAPIMachineSetToCAPI',
      generation: '2/3',
      message: 'spec.template.spec.providerSpec.value.ami.arn: not supported',
    });
  });

  it('Synchronized=Unknown after a migration: status and reason', () => {
    const mapi = mapiMachineSet('workers-a', {
      status: {
        conditions: [mapiCondition('Synchronized', 'Unknown', 'AuthoritativeAPIChanged')],
      },
    });
    expect(machineSetRow(mapi, undefined).synchronized).to.equal('Unknown AuthoritativeAPIChanged');
  });

  it('no mirror: MIRROR and TEMPLATE are -, CAPI replicas unknown, only MAPI reported', () => {
    const row = machineSetRow(mapiMachineSet(), undefined);
    expect(row).to.include({
      mirror: '-',
      template: '-',
      replicas: '3/- ready 3/-',
      paused: 'none',
    });
  });

  it('paused on one side only, or not reported yet by its owner', () => {
    const running = capiMachineSet('workers-a', { status: { conditions: [capiPaused('False')] } });
    expect(machineSetRow(mapiMachineSet(), running).paused).to.equal('none');
    const unreported = capiMachineSet('workers-a', { status: { conditions: [] } });
    expect(machineSetRow(mapiMachineSet(), unreported).paused).to.equal('CAPI?');
    const mapiUnreported = mapiMachineSet('workers-a', { status: { conditions: [] } });
    expect(machineSetRow(mapiUnreported, capiMachineSet()).paused).to.equal('CAPI,MAPI?');
    // a condition of another type is not a Paused report
    const other = capiMachineSet('workers-a', {
      status: { conditions: [capiCondition('Available', 'True')] },
    });
    expect(machineSetRow(mapiMachineSet(), other).paused).to.equal('CAPI?');
  });

  it('the paused annotation alone says nothing: only the owners’ conditions count', () => {
    const capi = capiMachineSet('workers-a', { status: { conditions: [capiPaused('False')] } });
    capi.metadata.annotations = { 'cluster.x-k8s.io/paused': 'true' };
    expect(machineSetRow(mapiMachineSet(), capi).paused).to.equal('none');
  });

  it('replicas differing between the sides, desired and ready', () => {
    const mapi = mapiMachineSet('workers-a', {
      spec: { replicas: 3 },
      status: { readyReplicas: 2 },
    });
    const capi = capiMachineSet('workers-a', { replicas: 5, status: { readyReplicas: 1 } });
    expect(machineSetRow(mapi, capi).replicas).to.equal('3/5 ready 2/1');
    const noStatus = capiMachineSet('workers-a', { replicas: 5 });
    delete noStatus.status;
    expect(machineSetRow(mapi, noStatus).replicas).to.equal('3/5 ready 2/0');
  });

  it('a MachineSet nobody has touched yet: no status at all', () => {
    const mapi = mapiMachineSet();
    delete mapi.status;
    expect(machineSetRow(mapi, undefined)).to.deep.equal({
      name: 'workers-a',
      authority: 'MachineAPI→-',
      synchronized: '-',
      generation: '-/3',
      mirror: '-',
      paused: 'MAPI?',
      template: '-',
      replicas: '3/- ready 0/-',
      step: '-',
      message: '-',
    });
  });

  it('a MachineSet without spec (its CRD admits one): dashes where spec would speak', () => {
    const mapi = mapiMachineSet();
    delete (mapi as { spec?: unknown }).spec;
    delete mapi.status;
    expect(machineSetRow(mapi, undefined)).to.include({
      authority: '-',
      replicas: '-/- ready 0/-',
    });
  });
});

describe('plugin rows: a MAPI Machine and its CAPI Machine', () => {
  it('mirrored under Machine API: its MachineSet, phase on both sides, the providerID', () => {
    const row = machineRow(
      mapiMachine('workers-a-x7k2p', { machineSet: 'workers-a' }),
      capiMachine('workers-a-x7k2p', { status: { phase: 'Provisioned' } }),
    );
    expect(row).to.deep.equal({
      name: 'workers-a-x7k2p',
      machineSet: 'workers-a',
      authority: 'MachineAPI',
      synchronized: 'True',
      synchronizedSince: FIVE_MINUTES_AGO,
      generation: '2/2',
      phase: 'Running/Provisioned',
      providerID: 'aws:///us-east-1a/i-0123456789abcdef0',
      paused: 'CAPI',
      step: '-',
      message: '-',
    });
  });

  it('the MachineSet from the label when there is no owner; - when neither', () => {
    const labelled = mapiMachine('m', {
      labels: { 'machine.openshift.io/cluster-api-machineset': 'workers-b' },
    });
    expect(machineRow(labelled, undefined).machineSet).to.equal('workers-b');
    expect(machineRow(mapiMachine('m'), undefined).machineSet).to.equal('-');
  });

  it('no CAPI Machine: its phase is -, and its providerID comes from MAPI', () => {
    const row = machineRow(mapiMachine('m', { status: { phase: 'Provisioned' } }), undefined);
    expect(row).to.include({ phase: 'Provisioned/-', paused: 'none' });
  });

  it('providerIDs that differ show both; one missing shows the other', () => {
    const differing = machineRow(
      mapiMachine('m'),
      capiMachine('m', { providerID: 'aws:///us-east-1b/i-0fedcba9876543210' }),
    );
    expect(differing.providerID).to.equal(
      'aws:///us-east-1a/i-0123456789abcdef0 (CAPI: aws:///us-east-1b/i-0fedcba9876543210)',
    );
    const mapiWithout = mapiMachine('m', { spec: { providerID: undefined } });
    expect(machineRow(mapiWithout, capiMachine('m')).providerID).to.equal(
      'aws:///us-east-1a/i-0123456789abcdef0',
    );
    expect(machineRow(mapiWithout, undefined).providerID).to.equal('-');
  });

  it('a Machine migrating on its own shows its step', () => {
    const machine = mapiMachine('m', {
      spec: { authoritativeAPI: 'ClusterAPI' },
      status: {
        authoritativeAPI: 'Migrating',
        synchronizedAPI: 'MachineAPI',
        conditions: [mapiCondition('MigrationProgressing', 'True', 'WaitingForPause')],
      },
    });
    expect(machineRow(machine, capiMachine('m'))).to.include({
      authority: 'ClusterAPI→Migrating',
      step: 'WaitingForPause',
    });
  });
});
