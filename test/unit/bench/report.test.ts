import { expect } from 'chai';
import { perMinute, ratio, renderTable, renderWrites } from '../../../hack/bench/report.js';
import { RESULTS } from './sample-results.js';

describe('bench report', () => {
  it('divides by the floor only when there is something to divide by', () => {
    expect(ratio(7, 5)).to.equal(1.4);
    expect(ratio(1, 0)).to.equal(undefined);
    expect(ratio(undefined, 5)).to.equal(undefined);
  });

  it('prints ours, the floor and the ratio per phase and figure', () => {
    const lines = renderTable(RESULTS, ['initial', 'rotation', 'idle']).split('\n');
    expect(lines[0]).to.equal(
      '50 MachineSets; ours: node dist/main.js --workers 2; floor: floor script, 8 at a time',
    );
    expect(lines[1]).to.match(/^phase\s+figure\s+ours\s+floor\s+ours \/ floor$/);
    expect(lines).to.include.members([
      'initial  seconds                       12.0    8.0         1.50×',
      'initial  writes per MachineSet         7.00   5.00         1.40×',
      'initial  CPU ms per MachineSet         60.0   40.0         1.50×',
      'initial  API server CPU s              7.00      —             —',
      'initial  etcd CPU s                    1.50      —             —',
      // 7 s over 350 writes; the floor's sample has no writes to divide by.
      'initial  API server CPU ms per write  20.00      —             —',
      'idle     writes per MachineSet         0.00   0.00             —',
      'idle     peak RSS, MiB                  121      —             —',
      'idle     CPU s per minute              0.25      —             —',
      'idle     CPU s, minute 1               0.45      —             —',
      'idle     CPU s, minute 2               0.05      —             —',
      'idle     RSS at the end, MiB             96      —             —',
    ]);
    expect(lines.some((l) => l.startsWith('rotation'))).to.equal(false);
  });

  it('gives CPU seconds per minute', () => {
    expect(perMinute({ seconds: 30, writes: {}, writesPerMachineSet: 0, cpuSeconds: 1 })).to.equal(
      2,
    );
  });

  it('lists the writes by verb and resource', () => {
    expect(renderWrites(RESULTS, ['initial', 'idle']).split('\n')).to.deep.equal([
      'ours  initial  POST machinesets.cluster.x-k8s.io 50, PATCH machinesets.machine.openshift.io 300',
      'ours  idle     none',
      'floor initial  none',
      'floor idle     none',
    ]);
  });
});
