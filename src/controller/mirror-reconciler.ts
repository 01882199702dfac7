// How a kind of the mirror (MachineSets, Machines) declares its reconciler: the kind gives only
// what differs (its own objects, its handshake and sync plans, what it writes, how a refusal is
// reported); `mirrorReconciler` adds what every kind shares: the cluster's facts an observation
// starts from, the wait for the platform's infrastructure cache, the handshake before the sync,
// and reports on the MAPI object.
import type { SyncObserved } from '../sync/observed.js';
import type { Infrastructure, KubeObject } from '../api/types.js';
import type { PlatformConverter } from '../conversion/types.js';
import { INFRASTRUCTURE_NAME, infrastructureResource } from '../kube/resources.js';
import type { ReportingObject } from '../sync/report.js';
import type { Step } from '../sync/steps.js';
import {
  StepReconciler,
  type CachedResource,
  type ObjectCache,
  type RefusalReasons,
  type StepReconcilerOptions,
} from '../runtime/step-reconciler.js';

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

/** What every observation starts from: the subject, the cluster's facts, the time. */
type ObservedContext = SyncObserved;

/** What the plans of every kind read of their subject: the MAPI object and its CAPI mirror. */
export interface MirrorObserved extends ObservedContext {
  mapi?: ReportingObject;
  mirror?: KubeObject;
}

/** The context with the subject's two sides, as a kind's `observe` is given them. */
export type ObservedSides<O extends MirrorObserved> = ObservedContext & Pick<O, 'mapi' | 'mirror'>;

/** The platform's infrastructure objects of a kind: their type and their cache. */
interface InfrastructureObjects<I extends KubeObject> {
  type: { apiVersion: string; kind: string; plural: string };
  cache: ObjectCache<I> | undefined;
}

/**
 * What makes one kind of the mirror. `O` is what its plans read, `C` its caches, `I` the
 * platform's infrastructure objects it reads and writes (machine templates, infrastructure
 * machines).
 */
export interface MirrorKind<
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
  /** What the plans read: what else the kind reads, added to the context and both sides. */
  observe(caches: C, observed: ObservedSides<O>, infrastructure: ObjectCache<I> | undefined): O;
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
>(kind: MirrorKind<O, C, I>, options: MirrorReconcilerOptions<C>): StepReconciler<O> {
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
>(kind: MirrorKind<O, C, I>, options: PlanOptions<C>, name: string): Step | undefined {
  const observed = observe(kind, options, name);
  return observed && plan(kind, options.migration, observed);
}

/** The handshake first (unless OpenShift's own runs it), then the sync. */
function plan<O extends MirrorObserved, C extends ClusterCaches, I extends KubeObject>(
  kind: MirrorKind<O, C, I>,
  migration: boolean | undefined,
  observed: O,
): Step {
  return (migration === false ? undefined : kind.handshake(observed)) ?? kind.sync(observed);
}

/** What the kind's plans read; undefined while its infrastructure cache is not synced yet. */
function observe<O extends MirrorObserved, C extends ClusterCaches, I extends KubeObject>(
  kind: MirrorKind<O, C, I>,
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
  const observed: ObservedSides<O> = {
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
