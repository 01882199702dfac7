// A work queue of string keys with client-go's semantics: pending keys are deduplicated, a key is
// never handed to two workers at once, and a key re-added while being processed is queued again
// when `done` is called. Failures back off per key; `addAfter` schedules a delayed add.
import { realClock, type Clock } from '../clock.js';

/** What a queue reports, for the workqueue_* metrics. */
export interface WorkQueueMetrics {
  added(): void;
  depth(keys: number): void;
  /** Seconds a key waited in the queue before a worker took it. */
  waited(seconds: number): void;
  retried(): void;
}

export interface WorkQueueOptions {
  clock?: Clock;
  metrics?: WorkQueueMetrics;
  /** First retry delay of `addRateLimited`; doubles per consecutive failure. Default 5 ms. */
  baseDelayMs?: number;
  /** Longest retry delay. Default 5 minutes (client-go's 1000 s is too long for us). */
  maxDelayMs?: number;
}

const DEFAULT_BASE_DELAY_MS = 5;
const DEFAULT_MAX_DELAY_MS = 5 * 60 * 1000;

export class WorkQueue {
  private readonly clock: Clock;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  /** Keys ready to be handed out, in order. */
  private readonly queue: string[] = [];
  /** Keys that need processing (queued, or re-added while processing). */
  private readonly dirty = new Set<string>();
  /** Keys handed out and not yet `done`. */
  private readonly processing = new Set<string>();
  private readonly waiters: ((key: string | undefined) => void)[] = [];
  private readonly failures = new Map<string, number>();
  private readonly delayed = new Map<string, { readyAt: number; handle: unknown }>();
  /** When each queued key was queued, for the wait-time metric. */
  private readonly queuedAt = new Map<string, number>();
  private readonly metrics: WorkQueueMetrics | undefined;
  private shuttingDown = false;

  constructor(options: WorkQueueOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.metrics = options.metrics;
    this.baseDelayMs = options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
    this.maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
    if (!(this.baseDelayMs > 0) || !(this.maxDelayMs >= this.baseDelayMs)) {
      throw new RangeError('work queue needs 0 < baseDelayMs <= maxDelayMs');
    }
  }

  /** Marks a key as needing processing. Ignored after shutdown. */
  add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.dirty.add(key);
    this.metrics?.added();
    // A key being processed is queued again by `done`, so it never runs twice at once.
    if (this.processing.has(key)) return;
    this.enqueue(key);
  }

  /** Adds the key after `ms`; of several pending delayed adds for a key, the earliest wins. */
  addAfter(key: string, ms: number): void {
    if (this.shuttingDown) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const readyAt = this.clock.now() + ms;
    const existing = this.delayed.get(key);
    if (existing) {
      if (existing.readyAt <= readyAt) return;
      this.clock.clearTimeout(existing.handle);
    }
    const handle = this.clock.setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, ms);
    this.delayed.set(key, { readyAt, handle });
  }

  /** Adds the key after its per-key backoff: base, 2×base, 4×base, … up to the cap. */
  addRateLimited(key: string): void {
    if (this.shuttingDown) return;
    const failures = this.failures.get(key) ?? 0;
    this.failures.set(key, failures + 1);
    this.metrics?.retried();
    this.addAfter(key, Math.min(this.baseDelayMs * 2 ** failures, this.maxDelayMs));
  }

  /** Resets the key's backoff (call after a success). Does not cancel a pending delayed add. */
  forget(key: string): void {
    this.failures.delete(key);
  }

  /** How many times the key went through `addRateLimited` since it was last forgotten. */
  numRequeues(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /**
   * The next key to process, waiting until one is ready. The caller must call `done(key)`.
   * Resolves to undefined once the queue is shut down (keys still pending are not handed out).
   */
  get(): Promise<string | undefined> {
    if (this.shuttingDown) return Promise.resolve(undefined);
    const key = this.queue.shift();
    if (key !== undefined) {
      this.take(key);
      return Promise.resolve(key);
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Ends processing of a key; if it was re-added meanwhile, it is queued again. */
  done(key: string): void {
    if (!this.processing.delete(key)) return;
    if (this.dirty.has(key) && !this.shuttingDown) this.enqueue(key);
  }

  /** Stops handing out keys: waiting and later `get` calls resolve to undefined; delayed adds are dropped. */
  shutDown(): void {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    for (const { handle } of this.delayed.values()) this.clock.clearTimeout(handle);
    this.delayed.clear();
    for (const waiter of this.waiters.splice(0)) waiter(undefined);
  }

  isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Keys waiting to be handed out (not counting those being processed). */
  len(): number {
    return this.queue.length;
  }

  private enqueue(key: string): void {
    this.queue.push(key);
    this.queuedAt.set(key, this.clock.now());
    this.dispatch();
    this.metrics?.depth(this.queue.length);
  }

  private take(key: string): void {
    this.dirty.delete(key);
    this.processing.add(key);
    const queuedAt = this.queuedAt.get(key);
    this.queuedAt.delete(key);
    if (queuedAt !== undefined) this.metrics?.waited((this.clock.now() - queuedAt) / 1000);
    this.metrics?.depth(this.queue.length);
  }

  private dispatch(): void {
    while (this.waiters.length > 0 && this.queue.length > 0) {
      const key = this.queue.shift() as string;
      const waiter = this.waiters.shift() as (key: string | undefined) => void;
      this.take(key);
      waiter(key);
    }
  }
}
