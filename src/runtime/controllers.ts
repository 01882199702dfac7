// Controllers as controller-runtime declares them: each reconciles one kind, has its own queue
// keys, and watches informers through maps from an event to the objects it wakes. The workers
// share one queue; `dispatch` hands each key to the controller that claims it.
import type { KubeObject } from '../api/types.js';
import type { InformerEvent, InformerHandler } from '../kube/informer.js';
import { CONTROLLER_NAMES, type Metrics } from '../observability/metrics.js';
import type { KindInformers } from './manager.js';
import type { ReconcileResult } from './step-reconciler.js';

/** A watch's map: the names of the objects an event concerns. */
export type MapFunc<T> = (event: InformerEvent<T>) => string[];

/** The object before and after an event: absent before an add and after a delete. */
export function change<T>(event: InformerEvent<T>): {
  before: T | undefined;
  after: T | undefined;
} {
  return {
    before: event.type === 'add' ? undefined : event.type === 'update' ? event.old : event.object,
    after: event.type === 'delete' ? undefined : event.object,
  };
}

/** An object wakes itself: a MachineSet or a Machine, on either side. */
export const itself = (event: InformerEvent<KubeObject>): string[] => [event.object.metadata.name];

/** An informer (or a family of them) feeding a map from its events to a controller's objects. */
export interface Watch {
  /** `enqueue` gets each name an event wakes, and the writer when the change is our own write. */
  attach(enqueue: (name: string, writer: string | undefined) => void): void;
}

/** Every event of `source` enqueues the names `map` gives. */
export function watch<T>(
  source: { on(handler: InformerHandler<T>): unknown },
  map: MapFunc<T>,
): Watch {
  return {
    attach: (enqueue) => void source.on((e) => map(e).forEach((name) => enqueue(name, e.writer))),
  };
}

/** Every event of an informer of the family enqueues the names the map of its kind gives. */
export function watchKinds<T extends KubeObject>(
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

/** Hands a key to the controller of its kind. */
export function dispatch(
  controllers: Controller[],
  metrics: Metrics | undefined,
): (key: string) => Promise<ReconcileResult> {
  return async (key) => {
    for (const controller of controllers) {
      const name = controller.nameOf(key);
      if (name !== undefined) return reconcileCounted(controller, name, metrics);
    }
    return {};
  };
}

/** Reconciles one object; counts the outcome in its controller's metrics. */
async function reconcileCounted(
  controller: Controller,
  name: string,
  metrics: Metrics | undefined,
): Promise<ReconcileResult> {
  const label = CONTROLLER_NAMES[controller.kind];
  const started = performance.now();
  try {
    const result = await controller.reconcile(name);
    const outcome = result.retry
      ? 'requeue'
      : result.requeueAfterMs === undefined
        ? 'success'
        : 'requeue_after';
    metrics?.reconciled(label, outcome, (performance.now() - started) / 1000);
    return result;
  } catch (err) {
    metrics?.reconciled(label, 'error', (performance.now() - started) / 1000);
    throw err;
  }
}
