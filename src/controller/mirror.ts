// What the controllers of both kinds (machine-set.ts, machine.ts) share: the informers they watch,
// the queue keys, the index of Machines by MachineSet, the Cluster and Infrastructure that wake
// every object, and the reconciler of a kind of the mirror. A kind gives only what differs (its
// own objects, its handshake and sync plans, what it writes, how a refusal is reported);
// `mirrorReconciler` adds the cluster's facts an observation starts from, the wait for the
// platform's infrastructure cache, the handshake before the sync, and reports on the MAPI object.
import isEqual from 'lodash/isEqual.js';
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
import type { PlatformConverter } from '../conversion/types.js';
import type { Informer, InformerEvent } from '../kube/informer.js';
import {
  INFRASTRUCTURE_NAME,
  infrastructureResource,
  type InfrastructureType,
} from '../kube/resources.js';
import { watch, type Watch } from '../runtime/controllers.js';
import type { KindInformers } from '../runtime/manager.js';
import {
  StepReconciler,
  type CachedResource,
  type ObjectCache,
  type RefusalReasons,
  type StepReconcilerOptions,
} from '../runtime/step-reconciler.js';
import type { MirrorObserved } from '../sync/observed.js';
import { controllingMachineSet, type Step } from '../sync/steps.js';

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

/** Machine keys share the queue with MachineSet names, which never contain a slash. */
const MACHINE_PREFIX = 'machine/';
/** The queue key of Machine `name`. */
export const machineKey = (name: string): string => `${MACHINE_PREFIX}${name}`;
/** The Machine a queue key names; undefined for a MachineSet's key. */
export const machineName = (key: string): string | undefined =>
  key.startsWith(MACHINE_PREFIX) ? key.slice(MACHINE_PREFIX.length) : undefined;

/**
 * Index of Machines by the name of the MachineSet that controls them: a MachineSet's migration
 * reads its Machines, and a MachineSet's change wakes them.
 */
export const MACHINES_BY_MACHINE_SET = 'machineSet';

/** The name of the MachineSet of this API group that controls the object, if one does. */
export function owningMachineSetName(object: KubeObject, groupPrefix: string): string | undefined {
  return controllingMachineSet(object, groupPrefix)?.name;
}

/** A Machine's values in the MACHINES_BY_MACHINE_SET index: its controlling MachineSet of that group. */
export function machineSetOf(machine: KubeObject, groupPrefix: string): string[] {
  const name = owningMachineSetName(machine, groupPrefix);
  return name === undefined ? [] : [name];
}

/** The names of the objects, for a controller's keys. */
export const names = (objects: KubeObject[]) => objects.map((o) => o.metadata.name);

/** Everything a change of the Cluster or the Infrastructure wakes: every object of the kind. */
export function clusterWatches(sources: Sources, all: () => string[]): Watch[] {
  return [
    watch(sources.clusters, (e) => (clusterIdentityChanged(e) ? all() : [])),
    watch(sources.infrastructures, (e) => (infrastructureChanged(e) ? all() : [])),
  ];
}

/**
 * The plans read a Cluster's identity (for ownerReferences) only: Cluster API rewriting its
 * Cluster's status must not wake every MachineSet and Machine.
 */
export function clusterIdentityChanged(event: InformerEvent<KubeObject>): boolean {
  return event.type !== 'update' || event.old.metadata.uid !== event.object.metadata.uid;
}

/** The plans read the Infrastructure's spec and status. */
export function infrastructureChanged(event: InformerEvent<Infrastructure>): boolean {
  return (
    event.type !== 'update' ||
    !isEqual(event.old.status, event.object.status) ||
    !isEqual(event.old.spec, event.object.spec)
  );
}

/** The caches every kind reads the cluster's facts from. */
export interface ClusterCaches {
  clusters: ObjectCache<KubeObject>;
  infrastructures: ObjectCache<Infrastructure>;
}

/** What a kind's reconciler is given; `C` are the kind's caches. */
export interface MirrorReconcilerOptions<C extends ClusterCaches> extends StepReconcilerOptions {
  mapiNamespace: string;
  capiNamespace: string;
  /** Overrides the Infrastructure's platform. */
  platform?: string;
  caches: C;
  converterFor: (platform: string | undefined) => PlatformConverter | undefined;
  /** Runs the migration handshake before the sync (default); off where OpenShift's own runs. */
  migration?: boolean;
  now: () => Date;
}

/** The platform's infrastructure objects of a kind: their type and their cache. */
interface InfrastructureObjects<I extends KubeObject> {
  type: InfrastructureType;
  cache: ObjectCache<I> | undefined;
}

/**
 * What makes one kind of the mirror for its reconciler: where its objects are cached, what its
 * plans read, its plans, what it writes. `O` is what its plans read, `C` its caches, `I` the
 * platform's infrastructure objects it reads and writes (machine templates, infrastructure
 * machines). Apart from the planners' SyncKind (src/sync/kind.ts): the pure core reads no cache.
 */
export interface ReconciledKind<
  O extends MirrorObserved,
  C extends ClusterCaches,
  I extends KubeObject,
> {
  /** The subject's name in logs: "machineSet" or "machine". */
  subject: string;
  /** The caches of the subject's MAPI object and of its CAPI mirror, both keyed by its name. */
  sides(caches: C): {
    mapi: ObjectCache<NonNullable<O['mapi']>>;
    mirror: ObjectCache<NonNullable<O['mirror']>>;
  };
  /** The kind's infrastructure objects on this platform; undefined when it has none. */
  infrastructure(caches: C, converter: PlatformConverter): InfrastructureObjects<I> | undefined;
  /** What the plans read: what else the kind reads, added to what every kind observes. */
  observe(
    caches: C,
    observed: Pick<O, keyof MirrorObserved>,
    infrastructure: ObjectCache<I> | undefined,
  ): O;
  /** The migration handshake's next write, if it has one. */
  handshake(observed: O): Step | undefined;
  /** The sync's next write, or done. */
  sync(observed: O): Step;
  /** The resources its steps write besides the infrastructure objects, with their caches. */
  writes(caches: C, converter: PlatformConverter | undefined): CachedResource[];
  /** How a refused write whose step names no failure reason is reported. */
  refusalReasons: RefusalReasons;
}

/** Which platform the cluster runs on: the override, else the Infrastructure's. */
export function clusterPlatform(
  infrastructures: ObjectCache<Infrastructure>,
  override: string | undefined,
): string | undefined {
  const infrastructure = infrastructures.get(INFRASTRUCTURE_NAME);
  return (
    override ?? infrastructure?.status?.platformStatus?.type ?? infrastructure?.status?.platform
  );
}

/** The reconciler of one kind: observe(name) → handshake, else sync → execute. */
export function mirrorReconciler<
  O extends MirrorObserved,
  C extends ClusterCaches,
  I extends KubeObject,
>(kind: ReconciledKind<O, C, I>, options: MirrorReconcilerOptions<C>): StepReconciler<O> {
  const { caches, migration } = options;
  const infrastructureOf = (converter: PlatformConverter | undefined) =>
    converter && kind.infrastructure(caches, converter);
  return new StepReconciler<O>(
    {
      subject: kind.subject,
      observe: (name) => observe(kind, options, name),
      plan: (observed) => plan(kind, migration, observed),
      writable: (observed) => {
        const infrastructure = infrastructureOf(observed.converter);
        const written = infrastructure && {
          resource: infrastructureResource(infrastructure.type),
          cache: infrastructure.cache,
        };
        return [...kind.writes(caches, observed.converter), ...(written ? [written] : [])];
      },
      reportedOn: (observed) => observed.mapi,
      refusalReasons: kind.refusalReasons,
    },
    options,
  );
}

/** What a kind's plan is given besides its caches: the namespaces, the platform, the clock. */
export type PlanOptions<C extends ClusterCaches> = Pick<
  MirrorReconcilerOptions<C>,
  'mapiNamespace' | 'capiNamespace' | 'platform' | 'caches' | 'converterFor' | 'migration' | 'now'
>;

/**
 * The next write the reconciler of `kind` decides for `name` on what the caches hold now, as it
 * decides it (observation, handshake, sync); undefined while its infrastructure cache syncs.
 */
export function planSubject<
  O extends MirrorObserved,
  C extends ClusterCaches,
  I extends KubeObject,
>(kind: ReconciledKind<O, C, I>, options: PlanOptions<C>, name: string): Step | undefined {
  const observed = observe(kind, options, name);
  return observed && plan(kind, options.migration, observed);
}

/** The handshake first (unless OpenShift's own runs it), then the sync. */
function plan<O extends MirrorObserved, C extends ClusterCaches, I extends KubeObject>(
  kind: ReconciledKind<O, C, I>,
  migration: boolean | undefined,
  observed: O,
): Step {
  return (migration === false ? undefined : kind.handshake(observed)) ?? kind.sync(observed);
}

/** What the kind's plans read; undefined while its infrastructure cache is not synced yet. */
function observe<O extends MirrorObserved, C extends ClusterCaches, I extends KubeObject>(
  kind: ReconciledKind<O, C, I>,
  options: PlanOptions<C>,
  name: string,
): O | undefined {
  const { caches, mapiNamespace, capiNamespace } = options;
  const infrastructure = caches.infrastructures.get(INFRASTRUCTURE_NAME);
  const platform = clusterPlatform(caches.infrastructures, options.platform);
  const converter = options.converterFor(platform);
  const objects = converter && kind.infrastructure(caches, converter);
  if (objects && !objects.cache?.hasSynced()) return undefined;
  const clusterName = infrastructure?.status?.infrastructureName;
  const sides = kind.sides(caches);
  const observed: Pick<O, keyof MirrorObserved> = {
    mapiNamespace,
    capiNamespace,
    name,
    mapi: sides.mapi.get(`${mapiNamespace}/${name}`),
    mirror: sides.mirror.get(`${capiNamespace}/${name}`),
    cluster: clusterName ? caches.clusters.get(`${capiNamespace}/${clusterName}`) : undefined,
    infrastructure,
    converter,
    platform,
    now: options.now().toISOString(),
  };
  return kind.observe(caches, observed, objects?.cache);
}
