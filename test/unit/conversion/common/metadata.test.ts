import { expect } from 'chai';
import {
  convertAnnotations,
  convertLabels,
  isControlPlane,
} from '../../../../src/conversion/common/metadata.js';

describe('label and annotation transforms', () => {
  it('turns role and type labels into node-role labels and drops instance facts', () => {
    expect(
      convertLabels({
        'machine.openshift.io/cluster-api-machine-role': 'worker',
        'machine.openshift.io/cluster-api-machine-type': 'infra',
        'machine.openshift.io/instance-type': 'm6i.xlarge',
        'machine.openshift.io/region': 'us-east-1',
        'machine.openshift.io/zone': 'us-east-1a',
        'machine.openshift.io/cluster-api-machineset': 'ms-a',
        team: 'blue',
      }),
    ).to.deep.equal({
      'node-role.kubernetes.io/worker': '',
      'node-role.kubernetes.io/infra': '',
      'machine.openshift.io/cluster-api-machineset': 'ms-a',
      team: 'blue',
    });
  });

  it('renames delete-machine and drops instance-state', () => {
    expect(
      convertAnnotations({
        'machine.openshift.io/delete-machine': 'true',
        'machine.openshift.io/instance-state': 'running',
        note: 'kept',
      }),
    ).to.deep.equal({ 'cluster.x-k8s.io/delete-machine': 'true', note: 'kept' });
  });

  it("renames the autoscaler's node group sizes to Cluster API's group", () => {
    expect(
      convertAnnotations({
        'machine.openshift.io/cluster-api-autoscaler-node-group-min-size': '1',
        'machine.openshift.io/cluster-api-autoscaler-node-group-max-size': '5',
        'capacity.cluster-autoscaler.kubernetes.io/memory': '16G',
      }),
    ).to.deep.equal({
      'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size': '1',
      'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size': '5',
      'capacity.cluster-autoscaler.kubernetes.io/memory': '16G',
    });
  });

  it('keeps keys named like object properties as ordinary keys', () => {
    const keys = JSON.parse('{"constructor": "a", "toString": "b", "__proto__": "c"}') as Record<
      string,
      string
    >;
    expect(Object.entries(convertAnnotations(keys))).to.deep.equal(Object.entries(keys));
    expect(Object.entries(convertLabels(keys))).to.deep.equal(Object.entries(keys));
    expect(
      isControlPlane(JSON.parse('{"constructor": "master"}') as Record<string, string>),
    ).to.equal(false);
  });

  it('recognises control-plane machine sets by role', () => {
    expect(isControlPlane({ 'machine.openshift.io/cluster-api-machine-role': 'master' })).to.equal(
      true,
    );
    expect(isControlPlane({ 'machine.openshift.io/cluster-api-machine-role': 'worker' })).to.equal(
      false,
    );
    expect(isControlPlane(undefined)).to.equal(false);
  });
});
