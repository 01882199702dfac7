// The controller's indexes: an event finds the objects it concerns by the same values the
// objects are indexed under.
import { expect } from 'chai';
import type { CapiMachineSet, KubeObject } from '../../../src/api/types.js';
import { machineSetOf, templateRef, templatesOf } from '../../../src/controller/controller.js';

function capiMachineSet(infrastructureRef?: { kind: string; name: string }): CapiMachineSet {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineSet',
    metadata: { name: 'fleet', namespace: 'openshift-cluster-api' },
    spec: {
      template: {
        spec: {
          clusterName: 'c',
          bootstrap: {},
          ...(infrastructureRef
            ? {
                infrastructureRef: {
                  apiGroup: 'infrastructure.cluster.x-k8s.io',
                  ...infrastructureRef,
                },
              }
            : {}),
        },
      },
    },
  } as CapiMachineSet;
}

function machineOwnedBy(
  owners: { apiVersion: string; name: string; controller?: boolean }[],
): KubeObject {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name: 'fleet-x1',
      ownerReferences: owners.map((o) => ({ kind: 'MachineSet', uid: 'u', ...o })),
    },
  };
}

describe('controller indexes', () => {
  it('indexes a CAPI MachineSet under the kind and name of its template', () => {
    const machineSet = capiMachineSet({ kind: 'AWSMachineTemplate', name: 'fleet-1a2b' });
    expect(templatesOf(machineSet)).to.deep.equal([
      templateRef('AWSMachineTemplate', 'fleet-1a2b'),
    ]);
    expect(templatesOf(machineSet)).to.not.include(templateRef('GCPMachineTemplate', 'fleet-1a2b'));
  });

  it('leaves out a CAPI MachineSet without a template reference, or without a spec', () => {
    expect(templatesOf(capiMachineSet())).to.deep.equal([]);
    expect(templatesOf({ metadata: { name: 'x' } } as CapiMachineSet)).to.deep.equal([]);
  });

  it('indexes a Machine under its controlling MachineSet of the given group only', () => {
    const machine = machineOwnedBy([
      { apiVersion: 'cluster.x-k8s.io/v1beta2', name: 'capi-owner', controller: true },
      { apiVersion: 'machine.openshift.io/v1beta1', name: 'not-controller' },
      { apiVersion: 'machine.openshift.io/v1beta1', name: 'fleet', controller: true },
    ]);
    expect(machineSetOf(machine, 'machine.openshift.io/')).to.deep.equal(['fleet']);
    expect(machineSetOf(machine, 'cluster.x-k8s.io/')).to.deep.equal(['capi-owner']);
    expect(machineSetOf(machineOwnedBy([]), 'machine.openshift.io/')).to.deep.equal([]);
  });
});
