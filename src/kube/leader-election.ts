// Leader election on a coordination.k8s.io Lease, with client-go's semantics:
// a candidate takes the lease when its holder has not renewed it for a whole
// lease duration (measured on our own clock from when we last saw it change,
// so clock skew between nodes does not matter); the leader renews every retry
// period and gives up when it could not renew within the renew deadline.
//
// The renew deadline is enforced by a timer of its own: a leader whose renewals hang stops
// leading at the deadline, not whenever a hanging request returns. Every lease request also has
// a timeout shorter than the retry period. Deadlines are counted from when a successful renewal
// started (the renewTime it wrote), so since renewDeadline < leaseDuration a leader that cannot
// renew stops before any standby can take the lease over.
import type { V1Lease } from '@kubernetes/client-node';
import { realClock, type Clock } from '../clock.js';
import type { Logger } from '../logging.js';
import { describeError, isConflict, isNotFound } from './errors.js';
import type { KubeClient } from './http-client.js';

export interface LeaderElectionTimings {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** The lease calls the elector makes (named as client-node's CoordinationV1Api names them). */
export interface LeaseApi {
  readNamespacedLease(param: { name: string; namespace: string }): Promise<V1Lease>;
  createNamespacedLease(param: { namespace: string; body: V1Lease }): Promise<V1Lease>;
  replaceNamespacedLease(param: {
    name: string;
    namespace: string;
    body: V1Lease;
  }): Promise<V1Lease>;
}

/** The lease API over our client, each request bounded by `timeoutMs`. */
function createLeaseApi(client: KubeClient, timeoutMs: number): LeaseApi {
  const leases = (namespace: string) =>
    `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/leases`;
  const lease = (namespace: string, name: string) =>
    `${leases(namespace)}/${encodeURIComponent(name)}`;
  const typed = (body: V1Lease) => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    ...body,
  });
  return {
    readNamespacedLease: ({ name, namespace }) =>
      client.request('GET', lease(namespace, name), { timeoutMs }),
    createNamespacedLease: ({ namespace, body }) =>
      client.request('POST', leases(namespace), { body: typed(body), timeoutMs }),
    replaceNamespacedLease: ({ name, namespace, body }) =>
      client.request('PUT', lease(namespace, name), { body: typed(body), timeoutMs }),
  };
}

/** A Date that serializes as a Kubernetes MicroTime: RFC 3339 with exactly six fractional digits. */
class MicroTime extends Date {
  override toJSON(): string {
    return this.toISOString().replace(/Z$/, '000Z');
  }
}

export interface LeaderElectionOptions extends LeaderElectionTimings {
  /** The client the lease API is made on, unless `api` is given. */
  client?: KubeClient;
  namespace: string;
  name: string;
  identity: string;
  logger: Logger;
  clock?: Clock;
  /**
   * Timeout of each lease request; must be shorter than the retry period. Default: half the
   * retry period (an attempt makes two requests: read, then create or replace).
   */
  requestTimeoutMs?: number;
  /** The lease API; by default one on `client` with `requestTimeoutMs` per request. */
  api?: LeaseApi;
  /** Called once when this process becomes the leader. */
  onStartedLeading: () => void;
  /** Called once when leadership is lost (not when released); the process should exit. */
  onStoppedLeading: () => void;
}

export function validateTimings({
  leaseDurationMs,
  renewDeadlineMs,
  retryPeriodMs,
}: LeaderElectionTimings): void {
  if (!(leaseDurationMs > renewDeadlineMs)) {
    throw new Error('the lease duration must be greater than the renew deadline');
  }
  if (!(renewDeadlineMs > retryPeriodMs * 1.2)) {
    throw new Error('the renew deadline must be greater than 1.2 × the retry period');
  }
  if (!(retryPeriodMs > 0)) throw new Error('the retry period must be positive');
}

/** The timeout of each lease request: the one asked for, capped at half the retry period. */
export function leaseRequestTimeoutMs(retryPeriodMs: number, requestTimeoutMs?: number): number {
  const cap = Math.max(1, Math.floor(retryPeriodMs / 2));
  return requestTimeoutMs === undefined ? cap : Math.min(requestTimeoutMs, cap);
}

/** How an attempt to acquire or renew the lease ended. */
type AttemptResult = 'held' | 'held-by-other' | 'failed';

export class LeaderElector {
  private readonly api: LeaseApi;
  private readonly clock: Clock;
  private leading = false;
  private stopped = false;
  /** The next attempt's timer. */
  private timer: unknown;
  /** Fires when the leader has not renewed within the renew deadline. */
  private deadlineTimer: unknown;
  /** Increases on every attempt, so the answer of a stale attempt is recognised. */
  private attempt = 0;
  /** The lease as we last saw it, and when (on our clock) it last changed. */
  private observed: { holder: string; renewTime: string; at: number } | undefined;

  constructor(private readonly options: LeaderElectionOptions) {
    validateTimings(options);
    if (options.requestTimeoutMs !== undefined && !(options.requestTimeoutMs > 0)) {
      throw new Error('the lease request timeout must be positive');
    }
    const timeoutMs = leaseRequestTimeoutMs(options.retryPeriodMs, options.requestTimeoutMs);
    const api = options.api ?? (options.client && createLeaseApi(options.client, timeoutMs));
    if (!api) throw new Error('leader election needs a client or a lease API');
    this.api = api;
    this.clock = options.clock ?? realClock;
  }

  isLeader(): boolean {
    return this.leading;
  }

  start(): void {
    void this.tick();
  }

  /** Stops campaigning; if leading, hands the lease back so another replica takes over at once. */
  async release(): Promise<void> {
    this.stopped = true;
    this.clock.clearTimeout(this.timer);
    this.clock.clearTimeout(this.deadlineTimer);
    if (!this.leading) return;
    this.leading = false;
    try {
      const lease = await this.read();
      if (lease?.spec?.holderIdentity !== this.options.identity) return;
      const now = new MicroTime(this.clock.now());
      lease.spec = { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: now };
      await this.api.replaceNamespacedLease({
        name: this.options.name,
        namespace: this.options.namespace,
        body: lease,
      });
      this.options.logger.info('released leader lease', { lease: this.options.name });
    } catch (err) {
      this.options.logger.warn('could not release leader lease; it expires by itself', {
        error: describeError(err),
      });
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.clock.setTimeout(() => void this.tick(), this.options.retryPeriodMs);
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    const attempt = ++this.attempt;
    const startedAt = this.clock.now();
    let result: AttemptResult = 'failed';
    try {
      result = await this.tryAcquireOrRenew(startedAt);
    } catch (err) {
      if (!this.stopped) {
        this.options.logger.warn('leader election attempt failed', { error: describeError(err) });
      }
    }
    if (this.stopped || attempt !== this.attempt) return;
    if (result === 'held-by-other' && this.leading) {
      // Someone else holds the lease we thought was ours: we are not the leader, whatever the
      // deadline says.
      this.lose('another candidate holds the lease');
      return;
    }
    if (result === 'held') {
      this.renewedAt(startedAt);
      if (!this.leading) {
        this.leading = true;
        this.options.logger.info('became leader', {
          lease: `${this.options.namespace}/${this.options.name}`,
          identity: this.options.identity,
        });
        this.options.onStartedLeading();
      }
    }
    this.schedule();
  }

  /**
   * A renewal that started at `startedAt` succeeded: the deadline moves to renewDeadline after
   * it. The time left is measured from now, so a renewal that took long leaves less of it.
   */
  private renewedAt(startedAt: number): void {
    this.clock.clearTimeout(this.deadlineTimer);
    const remainingMs = startedAt + this.options.renewDeadlineMs - this.clock.now();
    this.deadlineTimer = this.clock.setTimeout(
      () => this.lose('not renewed within the renew deadline'),
      Math.max(0, remainingMs),
    );
  }

  /** Stops leading now, whatever requests are still pending, and campaigns no more. */
  private lose(reason: string): void {
    if (this.stopped || !this.leading) return;
    this.leading = false;
    this.stopped = true;
    this.clock.clearTimeout(this.timer);
    this.clock.clearTimeout(this.deadlineTimer);
    this.options.logger.error('lost leader lease', {
      lease: `${this.options.namespace}/${this.options.name}`,
      reason,
      renewDeadlineMs: this.options.renewDeadlineMs,
    });
    this.options.onStoppedLeading();
  }

  private async read(): Promise<V1Lease | undefined> {
    try {
      return await this.api.readNamespacedLease({
        name: this.options.name,
        namespace: this.options.namespace,
      });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Whether we hold the lease after this attempt (with renewTime `now`), or who does. */
  private async tryAcquireOrRenew(now: number): Promise<AttemptResult> {
    const { identity, name, namespace, leaseDurationMs } = this.options;
    const leaseDurationSeconds = Math.ceil(leaseDurationMs / 1000);
    const lease = await this.read();
    if (!lease) {
      try {
        await this.api.createNamespacedLease({
          namespace,
          body: {
            metadata: { name, namespace },
            spec: {
              holderIdentity: identity,
              leaseDurationSeconds,
              acquireTime: new MicroTime(now),
              renewTime: new MicroTime(now),
              leaseTransitions: 0,
            },
          },
        });
        return 'held';
      } catch (err) {
        if (isConflict(err)) return 'failed'; // someone else created it first
        throw err;
      }
    }

    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    const renewTime = spec.renewTime ? new Date(spec.renewTime).toISOString() : '';
    // When we saw it change is when the read answered, not when this attempt started.
    const seenAt = this.clock.now();
    if (
      !this.observed ||
      this.observed.holder !== holder ||
      this.observed.renewTime !== renewTime
    ) {
      this.observed = { holder, renewTime, at: seenAt };
    }
    const heldByOther = holder !== '' && holder !== identity;
    const holderDurationMs = (spec.leaseDurationSeconds ?? leaseDurationSeconds) * 1000;
    if (heldByOther && this.observed.at + holderDurationMs > seenAt) return 'held-by-other';

    const transition = holder !== identity;
    lease.spec = {
      ...spec,
      holderIdentity: identity,
      leaseDurationSeconds,
      renewTime: new MicroTime(now),
      ...(transition
        ? { acquireTime: new MicroTime(now), leaseTransitions: (spec.leaseTransitions ?? 0) + 1 }
        : {}),
    };
    try {
      await this.api.replaceNamespacedLease({ name, namespace, body: lease });
      return 'held';
    } catch (err) {
      if (isConflict(err)) return 'failed';
      throw err;
    }
  }
}
