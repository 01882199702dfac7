// One controller per kind, as controller-runtime declares them: the kind it reconciles, its queue
// keys, the informers it watches with the map (watches.ts) from each event to the objects it
// wakes, and its reconciler.
import type {
  CapiMachine,
  CapiMachineSet,
  Infrastructure,
  InfrastructureMachine,
  KubeObject,
  MachineTemplate,
  MapiMachine,
  MapiMachineSet,
} from '../api/types.js';
import type { Informer, InformerHandler } from '../kube/informer.js';
import { migrationWantedOrUnderWay } from '../migration/handshake.js';
import { CAPI_GROUP_PREFIX, MAPI_GROUP_PREFIX } from '../model/api-groups.js';
import { SOURCE_ANNOTATION } from '../model/markers.js';
import type { CONTROLLER_NAMES } from '../observability/metrics.js';
import type { MachineReconciler } from './machine-reconciler.js';
import type { KindInformers } from './manager.js';
import {
  MACHINES_BY_MACHINE_SET as BY_MACHINE_SET,
  MACHINE_SETS_BY_TEMPLATE as BY_TEMPLATE,
  type Reconciler,
} from './reconciler.js';
import type { ReconcileResult } from './step-reconciler.js';
import {
  clusterIdentityChanged,
  infrastructureChanged,
  itself,
  machineKey,
  machineName,
  machineOfInfrastructureMachine,
  machineSetOfMachine,
  machineSetsReadingTemplate,
  machineSetsReleasedBy,
  machinesOfMachineSet,
  type MapFunc,
} from './watches.js';

/** The informers the controllers watch, made by the manager. */
export interface Sources {
  mapiNamespace: string;
  capiNamespace: string;
  mapiMachineSets: Informer<MapiMachineSet>;
  capiMachineSets: Informer<CapiMachineSet>;
  clusters: Informer<KubeObject>;
  infrastructures: Informer<Infrastructure>;
  mapiMachines: Informer<MapiMachine>;
  capiMachines: Informer<CapiMachine>;
  /** The platform's machine templates. */
  templates: KindInformers<MachineTemplate>;
  /** The platform's infrastructure machines. */
  infrastructureMachines: KindInformers<InfrastructureMachine>;
}

/** An informer (or a family of them) feeding a map from its events to a controller's objects. */
interface Watch {
  /** `enqueue` gets each name an event wakes, and the writer when the change is our own write. */
  attach(enqueue: (name: string, writer: string | undefined) => void): void;
}

/** Every event of `source` enqueues the names `map` gives. */
function watch<T>(source: { on(handler: InformerHandler<T>): unknown }, map: MapFunc<T>): Watch {
  return {
    attach: (enqueue) => void source.on((e) => map(e).forEach((name) => enqueue(name, e.writer))),
  };
}

/** Every event of an informer of the family enqueues the names the map of its kind gives. */
function watchKinds<T extends KubeObject>(
  source: KindInformers<T>,
  mapFor: (kind: string) => MapFunc<T>,
): Watch {
  return {
    attach: (enqueue) =>
      source.on((kind) => {
        const map = mapFor(kind);
        return (e) => map(e).forEach((name) => enqueue(name, e.writer));
      }),
  };
}

export interface Controller {
  /** What it reconciles, in logs and metrics. */
  kind: keyof typeof CONTROLLER_NAMES;
  /** The queue key of one of its objects. */
  key(name: string): string;
  /** The object a queue key names, when the key is this controller's. */
  nameOf(key: string): string | undefined;
  /** What wakes its objects. */
  watches: Watch[];
  /** Every object it knows of, for a resync. */
  all(): string[];
  /** Reconciles one object; its own writes are marked with its queue key, `key(name)`. */
  reconcile(name: string): Promise<ReconcileResult>;
}

const names = (objects: KubeObject[]) => objects.map((o) => o.metadata.name);

/** Everything a change of the Cluster or the Infrastructure wakes: every object of the kind. */
function clusterWatches(sources: Sources, all: () => string[]): Watch[] {
  return [
    watch(sources.clusters, (e) => (clusterIdentityChanged(e) ? all() : [])),
    watch(sources.infrastructures, (e) => (infrastructureChanged(e) ? all() : [])),
  ];
}

/** MachineSets, keyed by name: the MAPI MachineSet and what mirrors it. */
export function machineSetController(sources: Sources, reconciler: Reconciler): Controller {
  const { capiNamespace, mapiMachineSets, capiMachineSets, templates } = sources;
  // CAPI MachineSets whose MAPI side is gone still need their finalizer released.
  const all = () => [...names(mapiMachineSets.list()), ...names(capiMachineSets.list())];
  const sourceOf = (kind: string, name: string) =>
    templates.get(kind)?.get(capiNamespace, name)?.metadata.annotations?.[SOURCE_ANNOTATION];
  const usersOf = (ref: string) => names(capiMachineSets.byIndex(BY_TEMPLATE, ref));
  const readsMachines = (set: string) => {
    const mapi = mapiMachineSets.get(sources.mapiNamespace, set);
    return mapi !== undefined && migrationWantedOrUnderWay(mapi);
  };
  return {
    kind: 'MachineSet',
    key: (name) => name,
    nameOf: (key) => (machineName(key) === undefined ? key : undefined),
    watches: [
      watch(mapiMachineSets, itself),
      watch(capiMachineSets, (e) => [...itself(e), ...machineSetsReleasedBy(e, sourceOf)]),
      watch(sources.mapiMachines, (e) => machineSetOfMachine(e, MAPI_GROUP_PREFIX, readsMachines)),
      watch(sources.capiMachines, (e) => machineSetOfMachine(e, CAPI_GROUP_PREFIX, readsMachines)),
      ...clusterWatches(sources, all),
      watchKinds(templates, (kind) => (e) => machineSetsReadingTemplate(e, kind, usersOf)),
    ],
    all,
    reconcile: (name) => reconciler.reconcile(name, name),
  };
}

/** Machines, keyed by machineKey(name): the MAPI Machine and what mirrors it. */
export function machineController(sources: Sources, reconciler: MachineReconciler): Controller {
  const { mapiMachines, capiMachines } = sources;
  const all = () => [...names(mapiMachines.list()), ...names(capiMachines.list())];
  const machinesOf = (set: string) => [
    ...names(mapiMachines.byIndex(BY_MACHINE_SET, set)),
    ...names(capiMachines.byIndex(BY_MACHINE_SET, set)),
  ];
  return {
    kind: 'Machine',
    key: machineKey,
    nameOf: machineName,
    watches: [
      watch(mapiMachines, itself),
      watch(capiMachines, itself),
      watch(sources.mapiMachineSets, (e) => machinesOfMachineSet(e, machinesOf)),
      watch(sources.capiMachineSets, (e) => machinesOfMachineSet(e, machinesOf)),
      ...clusterWatches(sources, all),
      watchKinds(sources.infrastructureMachines, () => machineOfInfrastructureMachine),
    ],
    all,
    reconcile: (name) => reconciler.reconcile(name, machineKey(name)),
  };
}

/**
 * Connects every controller's watches to the queue: each name an event wakes is queued under its
 * controller's key, except for the writer of the change, whose reconcile observes afresh after
 * each of its writes anyway.
 */
export function attachWatches(controllers: Controller[], add: (key: string) => void): void {
  for (const controller of controllers) {
    for (const watch of controller.watches) {
      watch.attach((name, writer) => {
        const key = controller.key(name);
        if (key !== writer) add(key);
      });
    }
  }
}
