// Leader election on a coordination.k8s.io Lease, with client-go's semantics:
// a candidate takes the lease when its holder has not renewed it for a whole
// lease duration (measured on our own clock from when we last saw it change,
// so clock skew between nodes does not matter); the leader renews every retry
// period and gives up when it could not renew within the renew deadline.
import {
  CoordinationV1Api,
  V1MicroTime,
  type KubeConfig,
  type V1Lease,
} from '@kubernetes/client-node';
import { realClock, type Clock } from '../clock.js';
import type { Logger } from '../logging.js';
import { describeError, isConflict, isNotFound } from './errors.js';

export interface LeaderElectionTimings {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** OpenShift's values for a highly available control plane. */
export const OPENSHIFT_TIMINGS: LeaderElectionTimings = {
  leaseDurationMs: 137_000,
  renewDeadlineMs: 107_000,
  retryPeriodMs: 26_000,
};

export interface LeaderElectionOptions extends LeaderElectionTimings {
  kubeConfig: KubeConfig;
  namespace: string;
  name: string;
  identity: string;
  logger: Logger;
  clock?: Clock;
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

export class LeaderElector {
  private readonly api: CoordinationV1Api;
  private readonly clock: Clock;
  private leading = false;
  private stopped = false;
  private timer: unknown;
  private lastRenewedAt = 0;
  /** The lease as we last saw it, and when (on our clock) it last changed. */
  private observed: { holder: string; renewTime: string; at: number } | undefined;

  constructor(private readonly options: LeaderElectionOptions) {
    validateTimings(options);
    this.api = options.kubeConfig.makeApiClient(CoordinationV1Api);
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
    if (!this.leading) return;
    this.leading = false;
    try {
      const lease = await this.read();
      if (lease?.spec?.holderIdentity !== this.options.identity) return;
      const now = new V1MicroTime(this.clock.now());
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
    let renewed = false;
    try {
      renewed = await this.tryAcquireOrRenew();
    } catch (err) {
      this.options.logger.warn('leader election attempt failed', { error: describeError(err) });
    }
    if (this.stopped) return;
    const now = this.clock.now();
    if (renewed) {
      this.lastRenewedAt = now;
      if (!this.leading) {
        this.leading = true;
        this.options.logger.info('became leader', {
          lease: `${this.options.namespace}/${this.options.name}`,
          identity: this.options.identity,
        });
        this.options.onStartedLeading();
      }
    } else if (this.leading && now - this.lastRenewedAt >= this.options.renewDeadlineMs) {
      this.leading = false;
      this.stopped = true;
      this.options.logger.error('lost leader lease', { lease: this.options.name });
      this.options.onStoppedLeading();
      return;
    }
    this.schedule();
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

  /** True when we hold the lease after this attempt. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const { identity, name, namespace, leaseDurationMs } = this.options;
    const now = this.clock.now();
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
              acquireTime: new V1MicroTime(now),
              renewTime: new V1MicroTime(now),
              leaseTransitions: 0,
            },
          },
        });
        return true;
      } catch (err) {
        if (isConflict(err)) return false; // someone else created it first
        throw err;
      }
    }

    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    const renewTime = spec.renewTime ? new Date(spec.renewTime).toISOString() : '';
    if (
      !this.observed ||
      this.observed.holder !== holder ||
      this.observed.renewTime !== renewTime
    ) {
      this.observed = { holder, renewTime, at: now };
    }
    const heldByOther = holder !== '' && holder !== identity;
    const holderDurationMs = (spec.leaseDurationSeconds ?? leaseDurationSeconds) * 1000;
    if (heldByOther && this.observed.at + holderDurationMs > now) return false;

    const transition = holder !== identity;
    lease.spec = {
      ...spec,
      holderIdentity: identity,
      leaseDurationSeconds,
      renewTime: new V1MicroTime(now),
      ...(transition
        ? { acquireTime: new V1MicroTime(now), leaseTransitions: (spec.leaseTransitions ?? 0) + 1 }
        : {}),
    };
    try {
      await this.api.replaceNamespacedLease({ name, namespace, body: lease });
      return true;
    } catch (err) {
      if (isConflict(err)) return false;
      throw err;
    }
  }
}
