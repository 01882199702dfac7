import { expect } from 'chai';
import type { V1Lease } from '@kubernetes/client-node';
import {
  LeaderElector,
  leaseRequestTimeoutMs,
  validateTimings,
  type LeaderElectionOptions,
  type LeaseApi,
} from '../../../src/kube/leader-election.js';
import { FakeClock, flush } from '../../support/fake-clock.js';
import { recordingLogger } from '../../support/logger.js';

/** One Lease object with optimistic concurrency, as the API server keeps it. */
class LeaseStore {
  lease: V1Lease | undefined;
  private version = 0;

  read(): V1Lease {
    if (!this.lease) throw Object.assign(new Error('not found'), { code: 404 });
    return structuredClone(this.lease);
  }

  create(body: V1Lease): V1Lease {
    if (this.lease) throw Object.assign(new Error('already exists'), { code: 409 });
    this.lease = {
      ...structuredClone(body),
      metadata: { ...body.metadata, resourceVersion: String(++this.version) },
    };
    return this.read();
  }

  replace(body: V1Lease): V1Lease {
    if (body.metadata?.resourceVersion !== this.lease?.metadata?.resourceVersion) {
      throw Object.assign(new Error('conflict'), { code: 409 });
    }
    this.lease = {
      ...structuredClone(body),
      metadata: { ...body.metadata, resourceVersion: String(++this.version) },
    };
    return this.read();
  }

  holder(): string | undefined {
    return this.lease?.spec?.holderIdentity;
  }
}

/** One replica's connection to the store: it can answer, fail, or hang (never answer). */
class FakeLeaseApi implements LeaseApi {
  mode: 'answer' | 'fail' | 'hang' = 'answer';
  calls = 0;
  /** Requests left hanging, to answer late. */
  readonly hanging: (() => void)[] = [];

  constructor(private readonly store: LeaseStore) {}

  private call<T>(operation: () => T): Promise<T> {
    this.calls++;
    if (this.mode === 'fail') return Promise.reject(new Error('connection refused'));
    if (this.mode === 'hang') {
      return new Promise<T>((resolve, reject) =>
        this.hanging.push(() => {
          try {
            resolve(operation());
          } catch (err) {
            reject(err instanceof Error ? err : new Error(String(err)));
          }
        }),
      );
    }
    try {
      return Promise.resolve(operation());
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  readNamespacedLease: LeaseApi['readNamespacedLease'] = () => this.call(() => this.store.read());
  createNamespacedLease: LeaseApi['createNamespacedLease'] = (param) =>
    this.call(() => this.store.create(param.body));
  replaceNamespacedLease: LeaseApi['replaceNamespacedLease'] = (param) =>
    this.call(() => this.store.replace(param.body));
}

const TIMINGS = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

interface Replica {
  elector: LeaderElector;
  api: FakeLeaseApi;
  started: number[];
  stopped: number[];
  logger: ReturnType<typeof recordingLogger>;
}

describe('LeaderElector', () => {
  let clock: FakeClock;
  let store: LeaseStore;
  const replicas: Replica[] = [];

  function replica(identity: string, overrides: Partial<LeaderElectionOptions> = {}): Replica {
    const api = new FakeLeaseApi(store);
    const logger = recordingLogger();
    const started: number[] = [];
    const stopped: number[] = [];
    const elector = new LeaderElector({
      namespace: 'ns',
      name: 'lease',
      identity,
      logger,
      clock,
      api,
      ...TIMINGS,
      onStartedLeading: () => started.push(clock.now()),
      onStoppedLeading: () => stopped.push(clock.now()),
      ...overrides,
    });
    const created = { elector, api, started, stopped, logger };
    replicas.push(created);
    return created;
  }

  beforeEach(() => {
    clock = new FakeClock(1_000_000);
    store = new LeaseStore();
  });

  afterEach(async () => {
    for (const r of replicas.splice(0)) {
      r.api.mode = 'answer';
      await r.elector.release();
    }
  });

  it('creates an absent lease, leads, and renews it every retry period', async () => {
    const a = replica('a');
    a.elector.start();
    await flush();
    expect(a.started).to.deep.equal([1_000_000]);
    expect(a.elector.isLeader()).to.equal(true);
    expect(store.lease?.spec).to.deep.include({
      holderIdentity: 'a',
      leaseDurationSeconds: 15,
      leaseTransitions: 0,
    });
    const renewed = () => new Date(store.lease?.spec?.renewTime ?? 0).getTime();
    await clock.advance(2_000);
    expect(renewed()).to.equal(1_002_000);
    await clock.advance(60_000);
    expect(renewed()).to.equal(1_062_000);
    expect(a.stopped, 'renewing keeps it leading').to.deep.equal([]);
  });

  it('stops leading at the renew deadline while a renewal hangs, not when it returns', async () => {
    const a = replica('a');
    a.elector.start();
    await flush();
    await clock.advance(2_000); // last successful renewal started at +2 s
    a.api.mode = 'hang';
    await clock.advance(2_000); // this renewal hangs forever
    expect(a.api.hanging).to.have.length(1);
    await clock.advance(10_000 - 2_000 - 1);
    expect(a.elector.isLeader(), '1 ms before the deadline').to.equal(true);
    expect(a.stopped).to.deep.equal([]);
    await clock.advance(1);
    expect(a.stopped, 'at the deadline: 10 s after the last renewal started').to.deep.equal([
      1_012_000,
    ]);
    expect(a.elector.isLeader()).to.equal(false);
    expect(a.logger.records.find((r) => r.level === 'error')?.meta).to.include({
      reason: 'not renewed within the renew deadline',
    });

    // The hung renewal returns late, successfully: that must not make it leader again.
    a.api.mode = 'answer';
    for (const answer of a.api.hanging.splice(0)) answer();
    await clock.advance(60_000);
    expect(a.elector.isLeader()).to.equal(false);
    expect(a.started).to.have.length(1);
    expect(a.stopped).to.have.length(1);
    const calls = a.api.calls;
    await clock.advance(60_000);
    expect(a.api.calls, 'it campaigns no more').to.equal(calls);
  });

  it('stops at the renew deadline when every renewal fails, and a success in between extends it', async () => {
    const a = replica('a');
    a.elector.start();
    await flush();
    a.api.mode = 'fail';
    await clock.advance(6_000); // renewals at +2, +4, +6 s fail
    a.api.mode = 'answer';
    await clock.advance(2_000); // +8 s: renewed in time
    expect(a.stopped).to.deep.equal([]);
    a.api.mode = 'fail';
    await clock.advance(10_000 - 1);
    expect(a.stopped).to.deep.equal([]);
    await clock.advance(1);
    expect(a.stopped).to.deep.equal([1_018_000]);
  });

  it('counts the deadline from when a slow renewal started, not when it answered', async () => {
    const a = replica('a');
    a.elector.start();
    await flush();
    a.api.mode = 'hang';
    await clock.advance(2_000); // a renewal starts at +2 s and hangs
    await clock.advance(3_000);
    a.api.mode = 'answer';
    for (const answer of a.api.hanging.splice(0)) answer(); // it succeeds at +5 s
    await flush();
    a.api.mode = 'hang';
    await clock.advance(12_000 - 5_000 - 1);
    expect(a.stopped).to.deep.equal([]);
    await clock.advance(1);
    expect(a.stopped, '10 s after +2 s').to.deep.equal([1_012_000]);
  });

  it('stops at once when it finds another holder on the lease', async () => {
    const a = replica('a');
    a.elector.start();
    await flush();
    const lease = store.read();
    lease.spec = { ...lease.spec, holderIdentity: 'intruder' };
    store.replace(lease);
    await clock.advance(2_000);
    expect(a.stopped).to.deep.equal([1_002_000]);
    expect(a.logger.records.find((r) => r.level === 'error')?.meta).to.include({
      reason: 'another candidate holds the lease',
    });
  });

  it('a standby waits a whole lease duration, and the hung leader has stopped before it leads', async () => {
    const a = replica('a');
    a.elector.start();
    await flush();
    const b = replica('b');
    b.elector.start();
    await clock.advance(20_000);
    expect(b.started, 'no takeover while the leader renews').to.deep.equal([]);
    const lastRenewal = new Date(store.lease?.spec?.renewTime ?? 0).getTime();

    a.api.mode = 'hang'; // only the leader's connection hangs
    await clock.advance(60_000);
    expect(a.stopped).to.deep.equal([lastRenewal + 10_000]);
    expect(b.started).to.have.length(1);
    expect(a.stopped[0], 'the old leader stopped before the standby started').to.be.below(
      b.started[0] ?? 0,
    );
    expect(b.started[0]).to.be.at.least(lastRenewal + 15_000);
    expect(store.holder()).to.equal('b');
    expect(store.lease?.spec?.leaseTransitions).to.equal(1);
  });

  it('release hands the lease back so a standby takes it at its next attempt', async () => {
    const a = replica('a');
    a.elector.start();
    await flush();
    const b = replica('b');
    b.elector.start();
    await flush();
    await a.elector.release();
    expect(store.holder()).to.equal('');
    expect(a.stopped, 'a release is not a loss').to.deep.equal([]);
    await clock.advance(2_000);
    expect(b.elector.isLeader()).to.equal(true);
  });

  it('bounds each lease request by half the retry period, or less when asked', () => {
    expect(leaseRequestTimeoutMs(26_000)).to.equal(13_000);
    expect(leaseRequestTimeoutMs(26_000, 30_000)).to.equal(13_000);
    expect(leaseRequestTimeoutMs(26_000, 5_000)).to.equal(5_000);
    expect(() => replica('x', { requestTimeoutMs: 0 })).to.throw(/positive/);
  });

  it('validates the timings', () => {
    expect(() =>
      validateTimings({ leaseDurationMs: 10, renewDeadlineMs: 10, retryPeriodMs: 1 }),
    ).to.throw(/lease duration/);
    expect(() =>
      validateTimings({ leaseDurationMs: 20, renewDeadlineMs: 10, retryPeriodMs: 9 }),
    ).to.throw(/1.2/);
    expect(() =>
      validateTimings({
        leaseDurationMs: 137_000,
        renewDeadlineMs: 107_000,
        retryPeriodMs: 26_000,
      }),
    ).to.not.throw();
  });
});
