// Runs N workers over a work queue, like controller-runtime's reconcile loop: a failure is retried
// with the key's backoff, a success resets it (and may ask for a later requeue).
import { describeErrorChain as describeError } from '../kube/errors.js';
import type { Logger } from '../logging.js';
import type { WorkQueue } from './workqueue.js';

export type ProcessResult = void | { requeueAfterMs?: number };

export type ProcessKey = (key: string) => Promise<ProcessResult>;

export type WorkerQueue = Pick<
  WorkQueue,
  'get' | 'done' | 'forget' | 'addAfter' | 'addRateLimited' | 'numRequeues'
>;

/** Resolves once the queue is shut down and every in-flight `process` call has finished. */
export async function runWorkers(
  queue: WorkerQueue,
  count: number,
  process: ProcessKey,
  logger: Logger,
): Promise<void> {
  if (!Number.isInteger(count) || count < 1) {
    throw new RangeError(`worker count must be a positive integer, got ${count}`);
  }
  await Promise.all(Array.from({ length: count }, () => work(queue, process, logger)));
}

async function work(queue: WorkerQueue, process: ProcessKey, logger: Logger): Promise<void> {
  for (;;) {
    const key = await queue.get();
    if (key === undefined) return;
    try {
      const result = await process(key);
      queue.forget(key);
      if (result && result.requeueAfterMs !== undefined) queue.addAfter(key, result.requeueAfterMs);
    } catch (err) {
      queue.addRateLimited(key);
      logger.error('processing failed; will retry', {
        key,
        requeues: queue.numRequeues(key),
        error: describeError(err),
      });
    } finally {
      queue.done(key);
    }
  }
}
