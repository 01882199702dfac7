import { expect } from 'chai';
import { ConversionReport } from '../../../../src/conversion/common/field-reader.js';
import {
  machineAnnotations,
  machineLabels,
  type MachineMetadataInput,
} from '../../../../src/conversion/common/machine-metadata.js';
import { emptyMapiMachine } from '../../../../src/conversion/common/mapi-machine-spec.js';

const TARGET = { object: 'the Cluster API Machine', path: 'metadata' };

function input(fields: Partial<MachineMetadataInput>): MachineMetadataInput {
  return { ...emptyMapiMachine(), ...fields };
}

describe('machine labels and annotations', () => {
  it("puts the Machine's and the Node's labels in one map, after the transforms", () => {
    const report = new ConversionReport();
    const labels = machineLabels(
      input({
        labels: [
          { key: 'machine.openshift.io/cluster-api-machine-role', value: 'worker', path: 'a' },
        ],
        nodeLabels: [{ key: 'team', value: 'blue', path: 'b' }],
      }),
      TARGET,
      'c1',
      report,
      [{ key: 'cluster.x-k8s.io/set-name', value: 'ms', reason: 'it belongs to ms' }],
    );
    expect(labels.toObject()).to.deep.equal({
      'node-role.kubernetes.io/worker': '',
      team: 'blue',
      'cluster.x-k8s.io/cluster-name': 'c1',
      'cluster.x-k8s.io/set-name': 'ms',
    });
    expect(report.errors).to.deep.equal([]);
  });

  it('reports a MAPI label that contradicts the cluster name on its own field', () => {
    const report = new ConversionReport();
    machineLabels(
      input({ nodeLabels: [{ key: 'cluster.x-k8s.io/cluster-name', value: 'other', path: 'n' }] }),
      TARGET,
      'c1',
      report,
    );
    expect(report.errors).to.deep.equal([
      {
        path: 'n',
        message:
          `is "other", but this cluster's Cluster API cluster is "c1"; remove the label or set ` +
          `it to "c1".`,
      },
    ]);
  });

  it('turns lifecycle hooks into annotations, and pauses whatever MAPI says', () => {
    const report = new ConversionReport();
    const annotations = machineAnnotations(
      input({
        annotations: [{ key: 'cluster.x-k8s.io/paused', value: 'no', path: 'a' }],
        nodeAnnotations: [{ key: 'note', value: 'x', path: 'b' }],
        preDrainHooks: [{ name: 'drain', owner: 'me', path: 'c' }],
        preTerminateHooks: [{ name: 'term', owner: 'you', path: 'd' }],
      }),
      TARGET,
      true,
      report,
    );
    expect(annotations.toObject()).to.deep.equal({
      note: 'x',
      'pre-drain.delete.hook.machine.cluster.x-k8s.io/drain': 'me',
      'pre-terminate.delete.hook.machine.cluster.x-k8s.io/term': 'you',
      'cluster.x-k8s.io/paused': 'true',
    });
    expect(report.errors).to.deep.equal([]);
  });
});
