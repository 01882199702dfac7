import { expect } from 'chai';
import { runWorkers } from '../../../src/runtime/workers.js';
import { WorkQueue } from '../../../src/runtime/workqueue.js';
import { ProgressTracker } from '../../../src/observability/progress.js';
import { FakeClock } from '../../support/fake-clock.js';
import { recordingLogger } from '../../support/logger.js';

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Waits (bounded) until the condition holds, yielding to timers and I/O between checks. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 1));
  }
  throw new Error(`timed out waiting until ${what}`);
}

async function isPending(promise: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('pending');
  const result = await Promise.race([promise, new Promise((r) => setTimeout(() => r(marker), 10))]);
  return result === marker;
}

describe('runWorkers', () => {
  let queue: WorkQueue;
  let logger: ReturnType<typeof recordingLogger>;

  beforeEach(() => {
    queue = new WorkQueue({ baseDelayMs: 1, maxDelayMs: 10 });
    logger = recordingLogger();
  });

  afterEach(() => queue.shutDown());

  it('processes every key and resolves after shutdown', async () => {
    const seen: string[] = [];
    const running = runWorkers(
      queue,
      2,
      async (key) => {
        seen.push(key);
        await Promise.resolve();
      },
      logger,
    );
    queue.add('a');
    queue.add('b');
    queue.add('c');
    await until(() => seen.length === 3, 'all keys were processed');
    expect(await isPending(running), 'workers keep waiting for keys').to.equal(true);
    queue.shutDown();
    await running;
    expect([...seen].sort()).to.deep.equal(['a', 'b', 'c']);
    expect(logger.errors).to.deep.equal([]);
  });

  it('retries a failing key with backoff, warns of each failure, and forgets it on success', async () => {
    let attempts = 0;
    const running = runWorkers(
      queue,
      1,
      (key) => {
        attempts++;
        if (attempts <= 2) return Promise.reject(new Error(`boom ${attempts}`, { cause: key }));
        return Promise.resolve();
      },
      logger,
    );
    queue.add('a');
    await until(() => attempts === 3, 'the third attempt ran');
    await until(() => queue.numRequeues('a') === 0, 'the success was recorded');
    queue.shutDown();
    await running;
    expect(logger.records.map((r) => [r.level, r.message, r.meta])).to.deep.equal([
      ['warn', 'processing failed; will retry', { key: 'a', requeues: 1, error: "boom 1: 'a'" }],
      ['warn', 'processing failed; will retry', { key: 'a', requeues: 2, error: "boom 2: 'a'" }],
    ]);
  });

  it('logs a failure as an error only once the key has failed five times in a row', async () => {
    let attempts = 0;
    const running = runWorkers(
      queue,
      1,
      () => {
        attempts++;
        if (attempts <= 6) return Promise.reject(new Error(`boom ${attempts}`));
        return Promise.resolve();
      },
      logger,
    );
    queue.add('a');
    await until(() => attempts === 7, 'the seventh attempt ran');
    queue.shutDown();
    await running;
    expect(logger.records.map((r) => `${r.level} ${String(r.meta?.requeues)}`)).to.deep.equal([
      'warn 1',
      'warn 2',
      'warn 3',
      'warn 4',
      'error 5',
      'error 6',
    ]);
  });

  it('logs an error in one line, however many lines its message and causes have', async () => {
    const apiError = new Error(
      'HTTP-Code: 500\nMessage: Unknown API Status Code!\nBody: "{\\n  \\"message\\": \\"etcdserver: leader changed\\"\\n}"\nHeaders: {}',
    );
    let attempts = 0;
    const running = runWorkers(
      queue,
      1,
      () => {
        attempts++;
        if (attempts === 1) throw new Error('updating status\nof ns/a', { cause: apiError });
        return Promise.resolve();
      },
      logger,
    );
    queue.add('a');
    await until(() => attempts === 2, 'the key was retried');
    queue.shutDown();
    await running;
    const error = String(logger.records[0]?.meta?.error);
    expect(error).to.not.match(/[\r\n]/);
    expect(error).to.equal(
      'updating status of ns/a: HTTP-Code: 500 Message: Unknown API Status Code! Body: "{\\n  \\"message\\": \\"etcdserver: leader changed\\"\\n}" Headers: {}',
    );
  });

  it('requeues a key that asks for a retry with its growing backoff, without an error', async () => {
    const addAfter: [string, number][] = [];
    const original = queue.addAfter.bind(queue);
    queue.addAfter = (key, ms) => {
      addAfter.push([key, ms]);
      original(key, ms);
    };
    let attempts = 0;
    const requeuesSeen: number[] = [];
    const running = runWorkers(
      queue,
      1,
      (key) => {
        attempts++;
        requeuesSeen.push(queue.numRequeues(key));
        if (attempts === 2) return Promise.reject(new Error('a real failure'));
        if (attempts <= 4) return Promise.resolve({ retry: true as const });
        return Promise.resolve();
      },
      logger,
    );
    queue.add('a');
    await until(() => attempts === 5, 'the fifth attempt ran');
    await until(() => queue.numRequeues('a') === 0, 'the success was recorded');
    queue.shutDown();
    await running;
    expect(requeuesSeen, 'retries do not reset the backoff').to.deep.equal([0, 1, 2, 3, 4]);
    expect(addAfter).to.deep.equal([
      ['a', 1],
      ['a', 2],
      ['a', 4],
      ['a', 8],
    ]);
    expect(logger.errors).to.deep.equal([]);
    expect(logger.records.map((r) => `${r.level} ${r.message}`)).to.deep.equal([
      'debug requeued after an expected race',
      'warn processing failed; will retry',
      'debug requeued after an expected race',
      'debug requeued after an expected race',
    ]);
  });

  it('tells the progress tracker when each key is taken and finished, however it ends', async () => {
    const clock = new FakeClock();
    const progress = new ProgressTracker({ stallThresholdMs: 1000, clock });
    const gates = new Map<string, Deferred>();
    const running = runWorkers(
      queue,
      2,
      async (key) => {
        const gate = deferred();
        gates.set(key, gate);
        await gate.promise;
        if (key === 'b') throw new Error('fails');
      },
      logger,
      { progress },
    );
    queue.add('a');
    queue.add('b');
    queue.add('c');
    await until(() => gates.size === 2, 'a and b are in flight');
    await clock.advance(1001);
    expect(progress.health()).to.deep.include({ healthy: false });
    gates.get('a')?.resolve();
    gates.get('b')?.resolve();
    await until(() => gates.size === 3, 'c is in flight');
    expect(progress.health(), 'a and b finished, c just started').to.deep.equal({
      healthy: true,
    });
    gates.get('c')?.resolve();
    queue.shutDown();
    await running;
  });

  it('treats a synchronous throw as a failure', async () => {
    let attempts = 0;
    const running = runWorkers(
      queue,
      1,
      () => {
        attempts++;
        if (attempts === 1) throw new Error('sync');
        return Promise.resolve();
      },
      logger,
    );
    queue.add('a');
    await until(() => attempts === 2, 'the key was retried');
    queue.shutDown();
    await running;
    expect(logger.records.map((r) => r.level)).to.deep.equal(['warn']);
  });

  it('requeues after requeueAfterMs on success, with its backoff reset', async () => {
    const addAfter: [string, number][] = [];
    const original = queue.addAfter.bind(queue);
    queue.addAfter = (key, ms) => {
      addAfter.push([key, ms]);
      original(key, ms);
    };
    let attempts = 0;
    let requeuesBeforeSuccess: number | undefined;
    const running = runWorkers(
      queue,
      1,
      (key) => {
        attempts++;
        if (attempts === 1) return Promise.reject(new Error('first fails'));
        if (attempts === 2) {
          requeuesBeforeSuccess = queue.numRequeues(key);
          return Promise.resolve({ requeueAfterMs: 20 });
        }
        return Promise.resolve();
      },
      logger,
    );
    queue.add('a');
    await until(() => attempts === 3, 'the requeued key ran again');
    queue.shutDown();
    await running;
    expect(addAfter).to.deep.equal([
      ['a', 1], // addRateLimited's first backoff
      ['a', 20], // the requested requeue
    ]);
    expect(requeuesBeforeSuccess).to.equal(1);
    expect(queue.numRequeues('a'), 'forgotten after the success').to.equal(0);
  });

  it('runs up to N keys at once, and no more', async () => {
    const gate = deferred();
    let active = 0;
    let maxActive = 0;
    let finished = 0;
    const running = runWorkers(
      queue,
      3,
      async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        await gate.promise;
        active--;
        finished++;
      },
      logger,
    );
    for (const key of ['a', 'b', 'c', 'd', 'e']) queue.add(key);
    await until(() => active === 3, 'three keys are in flight');
    expect(queue.len(), 'the other two wait').to.equal(2);
    gate.resolve();
    await until(() => finished === 5, 'all keys finished');
    queue.shutDown();
    await running;
    expect(maxActive).to.equal(3);
  });

  it('never runs one key on two workers, and reruns it if re-added while running', async () => {
    const gates: Deferred[] = [];
    let active = 0;
    let maxActive = 0;
    const running = runWorkers(
      queue,
      4,
      async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        const gate = deferred();
        gates.push(gate);
        await gate.promise;
        active--;
      },
      logger,
    );
    queue.add('a');
    await until(() => gates.length === 1, 'the first run started');
    queue.add('a');
    queue.add('a');
    // Three idle workers get a chance to (wrongly) take the re-added key.
    await new Promise((r) => setTimeout(r, 20));
    expect(gates, 'no second run while the first is in flight').to.have.length(1);
    gates[0]?.resolve();
    await until(() => gates.length === 2, 'the second run started');
    gates[1]?.resolve();
    await until(() => active === 0, 'the second run finished');
    queue.shutDown();
    await running;
    expect(gates).to.have.length(2);
    expect(maxActive).to.equal(1);
  });

  it('waits for in-flight work on shutdown and takes no new keys', async () => {
    const gate = deferred();
    const started: string[] = [];
    const running = runWorkers(
      queue,
      1,
      async (key) => {
        started.push(key);
        await gate.promise;
      },
      logger,
    );
    queue.add('a');
    queue.add('b');
    await until(() => started.length === 1, 'a started');
    queue.shutDown();
    expect(await isPending(running), 'a is still running').to.equal(true);
    gate.resolve();
    await running;
    expect(started).to.deep.equal(['a']);
  });

  it('rejects a worker count that is not a positive integer', async () => {
    for (const count of [0, -1, 1.5]) {
      const result = await runWorkers(queue, count, () => Promise.resolve(), logger).then(
        () => 'resolved',
        (err: unknown) => err,
      );
      expect(result).to.be.instanceOf(RangeError);
    }
  });
});
