// An informer of our own: list, then watch from the list's resourceVersion; relist at once on
// 410 Gone; on any error, closed or silent stream restart with backoff, so it never silently
// stops. client-node's own informer stops after errors, and its Watch leaks sockets on reconnect
// and cannot be aborted before the server answers; our transport is our own client's.
import { inspect } from 'node:util';
import type { KubeObject } from '../api/types.js';
import { realClock, type Clock } from '../clock.js';
import type { KubeClient } from './http-client.js';
import { objectKey, resourcePath, type ResourceDescriptor } from './resources.js';
import { describeErrorChain as describeError, statusCode } from './errors.js';
import { StoreIndex, type IndexFunc } from './store-index.js';
import { shareUnchanged } from './share-unchanged.js';
import type { Logger } from '../logging.js';

export { resourcePath, type ResourceDescriptor };

export interface ListResult {
  items: unknown[];
  resourceVersion: string;
}

export interface WatchEvent {
  type: string;
  object: unknown;
}

export interface WatchOptions {
  resourceVersion: string;
  timeoutSeconds: number;
}

export interface WatchHandle {
  abort(): void;
}

/** The list+watch transport, behind an interface so the informer's logic is testable. */
export interface ListWatcher {
  list(signal: AbortSignal): Promise<ListResult>;
  /**
   * Starts a watch. `onClose` is called once when the stream ends: with no argument for a clean
   * close, with the error otherwise (an HTTP failure carries its status as `code`). It may be called
   * before the returned promise resolves; calls after `abort()` are ignored by the informer.
   */
  watch(
    options: WatchOptions,
    onEvent: (event: WatchEvent) => void,
    onClose: (err?: unknown) => void,
  ): Promise<WatchHandle>;
}

export type InformerEvent<T> = (
  { type: 'add'; object: T } | { type: 'update'; object: T; old: T } | { type: 'delete'; object: T }
) & {
  /** Set on the change our own write made (`upsert`, `remove`): who wrote it, as they said. */
  writer?: string;
};

export type InformerHandler<T> = (event: InformerEvent<T>) => void;

export interface InformerOptions {
  logger: Logger;
  clock?: Clock;
  /** Source of randomness for the watch timeout; defaults to Math.random. */
  random?: () => number;
  /** Server-side watch timeout: fixed seconds, or a range picked at random per watch. Default 300–600. */
  watchTimeoutSeconds?: number | { min: number; max: number };
  /** Restart delays: initialMs doubling up to maxMs. Default 200 ms to 30 s. */
  backoff?: { initialMs?: number; maxMs?: number };
  /** A list (all its pages) that takes longer is abandoned and retried. Default 60 s. */
  listTimeoutMs?: number;
  /** A watch still open this long after its server timeout is presumed dead. Default 30 s. */
  watchGraceMs?: number;
  /**
   * A watch that delivers nothing at all (no event, no bookmark) for this long is presumed dead
   * (a hung connection) and restarted from where it was. The API server sends bookmarks roughly
   * every minute (seen up to two minutes apart on a quiet resource); a rewatch is cheap.
   * Default 3 minutes.
   */
  watchIdleTimeoutMs?: number;
}

/** A watch that delivered nothing and ended sooner than this counts as a failure (for backoff). */
const MIN_HEALTHY_WATCH_MS = 1000;

type WatchOutcome =
  | { kind: 'closed'; healthy: boolean; events: number }
  | { kind: 'idle'; healthy: boolean; events: number }
  | { kind: 'gone'; healthy: boolean; events: number }
  | { kind: 'error'; healthy: boolean; events: number; error: unknown }
  | { kind: 'stopped' };

type WatchEnd =
  | { kind: 'closed' }
  | { kind: 'idle' }
  | { kind: 'gone' }
  | { kind: 'error'; error: unknown }
  | { kind: 'stopped' };

export class Informer<T extends KubeObject = KubeObject> {
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly timeoutRange: { min: number; max: number };
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly listTimeoutMs: number;
  private readonly watchGraceMs: number;
  private readonly watchIdleTimeoutMs: number;

  private store = new Map<string, T>();
  /** Objects we deleted ourselves, by key, until the watch or a list confirms they are gone. */
  private readonly tombstones = new Map<string, Tombstone>();
  private readonly indexes = new Map<string, StoreIndex<T>>();
  private readonly handlers = new Set<InformerHandler<T>>();
  private resourceVersion = '';
  private synced = false;
  private readonly syncWaiters = new Set<{ resolve(): void; reject(err: Error): void }>();
  private state: 'new' | 'running' | 'stopped' = 'new';
  private readonly stopController = new AbortController();
  private loop: Promise<void> | undefined;
  private endWatch: ((end: WatchEnd) => void) | undefined;

  constructor(
    private readonly listWatcher: ListWatcher,
    options: InformerOptions,
  ) {
    this.logger = options.logger;
    this.clock = options.clock ?? realClock;
    this.random = options.random ?? Math.random;
    const timeout = options.watchTimeoutSeconds ?? { min: 300, max: 600 };
    this.timeoutRange = typeof timeout === 'number' ? { min: timeout, max: timeout } : timeout;
    this.initialBackoffMs = options.backoff?.initialMs ?? 200;
    this.maxBackoffMs = options.backoff?.maxMs ?? 30_000;
    this.listTimeoutMs = options.listTimeoutMs ?? 60_000;
    this.watchGraceMs = options.watchGraceMs ?? 30_000;
    this.watchIdleTimeoutMs = options.watchIdleTimeoutMs ?? 180_000;
    if (!(this.watchIdleTimeoutMs > 0)) throw new RangeError('watchIdleTimeoutMs must be positive');
    const { min, max } = this.timeoutRange;
    if (!(Number.isInteger(min) && Number.isInteger(max) && min >= 1 && max >= min)) {
      throw new RangeError('watchTimeoutSeconds must be whole seconds, at least 1, min <= max');
    }
    if (!(this.initialBackoffMs > 0 && this.maxBackoffMs >= this.initialBackoffMs)) {
      throw new RangeError('backoff needs 0 < initialMs <= maxMs');
    }
  }

  /** Starts listing and watching in the background. */
  start(): void {
    if (this.state !== 'new') throw new Error(`informer cannot start: it is ${this.state}`);
    this.state = 'running';
    this.loop = this.run();
  }

  /** Aborts the watch and any retry; resolves when the informer has stopped. */
  async stop(): Promise<void> {
    if (this.state === 'new') this.state = 'stopped';
    if (this.state === 'running') {
      this.state = 'stopped';
      this.stopController.abort(new Error('informer stopped'));
      this.endWatch?.({ kind: 'stopped' });
      for (const waiter of [...this.syncWaiters]) {
        waiter.reject(new Error('informer stopped before it synced'));
      }
    }
    await this.loop;
  }

  /** By key ('namespace/name' or 'name'), or by namespace and name. */
  get(key: string): T | undefined;
  get(namespace: string | undefined, name: string): T | undefined;
  get(keyOrNamespace: string | undefined, name?: string): T | undefined {
    if (name === undefined)
      return keyOrNamespace === undefined ? undefined : this.store.get(keyOrNamespace);
    return this.store.get(keyOrNamespace ? `${keyOrNamespace}/${name}` : name);
  }

  list(): T[] {
    return [...this.store.values()];
  }

  /** True once the first list has been stored and its add events delivered. */
  hasSynced(): boolean {
    return this.synced;
  }

  waitForSync(signal?: AbortSignal): Promise<void> {
    if (this.synced) return Promise.resolve();
    if (this.state === 'stopped')
      return Promise.reject(new Error('informer stopped before it synced'));
    if (signal?.aborted) {
      return Promise.reject(
        new Error('gave up waiting for the informer to sync', { cause: signal.reason }),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        settle();
        reject(new Error('gave up waiting for the informer to sync', { cause: signal?.reason }));
      };
      const waiter = {
        resolve: () => {
          settle();
          resolve();
        },
        reject: (err: Error) => {
          settle();
          reject(err);
        },
      };
      const settle = (): void => {
        this.syncWaiters.delete(waiter);
        signal?.removeEventListener('abort', onAbort);
      };
      this.syncWaiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Registers a handler; objects already in the store are replayed to it as adds (as client-go
   * does), so a late handler misses nothing. Handlers run synchronously after the store changed.
   * Returns a function that unregisters it.
   */
  on(handler: InformerHandler<T>): () => void {
    this.handlers.add(handler);
    for (const object of this.store.values()) this.call(handler, { type: 'add', object });
    return () => {
      this.handlers.delete(handler);
    };
  }

  /**
   * Records the server's answer to our own write ahead of its watch event, so a reconcile that
   * follows sees its own write, and emits the change now, marked with its `writer`; the watch
   * event of that version brings nothing new then and is not emitted again. Never moves the
   * watch's resourceVersion. Ignored when the store holds this version or a newer one (the watch
   * was first: it emitted the change), when the watch has already passed this version and the
   * object is no longer there (deleted since), or when it is a version of an object we deleted
   * (`remove`).
   */
  upsert(object: T, writer?: string): void {
    const cleaned = this.clean(object);
    const key = objectKey(cleaned);
    if (this.buried(key, cleaned)) return;
    const rv = cleaned.metadata.resourceVersion;
    const current = this.store.get(key);
    if (current) {
      const order = compareResourceVersions(rv, current.metadata.resourceVersion);
      if (order !== undefined && order <= 0) return;
    } else {
      const order = compareResourceVersions(rv, this.resourceVersion);
      if (order !== undefined && order <= 0) return;
    }
    const stored = this.put(key, cleaned);
    const mark = writer === undefined ? {} : { writer };
    this.emit(
      current
        ? { type: 'update', object: stored, old: current, ...mark }
        : { type: 'add', object: stored, ...mark },
    );
  }

  /**
   * Forgets an object we deleted, ahead of its watch event. Emits nothing. Leaves a tombstone
   * (the object's uid and resourceVersion), so that a watch event or a list older than the
   * deletion, still on its way, does not put the object back before its DELETED event arrives.
   */
  remove(key: string, writer?: string): void {
    const deleted = this.store.get(key);
    this.forget(key);
    const { uid, resourceVersion } = deleted?.metadata ?? {};
    if (uid || resourceVersion) this.tombstones.set(key, { uid, resourceVersion });
    if (deleted) {
      this.emit({ type: 'delete', object: deleted, ...(writer === undefined ? {} : { writer }) });
    }
  }

  /**
   * Indexes the store by the values `valuesOf` gives each object, kept up to date with every
   * change of the store (events, relists, our own writes); `byIndex` reads it.
   */
  addIndex(name: string, valuesOf: IndexFunc<T>): void {
    if (this.indexes.has(name)) throw new Error(`informer already has an index named ${name}`);
    const index = new StoreIndex(valuesOf);
    for (const [key, object] of this.store) index.set(key, object);
    this.indexes.set(name, index);
  }

  /** The stored objects found under `value` in the index `name`: as filtering `list()`, without the scan. */
  byIndex(name: string, value: string): T[] {
    const index = this.indexes.get(name);
    if (!index) throw new Error(`informer has no index named ${name}`);
    return index.keys(value).map((key) => this.store.get(key) as T);
  }

  /** The resourceVersion the next watch starts from. */
  lastResourceVersion(): string {
    return this.resourceVersion;
  }

  private get stopped(): boolean {
    return this.state === 'stopped';
  }

  private async run(): Promise<void> {
    let delayMs = this.initialBackoffMs;
    const grow = (): number => {
      const current = delayMs;
      delayMs = Math.min(delayMs * 2, this.maxBackoffMs);
      return current;
    };
    let needList = true;
    let waitMs = 0;
    while (!this.stopped) {
      if (waitMs > 0) await this.sleep(waitMs);
      if (this.stopped) break;
      try {
        let fromFreshList = false;
        if (needList) {
          const failed = await this.relist();
          if (failed && this.stopped) break;
          if (failed) {
            waitMs = grow();
            this.logger.warn('list failed; retrying', {
              error: describeError(failed.error),
              retryInMs: waitMs,
            });
            continue;
          }
          needList = false;
          fromFreshList = true;
        }
        const outcome = await this.watchOnce();
        if (outcome.kind === 'stopped') break;
        if (outcome.kind === 'gone') {
          needList = true;
          if (fromFreshList && outcome.events === 0) {
            // The resourceVersion of a list we just made expired before its watch delivered
            // anything: something is wrong with the server; do not hammer it.
            waitMs = grow();
          } else {
            // 410 means "relist now": the usual answer to the first watch after the API server
            // restarted. Whatever failed before is over, so the backoff starts afresh.
            delayMs = this.initialBackoffMs;
            waitMs = 0;
          }
          this.logger.info('resource version expired; relisting', { retryInMs: waitMs });
          continue;
        }
        // Only a watch that proved healthy resets the backoff, so a server that accepts a list
        // but fails every watch is not hammered.
        if (outcome.healthy) delayMs = this.initialBackoffMs;
        waitMs = grow();
        if (outcome.kind === 'error') {
          this.logger.warn('watch failed; rewatching', {
            error: describeError(outcome.error),
            retryInMs: waitMs,
          });
        } else if (outcome.kind === 'idle') {
          // A hung connection, or a resource so quiet that even bookmarks were rare.
          this.logger.info('watch silent; rewatching', {
            silentMs: this.watchIdleTimeoutMs,
            retryInMs: waitMs,
          });
        } else {
          this.logger.debug('watch closed; rewatching', { retryInMs: waitMs });
        }
      } catch (err) {
        // Defensive: a bug here must not end the loop; start over from a list.
        needList = true;
        waitMs = grow();
        this.logger.error('informer loop failed; relisting', {
          error: describeError(err),
          retryInMs: waitMs,
        });
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    const signal = this.stopController.signal;
    return new Promise((resolve) => {
      if (signal.aborted) {
        resolve();
        return;
      }
      const wake = (): void => {
        this.clock.clearTimeout(handle);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      const handle = this.clock.setTimeout(wake, ms);
      signal.addEventListener('abort', wake, { once: true });
    });
  }

  /** One list, bounded by the list timeout and by stop(), even if the transport ignores its signal. */
  private listOnce(): Promise<ListResult> {
    const controller = new AbortController();
    const stopSignal = this.stopController.signal;
    return new Promise<ListResult>((resolve, reject) => {
      const onStop = (): void => controller.abort(stopSignal.reason);
      const timer = this.clock.setTimeout(() => {
        controller.abort(new Error(`list timed out after ${this.listTimeoutMs} ms`));
      }, this.listTimeoutMs);
      const cleanup = (): void => {
        this.clock.clearTimeout(timer);
        stopSignal.removeEventListener('abort', onStop);
      };
      controller.signal.addEventListener('abort', () => {
        cleanup();
        reject(toError(controller.signal.reason));
      });
      stopSignal.addEventListener('abort', onStop, { once: true });
      if (stopSignal.aborted) onStop();
      this.listWatcher.list(controller.signal).then(
        (result) => {
          cleanup();
          resolve(result);
        },
        (err: unknown) => {
          cleanup();
          reject(toError(err));
        },
      );
    });
  }

  /** Lists afresh into the store; what failed, when it did. */
  private async relist(): Promise<{ error: unknown } | undefined> {
    try {
      this.replace(await this.listOnce());
      return undefined;
    } catch (error) {
      return { error };
    }
  }

  /** Replaces the store with a list result and emits the difference. */
  private replace(result: ListResult): void {
    if (typeof result.resourceVersion !== 'string' || result.resourceVersion === '') {
      throw new Error('list returned no resourceVersion');
    }
    const next = new Map<string, T>();
    for (const item of result.items) {
      const object = this.clean(item);
      const key = objectKey(object);
      const held = this.store.get(key);
      // The version held already stays the same object: what was computed from it still holds.
      if (!held) next.set(key, object);
      else if (held.metadata.resourceVersion === object.metadata.resourceVersion)
        next.set(key, held);
      else next.set(key, shareUnchanged(held, object));
    }
    // A list is news of every object we deleted: one it does not hold is gone (the tombstone
    // goes), one it holds as it was before our deletion is a snapshot older than the deletion
    // (the tombstone stays until the watch from this list delivers the DELETED event).
    for (const key of [...this.tombstones.keys()]) {
      const listed = next.get(key);
      if (listed && this.buried(key, listed)) next.delete(key);
      else this.tombstones.delete(key);
    }
    const previous = this.store;
    // An object newer than the list can only be the server's answer to our own write, made
    // while the list was on its way (`upsert`): the list does not know it yet; keep it.
    for (const [key, old] of previous) {
      if (
        (compareResourceVersions(old.metadata.resourceVersion, result.resourceVersion) ?? 0) > 0
      ) {
        next.set(key, old);
      }
    }
    this.store = next;
    for (const index of this.indexes.values()) {
      index.clear();
      for (const [key, object] of next) index.set(key, object);
    }
    this.resourceVersion = result.resourceVersion;
    for (const [key, object] of next) {
      const old = previous.get(key);
      if (!old) this.emit({ type: 'add', object });
      else if (old.metadata.resourceVersion !== object.metadata.resourceVersion) {
        this.emit({ type: 'update', object, old });
      }
    }
    for (const [key, old] of previous) {
      if (!next.has(key)) this.emit({ type: 'delete', object: old });
    }
    if (!this.synced) {
      this.synced = true;
      for (const waiter of [...this.syncWaiters]) waiter.resolve();
    }
  }

  private pickTimeoutSeconds(): number {
    const { min, max } = this.timeoutRange;
    return Math.min(max, min + Math.floor(this.random() * (max - min + 1)));
  }

  /** Runs one watch until it closes, fails, expires (410) or the informer stops. Never rejects. */
  private watchOnce(): Promise<WatchOutcome> {
    return new Promise<WatchOutcome>((resolve) => {
      const startedAt = this.clock.now();
      const timeoutSeconds = this.pickTimeoutSeconds();
      let events = 0;
      let handle: WatchHandle | undefined;
      let ended = false;
      const end = (how: WatchEnd): void => {
        if (ended) return;
        ended = true;
        this.clock.clearTimeout(watchdog);
        // Also on a stop: a pending timer would keep the process alive for minutes.
        this.clock.clearTimeout(idle);
        this.endWatch = undefined;
        handle?.abort();
        if (how.kind === 'stopped') {
          resolve(how);
          return;
        }
        const healthy = events > 0 || this.clock.now() - startedAt >= MIN_HEALTHY_WATCH_MS;
        resolve({ ...how, healthy, events });
      };
      // The server should end the watch at its timeout; a silent dead connection must not stall us.
      const watchdog = this.clock.setTimeout(
        () =>
          end({
            kind: 'error',
            error: new Error(
              `watch still open ${this.watchGraceMs} ms after its ${timeoutSeconds} s timeout`,
            ),
          }),
        timeoutSeconds * 1000 + this.watchGraceMs,
      );
      // A connection that hangs (before or after the server answered) delivers nothing at all,
      // not even the periodic bookmarks: give up on it long before its server timeout.
      let idle: unknown;
      const armIdle = (): void => {
        this.clock.clearTimeout(idle);
        idle = this.clock.setTimeout(() => end({ kind: 'idle' }), this.watchIdleTimeoutMs);
      };
      armIdle();
      this.endWatch = end;
      if (this.stopped) {
        end({ kind: 'stopped' });
        return;
      }
      const onEvent = (event: WatchEvent): void => {
        if (ended) return;
        armIdle();
        try {
          const result = this.applyWatchEvent(event);
          if (result) end(result);
          else events++;
        } catch (err) {
          end({ kind: 'error', error: err });
        }
      };
      const onClose = (err?: unknown): void => {
        if (err === undefined || err === null) end({ kind: 'closed' });
        else if (statusCode(err) === 410) end({ kind: 'gone' });
        else end({ kind: 'error', error: err });
      };
      this.listWatcher
        .watch({ resourceVersion: this.resourceVersion, timeoutSeconds }, onEvent, onClose)
        .then(
          (h) => {
            handle = h;
            if (ended) h.abort();
          },
          (err: unknown) => onClose(err ?? new Error('watch failed to start')),
        );
    });
  }

  /** Applies one event to the store; returns how the watch ends if the event ends it. */
  private applyWatchEvent(event: WatchEvent): WatchEnd | undefined {
    switch (event.type) {
      case 'ADDED':
      case 'MODIFIED': {
        const object = this.clean(event.object);
        const key = objectKey(object);
        const old = this.store.get(key);
        this.advance(object);
        // A version of an object we deleted, delivered late: it stays deleted.
        if (this.buried(key, object)) return undefined;
        // The store may already hold this version or a newer one: the server's answer to our own
        // write, emitted when it was recorded (`upsert`).
        if (old && (isOlder(object, old) || sameVersion(object, old))) return undefined;
        const stored = this.put(key, object);
        this.emit(old ? { type: 'update', object: stored, old } : { type: 'add', object: stored });
        return undefined;
      }
      case 'DELETED': {
        const object = this.clean(event.object);
        const key = objectKey(object);
        const old = this.store.get(key);
        this.advance(object);
        const tombstone = this.tombstones.get(key);
        if (tombstone && !(otherObject(tombstone, object) && !isNewer(object, tombstone))) {
          this.tombstones.delete(key);
        }
        // A newer object under this key (our own create, after this deletion) stays.
        if (old && isOlder(object, old)) return undefined;
        // Our own deletion (`remove`) was emitted when it was recorded.
        const ours = !old && tombstone !== undefined && !otherObject(tombstone, object);
        this.forget(key);
        if (!ours) this.emit({ type: 'delete', object });
        return undefined;
      }
      case 'BOOKMARK': {
        const rv = (event.object as { metadata?: { resourceVersion?: unknown } } | null)?.metadata
          ?.resourceVersion;
        if (typeof rv !== 'string' || rv === '')
          throw new Error('bookmark without a resourceVersion');
        this.resourceVersion = rv;
        return undefined;
      }
      case 'ERROR': {
        const status = (event.object ?? {}) as {
          code?: unknown;
          reason?: unknown;
          message?: unknown;
        };
        if (status.code === 410) return { kind: 'gone' };
        const error = new Error(
          `watch error event: ${String(status.code)} ${String(status.reason)}: ${String(status.message)}`,
        );
        return { kind: 'error', error };
      }
      default:
        throw new Error(`unexpected watch event type ${JSON.stringify(event.type)}`);
    }
  }

  /**
   * Whether `object` is a version of the object we deleted under `key`: the same uid (when both
   * are known; else a resourceVersion no newer than the deleted one). A uid never comes back, so
   * no version of it but its DELETED event can be news. Another object under the key, or a newer
   * version, ends the tombstone.
   */
  private buried(key: string, object: T): boolean {
    const tombstone = this.tombstones.get(key);
    if (!tombstone) return false;
    const { uid } = object.metadata;
    if (tombstone.uid && uid) {
      if (tombstone.uid === uid) return true;
    } else {
      const order = compareResourceVersions(
        object.metadata.resourceVersion,
        tombstone.resourceVersion,
      );
      if (order !== undefined && order <= 0) return true;
    }
    this.tombstones.delete(key);
    return false;
  }

  /** `object` is a fresh copy (see `clean`): parts equal to the version held are shared. */
  private put(key: string, fresh: T): T {
    const held = this.store.get(key);
    const object = held ? shareUnchanged(held, fresh) : fresh;
    this.store.set(key, object);
    for (const index of this.indexes.values()) index.set(key, object);
    return object;
  }

  private forget(key: string): void {
    this.store.delete(key);
    for (const index of this.indexes.values()) index.delete(key);
  }

  private advance(object: T): void {
    const rv = object.metadata.resourceVersion;
    if (rv) this.resourceVersion = rv;
  }

  /** Checks the minimum shape and returns a copy without managedFields (large, never needed). */
  private clean(raw: unknown): T {
    const metadata = (raw as { metadata?: unknown } | null)?.metadata as
      Record<string, unknown> | undefined;
    if (typeof metadata !== 'object' || metadata === null || typeof metadata.name !== 'string') {
      throw new Error('object without metadata.name');
    }
    // A rest copy, not `delete`: a deleted property leaves a slower, larger dictionary object.
    const { managedFields: _managedFields, ...copy } = metadata;
    return { ...(raw as object), metadata: copy } as unknown as T;
  }

  private emit(event: InformerEvent<T>): void {
    for (const handler of [...this.handlers]) this.call(handler, event);
  }

  private call(handler: InformerHandler<T>, event: InformerEvent<T>): void {
    try {
      handler(event);
    } catch (err) {
      // A broken handler is a bug to report, but it must not stop the cache.
      this.logger.error('informer event handler failed', {
        type: event.type,
        key: objectKey(event.object),
        error: describeError(err),
      });
    }
  }
}

/** An informer over the real API server. */
export function createInformer<T extends KubeObject = KubeObject>(
  client: KubeClient,
  resource: ResourceDescriptor,
  options: InformerOptions,
): Informer<T> {
  const logger = options.logger.child({ resource: resourcePath(resource) });
  return new Informer<T>(new KubeListWatcher(client, resource), { ...options, logger });
}

export interface KubeListWatcherOptions {
  /** Objects per list page. Default 500. */
  pageSize?: number;
}

/**
 * Lists with paginated GETs and watches with a streamed GET (both work for core and custom groups
 * alike), on the client's connections and credentials. Each page is one request, bounded by the
 * client's timeout; a watch can be aborted at any moment, also before the server has answered.
 */
export class KubeListWatcher implements ListWatcher {
  private readonly path: string;
  private readonly pageSize: number;

  constructor(
    private readonly client: KubeClient,
    resource: ResourceDescriptor,
    options: KubeListWatcherOptions = {},
  ) {
    this.path = resourcePath(resource);
    this.pageSize = options.pageSize ?? 500;
  }

  async list(signal: AbortSignal): Promise<ListResult> {
    const items: unknown[] = [];
    let resourceVersion: string | undefined;
    let continueToken = '';
    do {
      const query: Record<string, string> = { limit: String(this.pageSize) };
      if (continueToken) query.continue = continueToken;
      const page = await this.listPage(query, signal);
      for (const item of page.items) items.push(item);
      // Every page of one list is a view of the same snapshot; the first page names it.
      resourceVersion ??= page.resourceVersion;
      continueToken = page.continueToken;
    } while (continueToken);
    return { items, resourceVersion };
  }

  private async listPage(
    query: Record<string, string>,
    signal: AbortSignal,
  ): Promise<ListResult & { continueToken: string }> {
    const body = await this.client.request<{
      apiVersion?: unknown;
      kind?: unknown;
      metadata?: { resourceVersion?: unknown; continue?: unknown };
      items?: unknown;
    } | null>('GET', this.path, { query, signal });
    const resourceVersion = body?.metadata?.resourceVersion;
    if (!Array.isArray(body?.items) || typeof resourceVersion !== 'string') {
      throw new Error(`GET ${this.path}: not a list`);
    }
    // Core lists omit apiVersion/kind on items; fill them from the list.
    const apiVersion = typeof body.apiVersion === 'string' ? body.apiVersion : undefined;
    const kind =
      typeof body.kind === 'string' && body.kind.endsWith('List')
        ? body.kind.slice(0, -4)
        : undefined;
    const items = body.items as unknown[];
    for (const item of items) {
      if (typeof item !== 'object' || item === null) continue;
      const object = item as { apiVersion?: unknown; kind?: unknown };
      if (apiVersion && object.apiVersion === undefined) object.apiVersion = apiVersion;
      if (kind && object.kind === undefined) object.kind = kind;
    }
    const continueToken = typeof body.metadata?.continue === 'string' ? body.metadata.continue : '';
    return { items, resourceVersion, continueToken };
  }

  watch(
    options: WatchOptions,
    onEvent: (event: WatchEvent) => void,
    onClose: (err?: unknown) => void,
  ): Promise<WatchHandle> {
    const controller = new AbortController();
    let closed = false;
    const close = (err?: unknown): void => {
      if (closed) return;
      closed = true;
      controller.abort();
      onClose(err);
    };
    const query = {
      watch: 'true',
      allowWatchBookmarks: 'true',
      resourceVersion: options.resourceVersion,
      timeoutSeconds: String(options.timeoutSeconds),
    };
    void this.client
      .stream(this.path, query, controller.signal, (line) => {
        if (closed) return;
        let parsed: { type?: unknown; object?: unknown };
        try {
          parsed = JSON.parse(line) as { type?: unknown; object?: unknown };
        } catch (err) {
          close(new Error(`GET ${this.path}: watch sent a line that is not JSON`, { cause: err }));
          return;
        }
        onEvent({ type: String(parsed.type), object: parsed.object });
      })
      .then(
        () => close(),
        (err: unknown) => close(err),
      );
    return Promise.resolve({ abort: () => controller.abort() });
  }
}

/**
 * Orders two resourceVersions. They are opaque by contract, but the API server's are etcd
 * revisions (decimal integers), which client-go's mutation cache also relies on; anything else
 * is not comparable (undefined).
 */
function compareResourceVersions(a: string | undefined, b: string | undefined): number | undefined {
  if (!a || !b || !/^\d+$/.test(a) || !/^\d+$/.test(b)) return undefined;
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** What we remember of an object we deleted ourselves. */
interface Tombstone {
  uid?: string | undefined;
  resourceVersion?: string | undefined;
}

/** True when both uids are known and differ: another object under the same name. */
function otherObject(tombstone: Tombstone, object: KubeObject): boolean {
  return !!tombstone.uid && !!object.metadata.uid && tombstone.uid !== object.metadata.uid;
}

/** True unless `object` is known to be no newer than the tombstone's version. */
function isNewer(object: KubeObject, tombstone: Tombstone): boolean {
  return (
    (compareResourceVersions(object.metadata.resourceVersion, tombstone.resourceVersion) ?? 1) > 0
  );
}

/** True when both are the same version of an object. */
function sameVersion(a: KubeObject, b: KubeObject): boolean {
  const rv = a.metadata.resourceVersion;
  return !!rv && rv === b.metadata.resourceVersion && a.metadata.uid === b.metadata.uid;
}

/** True when `a` is known to be an older version than `b`; unknown order counts as newer. */
function isOlder(a: KubeObject, b: KubeObject): boolean {
  return (compareResourceVersions(a.metadata.resourceVersion, b.metadata.resourceVersion) ?? 0) < 0;
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(inspect(value));
}
