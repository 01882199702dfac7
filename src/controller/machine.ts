// The Machine controller, keyed by machineKey(name), read top-down: what wakes a Machine (its
// watches), what its plans read of the caches (both sides, the infrastructure machine and the
// provider's instance object, the owning MachineSets), its plans (the per-Machine migration
// handshake first, then the sync) and writes, and its reconciler.
import isEqual from 'lodash/isEqual.js';
import type {
  CapiMachine,
  CapiMachineSet,
  InfrastructureMachine,
  KubeObject,
  MapiMachine,
  MapiMachineSet,
} from '../api/types.js';
import type { PlatformConverter } from '../conversion/types.js';
import type { InformerEvent } from '../kube/informer.js';
import { CAPI_MACHINE, infrastructureResource, MAPI_MACHINE } from '../kube/resources.js';
import { planMachineHandshake } from '../migration/machine.js';
import { CAPI_GROUP_PREFIX, MAPI_GROUP_PREFIX } from '../model/api-groups.js';
import { itself, watch, watchKinds, type Controller } from '../runtime/controllers.js';
import type { ObjectCache, StepReconciler } from '../runtime/step-reconciler.js';
import { MachineReason } from '../sync/conditions.js';
import type { MachineObserved } from '../sync/machine/observed.js';
import { planMachineSync } from '../sync/machine/plan.js';
import {
  clusterWatches,
  machineKey,
  machineName,
  MACHINES_BY_MACHINE_SET,
  mirrorReconciler,
  names,
  owningMachineSetName,
  type ClusterCaches,
  type ReconciledKind,
  type MirrorReconcilerOptions,
  type Sources,
} from './mirror.js';

// What wakes a Machine.

/** Machines, keyed by machineKey(name): the MAPI Machine and what mirrors it. */
export function machineController(sources: Sources, reconciler: MachineReconciler): Controller {
  const { mapiMachines, capiMachines } = sources;
  const all = () => [...names(mapiMachines.list()), ...names(capiMachines.list())];
  const machinesOf = (set: string) => [
    ...names(mapiMachines.byIndex(MACHINES_BY_MACHINE_SET, set)),
    ...names(capiMachines.byIndex(MACHINES_BY_MACHINE_SET, set)),
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
 * What a Machine's plans read of its MachineSets: which one it is (the owner and its mirror),
 * whether it is going, and its authority (a Machine a CAPI MachineSet created under ClusterAPI
 * gets a MAPI mirror).
 */
function readByMachines(machineSet: KubeObject): unknown[] {
  const { spec, status } = machineSet as {
    spec?: { authoritativeAPI?: unknown };
    status?: { authoritativeAPI?: unknown };
  };
  return [
    machineSet.metadata.uid,
    machineSet.metadata.deletionTimestamp,
    spec?.authoritativeAPI,
    status?.authoritativeAPI,
  ];
}

/**
 * A MachineSet wakes the Machines it controls on either side (`machinesOf`) when it comes, goes,
 * or changes what they read of it; not on the replica counts its status gains as they come up.
 */
export function machinesOfMachineSet(
  event: InformerEvent<KubeObject>,
  machinesOf: (machineSet: string) => string[],
): string[] {
  if (event.type === 'update' && isEqual(readByMachines(event.old), readByMachines(event.object))) {
    return [];
  }
  return machinesOf(event.object.metadata.name);
}

/** An infrastructure machine wakes the CAPI Machine that owns it, else the one named like it. */
export function machineOfInfrastructureMachine(
  event: InformerEvent<InfrastructureMachine>,
): string[] {
  const owner = event.object.metadata.ownerReferences?.find(
    (r) => r.kind === 'Machine' && r.apiVersion.startsWith(CAPI_GROUP_PREFIX),
  );
  return [owner?.name ?? event.object.metadata.name];
}

// What its plans read of the caches.

/** The caches a Machine's plans read: both sides of Machines and of MachineSets, the platform's objects. */
export interface MachineCaches extends ClusterCaches {
  mapiMachines: ObjectCache<MapiMachine>;
  capiMachines: ObjectCache<CapiMachine>;
  mapiMachineSets: ObjectCache<MapiMachineSet>;
  capiMachineSets: ObjectCache<CapiMachineSet>;
  /** The infrastructure machine cache of the platform's kind, once the platform is known. */
  infrastructureMachines(
    converter: PlatformConverter,
  ): ObjectCache<InfrastructureMachine> | undefined;
  /** The cache of the platform's instance objects (machine.instance), when the cluster serves them. */
  instanceObjects?(converter: PlatformConverter): ObjectCache<KubeObject> | undefined;
}

// Its plans and writes; its reconciler.

/** Machines: the MAPI Machine, its CAPI mirror and the platform's infrastructure machine. */
export const MACHINE_KIND: ReconciledKind<MachineObserved, MachineCaches, InfrastructureMachine> = {
  subject: 'machine',
  sides: (caches) => ({ mapi: caches.mapiMachines, mirror: caches.capiMachines }),
  infrastructure: (caches, converter) =>
    converter.machine && {
      type: converter.machine,
      cache: caches.infrastructureMachines(converter),
    },
  // Besides both sides: the infrastructure machine, the MachineSets.
  observe: (caches, observed, infrastructureMachines) => {
    const { mapiNamespace, capiNamespace, name, mapi, mirror, converter } = observed;
    const infraName = mirror?.spec.infrastructureRef?.name ?? name;
    const instanceObjects = converter && caches.instanceObjects?.(converter);
    const setName =
      (mapi && owningMachineSetName(mapi, MAPI_GROUP_PREFIX)) ??
      (mirror && owningMachineSetName(mirror, CAPI_GROUP_PREFIX));
    return {
      ...observed,
      infrastructureMachine: infrastructureMachines?.get(`${capiNamespace}/${infraName}`),
      instanceObject: instanceObjects?.get(`${capiNamespace}/${infraName}`),
      mapiMachineSet: setName
        ? caches.mapiMachineSets.get(`${mapiNamespace}/${setName}`)
        : undefined,
      capiMachineSet: setName
        ? caches.capiMachineSets.get(`${capiNamespace}/${setName}`)
        : undefined,
    };
  },
  handshake: planMachineHandshake,
  sync: planMachineSync,
  writes: (caches, converter) => {
    const instance = converter?.machine?.instance;
    const instances = instance && converter && caches.instanceObjects?.(converter);
    return [
      { resource: MAPI_MACHINE, cache: caches.mapiMachines },
      { resource: CAPI_MACHINE, cache: caches.capiMachines },
      ...(instance && instances
        ? [{ resource: infrastructureResource(instance), cache: instances }]
        : []),
    ];
  },
  refusalReasons: {
    mapi: MachineReason.MapiUpdateFailed,
    capiCreate: MachineReason.CreateFailed,
    capi: MachineReason.UpdateFailed,
    infrastructure: MachineReason.InfraMachineUpdateFailed,
  },
};

/** What the Machine reconciler is given. */
export type MachineReconcilerOptions = MirrorReconcilerOptions<MachineCaches>;

/** Reconciles one Machine by name: the handshake first, then the sync. */
export type MachineReconciler = StepReconciler<MachineObserved>;

/** The Machine reconciler: the kind above, under the loop every kind shares (mirror.ts). */
export function machineReconciler(options: MachineReconcilerOptions): MachineReconciler {
  return mirrorReconciler(MACHINE_KIND, options);
}
