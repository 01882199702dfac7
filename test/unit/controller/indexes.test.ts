// The controller's indexes: an event finds the objects it concerns by the same values the
// objects are indexed under.
import { expect } from 'chai';
import type { CapiMachineSet } from '../../../src/api/types.js';
import { templateRef, templatesOf, templateUsersOf } from '../../../src/controller/machine-set.js';
import { machineSetOf } from '../../../src/controller/mirror.js';
import type { ObjectCache } from '../../../src/runtime/step-reconciler.js';
import type { MachineTemplate } from '../../../src/api/types.js';
import { SOURCE_ANNOTATION } from '../../../src/model/markers.js';
import { capiMachineSet, machineOwnedBy } from './objects.js';

describe('controller indexes', () => {
  it('indexes a CAPI MachineSet under the kind and name of its template', () => {
    const machineSet = capiMachineSet({ kind: 'AWSMachineTemplate', name: 'fleet-1a2b3c4d5e' });
    expect(templatesOf(machineSet)).to.deep.equal([
      templateRef('AWSMachineTemplate', 'fleet-1a2b3c4d5e'),
    ]);
    expect(templatesOf(machineSet)).to.not.include(
      templateRef('GCPMachineTemplate', 'fleet-1a2b3c4d5e'),
    );
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
      metadata: { name: 'fleet-1a2b3c4d5e', annotations: { [SOURCE_ANNOTATION]: 'fleet' } },
      spec: { template: { spec: {} } },
    } as MachineTemplate;
    const sets = [
      capiMachineSet({ kind: 'AWSMachineTemplate', name: 'fleet-1a2b3c4d5e' }, 'borrower'),
      capiMachineSet({ kind: 'GCPMachineTemplate', name: 'fleet-1a2b3c4d5e' }, 'other-kind'),
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
      expect(Object.keys(users)).to.deep.equal(['fleet-1a2b3c4d5e']);
      expect(users['fleet-1a2b3c4d5e']?.map((ms) => ms.metadata.name)).to.deep.equal(['borrower']);
    }
  });
});
