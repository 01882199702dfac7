import { expect } from 'chai';
import { runWorkers } from '../../../src/runtime/workers.js';
import { WorkQueue } from '../../../src/runtime/workqueue.js';
import { silentLogger } from '../../../src/logging.js';
import { ProgressTracker } from '../../../src/observability/progress.js';
import { FakeClock, flush } from '../../support/fake-clock.js';

const THRESHOLD = 60_000;

describe('ProgressTracker', () => {
  let clock: FakeClock;
  let tracker: ProgressTracker;
  let waiting: number;

  beforeEach(() => {
    clock = new FakeClock();
    tracker = new ProgressTracker({ stallThresholdMs: THRESHOLD, clock });
    waiting = 0;
  });

  it('is healthy before the workers start, however long keys wait (a standby)', async () => {
    await clock.advance(10 * THRESHOLD);
    expect(tracker.health()).to.deep.equal({ healthy: true });
  });

  it('fails once a reconcile has run longer than the threshold, and recovers when it ends', async () => {
    tracker.workersStarted(() => waiting);
    const finish = tracker.began('ns/a');
    await clock.advance(THRESHOLD);
    expect(tracker.health(), 'at the threshold').to.deep.equal({ healthy: true });
    await clock.advance(1);
    expect(tracker.health()).to.deep.equal({
      healthy: false,
      reason: 'reconcile of ns/a running for 60 s (threshold 60 s)',
    });
    finish();
    expect(tracker.health()).to.deep.equal({ healthy: true });
  });

  it('names the oldest of several reconciles in flight', async () => {
    tracker.workersStarted(() => waiting);
    const finishA = tracker.began('a');
    await clock.advance(10_000);
    tracker.began('b');
    await clock.advance(THRESHOLD);
    expect(tracker.health()).to.deep.include({ healthy: false });
    expect((tracker.health() as { reason: string }).reason).to.match(/^reconcile of a /);
    finishA();
    await clock.advance(10_000);
    expect((tracker.health() as { reason: string }).reason).to.match(/^reconcile of b /);
  });

  it('stays healthy while reconciles keep finishing within the threshold', async () => {
    tracker.workersStarted(() => waiting);
    waiting = 100;
    for (let i = 0; i < 20; i++) {
      const finish = tracker.began(`k${i}`);
      await clock.advance(THRESHOLD - 1);
      finish();
      expect(tracker.health()).to.deep.equal({ healthy: true });
    }
  });

  it('fails when keys wait and no worker took or finished one for the threshold', async () => {
    tracker.workersStarted(() => waiting);
    await clock.advance(10 * THRESHOLD);
    expect(tracker.health(), 'idle workers and nothing to do are fine').to.deep.equal({
      healthy: true,
    });
    tracker.began('a')();
    waiting = 3;
    await clock.advance(THRESHOLD + 1);
    expect(tracker.health()).to.deep.equal({
      healthy: false,
      reason: '3 keys waiting and no worker took or finished one for 60 s (threshold 60 s)',
    });
  });

  it('a finish reported twice counts once', async () => {
    tracker.workersStarted(() => waiting);
    const finish = tracker.began('a');
    finish();
    await clock.advance(THRESHOLD + 1);
    finish();
    waiting = 1;
    expect(tracker.health()).to.deep.include({ healthy: false });
  });

  it('rejects a threshold that is not a positive number', () => {
    for (const stallThresholdMs of [0, -1, Number.NaN]) {
      expect(() => new ProgressTracker({ stallThresholdMs })).to.throw(RangeError);
    }
  });

  it('sees the workers stall when every worker hangs on a write, with keys waiting', async () => {
    const queue = new WorkQueue({ clock });
    const hung: string[] = [];
    const running = runWorkers(
      queue,
      2,
      (key) => {
        hung.push(key);
        return new Promise(() => undefined); // a write that never answers
      },
      silentLogger,
      { progress: tracker },
    );
    for (const key of ['a', 'b', 'c', 'd']) queue.add(key);
    await flush();
    expect(hung).to.deep.equal(['a', 'b']);
    expect(tracker.health()).to.deep.equal({ healthy: true });
    await clock.advance(THRESHOLD + 1);
    expect(tracker.health()).to.deep.equal({
      healthy: false,
      reason: 'reconcile of a running for 60 s (threshold 60 s)',
    });
    queue.shutDown();
    void running;
  });
});
