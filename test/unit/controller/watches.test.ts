// The controllers' watches: which MachineSets and Machines an event on each watched kind wakes.
// Each map is pure; what it looks up in the caches is a function given here.
import { expect } from 'chai';
import type {
  CapiMachineSet,
  Infrastructure,
  InfrastructureMachine,
  KubeObject,
  MachineTemplate,
  MapiMachine,
} from '../../../src/api/types.js';
import type { InformerEvent } from '../../../src/kube/informer.js';
import {
  machineOfInfrastructureMachine,
  machinesOfMachineSet,
} from '../../../src/controller/machine.js';
import {
  templateRef,
  machineSetOfMachine,
  machineSetsReadingTemplate,
  machineSetsReleasedBy,
  templatesReleased,
} from '../../../src/controller/machine-set.js';
import {
  clusterIdentityChanged,
  infrastructureChanged,
  machineKey,
  machineName,
} from '../../../src/controller/mirror.js';
import { change, itself } from '../../../src/runtime/controllers.js';
import { capiMachineSet, machineOwnedBy, machineTemplate } from './objects.js';

const MAPI = 'machine.openshift.io/';
const CAPI = 'cluster.x-k8s.io/';

const add = <T>(object: T): InformerEvent<T> => ({ type: 'add', object });
const update = <T>(old: T, object: T): InformerEvent<T> => ({ type: 'update', old, object });
const remove = <T>(object: T): InformerEvent<T> => ({ type: 'delete', object });

describe('controller watches', () => {
  it('keys Machines apart from MachineSets in the one queue', () => {
    expect(machineKey('fleet-x1')).to.equal('machine/fleet-x1');
    expect(machineName(machineKey('fleet-x1'))).to.equal('fleet-x1');
    expect(machineName('fleet')).to.equal(undefined);
  });

  it('reads an event as the object before and after it', () => {
    const [a, b] = [{ v: 1 }, { v: 2 }];
    expect(change(add(a))).to.deep.equal({ before: undefined, after: a });
    expect(change(update(a, b))).to.deep.equal({ before: a, after: b });
    expect(change(remove(a))).to.deep.equal({ before: a, after: undefined });
  });

  it('wakes the object itself', () => {
    const machineSet = capiMachineSet(undefined, 'fleet');
    for (const event of [add(machineSet), update(machineSet, machineSet), remove(machineSet)]) {
      expect(itself(event)).to.deep.equal(['fleet']);
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

  describe('a CAPI MachineSet that stops using a template wakes the MachineSet that made it', () => {
    const old = capiMachineSet({ kind: 'AWSMachineTemplate', name: 'fleet-old' }, 'borrower');
    const repointed = capiMachineSet({ kind: 'AWSMachineTemplate', name: 'x-new' }, 'borrower');
    const sources: Record<string, string> = {
      'AWSMachineTemplate/fleet-old': 'fleet',
      'AWSMachineTemplate/borrower-old': 'borrower',
    };
    const sourceOf = (kind: string, name: string) => sources[`${kind}/${name}`];
    const own = capiMachineSet({ kind: 'AWSMachineTemplate', name: 'borrower-old' }, 'borrower');
    const foreign = capiMachineSet({ kind: 'AWSMachineTemplate', name: 'not-ours' }, 'borrower');
    const cases: { name: string; event: InformerEvent<CapiMachineSet>; wakes: string[] }[] = [
      { name: 'repointed', event: update(old, repointed), wakes: ['fleet'] },
      { name: 'deleted', event: remove(old), wakes: ['fleet'] },
      { name: 'still pointing at it', event: update(old, old), wakes: [] },
      { name: 'new', event: add(old), wakes: [] },
      { name: 'its own template', event: remove(own), wakes: [] },
      { name: 'a template without a source', event: remove(foreign), wakes: [] },
    ];
    for (const { name, event, wakes } of cases) {
      it(name, () => expect(machineSetsReleasedBy(event, sourceOf)).to.deep.equal(wakes));
    }
  });

  describe('a Machine wakes its MachineSet when what the MachineSet plan reads changed', () => {
    const owned = (group: string, status?: MapiMachine['status']): KubeObject => ({
      ...machineOwnedBy([{ apiVersion: `${group}v1beta1`, name: 'fleet', controller: true }]),
      ...(status ? { status } : {}),
    });
    const synced = (s: 'True' | 'False') => ({
      conditions: [{ type: 'Synchronized', status: s, lastTransitionTime: 't' }],
    });
    const withProviderStatus = { ...synced('True'), providerStatus: { instanceState: 'running' } };
    const unowned = machineOwnedBy([]);
    const cases: {
      name: string;
      event: InformerEvent<KubeObject>;
      group: string;
      wakes: string[];
    }[] = [
      { name: 'appeared', event: add(owned(MAPI)), group: MAPI, wakes: ['fleet'] },
      { name: 'went', event: remove(owned(MAPI)), group: MAPI, wakes: ['fleet'] },
      {
        name: 'Synchronized changed',
        event: update(owned(MAPI, synced('False')), owned(MAPI, synced('True'))),
        group: MAPI,
        wakes: ['fleet'],
      },
      {
        name: 'a status rewrite the plan does not read',
        event: update(owned(MAPI, synced('True')), owned(MAPI, withProviderStatus)),
        group: MAPI,
        wakes: [],
      },
      { name: 'a CAPI Machine', event: add(owned(CAPI)), group: CAPI, wakes: ['fleet'] },
      { name: 'a MachineSet of the other group', event: add(owned(CAPI)), group: MAPI, wakes: [] },
      { name: 'no MachineSet', event: add(unowned), group: MAPI, wakes: [] },
    ];
    const migrating = () => true;
    for (const { name, event, group, wakes } of cases) {
      it(name, () => expect(machineSetOfMachine(event, group, migrating)).to.deep.equal(wakes));
    }
    it('not while the MachineSet’s plan does not read its Machines (no migration wanted)', () => {
      const asked: string[] = [];
      const steady = (set: string) => (asked.push(set), false);
      const change = update(owned(MAPI, synced('False')), owned(MAPI, synced('True')));
      expect(machineSetOfMachine(change, MAPI, steady)).to.deep.equal([]);
      expect(machineSetOfMachine(remove(owned(CAPI)), CAPI, steady)).to.deep.equal([]);
      expect(asked).to.deep.equal(['fleet', 'fleet']);
    });
  });

  describe('a template wakes the MachineSet that made it and those pointing at it', () => {
    const users: Record<string, string[]> = {
      [templateRef('AWSMachineTemplate', 'fleet-1a2b')]: ['fleet', 'borrower'],
      [templateRef('AWSMachineTemplate', 'theirs')]: ['adopter'],
    };
    const usersOf = (ref: string) => users[ref] ?? [];
    const cases: { name: string; event: InformerEvent<MachineTemplate>; wakes: string[] }[] = [
      {
        name: 'ours, in use',
        event: update(
          machineTemplate('fleet-1a2b', 'fleet'),
          machineTemplate('fleet-1a2b', 'fleet'),
        ),
        wakes: ['fleet', 'borrower'],
      },
      {
        name: 'ours, unused',
        event: remove(machineTemplate('fleet-0000', 'fleet')),
        wakes: ['fleet'],
      },
      { name: 'someone else’s', event: add(machineTemplate('theirs')), wakes: ['adopter'] },
      { name: 'someone else’s, unused', event: add(machineTemplate('lonely')), wakes: [] },
    ];
    for (const { name, event, wakes } of cases) {
      it(name, () =>
        expect(machineSetsReadingTemplate(event, 'AWSMachineTemplate', usersOf)).to.deep.equal(
          wakes,
        ),
      );
    }
  });

  describe('the Cluster wakes everything when its identity changes, not its status', () => {
    const cluster = (uid: string, phase: string): KubeObject & { status: object } => ({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Cluster',
      metadata: { name: 'c', uid },
      status: { phase },
    });
    const cases: { name: string; event: InformerEvent<KubeObject>; wakes: boolean }[] = [
      { name: 'created', event: add(cluster('1', 'Provisioned')), wakes: true },
      { name: 'deleted', event: remove(cluster('1', 'Provisioned')), wakes: true },
      {
        name: 'recreated',
        event: update(cluster('1', 'Provisioned'), cluster('2', 'Provisioned')),
        wakes: true,
      },
      {
        name: 'status rewritten',
        event: update(cluster('1', 'Provisioning'), cluster('1', 'Provisioned')),
        wakes: false,
      },
    ];
    for (const { name, event, wakes } of cases) {
      it(name, () => expect(clusterIdentityChanged(event)).to.equal(wakes));
    }
  });

  describe('the Infrastructure wakes everything when its spec or status changes', () => {
    const infrastructure = (platform: string, resourceVersion = '1', spec = {}) =>
      ({
        apiVersion: 'config.openshift.io/v1',
        kind: 'Infrastructure',
        metadata: { name: 'cluster', resourceVersion },
        spec,
        status: { platform, infrastructureName: 'c' },
      }) as Infrastructure;
    const cases: { name: string; event: InformerEvent<Infrastructure>; wakes: boolean }[] = [
      { name: 'created', event: add(infrastructure('AWS')), wakes: true },
      { name: 'deleted', event: remove(infrastructure('AWS')), wakes: true },
      {
        name: 'status changed',
        event: update(infrastructure('AWS'), infrastructure('GCP')),
        wakes: true,
      },
      {
        name: 'spec changed',
        event: update(
          infrastructure('AWS'),
          infrastructure('AWS', '1', { platformSpec: { type: 'AWS' } }),
        ),
        wakes: true,
      },
      {
        name: 'metadata only',
        event: update(infrastructure('AWS'), infrastructure('AWS', '2')),
        wakes: false,
      },
    ];
    for (const { name, event, wakes } of cases) {
      it(name, () => expect(infrastructureChanged(event)).to.equal(wakes));
    }
  });

  it('a MachineSet wakes the Machines it controls', () => {
    const controlled: Record<string, string[]> = { fleet: ['fleet-x1', 'fleet-x2'] };
    const machinesOf = (set: string) => controlled[set] ?? [];
    const fleet = capiMachineSet(undefined, 'fleet');
    expect(machinesOfMachineSet(add(fleet), machinesOf)).to.deep.equal(['fleet-x1', 'fleet-x2']);
    expect(machinesOfMachineSet(remove(fleet), machinesOf)).to.deep.equal(['fleet-x1', 'fleet-x2']);
    // its replica counts, as its Machines come up: nothing the Machines read
    const counted = { ...fleet, status: { replicas: 2, readyReplicas: 1 } };
    expect(machinesOfMachineSet(update(fleet, counted), machinesOf)).to.deep.equal([]);
    const going = {
      ...fleet,
      metadata: { ...fleet.metadata, deletionTimestamp: '2026-11-27T00:00:00Z' },
    };
    expect(machinesOfMachineSet(update(fleet, going), machinesOf)).to.have.length(2);
    // the authority, as a MAPI MachineSet's status has it
    const migrated = {
      ...fleet,
      status: { authoritativeAPI: 'ClusterAPI' },
    } as unknown as typeof fleet;
    expect(machinesOfMachineSet(update(fleet, migrated), machinesOf)).to.have.length(2);
    const replaced = { ...fleet, metadata: { ...fleet.metadata, uid: 'another' } };
    expect(machinesOfMachineSet(update(fleet, replaced), machinesOf)).to.have.length(2);
    expect(machinesOfMachineSet(add(capiMachineSet(undefined, 'empty')), machinesOf)).to.deep.equal(
      [],
    );
  });

  describe('an infrastructure machine wakes the Machine that owns it, else its namesake', () => {
    const infraMachine = (owners: { apiVersion: string; kind: string; name: string }[]) =>
      ({
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'AWSMachine',
        metadata: {
          name: 'fleet-x1-infra',
          ownerReferences: owners.map((o) => ({ uid: 'u', ...o })),
        },
      }) as InfrastructureMachine;
    const cases: {
      name: string;
      owners: { apiVersion: string; kind: string; name: string }[];
      wakes: string[];
    }[] = [
      {
        name: 'owned by a CAPI Machine',
        owners: [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Machine', name: 'fleet-x1' }],
        wakes: ['fleet-x1'],
      },
      {
        name: 'owned by a MAPI Machine only',
        owners: [{ apiVersion: 'machine.openshift.io/v1beta1', kind: 'Machine', name: 'other' }],
        wakes: ['fleet-x1-infra'],
      },
      {
        name: 'owned by a CAPI MachineSet only',
        owners: [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineSet', name: 'fleet' }],
        wakes: ['fleet-x1-infra'],
      },
      { name: 'without owners', owners: [], wakes: ['fleet-x1-infra'] },
    ];
    for (const { name, owners, wakes } of cases) {
      it(name, () =>
        expect(machineOfInfrastructureMachine(add(infraMachine(owners)))).to.deep.equal(wakes),
      );
    }
  });
});
