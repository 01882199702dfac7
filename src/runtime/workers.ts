// Runs N workers over a work queue, like controller-runtime's reconcile loop: a success resets
// the key's backoff (and may ask for a later requeue); `{ retry: true }` requeues the key with
// its backoff because of an expected race (a conflict, a cache not caught up yet), which is not
// an error; a thrown error is a failure, retried with the key's backoff and logged — as a
// warning while the key has failed only a few times, as an error once a person should look.
// Log lines are single lines: describeErrorChain flattens multi-line API bodies.
import { describeErrorChain } from '../kube/errors.js';
import type { Logger } from '../logging.js';
import type { WorkerProgress } from '../observability/progress.js';
import type { WorkQueue } from './workqueue.js';

type ProcessResult =
  | void
  /** Done; optionally look again after this long. Resets the key's backoff. */
  | { requeueAfterMs?: number; retry?: false }
  /** Not done because of an expected race: try again after the key's backoff, which grows. */
  | { retry: true };

export type ProcessKey = (key: string) => Promise<ProcessResult>;

export type WorkerQueue = Pick<
  WorkQueue,
  'get' | 'done' | 'forget' | 'addAfter' | 'addRateLimited' | 'numRequeues' | 'len'
>;

/** Requeues of a key from which a failure is logged as an error rather than a warning. */
const ERROR_AFTER_REQUEUES = 5;

export interface RunWorkersOptions {
  /** Told when keys are taken and finished, for the liveness probe. */
  progress?: WorkerProgress;
}

/** Resolves once the queue is shut down and every in-flight `process` call has finished. */
export async function runWorkers(
  queue: WorkerQueue,
  count: number,
  process: ProcessKey,
  logger: Logger,
  options: RunWorkersOptions = {},
): Promise<void> {
  if (!Number.isInteger(count) || count < 1) {
    throw new RangeError(`worker count must be a positive integer, got ${count}`);
  }
  options.progress?.workersStarted(() => queue.len());
  await Promise.all(
    Array.from({ length: count }, () => work(queue, process, logger, options.progress)),
  );
}

async function work(
  queue: WorkerQueue,
  process: ProcessKey,
  logger: Logger,
  progress: WorkerProgress | undefined,
): Promise<void> {
  for (;;) {
    const key = await queue.get();
    if (key === undefined) return;
    const finished = progress?.began(key);
    try {
      const result = await process(key);
      if (result && result.retry === true) {
        queue.addRateLimited(key);
        logger.debug('requeued after an expected race', {
          key,
          requeues: queue.numRequeues(key),
        });
      } else {
        queue.forget(key);
        if (result && result.requeueAfterMs !== undefined) {
          queue.addAfter(key, result.requeueAfterMs);
        }
      }
    } catch (err) {
      queue.addRateLimited(key);
      const requeues = queue.numRequeues(key);
      const meta = { key, requeues, error: describeErrorChain(err) };
      if (requeues < ERROR_AFTER_REQUEUES) logger.warn('processing failed; will retry', meta);
      else logger.error('processing failed; will retry', meta);
    } finally {
      queue.done(key);
      finished?.();
    }
  }
}
