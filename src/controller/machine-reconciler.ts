// Reconciles one Machine (by name): the per-Machine migration handshake first, then the Machine
// sync, on what the caches hold of both sides, the infrastructure machine (and the provider's
// instance object) and the owning MachineSets.
import type {
  CapiMachine,
  CapiMachineSet,
  InfrastructureMachine,
  KubeObject,
  MapiMachine,
  MapiMachineSet,
} from '../api/types.js';
import type { PlatformConverter } from '../conversion/types.js';
import { CAPI_MACHINE, infrastructureResource, MAPI_MACHINE } from '../kube/resources.js';
import { planMachineMigration } from '../migration/machine.js';
import { CAPI_GROUP_PREFIX, MAPI_GROUP_PREFIX } from '../model/api-groups.js';
import { planMachine } from '../sync/machine/plan.js';
import type { MachineObserved } from '../sync/machine/observed.js';
import { MachineReason } from '../sync/conditions.js';
import {
  mirrorReconciler,
  type ClusterCaches,
  type MirrorKind,
  type MirrorReconcilerOptions,
} from './mirror-reconciler.js';
import type { ObjectCache, StepReconciler } from '../runtime/step-reconciler.js';
import { owningMachineSetName } from './watches.js';

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

export type MachineReconcilerOptions = MirrorReconcilerOptions<MachineCaches>;

/** Reconciles one Machine by name: the handshake first, then the sync. */
export type MachineReconciler = StepReconciler<MachineObserved>;

/** Machines: the MAPI Machine, its CAPI mirror and the platform's infrastructure machine. */
export const MACHINE_MIRROR: MirrorKind<MachineObserved, MachineCaches, InfrastructureMachine> = {
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
  handshake: planMachineMigration,
  sync: planMachine,
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

export function machineReconciler(options: MachineReconcilerOptions): MachineReconciler {
  return mirrorReconciler(MACHINE_MIRROR, options);
}
