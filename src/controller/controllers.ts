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
import type { Informer } from '../kube/informer.js';
import { migrationWantedOrUnderWay } from '../migration/handshake.js';
import { CAPI_GROUP_PREFIX, MAPI_GROUP_PREFIX } from '../model/api-groups.js';
import { SOURCE_ANNOTATION } from '../model/markers.js';
import type { MachineReconciler } from './machine-reconciler.js';
import {
  MACHINES_BY_MACHINE_SET as BY_MACHINE_SET,
  MACHINE_SETS_BY_TEMPLATE as BY_TEMPLATE,
  type Reconciler,
} from './reconciler.js';
import { itself, watch, watchKinds, type Controller, type Watch } from '../runtime/controllers.js';
import type { KindInformers } from '../runtime/manager.js';
import {
  clusterIdentityChanged,
  infrastructureChanged,
  machineKey,
  machineName,
  machineOfInfrastructureMachine,
  machineSetOfMachine,
  machineSetsReadingTemplate,
  machineSetsReleasedBy,
  machinesOfMachineSet,
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
