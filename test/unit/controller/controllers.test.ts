// The controllers' declarations: an event on each watched informer enqueues the keys of the
// MachineSets and Machines it concerns, each controller its own kind's, and every key finds its
// way back to the controller of its kind. The informers are fakes here.
import { expect } from 'chai';
import type { KubeObject, MachineTemplate } from '../../../src/api/types.js';
import { machineController } from '../../../src/controller/machine.js';
import { machineSetController, templatesOf } from '../../../src/controller/machine-set.js';
import { type Sources, machineSetOf } from '../../../src/controller/mirror.js';
import { attachWatches, type Controller } from '../../../src/runtime/controllers.js';
import type { KindInformers } from '../../../src/runtime/manager.js';
import type { ReconcileResult } from '../../../src/runtime/step-reconciler.js';
import type { Informer, InformerEvent, InformerHandler } from '../../../src/kube/informer.js';
import { capiMachineSet, machineOwnedBy, machineTemplate } from './objects.js';

/** What the controllers read of an informer: its store, an index, its events. */
class FakeInformer<T extends KubeObject> {
  readonly objects: T[] = [];
  private readonly handlers: InformerHandler<T>[] = [];
  constructor(private readonly index: (object: T) => string[] = () => []) {}
  on(handler: InformerHandler<T>) {
    this.handlers.push(handler);
    return () => undefined;
  }
  list = () => this.objects;
  get = (_namespace: string, name: string) => this.objects.find((o) => o.metadata.name === name);
  byIndex = (_name: string, value: string) =>
    this.objects.filter((o) => this.index(o).includes(value));
  emit(event: InformerEvent<T>) {
    for (const handler of this.handlers) handler(event);
  }
  as = () => this as unknown as Informer<T>;
}

/** A family of informers by kind, each made on first ask. */
class FakeKindInformers<T extends KubeObject> {
  readonly byKind = new Map<string, FakeInformer<T>>();
  private readonly handlers: ((kind: string) => InformerHandler<T>)[] = [];
  on(handlerFor: (kind: string) => InformerHandler<T>) {
    this.handlers.push(handlerFor);
  }
  get = (kind: string) => this.byKind.get(kind)?.as();
  of(kind: string): FakeInformer<T> {
    const informer = new FakeInformer<T>();
    for (const handlerFor of this.handlers) informer.on(handlerFor(kind));
    this.byKind.set(kind, informer);
    return informer;
  }
  as = () => this as unknown as KindInformers<T>;
}

function world() {
  const informers = {
    mapiMachineSets: new FakeInformer<KubeObject>(),
    capiMachineSets: new FakeInformer<KubeObject>((ms) => templatesOf(ms as never)),
    clusters: new FakeInformer<KubeObject>(),
    infrastructures: new FakeInformer<KubeObject>(),
    mapiMachines: new FakeInformer<KubeObject>((m) => machineSetOf(m, 'machine.openshift.io/')),
    capiMachines: new FakeInformer<KubeObject>((m) => machineSetOf(m, 'cluster.x-k8s.io/')),
    templates: new FakeKindInformers<MachineTemplate>(),
    infrastructureMachines: new FakeKindInformers<KubeObject>(),
  };
  const sources = {
    capiNamespace: 'capi',
    ...Object.fromEntries(Object.entries(informers).map(([name, i]) => [name, i.as()])),
  } as unknown as Sources;
  const reconciled: string[] = [];
  const reconciler = (kind: string) =>
    ({
      reconcile: (name: string): Promise<ReconcileResult> => {
        reconciled.push(`${kind} ${name}`);
        return Promise.resolve({});
      },
    }) as never;
  const controllers = [
    machineSetController(sources, reconciler('MachineSet')),
    machineController(sources, reconciler('Machine')),
  ];
  const queued: string[] = [];
  attachWatches(controllers, (key) => queued.push(key));
  return { informers, controllers, queued, reconciled };
}

const named = (name: string, kind = 'MachineSet'): KubeObject => ({
  apiVersion: 'machine.openshift.io/v1beta1',
  kind,
  metadata: { name, uid: name },
});
const machineOf = (set: string, group: string): KubeObject => {
  const machine = machineOwnedBy([{ apiVersion: `${group}/v1beta1`, name: set, controller: true }]);
  return { ...machine, metadata: { ...machine.metadata, name: `${set}-${group.split('.')[0]}` } };
};

describe('controllers', () => {
  it('a MachineSet wakes itself and the Machines it controls on either side', () => {
    const { informers, queued } = world();
    informers.mapiMachines.objects.push(machineOf('fleet', 'machine.openshift.io'));
    informers.capiMachines.objects.push(machineOf('fleet', 'cluster.x-k8s.io'));
    informers.mapiMachineSets.emit({ type: 'add', object: named('fleet') });
    expect(queued).to.deep.equal(['fleet', 'machine/fleet-machine', 'machine/fleet-cluster']);
  });

  it('a CAPI MachineSet that drops a template wakes the MachineSet that made it', () => {
    const { informers, queued } = world();
    const template = informers.templates.of('AWSMachineTemplate');
    template.objects.push(machineTemplate('fleet-old', 'fleet'));
    const before = capiMachineSet({ kind: 'AWSMachineTemplate', name: 'fleet-old' }, 'borrower');
    const after = capiMachineSet({ kind: 'AWSMachineTemplate', name: 'x' }, 'borrower');
    informers.capiMachineSets.emit({ type: 'update', old: before, object: after });
    expect(queued).to.deep.equal(['borrower', 'fleet']);
  });

  it('a Machine wakes itself, and its MachineSet while that one migrates and what it reads changed', () => {
    const { informers, queued } = world();
    const machine = machineOf('fleet', 'cluster.x-k8s.io');
    const fleet = named('fleet') as KubeObject & { spec?: object; status?: object };
    informers.mapiMachineSets.objects.push(fleet);
    fleet.spec = { authoritativeAPI: 'MachineAPI' };
    fleet.status = { authoritativeAPI: 'MachineAPI' };
    informers.capiMachines.emit({ type: 'add', object: machine });
    expect(queued, 'no migration: the MachineSet reads no Machine').to.deep.equal([
      'machine/fleet-cluster',
    ]);
    fleet.status = { authoritativeAPI: 'Migrating' };
    informers.capiMachines.emit({ type: 'add', object: machine });
    expect(queued.slice(1)).to.deep.equal(['fleet', 'machine/fleet-cluster']);
    informers.capiMachines.emit({ type: 'update', old: machine, object: machine });
    expect(queued.slice(3)).to.deep.equal(['machine/fleet-cluster']);
  });

  it('our own write wakes whom it concerns but not the reconcile that wrote it', () => {
    const { informers, queued } = world();
    const fleet = named('fleet') as KubeObject & { spec?: object; status?: object };
    fleet.spec = { authoritativeAPI: 'ClusterAPI' };
    fleet.status = { authoritativeAPI: 'Migrating' };
    informers.mapiMachineSets.objects.push(fleet);
    const machine = machineOf('fleet', 'cluster.x-k8s.io');
    const writer = 'machine/fleet-cluster';
    informers.capiMachines.emit({ type: 'add', object: machine, writer });
    expect(queued).to.deep.equal(['fleet']);
    informers.capiMachines.emit({ type: 'add', object: machine, writer: 'fleet' });
    expect(queued.slice(1)).to.deep.equal(['machine/fleet-cluster']);
  });

  it('a template wakes its MachineSet and those using it; an infrastructure machine its Machine', () => {
    const { informers, queued } = world();
    informers.capiMachineSets.objects.push(
      capiMachineSet({ kind: 'AWSMachineTemplate', name: 'fleet-1' }, 'borrower'),
    );
    const template = machineTemplate('fleet-1', 'fleet');
    informers.templates.of('AWSMachineTemplate').emit({ type: 'add', object: template });
    informers.infrastructureMachines
      .of('AWSMachine')
      .emit({ type: 'add', object: named('fleet-x1', 'AWSMachine') });
    expect(queued).to.deep.equal(['fleet', 'borrower', 'machine/fleet-x1']);
  });

  it('a new Cluster wakes everything, a Cluster status update nothing', () => {
    const { informers, queued } = world();
    informers.mapiMachineSets.objects.push(named('fleet'));
    informers.capiMachineSets.objects.push(named('gone'));
    informers.mapiMachines.objects.push(named('fleet-x1', 'Machine'));
    const cluster = named('c', 'Cluster');
    informers.clusters.emit({ type: 'update', old: cluster, object: cluster });
    expect(queued).to.deep.equal([]);
    informers.clusters.emit({ type: 'add', object: cluster });
    expect(queued).to.deep.equal(['fleet', 'gone', 'machine/fleet-x1']);
  });

  it('hands every key to the controller of its kind, by name', async () => {
    const { controllers, reconciled } = world();
    const owner = (key: string): Controller | undefined =>
      controllers.find((c) => c.nameOf(key) !== undefined);
    for (const key of ['fleet', 'machine/fleet-x1']) {
      const controller = owner(key);
      await controller?.reconcile(controller.nameOf(key) ?? '');
    }
    expect(reconciled).to.deep.equal(['MachineSet fleet', 'Machine fleet-x1']);
    expect(controllers.map((c) => c.key('x'))).to.deep.equal(['x', 'machine/x']);
  });
});
