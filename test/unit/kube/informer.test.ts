import { expect } from 'chai';
import type { KubeObject } from '../../../src/api/types.js';
import {
  Informer,
  type InformerEvent,
  type InformerOptions,
  type ListResult,
  type ListWatcher,
  type WatchEvent,
  type WatchHandle,
  type WatchOptions,
  resourcePath,
} from '../../../src/kube/informer.js';
import { objectKey } from '../../../src/kube/resources.js';
import { FakeClock, flush } from '../../support/fake-clock.js';
import { recordingLogger } from '../../support/logger.js';

class FakeWatch implements WatchHandle {
  aborted = false;

  constructor(
    readonly options: WatchOptions,
    private readonly onEvent: (event: WatchEvent) => void,
    private readonly onClose: (err?: unknown) => void,
  ) {}

  abort(): void {
    this.aborted = true;
  }

  emit(type: string, object: unknown): void {
    this.onEvent({ type, object });
  }

  close(err?: unknown): void {
    this.onClose(err);
  }
}

interface PendingList {
  signal: AbortSignal;
  resolve(result: ListResult): void;
  reject(err: unknown): void;
}

/** A transport the test drives by hand: every list and watch call is recorded. */
class FakeListWatcher implements ListWatcher {
  readonly lists: PendingList[] = [];
  readonly watches: FakeWatch[] = [];
  /** When set, the next watch call fails to start with this error. */
  failNextWatchStart: Error | undefined;

  list(signal: AbortSignal): Promise<ListResult> {
    return new Promise((resolve, reject) => this.lists.push({ signal, resolve, reject }));
  }

  watch(
    options: WatchOptions,
    onEvent: (event: WatchEvent) => void,
    onClose: (err?: unknown) => void,
  ): Promise<WatchHandle> {
    const failure = this.failNextWatchStart;
    this.failNextWatchStart = undefined;
    if (failure) return Promise.reject(failure);
    const watch = new FakeWatch(options, onEvent, onClose);
    this.watches.push(watch);
    return Promise.resolve(watch);
  }

  lastList(): PendingList {
    const list = this.lists.at(-1);
    if (!list) throw new Error('no list call');
    return list;
  }

  lastWatch(): FakeWatch {
    const watch = this.watches.at(-1);
    if (!watch) throw new Error('no watch call');
    return watch;
  }
}

function machineSet(name: string, resourceVersion: string, replicas = 1): KubeObject {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    metadata: {
      name,
      namespace: 'ns',
      resourceVersion,
      labels: { app: name },
      managedFields: [{ manager: 'kubectl', operation: 'Update' }],
    },
    spec: { replicas },
  } as KubeObject;
}

/** The same MachineSet with a uid: one incarnation of the name. */
function withUid(object: KubeObject, uid: string): KubeObject {
  return { ...object, metadata: { ...object.metadata, uid } };
}

function bookmark(resourceVersion: string): unknown {
  return {
    kind: 'MachineSet',
    apiVersion: 'machine.openshift.io/v1beta1',
    metadata: { resourceVersion },
  };
}

/** 'add ns/a@5', 'update ns/a@5→7', 'delete ns/a@7'; our own writes: '… by <writer>'. */
function describeEvent(event: InformerEvent<KubeObject>): string {
  const at = `${objectKey(event.object)}@${event.object.metadata.resourceVersion}`;
  const by = event.writer === undefined ? '' : ` by ${event.writer}`;
  if (event.type === 'update')
    return `update ${objectKey(event.object)}@${event.old.metadata.resourceVersion}→${event.object.metadata.resourceVersion}${by}`;
  return `${event.type} ${at}${by}`;
}

describe('Informer', () => {
  let clock: FakeClock;
  let transport: FakeListWatcher;
  let logger: ReturnType<typeof recordingLogger>;
  let informer: Informer;
  let events: string[];

  function create(options: Partial<InformerOptions> = {}): Informer {
    informer = new Informer(transport, { logger, clock, watchTimeoutSeconds: 300, ...options });
    events = [];
    informer.on((event) => events.push(describeEvent(event)));
    return informer;
  }

  /** Starts the informer and answers its first list. */
  async function startSynced(items: KubeObject[], resourceVersion = '10'): Promise<void> {
    informer.start();
    await flush();
    transport.lastList().resolve({ items, resourceVersion });
    await flush();
    expect(informer.hasSynced()).to.equal(true);
  }

  /** Asserts that `count()` grows exactly `ms` after now, not 1 ms earlier. */
  async function expectRetryAfter(ms: number, count: () => number): Promise<void> {
    const before = count();
    await clock.advance(ms - 1);
    expect(count(), `nothing retried 1 ms before ${ms} ms`).to.equal(before);
    await clock.advance(1);
    expect(count(), `retried after ${ms} ms`).to.equal(before + 1);
  }

  beforeEach(() => {
    clock = new FakeClock();
    transport = new FakeListWatcher();
    logger = recordingLogger();
    create();
  });

  afterEach(async () => {
    await informer.stop();
  });

  describe('initial list', () => {
    it('stores the listed objects, emits adds, syncs, then watches from the list resourceVersion', async () => {
      informer.start();
      await flush();
      expect(transport.lists).to.have.length(1);
      expect(informer.hasSynced()).to.equal(false);
      let synced = false;
      void informer.waitForSync().then(() => (synced = true));
      await flush();
      expect(synced, 'not synced before the list answers').to.equal(false);
      expect(transport.watches, 'no watch before the list').to.have.length(0);

      transport
        .lastList()
        .resolve({ items: [machineSet('a', '5'), machineSet('b', '6')], resourceVersion: '10' });
      await flush();

      expect(events).to.deep.equal(['add ns/a@5', 'add ns/b@6']);
      expect(informer.list().map(objectKey)).to.deep.equal(['ns/a', 'ns/b']);
      expect(informer.get('ns', 'a')?.metadata.resourceVersion).to.equal('5');
      expect(informer.get('ns/b')?.metadata.resourceVersion).to.equal('6');
      expect(informer.get('ns', 'missing')).to.equal(undefined);
      expect(informer.hasSynced()).to.equal(true);
      expect(synced).to.equal(true);
      expect(transport.watches).to.have.length(1);
      expect(transport.lastWatch().options).to.deep.equal({
        resourceVersion: '10',
        timeoutSeconds: 300,
      });
    });

    it('strips managedFields and keeps the rest of the metadata', async () => {
      const listed = machineSet('a', '5');
      await startSynced([listed]);
      transport.lastWatch().emit('ADDED', machineSet('b', '11'));
      for (const key of ['ns/a', 'ns/b']) {
        const stored = informer.get(key);
        expect(stored?.metadata).to.not.have.property('managedFields');
        expect(stored?.metadata.labels).to.deep.equal({ app: key.slice(3) });
      }
      expect(listed.metadata.managedFields, 'the input is not mutated').to.have.length(1);
    });

    it('retries a failed list with exponential backoff', async () => {
      informer.start();
      await flush();
      transport.lastList().reject(new Error('503 Service Unavailable'));
      await expectRetryAfter(200, () => transport.lists.length);
      transport.lastList().reject(new Error('connection refused'));
      await expectRetryAfter(400, () => transport.lists.length);
      transport.lastList().reject(new Error('connection refused'));
      await expectRetryAfter(800, () => transport.lists.length);
      expect(informer.hasSynced()).to.equal(false);
      transport.lastList().resolve({ items: [machineSet('a', '5')], resourceVersion: '10' });
      await flush();
      expect(informer.hasSynced()).to.equal(true);
      expect(events).to.deep.equal(['add ns/a@5']);
      expect(transport.watches, 'the watch starts at once after a good list').to.have.length(1);
      expect(logger.records.filter((r) => r.message === 'list failed; retrying')).to.have.length(3);
    });

    it('caps the backoff', async () => {
      create({ backoff: { initialMs: 100, maxMs: 300 } });
      informer.start();
      await flush();
      for (const delay of [100, 200, 300, 300]) {
        transport.lastList().reject(new Error('down'));
        await expectRetryAfter(delay, () => transport.lists.length);
      }
    });

    it('abandons a list that does not answer in time and retries it', async () => {
      create({ listTimeoutMs: 1000 });
      informer.start();
      await flush();
      const first = transport.lastList();
      await clock.advance(999);
      expect(first.signal.aborted).to.equal(false);
      await clock.advance(1);
      expect(first.signal.aborted).to.equal(true);
      await expectRetryAfter(200, () => transport.lists.length);
    });

    it('treats a list without a resourceVersion as a failure', async () => {
      informer.start();
      await flush();
      transport.lastList().resolve({ items: [], resourceVersion: '' });
      await flush();
      expect(informer.hasSynced()).to.equal(false);
      await expectRetryAfter(200, () => transport.lists.length);
    });
  });

  describe('watch', () => {
    it('applies added, modified and deleted objects to the store and emits them', async () => {
      await startSynced([machineSet('a', '5'), machineSet('b', '6')]);
      const watch = transport.lastWatch();
      watch.emit('ADDED', machineSet('c', '11'));
      watch.emit('MODIFIED', machineSet('a', '12', 3));
      watch.emit('DELETED', machineSet('b', '13'));
      watch.emit('MODIFIED', machineSet('d', '14')); // unseen before: an add
      watch.emit('ADDED', machineSet('c', '15')); // already known: an update

      expect(events.slice(2)).to.deep.equal([
        'add ns/c@11',
        'update ns/a@5→12',
        'delete ns/b@13',
        'add ns/d@14',
        'update ns/c@11→15',
      ]);
      expect(informer.list().map(objectKey).sort()).to.deep.equal(['ns/a', 'ns/c', 'ns/d']);
      expect(
        (informer.get('ns/a') as unknown as { spec: { replicas: number } }).spec.replicas,
      ).to.equal(3);
      expect(informer.lastResourceVersion()).to.equal('15');
    });

    it('keeps what an update did not change the same object: the spec of a status update, a relisted version', async () => {
      await startSynced([machineSet('a', '5')]);
      const before = informer.get('ns/a') as unknown as {
        spec: object;
        metadata: { labels: object };
      };
      transport.lastWatch().emit('MODIFIED', { ...machineSet('a', '6'), status: { replicas: 1 } });
      const after = informer.get('ns/a') as unknown as typeof before & { status: object };
      expect(after.spec).to.equal(before.spec);
      expect(after.metadata.labels).to.equal(before.metadata.labels);
      expect(after.status).to.deep.equal({ replicas: 1 });
      transport.lastWatch().emit('MODIFIED', machineSet('a', '7', 2));
      expect(informer.get('ns/a')).to.have.nested.property('spec.replicas', 2);

      // a relist that holds the version cached already leaves it as it is
      const held = informer.get('ns/a');
      transport.lastWatch().close(Object.assign(new Error('Gone'), { code: 410 }));
      await flush(); // a watch that delivered: relisted at once
      expect(transport.lists).to.have.length(2);
      transport.lastList().resolve({ items: [machineSet('a', '7', 2)], resourceVersion: '30' });
      await flush();
      expect(informer.get('ns/a')).to.equal(held);
    });

    it('moves the resourceVersion on a bookmark, without events, and the next watch starts there', async () => {
      await startSynced([machineSet('a', '5')]);
      transport.lastWatch().emit('BOOKMARK', bookmark('50'));
      expect(events).to.deep.equal(['add ns/a@5']);
      expect(informer.lastResourceVersion()).to.equal('50');
      transport.lastWatch().close();
      await expectRetryAfter(200, () => transport.watches.length);
      expect(transport.lastWatch().options.resourceVersion).to.equal('50');
      expect(transport.lists, 'no relist').to.have.length(1);
    });

    it('rewatches from the last resourceVersion when the stream closes, without relisting', async () => {
      await startSynced([machineSet('a', '5')]);
      transport.lastWatch().emit('MODIFIED', machineSet('a', '20'));
      transport.lastWatch().close();
      await expectRetryAfter(200, () => transport.watches.length);
      expect(transport.lastWatch().options.resourceVersion).to.equal('20');
      expect(transport.lists).to.have.length(1);
      // And again: the informer keeps going across many closes.
      for (let i = 0; i < 5; i++) {
        await clock.advance(60_000); // a healthy watch that lasted a minute
        transport.lastWatch().close();
        await expectRetryAfter(200, () => transport.watches.length);
      }
      transport.lastWatch().emit('MODIFIED', machineSet('a', '21'));
      expect(informer.get('ns/a')?.metadata.resourceVersion).to.equal('21');
    });

    it('relists on a 410 ERROR event and emits the difference against the store', async () => {
      await startSynced([machineSet('a', '5'), machineSet('b', '6'), machineSet('c', '7')]);
      const watch = transport.lastWatch();
      watch.emit('ERROR', {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        code: 410,
        reason: 'Expired',
      });
      expect(watch.aborted, 'the expired watch is closed').to.equal(true);
      watch.emit('DELETED', machineSet('a', '99')); // late events from the old stream are ignored
      expect(informer.get('ns/a')).to.not.equal(undefined);

      await expectRetryAfter(200, () => transport.lists.length);
      transport.lastList().resolve({
        items: [machineSet('a', '5'), machineSet('b', '9'), machineSet('d', '8')],
        resourceVersion: '30',
      });
      await flush();

      expect(events.slice(3)).to.deep.equal(['update ns/b@6→9', 'add ns/d@8', 'delete ns/c@7']);
      expect(informer.list().map(objectKey).sort()).to.deep.equal(['ns/a', 'ns/b', 'ns/d']);
      expect(transport.watches).to.have.length(2);
      expect(transport.lastWatch().options.resourceVersion).to.equal('30');
    });

    it('relists when the watch fails with HTTP 410', async () => {
      await startSynced([machineSet('a', '5')]);
      transport.lastWatch().close(Object.assign(new Error('Gone'), { code: 410 }));
      await expectRetryAfter(200, () => transport.lists.length);
      transport.lastList().resolve({ items: [], resourceVersion: '40' });
      await flush();
      expect(events).to.deep.equal(['add ns/a@5', 'delete ns/a@5']);
      expect(transport.lastWatch().options.resourceVersion).to.equal('40');
    });

    it('rewatches with growing backoff while watches fail, and resets after a healthy one', async () => {
      await startSynced([machineSet('a', '5')]);
      transport.lastWatch().close(new Error('ECONNRESET'));
      await expectRetryAfter(200, () => transport.watches.length);
      transport.lastWatch().emit('ERROR', { kind: 'Status', code: 500, reason: 'InternalError' });
      await expectRetryAfter(400, () => transport.watches.length);
      transport.failNextWatchStart = new Error('connect ECONNREFUSED');
      transport.lastWatch().close(); // closed at once with nothing delivered: a failure too
      await clock.advance(800); // the start failure
      await expectRetryAfter(1600, () => transport.watches.length);
      expect(transport.lists, 'watch failures do not relist').to.have.length(1);

      transport.lastWatch().emit('MODIFIED', machineSet('a', '6'));
      transport.lastWatch().close(new Error('ECONNRESET'));
      await expectRetryAfter(200, () => transport.watches.length);
      expect(transport.lastWatch().options.resourceVersion).to.equal('6');
    });

    it('restarts when the watch closes before its start has even returned', async () => {
      const early = new FakeWatch(
        { resourceVersion: '', timeoutSeconds: 0 },
        () => undefined,
        () => undefined,
      );
      transport.watch = (options, _onEvent, onClose) => {
        transport.watches.push(
          new FakeWatch(
            options,
            () => undefined,
            () => undefined,
          ),
        );
        onClose(new Error('403 Forbidden'));
        return Promise.resolve(early);
      };
      await startSynced([]);
      expect(early.aborted, 'a handle that arrives after the close is aborted').to.equal(true);
      await expectRetryAfter(200, () => transport.watches.length);
    });

    it('abandons a watch still open long after its server timeout', async () => {
      create({ watchTimeoutSeconds: 60, watchGraceMs: 5000 });
      await startSynced([]);
      const watch = transport.lastWatch();
      await clock.advance(65_000 - 1);
      expect(watch.aborted).to.equal(false);
      await clock.advance(1);
      expect(watch.aborted).to.equal(true);
      await expectRetryAfter(200, () => transport.watches.length);
    });

    it('abandons a watch that delivers nothing, not even bookmarks, for the idle timeout', async () => {
      create({ watchTimeoutSeconds: 600, watchIdleTimeoutMs: 90_000 });
      await startSynced([machineSet('a', '5')]);
      const watch = transport.lastWatch();
      await clock.advance(90_000 - 1);
      expect(watch.aborted).to.equal(false);
      await clock.advance(1);
      expect(watch.aborted, 'a silent watch is torn down').to.equal(true);
      expect(logger.records.find((r) => r.message === 'watch silent; rewatching')?.meta).to.include(
        { silentMs: 90_000 },
      );
      await expectRetryAfter(200, () => transport.watches.length);
      expect(transport.lastWatch().options.resourceVersion).to.equal('10');
      expect(transport.lists, 'a rewatch, not a relist').to.have.length(1);
    });

    it('defaults the idle timeout to 3 minutes', async () => {
      create({ watchTimeoutSeconds: 600 });
      await startSynced([]);
      await clock.advance(180_000 - 1);
      expect(transport.lastWatch().aborted).to.equal(false);
      await clock.advance(1);
      expect(transport.lastWatch().aborted).to.equal(true);
    });

    it('keeps a watch that delivers bookmarks or events, however quiet otherwise', async () => {
      create({ watchTimeoutSeconds: 600, watchIdleTimeoutMs: 90_000 });
      await startSynced([]);
      const watch = transport.lastWatch();
      for (let i = 1; i <= 6; i++) {
        await clock.advance(60_000);
        if (i % 2) watch.emit('BOOKMARK', bookmark(String(10 + i)));
        else watch.emit('ADDED', machineSet(`m${i}`, String(10 + i)));
      }
      expect(watch.aborted, 'six minutes, never idle for 90 s').to.equal(false);
      expect(transport.watches).to.have.length(1);
    });

    it('tears down a watch whose start never returns (a hung connection) and starts another', async () => {
      create({ watchIdleTimeoutMs: 30_000 });
      let hung = 0;
      const watch = transport.watch.bind(transport);
      transport.watch = (options, onEvent, onClose) => {
        if (hung++ === 0) return new Promise<WatchHandle>(() => undefined);
        return watch(options, onEvent, onClose);
      };
      await startSynced([]);
      expect(transport.watches).to.have.length(0);
      await clock.advance(30_000);
      await clock.advance(200);
      expect(transport.watches, 'the next watch started').to.have.length(1);
    });

    it('relists at once on a 410 after failures, and starts the backoff afresh', async () => {
      await startSynced([machineSet('a', '5')]);
      await clock.advance(60_000); // a healthy first watch
      // The API server goes away: every rewatch fails, and the backoff grows.
      for (const delay of [200, 400, 800, 1600, 3200]) {
        transport.lastWatch().close(new Error('connect ECONNREFUSED'));
        await expectRetryAfter(delay, () => transport.watches.length);
      }
      // It is back, and our resourceVersion is too old for it.
      transport.lastWatch().close(Object.assign(new Error('Gone'), { code: 410 }));
      await flush();
      expect(transport.lists, 'relisted without waiting').to.have.length(2);
      transport.lastList().resolve({ items: [machineSet('a', '9')], resourceVersion: '50' });
      await flush();
      expect(events).to.deep.equal(['add ns/a@5', 'update ns/a@5→9']);
      expect(transport.lastWatch().options.resourceVersion).to.equal('50');
      // The backoff starts again from its first step.
      transport.lastWatch().close(new Error('ECONNRESET'));
      await expectRetryAfter(200, () => transport.watches.length);
    });

    it('relists at once on a 410 ERROR event from a watch that was delivering', async () => {
      await startSynced([machineSet('a', '5')]);
      transport.lastWatch().close(new Error('ECONNRESET'));
      await expectRetryAfter(200, () => transport.watches.length);
      transport.lastWatch().emit('MODIFIED', machineSet('a', '11'));
      transport.lastWatch().emit('ERROR', { kind: 'Status', code: 410, reason: 'Expired' });
      await flush();
      expect(transport.lists).to.have.length(2);
    });

    it('backs off when the watch of a list it just made answers 410 every time', async () => {
      await startSynced([]);
      for (const delay of [200, 400, 800]) {
        transport.lastWatch().close(Object.assign(new Error('Gone'), { code: 410 }));
        await expectRetryAfter(delay, () => transport.lists.length);
        transport.lastList().resolve({ items: [], resourceVersion: '10' });
        await flush();
      }
    });

    it('picks each watch timeout at random within the configured range', async () => {
      const draws = [0, 0.5, 0.9999];
      create({ watchTimeoutSeconds: { min: 300, max: 600 }, random: () => draws.shift() ?? 0 });
      await startSynced([]);
      for (let i = 0; i < 2; i++) {
        await clock.advance(10_000);
        transport.lastWatch().close();
        await clock.advance(200);
      }
      expect(transport.watches.map((w) => w.options.timeoutSeconds)).to.deep.equal([300, 450, 600]);
    });

    it('defaults the watch timeout to 5–10 minutes', async () => {
      create({ watchTimeoutSeconds: undefined, random: () => 0.9999 });
      await startSynced([]);
      expect(transport.lastWatch().options.timeoutSeconds).to.equal(600);
    });

    it('treats a malformed event as a watch failure', async () => {
      await startSynced([]);
      transport.lastWatch().emit('ADDED', { metadata: {} });
      expect(transport.lastWatch().aborted).to.equal(true);
      expect(informer.list()).to.deep.equal([]);
      await expectRetryAfter(200, () => transport.watches.length);
    });
  });

  describe('handlers', () => {
    it('replays stored objects as adds to a handler registered late', async () => {
      await startSynced([machineSet('a', '5')]);
      const late: string[] = [];
      informer.on((event) => late.push(describeEvent(event)));
      transport.lastWatch().emit('ADDED', machineSet('b', '11'));
      expect(late).to.deep.equal(['add ns/a@5', 'add ns/b@11']);
    });

    it('stops calling a handler once unregistered', async () => {
      const seen: string[] = [];
      const off = informer.on((event) => seen.push(describeEvent(event)));
      await startSynced([machineSet('a', '5')]);
      off();
      transport.lastWatch().emit('ADDED', machineSet('b', '11'));
      expect(seen).to.deep.equal(['add ns/a@5']);
    });

    it('reports a throwing handler and keeps delivering', async () => {
      informer.on(() => {
        throw new Error('handler bug');
      });
      await startSynced([machineSet('a', '5')]);
      transport.lastWatch().emit('ADDED', machineSet('b', '11'));
      expect(events).to.deep.equal(['add ns/a@5', 'add ns/b@11']);
      expect(informer.get('ns/b')).to.not.equal(undefined);
      const errors = logger.records.filter((r) => r.level === 'error');
      expect(errors.map((r) => r.meta)).to.deep.equal([
        { type: 'add', key: 'ns/a', error: 'handler bug' },
        { type: 'add', key: 'ns/b', error: 'handler bug' },
      ]);
    });
  });

  describe('our own writes', () => {
    it('upsert stores a newer version at once and emits the change with its writer, without moving the watch', async () => {
      await startSynced([machineSet('a', '5')]);
      informer.upsert(machineSet('a', '12', 4), 'machine/a');
      expect(informer.get('ns/a')?.metadata.resourceVersion).to.equal('12');
      expect(informer.get('ns/a')?.metadata).to.not.have.property('managedFields');
      expect(events).to.deep.equal(['add ns/a@5', 'update ns/a@5→12 by machine/a']);
      expect(informer.lastResourceVersion()).to.equal('10');
      // The watch event of the same write brings nothing new: not emitted again.
      transport.lastWatch().emit('MODIFIED', machineSet('a', '12', 4));
      expect(events).to.have.length(2);
      expect(informer.lastResourceVersion()).to.equal('12');
      transport.lastWatch().emit('MODIFIED', machineSet('a', '13', 5));
      expect(events.at(-1)).to.equal('update ns/a@12→13');
    });

    it('upsert stores an object we created before the watch reports it', async () => {
      await startSynced([]);
      informer.upsert(machineSet('new', '11'), 'new');
      expect(informer.get('ns/new')?.metadata.resourceVersion).to.equal('11');
      expect(events).to.deep.equal(['add ns/new@11 by new']);
      transport.lastWatch().emit('ADDED', machineSet('new', '11'));
      expect(events).to.have.length(1);
    });

    it('upsert after the watch delivered that version emits nothing: the watch did', async () => {
      await startSynced([machineSet('a', '5')]);
      transport.lastWatch().emit('MODIFIED', machineSet('a', '12'));
      informer.upsert(machineSet('a', '12'), 'a');
      expect(events).to.deep.equal(['add ns/a@5', 'update ns/a@5→12']);
    });

    it('upsert ignores a version older than the one the watch delivered', async () => {
      await startSynced([machineSet('a', '5')]);
      transport.lastWatch().emit('MODIFIED', machineSet('a', '20'));
      informer.upsert(machineSet('a', '15'));
      expect(informer.get('ns/a')?.metadata.resourceVersion).to.equal('20');
    });

    it('upsert does not resurrect an object the watch saw deleted after our write', async () => {
      await startSynced([machineSet('a', '5')]);
      transport.lastWatch().emit('MODIFIED', machineSet('a', '15'));
      transport.lastWatch().emit('DELETED', machineSet('a', '16'));
      informer.upsert(machineSet('a', '15')); // the answer to our write, processed late
      expect(informer.get('ns/a')).to.equal(undefined);
    });

    it('a watch event older than the stored answer to our write does not replace it', async () => {
      await startSynced([machineSet('a', '5')]);
      informer.upsert(machineSet('a', '20', 4)); // the server's answer to our write
      transport.lastWatch().emit('MODIFIED', machineSet('a', '15', 2)); // someone's earlier change
      expect(informer.get('ns/a')?.metadata.resourceVersion).to.equal('20');
      expect(
        (informer.get('ns/a') as unknown as { spec: { replicas: number } }).spec.replicas,
      ).to.equal(4);
      expect(events, 'nothing changed in the store').to.deep.equal([
        'add ns/a@5',
        'update ns/a@5→20',
      ]);
      expect(informer.lastResourceVersion(), 'the watch still moved on').to.equal('15');
      transport.lastWatch().emit('MODIFIED', machineSet('a', '20', 4)); // our write's own event
      transport.lastWatch().emit('MODIFIED', machineSet('a', '21', 5)); // a later change
      expect(informer.get('ns/a')?.metadata.resourceVersion).to.equal('21');
      expect(events.slice(2)).to.deep.equal(['update ns/a@20→21']);
    });

    it('lets the watch event win when resourceVersions are not both integers', async () => {
      await startSynced([machineSet('a', '5')]);
      informer.upsert(machineSet('a', '20'));
      transport.lastWatch().emit('MODIFIED', machineSet('a', 'opaque-15'));
      expect(informer.get('ns/a')?.metadata.resourceVersion).to.equal('opaque-15');
    });

    it('a deletion older than an object we created since does not remove it', async () => {
      await startSynced([machineSet('a', '5')]);
      informer.upsert(machineSet('a', '30')); // we deleted it and created it again
      transport.lastWatch().emit('DELETED', machineSet('a', '25')); // the old one's deletion
      expect(informer.get('ns/a')?.metadata.resourceVersion).to.equal('30');
      transport.lastWatch().emit('ADDED', machineSet('a', '30'));
      expect(informer.get('ns/a')?.metadata.resourceVersion).to.equal('30');
    });

    it('keeps an upserted object being deleted (finalizers) until the watch reports the deletion', async () => {
      await startSynced([machineSet('a', '5')]);
      const deleting = {
        ...machineSet('a', '20'),
        metadata: {
          ...machineSet('a', '20').metadata,
          deletionTimestamp: '2030-01-01T00:00:00Z',
          finalizers: ['example.com/hold'],
        },
      } as KubeObject;
      informer.upsert(deleting); // the answer to our DELETE
      const isDeleting = () => informer.get('ns/a')?.metadata.deletionTimestamp !== undefined;
      expect(isDeleting()).to.equal(true);
      transport.lastWatch().emit('MODIFIED', machineSet('a', '12')); // an earlier change, late
      expect(isDeleting(), 'not undone by an older event').to.equal(true);
      // A relist whose snapshot predates our DELETE does not undo it either.
      transport.lastWatch().close(Object.assign(new Error('Gone'), { code: 410 }));
      await flush();
      transport.lastList().resolve({ items: [machineSet('a', '12')], resourceVersion: '18' });
      await flush();
      expect(isDeleting(), 'not undone by an older list').to.equal(true);
      transport.lastWatch().emit('MODIFIED', deleting);
      expect(isDeleting()).to.equal(true);
      transport.lastWatch().emit('DELETED', machineSet('a', '22'));
      expect(informer.get('ns/a'), 'gone with the DELETED event').to.equal(undefined);
      expect(events.at(-1)).to.equal('delete ns/a@22');
    });

    it('a relist newer than an upserted object replaces or drops it', async () => {
      await startSynced([machineSet('a', '5'), machineSet('b', '6')]);
      informer.upsert(machineSet('a', '20'));
      informer.upsert(machineSet('b', '21'));
      transport.lastWatch().close(Object.assign(new Error('Gone'), { code: 410 }));
      await expectRetryAfter(200, () => transport.lists.length);
      transport.lastList().resolve({ items: [machineSet('a', '24')], resourceVersion: '25' });
      await flush();
      expect(informer.get('ns/a')?.metadata.resourceVersion).to.equal('24');
      expect(informer.get('ns/b'), 'deleted before the list').to.equal(undefined);
    });

    it('remove forgets an object at once and emits the delete with its writer; the watch event is not emitted again', async () => {
      await startSynced([machineSet('a', '5')]);
      informer.remove('ns/a', 'a');
      expect(informer.get('ns/a')).to.equal(undefined);
      expect(events).to.deep.equal(['add ns/a@5', 'delete ns/a@5 by a']);
      transport.lastWatch().emit('DELETED', machineSet('a', '11'));
      expect(events).to.have.length(2);
    });
  });

  describe('tombstones of our own deletions', () => {
    const a = (rv: string, uid = 'uid-a', replicas = 1) =>
      withUid(machineSet('a', rv, replicas), uid);

    it('a late event of an object we deleted does not bring it back; its DELETED event still comes', async () => {
      await startSynced([a('5')]);
      informer.upsert(a('12', 'uid-a', 2)); // the answer to our patch
      informer.remove('ns/a'); // then our DELETE
      const watch = transport.lastWatch();
      watch.emit('MODIFIED', a('12', 'uid-a', 2)); // our patch's own event, delivered late
      expect(informer.get('ns/a'), 'still deleted').to.equal(undefined);
      watch.emit('MODIFIED', a('13', 'uid-a', 3)); // someone's change just before our DELETE
      expect(informer.get('ns/a'), 'a uid does not come back').to.equal(undefined);
      const ours = ['add ns/a@5', 'update ns/a@5→12', 'delete ns/a@12'];
      expect(events).to.deep.equal(ours);
      watch.emit('DELETED', a('14'));
      expect(events, 'our deletion, emitted when we made it').to.deep.equal(ours);
      // Created again: a new object under the name is stored as usual.
      watch.emit('ADDED', a('15', 'uid-a2'));
      expect(informer.get('ns/a')?.metadata.uid).to.equal('uid-a2');
      expect(events.at(-1)).to.equal('add ns/a@15');
    });

    it('ends with another object under the name, from the watch or from our own create', async () => {
      await startSynced([a('5')]);
      informer.remove('ns/a');
      informer.upsert(a('4')); // a stale answer of the deleted object
      expect(informer.get('ns/a')).to.equal(undefined);
      informer.upsert(a('20', 'uid-a2')); // our create of the new one
      expect(informer.get('ns/a')?.metadata.resourceVersion).to.equal('20');
      informer.remove('ns/a');
      transport.lastWatch().emit('ADDED', a('25', 'uid-a3')); // someone else's create
      expect(informer.get('ns/a')?.metadata.uid).to.equal('uid-a3');
      transport.lastWatch().emit('MODIFIED', a('26', 'uid-a3'));
      expect(informer.get('ns/a')?.metadata.resourceVersion).to.equal('26');
    });

    it('without uids, compares resourceVersions: older or equal stays deleted, newer ends it', async () => {
      await startSynced([machineSet('a', '5')]);
      informer.upsert(machineSet('a', '12'));
      informer.remove('ns/a');
      transport.lastWatch().emit('MODIFIED', machineSet('a', '12'));
      transport.lastWatch().emit('MODIFIED', machineSet('a', '9'));
      expect(informer.get('ns/a')).to.equal(undefined);
      transport.lastWatch().emit('MODIFIED', machineSet('a', '30'));
      expect(informer.get('ns/a')?.metadata.resourceVersion).to.equal('30');
    });

    it('a relist older than our deletion does not bring it back; a later one ends the tombstone', async () => {
      await startSynced([a('5'), machineSet('b', '6')]);
      informer.remove('ns/a');
      const relist = async (): Promise<void> => {
        const lists = transport.lists.length;
        transport.lastWatch().close(Object.assign(new Error('Gone'), { code: 410 }));
        await clock.advance(200); // the watch of a fresh list delivered nothing: backoff
        expect(transport.lists.length, 'relisting').to.equal(lists + 1);
      };
      await relist();
      transport.lastList().resolve({ items: [a('5'), machineSet('b', '6')], resourceVersion: '8' });
      await flush();
      expect(informer.get('ns/a'), 'the list predates our DELETE').to.equal(undefined);
      transport.lastWatch().emit('MODIFIED', a('7'));
      expect(informer.get('ns/a')).to.equal(undefined);
      transport.lastWatch().emit('DELETED', a('9'));
      expect(events.at(-1), 'emitted by remove, not again').to.equal('delete ns/a@5');

      informer.remove('ns/b');
      await relist();
      transport.lastList().resolve({ items: [], resourceVersion: '12' });
      await flush();
      // The list knew it gone; the tombstone went with it, so a new b without uid is stored.
      transport.lastWatch().emit('ADDED', machineSet('b', '6'));
      expect(informer.get('ns/b')?.metadata.resourceVersion).to.equal('6');
    });
  });

  describe('indexes', () => {
    const replicas = (o: KubeObject) => [
      String((o as { spec?: { replicas?: number } }).spec?.replicas),
    ];
    const byReplicas = (n: number) => informer.byIndex('replicas', String(n)).map(describeObject);
    const describeObject = (o: KubeObject) => `${o.metadata.name}@${o.metadata.resourceVersion}`;

    it('finds the stored objects by value, following the list and the watch', async () => {
      informer.addIndex('replicas', replicas);
      await startSynced([machineSet('a', '5', 1), machineSet('b', '6', 2)]);
      expect(byReplicas(1)).to.deep.equal(['a@5']);
      const watch = transport.lastWatch();
      watch.emit('ADDED', machineSet('c', '11', 1));
      watch.emit('MODIFIED', machineSet('a', '12', 2));
      expect(byReplicas(1)).to.deep.equal(['c@11']);
      expect(byReplicas(2)).to.deep.equal(['b@6', 'a@12']);
      watch.emit('DELETED', machineSet('b', '13', 2));
      expect(byReplicas(2)).to.deep.equal(['a@12']);
      expect(byReplicas(3)).to.deep.equal([]);
    });

    it('indexes what is already stored when added late', async () => {
      await startSynced([machineSet('a', '5', 1)]);
      informer.addIndex('replicas', replicas);
      expect(byReplicas(1)).to.deep.equal(['a@5']);
    });

    it('follows our own writes and an older watch event does not undo them', async () => {
      informer.addIndex('replicas', replicas);
      await startSynced([machineSet('a', '5', 1), machineSet('b', '6', 1)]);
      informer.upsert(machineSet('a', '20', 2));
      informer.remove('ns/b');
      expect(byReplicas(1)).to.deep.equal([]);
      expect(byReplicas(2)).to.deep.equal(['a@20']);
      transport.lastWatch().emit('MODIFIED', machineSet('a', '15', 1)); // older than our write
      expect(byReplicas(2)).to.deep.equal(['a@20']);
    });

    it('is rebuilt by a relist, keeping an upserted object newer than the list', async () => {
      informer.addIndex('replicas', replicas);
      await startSynced([machineSet('a', '5', 1), machineSet('b', '6', 1)]);
      informer.upsert(machineSet('c', '30', 1));
      transport.lastWatch().close(Object.assign(new Error('Gone'), { code: 410 }));
      await expectRetryAfter(200, () => transport.lists.length);
      transport.lastList().resolve({ items: [machineSet('b', '24', 2)], resourceVersion: '25' });
      await flush();
      expect(byReplicas(1)).to.deep.equal(['c@30']);
      expect(byReplicas(2)).to.deep.equal(['b@24']);
    });

    it('refuses an unknown or a second index of one name', () => {
      informer.addIndex('replicas', replicas);
      expect(() => informer.addIndex('replicas', replicas)).to.throw(/already has an index/);
      expect(() => informer.byIndex('other', '1')).to.throw(/no index named other/);
    });
  });

  describe('stop', () => {
    it('aborts the watch and starts nothing afterwards', async () => {
      await startSynced([machineSet('a', '5')]);
      const watch = transport.lastWatch();
      await informer.stop();
      expect(watch.aborted).to.equal(true);
      watch.close();
      await clock.advance(10 * 60_000);
      expect(transport.watches).to.have.length(1);
      expect(transport.lists).to.have.length(1);
      expect(informer.get('ns/a'), 'the store stays readable').to.not.equal(undefined);
    });

    it('leaves no timer behind, so a process that stopped its informers can exit', async () => {
      await startSynced([machineSet('a', '5')]);
      expect(clock.pending(), 'the watch has its watchdog and idle timers').to.be.above(0);
      await informer.stop();
      expect(clock.pending()).to.equal(0);
    });

    it('stops during a list: aborts it, rejects sync waiters, and lists no more', async () => {
      informer.start();
      await flush();
      const waiting = informer.waitForSync().then(
        () => 'synced',
        (err: Error) => err.message,
      );
      await informer.stop(); // resolves although the fake list never answers
      expect(transport.lastList().signal.aborted).to.equal(true);
      expect(await waiting).to.equal('informer stopped before it synced');
      await clock.advance(60_000);
      expect(transport.lists).to.have.length(1);
      expect(transport.watches).to.have.length(0);
    });

    it('stops during a backoff wait', async () => {
      informer.start();
      await flush();
      transport.lastList().reject(new Error('down'));
      await flush();
      await informer.stop();
      await clock.advance(60_000);
      expect(transport.lists).to.have.length(1);
    });

    it('cannot be started twice or after stop', async () => {
      informer.start();
      expect(() => informer.start()).to.throw(/cannot start/);
      await informer.stop();
      expect(() => informer.start()).to.throw(/cannot start/);
    });
  });

  it('gives up waiting for sync when the signal aborts', async () => {
    informer.start();
    const controller = new AbortController();
    const waiting = informer.waitForSync(controller.signal).then(
      () => 'synced',
      (err: Error) => err.message,
    );
    controller.abort();
    expect(await waiting).to.equal('gave up waiting for the informer to sync');
  });

  it('keys cluster-scoped objects by name', async () => {
    const infrastructure = {
      apiVersion: 'config.openshift.io/v1',
      kind: 'Infrastructure',
      metadata: { name: 'cluster', resourceVersion: '3' },
    };
    await startSynced([infrastructure]);
    expect(informer.get('cluster')?.kind).to.equal('Infrastructure');
    expect(informer.get(undefined, 'cluster')?.kind).to.equal('Infrastructure');
    expect(events).to.deep.equal(['add cluster@3']);
  });
});

describe('resourcePath', () => {
  it('builds core and group paths, namespaced and cluster-wide', () => {
    expect(resourcePath({ group: '', version: 'v1', plural: 'secrets', namespace: 'ns' })).to.equal(
      '/api/v1/namespaces/ns/secrets',
    );
    expect(resourcePath({ group: '', version: 'v1', plural: 'nodes' })).to.equal('/api/v1/nodes');
    expect(
      resourcePath({
        group: 'machine.openshift.io',
        version: 'v1beta1',
        plural: 'machinesets',
        namespace: 'openshift-machine-api',
      }),
    ).to.equal('/apis/machine.openshift.io/v1beta1/namespaces/openshift-machine-api/machinesets');
    expect(
      resourcePath({ group: 'config.openshift.io', version: 'v1', plural: 'infrastructures' }),
    ).to.equal('/apis/config.openshift.io/v1/infrastructures');
  });
});
