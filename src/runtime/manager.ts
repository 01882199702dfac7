// The manager owns the caches: every informer the controllers read is made here, and they are
// started, synced and stopped together, those of a platform's kinds (made the first time the
// platform asks for them) included. An informer doubles as the reconcilers' cache (asCache).
import type { KubeObject } from '../api/types.js';
import type { KubeClient } from '../kube/http-client.js';
import {
  createInformer,
  type Informer,
  type InformerHandler,
  type InformerOptions,
} from '../kube/informer.js';
import {
  infrastructureResource,
  type InfrastructureType,
  type Resource,
} from '../kube/resources.js';
import type { Logger } from '../logging.js';
import type { ObjectCache } from './step-reconciler.js';

export class Manager {
  /** What the manager does with each informer: start, sync and stop them together. */
  private readonly informers: Pick<Informer, 'start' | 'waitForSync' | 'stop'>[] = [];
  private state: 'new' | 'running' | 'stopped' = 'new';

  constructor(
    private readonly client: KubeClient,
    private readonly options: InformerOptions,
  ) {}

  /**
   * An informer of `resource` (in `namespace`, else cluster-wide), set up by `configure` (indexes,
   * handlers) before it starts: with the others, or at once when they run already.
   */
  informer<T extends KubeObject>(
    resource: Resource,
    namespace?: string,
    configure?: (informer: Informer<T>) => void,
  ): Informer<T> {
    const { group, version, plural } = resource;
    const informer = createInformer<T>(
      this.client,
      { group, version, plural, ...(namespace ? { namespace } : {}) },
      this.options,
    );
    configure?.(informer);
    this.informers.push(informer);
    if (this.state === 'running') informer.start();
    // Made after the stop: it never runs, and waiting for it fails at once.
    if (this.state === 'stopped') void informer.stop();
    return informer;
  }

  /** Starts every informer made so far; those made later start at once. */
  start(): void {
    this.state = 'running';
    for (const informer of this.informers) informer.start();
  }

  /** Resolves once every informer made so far has synced; rejects when `signal` aborts first. */
  async waitForSync(signal?: AbortSignal): Promise<void> {
    await Promise.all(this.informers.map((informer) => informer.waitForSync(signal)));
  }

  /** Stops every informer, those made on demand included. */
  async stop(): Promise<void> {
    this.state = 'stopped';
    await Promise.all(this.informers.map((informer) => informer.stop()));
  }
}

export interface KindInformersOptions<T> {
  namespace: string;
  /** Indexes every informer of the family keeps. */
  indexes?: Record<string, (object: T) => string[]>;
  /** Logged, with the kind, when an informer starts. */
  message: string;
  logger: Logger;
  /** Told when an informer has synced (its objects can be reconciled). */
  onSynced: () => void;
}

/**
 * Informers of a kind the platform decides (its machine templates, its infrastructure machines):
 * one per kind, made through the manager the first time it is asked for, with the handlers
 * registered on the family (before the first ask).
 */
export class KindInformers<T extends KubeObject> {
  private readonly byKind = new Map<string, Informer<T>>();
  private readonly handlers: ((kind: string) => InformerHandler<T>)[] = [];

  constructor(
    private readonly manager: Manager,
    private readonly options: KindInformersOptions<T>,
  ) {}

  /** Registers the handler every informer of the family gets, made for its kind. */
  on(handlerFor: (kind: string) => InformerHandler<T>): void {
    this.handlers.push(handlerFor);
  }

  /** The informer of this kind, if one was asked for. */
  get(kind: string): Informer<T> | undefined {
    return this.byKind.get(kind);
  }

  /** The informer of this kind, made and started the first time it is asked for. */
  for(type: InfrastructureType): Informer<T> {
    const { kind } = type;
    const known = this.byKind.get(kind);
    if (known) return known;
    const { namespace, indexes = {}, logger, message, onSynced } = this.options;
    const informer = this.manager.informer<T>(infrastructureResource(type), namespace, (i) => {
      for (const [name, valuesOf] of Object.entries(indexes)) i.addIndex(name, valuesOf);
      for (const handlerFor of this.handlers) i.on(handlerFor(kind));
    });
    this.byKind.set(kind, informer);
    logger.info(message, { kind, namespace });
    void informer.waitForSync().then(onSynced, () => undefined);
    return informer;
  }
}

/**
 * An informer doubles as the reconciler's cache: its store, plus our own writes, whose changes
 * it emits at once to whatever they wake (marked with the writer, whom they do not wake).
 */
export function asCache<T extends KubeObject>(informer: Informer<T>): ObjectCache<T> {
  return {
    get: (key) => informer.get(key),
    list: () => informer.list(),
    byIndex: (name, value) => informer.byIndex(name, value),
    hasSynced: () => informer.hasSynced(),
    upsert: (object, writer) => informer.upsert(object, writer),
    remove: (key, writer) => informer.remove(key, writer),
  };
}
