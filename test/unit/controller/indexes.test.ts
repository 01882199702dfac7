// The controller's indexes: an event finds the objects it concerns by the same values the
// objects are indexed under.
import { expect } from 'chai';
import type { CapiMachineSet, KubeObject } from '../../../src/api/types.js';
import {
  machineSetOf,
  templateRef,
  templatesOf,
  templatesReleased,
} from '../../../src/controller/controller.js';
import { templateUsersOf, type ObjectCache } from '../../../src/controller/reconciler.js';
import type { MachineTemplate } from '../../../src/api/types.js';
import { SOURCE_ANNOTATION } from '../../../src/model/markers.js';

function capiMachineSet(
  infrastructureRef?: { kind: string; name: string },
  name = 'fleet',
): CapiMachineSet {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineSet',
    metadata: { name, namespace: 'openshift-cluster-api' },
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

  it('names the CAPI MachineSets that use each of our templates, through the index or the list', () => {
    const ours = {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'AWSMachineTemplate',
      metadata: { name: 'fleet-1a2b', annotations: { [SOURCE_ANNOTATION]: 'fleet' } },
      spec: { template: { spec: {} } },
    } as MachineTemplate;
    const sets = [
      capiMachineSet({ kind: 'AWSMachineTemplate', name: 'fleet-1a2b' }, 'borrower'),
      capiMachineSet({ kind: 'GCPMachineTemplate', name: 'fleet-1a2b' }, 'other-kind'),
      capiMachineSet({ kind: 'AWSMachineTemplate', name: 'fleet-new' }, 'fleet'),
    ];
    const cache = (indexed: boolean) =>
      ({
        get: () => undefined,
        list: () => sets,
        ...(indexed
          ? {
              byIndex: (_: string, value: string) =>
                sets.filter((ms) => templatesOf(ms).includes(value)),
            }
          : {}),
        hasSynced: () => true,
        upsert: () => undefined,
        remove: () => undefined,
      }) as ObjectCache<CapiMachineSet>;
    for (const indexed of [true, false]) {
      const users = templateUsersOf(cache(indexed), [ours], 'fleet');
      expect(Object.keys(users)).to.deep.equal(['fleet-1a2b']);
      expect(users['fleet-1a2b']?.map((ms) => ms.metadata.name)).to.deep.equal(['borrower']);
    }
  });

  it('finds the templates a CAPI MachineSet stopped using: repointed, being deleted, or gone', () => {
    const before = capiMachineSet({ kind: 'AWSMachineTemplate', name: 'fleet-old' });
    const after = capiMachineSet({ kind: 'AWSMachineTemplate', name: 'fleet-new' });
    const released = [{ kind: 'AWSMachineTemplate', name: 'fleet-old' }];
    expect(templatesReleased(before, after)).to.deep.equal(released);
    expect(templatesReleased(before, before)).to.deep.equal([]);
    expect(templatesReleased(undefined, after)).to.deep.equal([]);
    expect(templatesReleased(before, undefined)).to.deep.equal(released);
    const deleting = { ...before, metadata: { ...before.metadata, deletionTimestamp: 'now' } };
    expect(templatesReleased(before, deleting)).to.deep.equal(released);
  });
});
