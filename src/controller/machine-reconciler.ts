// Reconciles one Machine (by name): the per-Machine migration handshake first, then the Machine
// sync, on what the caches hold of both sides, the infrastructure machine and the owning
// MachineSets.
import type {
  CapiMachine,
  CapiMachineSet,
  Infrastructure,
  InfrastructureMachine,
  KubeObject,
  MapiMachine,
  MapiMachineSet,
} from '../api/types.js';
import type { PlatformConverter } from '../conversion/types.js';
import { CAPI_MACHINE, INFRASTRUCTURE_NAME, MAPI_MACHINE } from '../kube/resources.js';
import { planMachineMigration } from '../migration/machine.js';
import { CAPI_GROUP_PREFIX, MAPI_GROUP_PREFIX } from '../model/api-groups.js';
import { planMachine } from '../sync/machine/plan.js';
import type { MachineObserved } from '../sync/machine/observed.js';
import { MachineReason } from '../sync/conditions.js';
import { infrastructureResource } from './reconciler.js';
import { owningMachineSetName } from './watches.js';
import {
  handshakeFirst,
  StepReconciler,
  type RefusalReasons,
  type CachedResource,
  type ObjectCache,
  type StepReconcilerOptions,
} from './step-reconciler.js';

export interface MachineCaches {
  mapiMachines: ObjectCache<MapiMachine>;
  capiMachines: ObjectCache<CapiMachine>;
  mapiMachineSets: ObjectCache<MapiMachineSet>;
  capiMachineSets: ObjectCache<CapiMachineSet>;
  clusters: ObjectCache<KubeObject>;
  infrastructures: ObjectCache<Infrastructure>;
  /** The infrastructure machine cache of the platform's kind, once the platform is known. */
  infrastructureMachines(
    converter: PlatformConverter,
  ): ObjectCache<InfrastructureMachine> | undefined;
}

export interface MachineReconcilerOptions extends StepReconcilerOptions {
  mapiNamespace: string;
  capiNamespace: string;
  caches: MachineCaches;
  /** The cluster's platform (the Infrastructure's, or the override). */
  platform: () => string | undefined;
  converterFor: (platform: string | undefined) => PlatformConverter | undefined;
  migration?: boolean;
  now: () => Date;
}

/** Reconciles one Machine by name: the handshake first, then the sync. */
export type MachineReconciler = StepReconciler<MachineObserved>;

const MACHINE_REFUSALS: RefusalReasons = {
  mapi: MachineReason.MapiUpdateFailed,
  capiCreate: MachineReason.CreateFailed,
  capi: MachineReason.UpdateFailed,
  infrastructure: MachineReason.InfraMachineUpdateFailed,
};

/** What the Machine plans read: both sides, the infrastructure machine, the MachineSets. */
export function observeMachine(
  options: MachineReconcilerOptions,
  name: string,
): MachineObserved | undefined {
  const { caches, mapiNamespace, capiNamespace } = options;
  const infrastructure = caches.infrastructures.get(INFRASTRUCTURE_NAME);
  const platform = options.platform();
  const converter = options.converterFor(platform);
  const infraCache = converter?.machine ? caches.infrastructureMachines(converter) : undefined;
  if (converter?.machine && !infraCache?.hasSynced()) return undefined;
  const mapi = caches.mapiMachines.get(`${mapiNamespace}/${name}`);
  const mirror = caches.capiMachines.get(`${capiNamespace}/${name}`);
  const infraName = mirror?.spec.infrastructureRef?.name ?? name;
  const setName =
    (mapi && owningMachineSetName(mapi, MAPI_GROUP_PREFIX)) ??
    (mirror && owningMachineSetName(mirror, CAPI_GROUP_PREFIX));
  const clusterName = infrastructure?.status?.infrastructureName;
  return {
    mapiNamespace,
    capiNamespace,
    name,
    mapi,
    mirror,
    infrastructureMachine: infraCache?.get(`${capiNamespace}/${infraName}`),
    mapiMachineSet: setName ? caches.mapiMachineSets.get(`${mapiNamespace}/${setName}`) : undefined,
    capiMachineSet: setName ? caches.capiMachineSets.get(`${capiNamespace}/${setName}`) : undefined,
    cluster: clusterName ? caches.clusters.get(`${capiNamespace}/${clusterName}`) : undefined,
    infrastructure,
    converter,
    platform,
    now: options.now().toISOString(),
  };
}

/** The resources a Machine's steps write, with their caches. */
function writableByMachine(caches: MachineCaches, observed: MachineObserved): CachedResource[] {
  const list: CachedResource[] = [
    { resource: MAPI_MACHINE, cache: caches.mapiMachines },
    { resource: CAPI_MACHINE, cache: caches.capiMachines },
  ];
  const machineType = observed.converter?.machine;
  if (observed.converter && machineType) {
    list.push({
      resource: infrastructureResource(machineType),
      cache: caches.infrastructureMachines(observed.converter),
    });
  }
  return list;
}

export function machineReconciler(options: MachineReconcilerOptions): MachineReconciler {
  return new StepReconciler<MachineObserved>(
    {
      subject: 'machine',
      observe: (name) => observeMachine(options, name),
      plan: handshakeFirst(options.migration, planMachineMigration, planMachine),
      writable: (observed) => writableByMachine(options.caches, observed),
      reportedOn: (observed) => observed.mapi,
      refusalReasons: MACHINE_REFUSALS,
    },
    options,
  );
}
