// Reconciles one MAPI MachineSet (by name): observe both sides from the caches,
// ask the pure plan for the next write, execute it, repeat until nothing is left.
import type {
  CapiMachineSet,
  Infrastructure,
  KubeObject,
  MachineTemplate,
  MapiMachineSet,
} from '../api/types.js';
import type { PlatformConverter } from '../conversion/types.js';
import { describeError, isConflict, isNotFound } from '../kube/errors.js';
import type { EventRecorder } from '../kube/events.js';
import {
  CAPI_CLUSTER,
  CAPI_MACHINE_SET,
  INFRASTRUCTURE_NAME,
  MAPI_MACHINE_SET,
  objectKey,
  resourceOf,
  type Resource,
} from '../kube/resources.js';
import type { ObjectWriter } from '../kube/writer.js';
import type { Logger } from '../logging.js';
import {
  conditionDiffers,
  findSynchronized,
  synchronizedCondition,
  withCondition,
} from '../sync/conditions.js';
import { planNext, type Observed, type Step } from '../sync/plan.js';

/** What the reconciler needs of an informer's cache; writes are fed back into it. */
export interface ObjectCache<T extends KubeObject> {
  get(key: string): T | undefined;
  list(): T[];
  hasSynced(): boolean;
  /** Records the server's answer to our own write, ahead of the watch event. */
  upsert(object: T): void;
  remove(key: string): void;
}

export interface ReconcilerCaches {
  mapiMachineSets: ObjectCache<MapiMachineSet>;
  capiMachineSets: ObjectCache<CapiMachineSet>;
  clusters: ObjectCache<KubeObject>;
  infrastructures: ObjectCache<Infrastructure>;
  /** The template cache of the platform's kind, once the platform is known. */
  templates(converter: PlatformConverter): ObjectCache<MachineTemplate> | undefined;
}

export interface ReconcilerOptions {
  mapiNamespace: string;
  capiNamespace: string;
  /** Overrides the Infrastructure's platform. */
  platform?: string;
  caches: ReconcilerCaches;
  converterFor: (platform: string | undefined) => PlatformConverter | undefined;
  writer: ObjectWriter;
  events: EventRecorder;
  now: () => Date;
  logger: Logger;
}

export interface ReconcileResult {
  requeueAfterMs?: number;
}

/** A plan that keeps producing writes is a bug; stop and retry later rather than spin. */
const MAX_STEPS_PER_RECONCILE = 25;
const CACHE_WAIT_MS = 500;

export class Reconciler {
  /** Reconciles finished, successfully or not; lets tests and metrics see progress. */
  completed = 0;

  constructor(private readonly options: ReconcilerOptions) {}

  /** Which platform the cluster runs on: the override, else the Infrastructure's. */
  platform(): string | undefined {
    const infrastructure = this.options.caches.infrastructures.get(INFRASTRUCTURE_NAME);
    return (
      this.options.platform ??
      infrastructure?.status?.platformStatus?.type ??
      infrastructure?.status?.platform
    );
  }

  private observe(name: string): Observed | undefined {
    const { caches, mapiNamespace, capiNamespace } = this.options;
    const infrastructure = caches.infrastructures.get(INFRASTRUCTURE_NAME);
    const platform = this.platform();
    const converter = this.options.converterFor(platform);
    const templateCache = converter ? caches.templates(converter) : undefined;
    if (converter && !templateCache?.hasSynced()) return undefined;
    const clusterName = infrastructure?.status?.infrastructureName;
    return {
      mapiNamespace,
      capiNamespace,
      name,
      mapi: caches.mapiMachineSets.get(`${mapiNamespace}/${name}`),
      mirror: caches.capiMachineSets.get(`${capiNamespace}/${name}`),
      templates: templateCache?.list() ?? [],
      cluster: clusterName ? caches.clusters.get(`${capiNamespace}/${clusterName}`) : undefined,
      infrastructure,
      converter,
      platform,
      now: this.options.now().toISOString(),
    };
  }

  async reconcile(name: string): Promise<ReconcileResult> {
    try {
      return await this.reconcileSteps(name);
    } finally {
      this.completed++;
    }
  }

  private async reconcileSteps(name: string): Promise<ReconcileResult> {
    const log = this.options.logger.child({ machineSet: name });
    for (let steps = 0; steps < MAX_STEPS_PER_RECONCILE; steps++) {
      const observed = this.observe(name);
      if (!observed) return { requeueAfterMs: CACHE_WAIT_MS };
      const step = planNext(observed);
      if (step.kind === 'done') {
        log.debug('reconciled', { result: step.note, steps });
        return {};
      }
      await this.execute(step, observed, log);
    }
    log.warn('reconcile did not settle; retrying later', { steps: MAX_STEPS_PER_RECONCILE });
    return { requeueAfterMs: 1000 };
  }

  private resources(observed: Observed): Resource[] {
    const templates = observed.converter?.template;
    const list = [MAPI_MACHINE_SET, CAPI_MACHINE_SET, CAPI_CLUSTER];
    if (templates) {
      const [group = '', version = ''] = templates.apiVersion.split('/');
      list.push({
        group,
        version,
        plural: templates.plural,
        kind: templates.kind,
        namespaced: true,
      });
    }
    return list;
  }

  private cacheFor(resource: Resource, observed: Observed): ObjectCache<KubeObject> | undefined {
    const { caches } = this.options;
    if (resource === MAPI_MACHINE_SET) return caches.mapiMachineSets;
    if (resource === CAPI_MACHINE_SET) return caches.capiMachineSets;
    if (observed.converter && resource.kind === observed.converter.template.kind) {
      return caches.templates(observed.converter);
    }
    return undefined;
  }

  private async execute(
    step: Exclude<Step, { kind: 'done' }>,
    observed: Observed,
    log: Logger,
  ): Promise<void> {
    const { writer } = this.options;
    const resource = resourceOf(step.object, this.resources(observed));
    const cache = this.cacheFor(resource, observed);
    try {
      if (step.kind === 'delete') {
        await writer.delete(resource, step.object);
        // Objects with finalizers stay until released; the watch tells us when they go.
        if (!step.object.metadata.finalizers?.length) cache?.remove(objectKey(step.object));
      } else {
        const written = await writer[step.kind](resource, step.object);
        cache?.upsert(written);
      }
      log.info(step.note, { kind: step.object.kind, name: step.object.metadata.name });
    } catch (err) {
      if (isConflict(err) || isNotFound(err)) {
        // Our cache was behind the server: retry from fresh observations.
        throw new Error(`${step.note}: ${describeError(err)}`, { cause: err });
      }
      await this.reportFailure(step, observed, err, log);
      throw new Error(`${step.note}: ${describeError(err)}`, { cause: err });
    }
    if (step.events?.length && observed.mapi) {
      for (const event of step.events) await this.options.events.record(observed.mapi, event);
    }
  }

  /** Says on the MAPI MachineSet which write failed and that it is being retried. */
  private async reportFailure(
    step: Exclude<Step, { kind: 'done' }>,
    observed: Observed,
    err: unknown,
    log: Logger,
  ): Promise<void> {
    const mapi = observed.mapi;
    if (!step.failure || !mapi || mapi.metadata.deletionTimestamp) return;
    const message = `Failed ${step.note} ${step.object.metadata.name}: ${describeError(err)}. Retrying with backoff.`;
    const state = { status: 'False', reason: step.failure, message } as const;
    const previous = findSynchronized(mapi.status?.conditions);
    if (!conditionDiffers(previous, state)) return; // already said; not once per retry
    const condition = synchronizedCondition(state, previous, observed.now);
    const object: MapiMachineSet = {
      ...mapi,
      status: { ...mapi.status, conditions: withCondition(mapi.status?.conditions, condition) },
    };
    try {
      const written = await this.options.writer.updateStatus(MAPI_MACHINE_SET, object);
      this.options.caches.mapiMachineSets.upsert(written);
      await this.options.events.record(mapi, { type: 'Warning', reason: step.failure, message });
    } catch (reportErr) {
      // The original failure is what gets retried; this report is best effort.
      log.warn('could not report failure on MAPI machine set', {
        error: describeError(reportErr),
      });
    }
  }
}
