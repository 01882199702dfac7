import { expect } from 'chai';
import type { Clock } from '../../../src/clock.js';
import { WorkQueue } from '../../../src/runtime/workqueue.js';

/** A manual clock: timers fire only when the test advances time. */
class FakeClock implements Clock {
  private time = 0;
  private nextId = 1;
  private readonly timers = new Map<number, { at: number; callback: () => void }>();

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  pending(): number {
    return this.timers.size;
  }

  /** Milliseconds until the earliest timer is due. */
  nextDueIn(): number | undefined {
    const due = [...this.timers.values()].map((t) => t.at - this.time);
    return due.length ? Math.min(...due) : undefined;
  }

  /** Moves time forward, firing due timers in order. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      let next: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of this.timers) {
        if (entry[1].at <= target && (!next || entry[1].at < next[1].at)) next = entry;
      }
      if (!next) break;
      this.timers.delete(next[0]);
      this.time = next[1].at;
      next[1].callback();
    }
    this.time = target;
  }
}

/** Resolves with the promise's value, or 'pending' if it has not settled after a macrotask. */
async function peek<T>(promise: Promise<T>): Promise<T | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((r) => setImmediate(() => r('pending')))]);
}

/** Drains every ready key (each is marked done). */
async function drain(queue: WorkQueue): Promise<string[]> {
  const keys: string[] = [];
  while (queue.len() > 0) {
    const key = await queue.get();
    if (key === undefined) break;
    keys.push(key);
    queue.done(key);
  }
  return keys;
}

/**
 * Fails a key once (addRateLimited) and returns the delay before it was ready again,
 * checking that it was not ready 1 ms earlier. The key is then taken and finished.
 */
function failOnce(queue: WorkQueue, clock: FakeClock, key: string): number {
  queue.addRateLimited(key);
  const delay = clock.nextDueIn();
  if (delay === undefined) throw new Error('addRateLimited scheduled nothing');
  clock.advance(delay - 1);
  expect(queue.len(), `not ready 1 ms before ${delay} ms`).to.equal(0);
  clock.advance(1);
  expect(queue.len(), `ready after ${delay} ms`).to.equal(1);
  void queue.get();
  queue.done(key);
  return delay;
}

describe('WorkQueue', () => {
  let clock: FakeClock;
  let queue: WorkQueue;

  beforeEach(() => {
    clock = new FakeClock();
    queue = new WorkQueue({ clock });
  });

  it('hands out keys in the order they were added', async () => {
    queue.add('a');
    queue.add('b');
    queue.add('c');
    expect(await drain(queue)).to.deep.equal(['a', 'b', 'c']);
  });

  it('deduplicates pending keys', async () => {
    queue.add('a');
    queue.add('b');
    queue.add('a');
    queue.add('a');
    expect(queue.len()).to.equal(2);
    expect(await drain(queue)).to.deep.equal(['a', 'b']);
  });

  it('never hands out a key that is being processed', async () => {
    queue.add('a');
    expect(await queue.get()).to.equal('a');
    queue.add('a');
    expect(queue.len(), 'a re-added while processing is not ready').to.equal(0);
    const next = queue.get();
    expect(await peek(next)).to.equal('pending');
    queue.done('a');
    expect(await next).to.equal('a');
  });

  it('processes a key re-added while running once more after done, and only once', async () => {
    queue.add('a');
    const key = await queue.get();
    queue.add('a');
    queue.add('a');
    queue.done(key as string);
    expect(queue.len()).to.equal(1);
    expect(await queue.get()).to.equal('a');
    queue.done('a');
    expect(queue.len()).to.equal(0);
    expect(await peek(queue.get())).to.equal('pending');
  });

  it('does not requeue a key that was not re-added while running', async () => {
    queue.add('a');
    queue.done((await queue.get()) as string);
    expect(queue.len()).to.equal(0);
  });

  it('hands a key to a getter that was already waiting', async () => {
    const waiting = queue.get();
    expect(await peek(waiting)).to.equal('pending');
    queue.add('a');
    expect(await waiting).to.equal('a');
    // 'a' is now processing: adding it again does not hand it to a second getter.
    queue.add('a');
    expect(await peek(queue.get())).to.equal('pending');
  });

  it('gives each waiting getter a different key', async () => {
    const first = queue.get();
    const second = queue.get();
    queue.add('a');
    queue.add('b');
    expect([await first, await second]).to.deep.equal(['a', 'b']);
  });

  describe('addRateLimited', () => {
    it('backs off per key: 5 ms doubling', () => {
      const delays = [1, 2, 3, 4, 5].map(() => failOnce(queue, clock, 'a'));
      expect(delays).to.deep.equal([5, 10, 20, 40, 80]);
      expect(queue.numRequeues('a')).to.equal(5);
    });

    it('keeps a separate backoff for each key', () => {
      queue.addRateLimited('a');
      queue.addRateLimited('a'); // earlier-scheduled add (5 ms) wins over the 10 ms one
      clock.advance(5);
      expect(queue.numRequeues('a')).to.equal(2);
      expect(queue.numRequeues('b')).to.equal(0);
      queue.addRateLimited('b');
      clock.advance(4);
      expect(queue.len(), 'b waits its own 5 ms').to.equal(1);
      clock.advance(1);
      expect(queue.len()).to.equal(2);
    });

    it('caps the delay at 5 minutes by default', () => {
      const delays: number[] = [];
      for (let i = 0; i < 20; i++) delays.push(failOnce(queue, clock, 'a'));
      expect(delays.slice(0, 3)).to.deep.equal([5, 10, 20]);
      expect(delays[16], '5 ms × 2^16 is past the cap').to.equal(5 * 60 * 1000);
      expect(Math.max(...delays)).to.equal(5 * 60 * 1000);
    });

    it('honours a configured cap', () => {
      const small = new WorkQueue({ clock, baseDelayMs: 10, maxDelayMs: 25 });
      const delays = [1, 2, 3, 4].map(() => failOnce(small, clock, 'k'));
      expect(delays).to.deep.equal([10, 20, 25, 25]);
    });

    it('resets the backoff on forget', () => {
      queue.addRateLimited('a');
      queue.addRateLimited('a');
      queue.addRateLimited('a');
      expect(queue.numRequeues('a')).to.equal(3);
      clock.advance(5);
      void queue.get();
      queue.done('a');
      queue.forget('a');
      expect(queue.numRequeues('a')).to.equal(0);
      queue.addRateLimited('a');
      clock.advance(4);
      expect(queue.len()).to.equal(0);
      clock.advance(1);
      expect(queue.len(), 'back to the 5 ms base delay').to.equal(1);
    });
  });

  describe('addAfter', () => {
    it('adds the key once the delay has passed', () => {
      queue.addAfter('a', 100);
      clock.advance(99);
      expect(queue.len()).to.equal(0);
      clock.advance(1);
      expect(queue.len()).to.equal(1);
    });

    it('adds at once for a zero or negative delay', () => {
      queue.addAfter('a', 0);
      queue.addAfter('b', -5);
      expect(queue.len()).to.equal(2);
    });

    it('keeps the earlier of two delayed adds for a key', async () => {
      queue.addAfter('a', 100);
      queue.addAfter('a', 500);
      clock.advance(100);
      expect(queue.len()).to.equal(1);
      expect(await queue.get()).to.equal('a');
      queue.done('a');
      clock.advance(1000);
      expect(queue.len(), 'the later add was dropped').to.equal(0);
    });

    it('replaces a later delayed add with an earlier one', () => {
      queue.addAfter('a', 500);
      queue.addAfter('a', 100);
      expect(clock.pending()).to.equal(1);
      clock.advance(100);
      expect(queue.len()).to.equal(1);
    });

    it('delays keys independently', () => {
      queue.addAfter('a', 100);
      queue.addAfter('b', 50);
      clock.advance(50);
      expect(queue.len()).to.equal(1);
      clock.advance(50);
      expect(queue.len()).to.equal(2);
    });

    it('deduplicates with a key already pending', async () => {
      queue.add('a');
      queue.addAfter('a', 10);
      clock.advance(10);
      expect(await drain(queue)).to.deep.equal(['a']);
    });
  });

  describe('shutDown', () => {
    it('wakes every waiting getter with undefined', async () => {
      const getters = [queue.get(), queue.get(), queue.get()];
      expect(await peek(getters[0] as Promise<string | undefined>)).to.equal('pending');
      queue.shutDown();
      expect(await Promise.all(getters)).to.deep.equal([undefined, undefined, undefined]);
    });

    it('stops handing out keys and ignores new adds', async () => {
      queue.add('a');
      queue.shutDown();
      expect(queue.isShuttingDown()).to.equal(true);
      expect(await queue.get()).to.equal(undefined);
      queue.add('b');
      queue.addRateLimited('c');
      expect(queue.numRequeues('c')).to.equal(0);
    });

    it('drops delayed adds', () => {
      queue.addAfter('a', 100);
      queue.addRateLimited('b');
      expect(clock.pending()).to.equal(2);
      queue.shutDown();
      expect(clock.pending()).to.equal(0);
      clock.advance(1000);
      expect(queue.len()).to.equal(0);
    });

    it('lets in-flight keys finish', async () => {
      queue.add('a');
      const key = await queue.get();
      queue.add('a');
      queue.shutDown();
      queue.done(key as string);
      expect(queue.len()).to.equal(0);
    });
  });

  it('uses the real clock by default', async () => {
    const real = new WorkQueue();
    real.addAfter('a', 5);
    expect(real.len()).to.equal(0);
    expect(await real.get()).to.equal('a');
    real.shutDown();
  });

  it('rejects an invalid backoff configuration', () => {
    expect(() => new WorkQueue({ baseDelayMs: 0 })).to.throw(RangeError);
    expect(() => new WorkQueue({ baseDelayMs: 10, maxDelayMs: 5 })).to.throw(RangeError);
  });
});
