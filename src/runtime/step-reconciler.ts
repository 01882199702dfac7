// The loop every reconciler shares: observe one subject (a MachineSet or a Machine, by name) from
// the caches, ask a pure plan for the next write, execute it, feed the answer back into the
// cache, repeat until the plan says done. Races are retried quietly; a write the API server
// refuses for good is reported once and waits for a change or a capped backoff.
import { realClock, type Clock } from '../clock.js';
import type { KubeObject } from '../api/types.js';
import {
  describeError,
  isConflict,
  isNotFound,
  isPermanent,
  isUnappliedJsonPatch,
} from '../kube/errors.js';
import type { EventRecorder } from '../kube/events.js';
import { objectKey, resourceOf, type Resource } from '../kube/resources.js';
import type { ObjectWriter } from '../kube/writer.js';
import type { Logger } from '../logging.js';
import { CAPI_GROUP, MAPI_GROUP } from '../model/api-groups.js';
import { stableHash } from '../model/naming.js';
import { Reason, type SyncReason } from '../sync/conditions.js';
import type { MirrorObserved } from '../sync/observed.js';
import { reportFailure, type ReportingObject } from '../sync/report.js';
import type { Step, WriteStep } from '../sync/steps.js';

/** What the reconciler needs of an informer's cache; writes are fed back into it. */
export interface ObjectCache<T extends KubeObject> {
  get(key: string): T | undefined;
  list(): T[];
  /** The objects under `value` in the index `name` (each kind declares its own); without it, `list` is filtered. */
  byIndex?(name: string, value: string): T[];
  hasSynced(): boolean;
  /**
   * Records the server's answer to our own write, ahead of the watch event; `writer` (the queue
   * key of the reconcile that wrote) is not woken by it.
   */
  upsert(object: T, writer?: string): void;
  remove(key: string, writer?: string): void;
}

export interface StepReconcilerOptions {
  writer: ObjectWriter;
  events: EventRecorder;
  logger: Logger;
  /** Told of every write the API server accepted (metrics, tests). */
  onWrite?: (write: {
    resource: Resource;
    verb: WriteStep['kind'];
    object: KubeObject;
    /** What the write was for. */
    note: string;
    subresource?: string;
  }) => void;
  /** Told of every write that failed, races included (the operator status watches refusals). */
  onWriteFailure?: (failure: WriteFailure) => void;
  /** When a refused write is tried again (default: the real clock). */
  clock?: Clock;
}

interface WriteFailure {
  resource: Resource;
  verb: WriteStep['kind'];
  subresource?: string;
  error: unknown;
}

export interface ReconcileResult {
  requeueAfterMs?: number;
  /** Retry with the key's backoff: an expected race or a plan that did not settle, not an error. */
  retry?: true;
}

/** A writable resource and the cache that holds its objects. */
export interface CachedResource {
  resource: Resource;
  cache?: ObjectCache<KubeObject> | undefined;
}

/**
 * The reasons a refused write is reported under when its step names none (finalizers, the
 * handshake's writes, deletions), by the side it went to: a refusal is never silent.
 */
export interface RefusalReasons {
  /** A write to the Machine API side. */
  mapi: SyncReason;
  /** Creating a Cluster API object, and changing one. */
  capiCreate: SyncReason;
  capi: SyncReason;
  /** An infrastructure template or machine. */
  infrastructure: SyncReason;
}

function refusalReason(step: WriteStep, reasons: RefusalReasons): SyncReason {
  const group = step.object.apiVersion.split('/')[0];
  if (group === MAPI_GROUP) return reasons.mapi;
  if (group === CAPI_GROUP) return step.kind === 'create' ? reasons.capiCreate : reasons.capi;
  return reasons.infrastructure;
}

/** One reconcile: its log, and the queue key it runs for (see `reconcile`). */
interface Run {
  log: Logger;
  writer: string;
}

/** A plan that keeps producing writes is a bug; stop and back off rather than spin. */
const MAX_STEPS_PER_RECONCILE = 25;
const CACHE_WAIT_MS = 500;

/** What identifies a write regardless of the resourceVersion it was conditional on. */
function fingerprint(step: WriteStep): string {
  const { metadata, ...rest } = step.object as KubeObject & { status?: unknown };
  const {
    resourceVersion: _rv,
    managedFields: _mf,
    generation: _g,
    creationTimestamp: _ct,
    ...identity
  } = metadata;
  const content =
    step.kind === 'patch'
      ? {
          name: metadata.name,
          namespace: metadata.namespace,
          patch: withoutResourceVersion(step.patch),
        }
      : step.kind === 'delete'
        ? { uid: metadata.uid }
        : { ...rest, status: undefined, metadata: identity };
  return stableHash({
    kind: step.kind,
    subresource: 'subresource' in step ? step.subresource : '',
    type: `${step.object.apiVersion}/${step.object.kind}`,
    content,
  });
}

function withoutResourceVersion(patch: Extract<WriteStep, { kind: 'patch' }>['patch']): unknown {
  if (patch.type === 'json') return patch.operations;
  const { metadata, ...rest } = patch.body as { metadata?: Record<string, unknown> };
  const { resourceVersion: _rv, ...meta } = metadata ?? {};
  return { ...rest, metadata: meta };
}

/**
 * Our cache was behind the server: a conflict, an object already gone, or a
 * failed `test` of one of our JSON patches (422 without causes). Normal life,
 * retried from fresh observations. A 422 with causes, or any denial at
 * admission, is a refusal, never a race.
 */
function isRace(step: WriteStep, err: unknown): boolean {
  const failedTest =
    step.kind === 'patch' && step.patch.type === 'json' && isUnappliedJsonPatch(err);
  return isConflict(err) || isNotFound(err) || failedTest;
}

/**
 * A write refused for good is tried again when something it was computed from changes, and
 * otherwise after 5 s, doubling up to 5 minutes: what refused it (a policy, a webhook, RBAC) may
 * be mended without any object changing.
 */
const REFUSAL_RETRY_FIRST_MS = 5_000;
const REFUSAL_RETRY_MAX_MS = 300_000;

/** The delay before a refused write's retry number `retries` (0: the first). */
export function refusalRetryDelay(retries: number): number {
  return Math.min(REFUSAL_RETRY_FIRST_MS * 2 ** Math.min(retries, 20), REFUSAL_RETRY_MAX_MS);
}

/** A write the API server refused for good, per subject, until the plan changes. */
interface Refusal {
  /** The step's fingerprint. */
  id: string;
  description: string;
  /** How many times it was tried again and refused again. */
  retries: number;
  /** When it is tried again (clock ms). */
  retryAt: number;
}

/** Refused for good: retried when something it was computed from changes, or after a backoff. */
class PermanentRefusal extends Error {
  constructor(
    message: string,
    /** The server's answer, for the report on the MAPI object. */
    readonly description: string,
    options: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * What makes a reconciler of one kind: how it reads its subject from the caches, plans the next
 * write, and where the writes go. A reconcile is observe(name) → plan(observed) → execute, until
 * the plan says done.
 */
export interface ReconcilerParts<O extends MirrorObserved> {
  /** The subject's name in logs: "machineSet" or "machine". */
  subject: string;
  /** What the plan needs, from the caches; undefined while a cache is not synced yet. */
  observe(name: string): O | undefined;
  /** The next write, or done: pure. */
  plan(observed: O): Step;
  /** The resources this subject's steps write, with their caches. */
  writable(observed: O): CachedResource[];
  /** The MAPI object that events and write failures are reported on. */
  reportedOn(observed: O): ReportingObject | undefined;
  /** How a refused write whose step names no failure reason is reported. */
  refusalReasons: RefusalReasons;
}

export class StepReconciler<O extends MirrorObserved> {
  /** Reconciles finished, successfully or not; lets tests and metrics see progress. */
  completed = 0;
  /** Per subject: the write the API server refused for good (and why), until the plan changes. */
  private readonly refused = new Map<string, Refusal>();

  private readonly clock: Clock;

  constructor(
    private readonly parts: ReconcilerParts<O>,
    private readonly base: StepReconcilerOptions,
  ) {
    this.clock = base.clock ?? realClock;
  }

  /**
   * `writer`: the queue key this reconcile runs for. The changes its own writes make do not wake
   * it again: it observes afresh after each write until its plan is done.
   */
  async reconcile(name: string, writer = name): Promise<ReconcileResult> {
    try {
      return await this.reconcileSteps(name, writer);
    } finally {
      this.completed++;
    }
  }

  private async reconcileSteps(name: string, writer: string): Promise<ReconcileResult> {
    const log = this.base.logger.child({ [this.parts.subject]: name });
    const run: Run = { log, writer };
    for (let steps = 0; steps < MAX_STEPS_PER_RECONCILE; steps++) {
      const observed = this.parts.observe(name);
      if (!observed) return { requeueAfterMs: CACHE_WAIT_MS };
      const step = this.parts.plan(observed);
      if (step.kind === 'done') {
        this.refused.delete(name);
        log.debug('reconciled', { result: step.note, steps });
        return {};
      }
      // Hashed only when a refusal is on record or being recorded: the healthy path never needs it.
      const previous = this.refused.get(name);
      const refusal = previous && previous.id === fingerprint(step) ? previous : undefined;
      if (refusal) {
        const standing = await this.standingRefusal(step, observed, refusal, run);
        if (standing === 'reported') continue;
        if (standing) return standing;
      }
      try {
        await this.execute(step, observed, run, refusal !== undefined);
        this.refused.delete(name);
      } catch (err) {
        if (isRace(step, err)) {
          log.debug('write raced with another writer; retrying', {
            step: step.note,
            error: describeError(err),
          });
          return { retry: true };
        }
        if (err instanceof PermanentRefusal) {
          const retries = refusal ? refusal.retries + 1 : 0;
          const delay = refusalRetryDelay(retries);
          this.refused.set(name, {
            id: fingerprint(step),
            description: err.description,
            retries,
            retryAt: this.clock.now() + delay,
          });
          // Retried at once if the report on the MAPI object did not get through.
          const unreported = this.failureReport(
            step,
            this.parts.observe(name),
            err.description,
            true,
          );
          return unreported ? { retry: true } : { requeueAfterMs: delay };
        }
        throw err;
      }
    }
    log.warn('reconcile did not settle; backing off', { steps: MAX_STEPS_PER_RECONCILE });
    return { retry: true };
  }

  /**
   * A write refused before, planned again: the refusal stands. Its report on the MAPI object may
   * still be missing (it raced): written now ('reported': observe again). Otherwise the reconcile
   * waits for the retry (its result), or, once that is due, tries the write again (undefined).
   */
  private async standingRefusal(
    step: WriteStep,
    observed: O,
    refusal: Refusal,
    run: Run,
  ): Promise<ReconcileResult | 'reported' | undefined> {
    const report = this.failureReport(step, observed, refusal.description, true);
    if (report) {
      try {
        await this.writeReport(report, observed, run);
      } catch (err) {
        if (isRace(report, err)) return { retry: true };
        throw err;
      }
      return 'reported';
    }
    const wait = refusal.retryAt - this.clock.now();
    if (wait > 0) {
      run.log.debug('write refused before; waiting for a change or the retry', {
        step: step.note,
        retryInMs: wait,
      });
      return { requeueAfterMs: wait };
    }
    run.log.debug('trying a refused write again', { step: step.note, retries: refusal.retries });
    return undefined;
  }

  /** Sends one write and feeds the server's answer into the cache, ahead of the watch. */
  private async write(step: WriteStep, observed: O, writtenBy: string): Promise<void> {
    const { writer } = this.base;
    const writable = this.parts.writable(observed);
    const resource = resourceOf(
      step.object,
      writable.map((w) => w.resource),
    );
    const cache = writable.find((w) => w.resource === resource)?.cache;
    const key = objectKey(step.object);
    const subresource = step.kind === 'patch' ? step.subresource : undefined;
    let answer: KubeObject | undefined;
    try {
      switch (step.kind) {
        case 'create':
          answer = await writer.create(resource, step.object);
          break;
        case 'update':
          answer = await writer.update(resource, step.object);
          break;
        case 'patch':
          answer = await writer.patch(resource, step.object, step.patch, step.subresource);
          break;
        case 'delete':
          answer = await writer.delete(resource, step.object);
          break;
      }
    } catch (error) {
      this.base.onWriteFailure?.({
        resource,
        verb: step.kind,
        ...(subresource ? { subresource } : {}),
        error,
      });
      throw error;
    }
    this.base.onWrite?.({
      resource,
      verb: step.kind,
      object: step.object,
      note: step.note,
      ...(subresource ? { subresource } : {}),
    });
    // Gone: deleted without finalizers, or the last finalizer of a deleted object released.
    const gone =
      !answer || (answer.metadata.deletionTimestamp && !answer.metadata.finalizers?.length);
    if (gone) cache?.remove(key, writtenBy);
    else if (answer) cache?.upsert(answer, writtenBy);
  }

  /** `again`: a retry of a write refused before, whose refusal was logged already. */
  private async execute(step: WriteStep, observed: O, run: Run, again = false): Promise<void> {
    const { log } = run;
    try {
      await this.write(step, observed, run.writer);
      // Status mirrors follow their source several times while a machine comes up: at info they
      // would drown (and cost more than) the writes that change what a machine is. Authority
      // moving (entering and leaving Migrating) is one of those.
      const quiet = step.kind === 'patch' && step.subresource === 'status' && !step.notable;
      const level = quiet ? 'debug' : 'info';
      log[level](step.note, { kind: step.object.kind, name: step.object.metadata.name });
    } catch (err) {
      if (isRace(step, err)) throw err;
      const permanent = isPermanent(err);
      const description = describeError(err);
      await this.reportWriteFailure(step, observed, description, permanent, run);
      const message = `${step.note}: ${description}`;
      if (permanent) {
        log[again ? 'debug' : 'warn']('write refused by the API server; retried later', {
          step: step.note,
          error: description,
        });
        throw new PermanentRefusal(message, description, { cause: err });
      }
      throw new Error(message, { cause: err });
    }
    await this.recordEvents(step, observed, log);
  }

  /** Events are best effort: one that cannot be recorded never fails a write that succeeded. */
  private async recordEvents(step: WriteStep, observed: O, log: Logger): Promise<void> {
    const target = this.parts.reportedOn(observed);
    if (!target) return;
    for (const event of step.events ?? []) {
      try {
        await this.base.events.record(target, event);
      } catch (err) {
        log.warn('could not record an event', { reason: event.reason, error: describeError(err) });
      }
    }
  }

  /** Says on the MAPI object which write failed, once per distinct message (best effort). */
  private async reportWriteFailure(
    step: WriteStep,
    observed: O,
    description: string,
    permanent: boolean,
    run: Run,
  ): Promise<void> {
    const report = this.failureReport(step, observed, description, permanent);
    if (!report) return;
    try {
      await this.writeReport(report, observed, run);
    } catch (reportErr) {
      // The original failure is what gets retried; a refused write's report is retried then.
      run.log.debug('could not report the failure', { error: describeError(reportErr) });
    }
  }

  /** The Synchronized=False report of a failed write, unless it is on the MAPI object already. */
  private failureReport(
    step: WriteStep,
    observed: O | undefined,
    description: string,
    permanent: boolean,
  ): WriteStep | undefined {
    const target = observed && this.parts.reportedOn(observed);
    const failed =
      step.failure ?? (permanent ? refusalReason(step, this.parts.refusalReasons) : undefined);
    if (!observed || !failed || !target || target.metadata.deletionTimestamp) return undefined;
    const namespace = step.object.metadata.namespace ?? observed.capiNamespace;
    const what = `${step.object.kind} ${namespace}/${step.object.metadata.name}`;
    const message = permanent
      ? `The API server refused ${step.note} (${what}): ${description}. Fix the ${target.kind} (or what refuses it); the write is tried again when something changes, and otherwise within 5 minutes.`
      : `Failed ${step.note} (${what}): ${description}. Retrying with backoff.`;
    const reason = permanent ? failed : Reason.Retrying;
    const report = reportFailure(target, observed.now, reason, message, 'already reported', failed);
    return report.kind === 'done' ? undefined : report;
  }

  private async writeReport(report: WriteStep, observed: O, run: Run): Promise<void> {
    await this.write(report, observed, run.writer);
    await this.recordEvents(report, observed, run.log);
  }
}
