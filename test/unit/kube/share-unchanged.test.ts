// A new version of a cached object shares the parts that did not change with the old one.
import { expect } from 'chai';
import type { KubeObject } from '../../../src/api/types.js';
import { shareUnchanged } from '../../../src/kube/share-unchanged.js';

type Machine = KubeObject & { spec: { providerID?: string }; status?: { phase?: string } };

function machine(resourceVersion: string, phase: string, labels = { a: '1' }): Machine {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'Machine',
    metadata: { name: 'm', namespace: 'ns', resourceVersion, labels: { ...labels } },
    spec: { providerID: 'aws:///us-east-1a/i-1' },
    status: { phase },
  };
}

describe('shareUnchanged', () => {
  it('keeps the old spec and labels when only the status changed, and takes the new status', () => {
    const old = machine('1', 'Provisioning');
    const next = shareUnchanged(old, machine('2', 'Provisioned'));
    expect(next.spec).to.equal(old.spec);
    expect(next.metadata.labels).to.equal(old.metadata.labels);
    expect(next.status).to.deep.equal({ phase: 'Provisioned' });
    expect(next.metadata.resourceVersion).to.equal('2');
  });

  it('takes every changed part from the new version', () => {
    const old = machine('1', 'Provisioned');
    const changed = machine('2', 'Provisioned', { a: '2' });
    changed.spec.providerID = 'aws:///us-east-1a/i-2';
    const next = shareUnchanged(old, changed);
    expect(next.spec).to.not.equal(old.spec);
    expect(next.spec.providerID).to.equal('aws:///us-east-1a/i-2');
    expect(next.metadata.labels).to.deep.equal({ a: '2' });
    expect(next.status).to.equal(old.status);
  });

  it('takes a field the new version dropped as dropped', () => {
    const old = machine('1', 'Provisioned');
    const next = machine('2', 'Provisioned');
    delete next.status;
    delete next.metadata.labels;
    const shared = shareUnchanged(old, next);
    expect(shared).to.not.have.property('status');
    expect(shared.metadata.labels).to.equal(undefined);
  });
});
