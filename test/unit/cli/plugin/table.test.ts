import { expect } from 'chai';
import fc from 'fast-check';
import { machineRow, machineSetRow } from '../../../../src/cli/plugin/rows.js';
import {
  formatAge,
  machineSetTable,
  machineTable,
  renderTable,
} from '../../../../src/cli/plugin/table.js';
import {
  capiMachine,
  capiMachineSet,
  mapiCondition,
  mapiMachine,
  mapiMachineSet,
  mapiPaused,
  NOW,
} from './objects.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const Y = 365 * D;

const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

describe('plugin table: ages as kubectl prints them', () => {
  const cases: [number, string][] = [
    [0, '0s'],
    [-1500, '0s'], // a clock a second ahead
    [-2 * S, '<invalid>'],
    [59 * S, '59s'],
    [119 * S + 999, '119s'],
    [2 * M, '2m'],
    [2 * M + 5 * S, '2m5s'],
    [9 * M + 59 * S, '9m59s'],
    [10 * M + 30 * S, '10m'],
    [179 * M, '179m'],
    [3 * H, '3h'],
    [3 * H + 7 * M, '3h7m'],
    [7 * H + 59 * M, '7h59m'],
    [8 * H + 30 * M, '8h'],
    [47 * H, '47h'],
    [2 * D, '2d'],
    [2 * D + 5 * H, '2d5h'],
    [8 * D + 5 * H, '8d'],
    [729 * D, '729d'],
    [2 * Y, '2y'],
    [3 * Y + 40 * D, '3y40d'],
    [9 * Y + 40 * D, '9y'],
  ];
  for (const [ms, text] of cases) {
    it(`${ms} ms → ${text}`, () => expect(formatAge(ago(ms), NOW)).to.equal(text));
  }

  it('no time, or one that is not a time: -', () => {
    expect(formatAge(undefined, NOW)).to.equal('-');
    expect(formatAge('yesterday', NOW)).to.equal('-');
  });

  it('never longer than 6 characters and never empty, for any past time', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 * Y }), (ms) => {
        const text = formatAge(ago(ms), NOW);
        expect(text).to.match(/^\d+[smhdy](\d+[smhd])?$/);
        expect(text.length).to.be.at.most(6);
      }),
    );
  });
});

describe('plugin table: rendering', () => {
  it('pads every column but the last to its widest cell, three spaces apart', () => {
    expect(
      renderTable(
        ['NAME', 'A', 'LAST'],
        [
          ['x', 'longer', 'v'],
          ['a-long-name', 'b', 'w w'],
        ],
      ),
    ).to.equal(
      [
        'NAME          A        LAST',
        'x             longer   v',
        'a-long-name   b        w w',
        '',
      ].join('\n'),
    );
  });

  it('the MachineSet table: every column, in order, ages from the given time', () => {
    const failing = mapiMachineSet('workers-b', {
      spec: { replicas: 2 },
      status: {
        readyReplicas: 1,
        synchronizedGeneration: 3,
        conditions: [
          mapiCondition(
            'Synchronized',
            'False',
            'FailedToConvertMAPIMachineSetToCAPI',
            'ami.arn: not supported',
            ago(3 * H),
          ),
          mapiPaused('False'),
        ],
      },
      generation: 4,
    });
    const migrating = mapiMachineSet('workers-c', {
      spec: { authoritativeAPI: 'ClusterAPI' },
      status: {
        authoritativeAPI: 'Migrating',
        synchronizedAPI: 'MachineAPI',
        conditions: [
          mapiCondition('Synchronized', 'True', 'ResourceSynchronized', '', ago(2 * D)),
          mapiPaused('True'),
          mapiCondition('MigrationProgressing', 'True', 'WaitingForMachines', '1 of 3 Machines'),
        ],
      },
    });
    const rows = [
      machineSetRow(mapiMachineSet(), capiMachineSet()),
      machineSetRow(failing, undefined),
      machineSetRow(migrating, capiMachineSet('workers-c')),
    ];
    expect(machineSetTable(rows, NOW)).to.equal(
      [
        'NAME        AUTHORITY              SYNCHRONIZED                                AGE   GENERATION   MIRROR      PAUSED      TEMPLATE               REPLICAS        STEP',
        'workers-a   MachineAPI             True                                        5m    3/3          workers-a   CAPI        workers-a-0123456789   3/3 ready 3/3   -',
        'workers-b   MachineAPI             False FailedToConvertMAPIMachineSetToCAPI   3h    3/4          -           none        -                      2/- ready 1/-   -',
        'workers-c   ClusterAPI→Migrating   True                                        2d    3/3          workers-c   MAPI,CAPI   workers-c-0123456789   3/3 ready 3/3   WaitingForMachines',
        '',
      ].join('\n'),
    );
    const wide = machineSetTable(rows, NOW, true).split('\n');
    expect(wide[0]).to.match(/ {3}STEP {3,}MESSAGE$/);
    expect(wide[2]).to.match(/ {3}ami\.arn: not supported$/);
    expect(wide[3]).to.match(/WaitingForMachines {3}1 of 3 Machines$/);
  });

  it('the Machine table: a smaller set of columns; wide adds age, generation, step, message', () => {
    const rows = [
      machineRow(
        mapiMachine('workers-a-x7k2p', { machineSet: 'workers-a' }),
        capiMachine('workers-a-x7k2p'),
      ),
    ];
    expect(machineTable(rows, NOW)).to.equal(
      [
        'NAME              MACHINESET   AUTHORITY    SYNCHRONIZED   PHASE             PROVIDERID                              PAUSED',
        'workers-a-x7k2p   workers-a    MachineAPI   True           Running/Running   aws:///us-east-1a/i-0123456789abcdef0   CAPI',
        '',
      ].join('\n'),
    );
    const [header, row] = machineTable(rows, NOW, true).split('\n');
    expect(header?.split(/\s+/)).to.deep.equal([
      'NAME',
      'MACHINESET',
      'AUTHORITY',
      'SYNCHRONIZED',
      'AGE',
      'GENERATION',
      'PHASE',
      'PROVIDERID',
      'PAUSED',
      'STEP',
      'MESSAGE',
    ]);
    expect(row?.split(/\s+/).slice(4, 6)).to.deep.equal(['5m', '2/2']);
  });
});
