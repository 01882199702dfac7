// Liveness of the workers: /healthz fails when they stop making progress, so the kubelet
// restarts a controller whose reconciles are stuck (a hung write holds a worker forever).
//
// Stalled means either
// - a reconcile has been in flight for longer than the stall threshold, or
// - keys are waiting for a worker and no worker took or finished a key for that long.
// Before the workers start (a standby waiting for the lease, caches syncing) nothing is stalled.
import { realClock, type Clock } from '../clock.js';

/** What `runWorkers` reports; implemented by ProgressTracker. */
export interface WorkerProgress {
  /** The workers started; `pending` counts keys waiting for a worker. */
  workersStarted(pending: () => number): void;
  /** A worker took a key; the returned function is called once it finished, however it ended. */
  began(key: string): () => void;
}

export type HealthStatus = { healthy: true } | { healthy: false; reason: string };

export interface ProgressTrackerOptions {
  /** How long without progress counts as stalled (the --health-stall-threshold flag). */
  stallThresholdMs: number;
  clock?: Clock;
}

export class ProgressTracker implements WorkerProgress {
  private readonly clock: Clock;
  private readonly stallThresholdMs: number;
  private readonly inFlight = new Map<number, { key: string; since: number }>();
  private nextId = 0;
  private pending: (() => number) | undefined;
  /** When a worker last took or finished a key (or the workers started). */
  private lastActivityAt = 0;

  constructor(options: ProgressTrackerOptions) {
    if (!(Number.isFinite(options.stallThresholdMs) && options.stallThresholdMs > 0)) {
      throw new RangeError('the stall threshold must be a positive number of ms');
    }
    this.stallThresholdMs = options.stallThresholdMs;
    this.clock = options.clock ?? realClock;
  }

  workersStarted(pending: () => number): void {
    this.pending = pending;
    this.lastActivityAt = this.clock.now();
  }

  began(key: string): () => void {
    const id = this.nextId++;
    const now = this.clock.now();
    this.lastActivityAt = now;
    this.inFlight.set(id, { key, since: now });
    return () => {
      if (this.inFlight.delete(id)) this.lastActivityAt = this.clock.now();
    };
  }

  /** Whether the workers make progress, and if not, why (for /healthz). */
  health(): HealthStatus {
    const now = this.clock.now();
    let oldest: { key: string; since: number } | undefined;
    for (const entry of this.inFlight.values()) {
      if (!oldest || entry.since < oldest.since) oldest = entry;
    }
    if (oldest && now - oldest.since > this.stallThresholdMs) {
      return {
        healthy: false,
        reason: `reconcile of ${oldest.key} running for ${seconds(now - oldest.since)} s (threshold ${seconds(this.stallThresholdMs)} s)`,
      };
    }
    const waiting = this.pending?.() ?? 0;
    if (waiting > 0 && now - this.lastActivityAt > this.stallThresholdMs) {
      return {
        healthy: false,
        reason: `${waiting} keys waiting and no worker took or finished one for ${seconds(now - this.lastActivityAt)} s (threshold ${seconds(this.stallThresholdMs)} s)`,
      };
    }
    return { healthy: true };
  }
}

function seconds(ms: number): number {
  return Math.round(ms / 1000);
}
