// Wires the controller together: the manager and its caches, the work queue, the controller of
// each kind (machine-set.ts, machine.ts) with its watches and its reconciler, the workers;
// readiness, health and shutdown. A key goes queue → dispatch(key) → the controller of its kind →
// observe(name) → plan(observed) → execute (../runtime/step-reconciler.ts).
import type {
  Infrastructure,
  InfrastructureMachine,
  MachineTemplate,
  MapiMachine,
  MapiMachineSet,
} from '../api/types.js';
import type { PlatformConverter } from '../conversion/types.js';
import type { KubeClient } from '../kube/http-client.js';
import { createEventRecorder } from '../kube/events.js';
import type { InformerOptions } from '../kube/informer.js';
import {
  CAPI_CLUSTER,
  CAPI_MACHINE,
  CAPI_MACHINE_SET,
  INFRASTRUCTURE,
  INFRASTRUCTURE_NAME,
  infrastructureResource,
  MAPI_MACHINE,
  MAPI_MACHINE_SET,
  resourcePath,
} from '../kube/resources.js';
import { isNotFound } from '../kube/errors.js';
import { createObjectWriter } from '../kube/writer.js';
import type { ClusterFacts } from '../status/operator-status.js';
import type { Logger } from '../logging.js';
import { CAPI_GROUP_PREFIX, MAPI_GROUP_PREFIX } from '../model/api-groups.js';
import { CONTROLLER_NAME, type Metrics } from '../observability/metrics.js';
import type { WorkerProgress } from '../observability/progress.js';
import { attachWatches, dispatch } from '../runtime/controllers.js';
import { asCache, KindInformers, Manager } from '../runtime/manager.js';
import { runWorkers } from '../runtime/workers.js';
import { WorkQueue } from '../runtime/workqueue.js';
import { machineController, machineReconciler, type MachineReconciler } from './machine.js';
import {
  machineSetController,
  machineSetReconciler,
  MACHINE_SETS_BY_TEMPLATE as BY_TEMPLATE,
  TEMPLATES_BY_NAME_PREFIX,
  TEMPLATES_BY_SOURCE,
  templateNamePrefixOf,
  templateSourceOf,
  templatesOf,
  type MachineSetReconcilerOptions,
  type MachineSetReconciler,
} from './machine-set.js';
import {
  clusterPlatform,
  machineSetOf,
  MACHINES_BY_MACHINE_SET as BY_MACHINE_SET,
  type Sources,
} from './mirror.js';

export interface ControllerOptions {
  /** Every request but watches is bounded by its timeout. */
  client: KubeClient;
  mapiNamespace: string;
  capiNamespace: string;
  platform?: string;
  workers: number;
  converterFor: (platform: string | undefined) => PlatformConverter | undefined;
  /** Runs the migration handshake (default: true). */
  migration?: boolean;
  logger: Logger;
  /** Server-side watch timeout; tests shorten it. */
  watchTimeoutSeconds?: InformerOptions['watchTimeoutSeconds'];
  metrics?: Metrics;
  /** Told of every write the API server accepted. */
  onWrite?: MachineSetReconcilerOptions['onWrite'];
  /** Told of every write that failed. */
  onWriteFailure?: MachineSetReconcilerOptions['onWriteFailure'];
  /** Told when workers take and finish keys, for the liveness probe. */
  progress?: WorkerProgress;
  /** Workers start only once this resolves (leader election); caches sync regardless. */
  leadership?: Promise<void>;
}

export interface RunningController {
  /** Resolves once every cache has synced and the workers run. */
  ready: Promise<void>;
  /** True once the caches have synced (readiness). */
  synced(): boolean;
  /** The MAPI MachineSets in the cache. */
  machineSets(): MapiMachineSet[];
  /** The MAPI Machines in the cache. */
  machines(): MapiMachine[];
  /** What the caches say about the cluster, for the ClusterOperator status. */
  health(): ClusterFacts;
  machineSetReconciler: MachineSetReconciler;
  machineReconciler: MachineReconciler;
  /** Queues every known MachineSet and Machine, as a periodic resync would. */
  resyncAll(): void;
  /**
   * Stops taking keys, lets in-flight reconciles finish (for at most timeoutMs),
   * stops the informers. Resolves false when reconciles were still running at the deadline.
   */
  stop(timeoutMs?: number): Promise<boolean>;
}

/**
 * The informers the controllers watch, made by the manager with the indexes through which an
 * event finds the objects it concerns without a scan of every object (at a thousand MachineSets a
 * scan per event makes the initial sync quadratic).
 */
function watchedInformers(
  manager: Manager,
  options: ControllerOptions,
  onSynced: () => void,
): Sources {
  const { mapiNamespace, capiNamespace, logger } = options;
  return {
    mapiNamespace,
    capiNamespace,
    mapiMachineSets: manager.informer(MAPI_MACHINE_SET, mapiNamespace),
    capiMachineSets: manager.informer(CAPI_MACHINE_SET, capiNamespace, (i) =>
      i.addIndex(BY_TEMPLATE, templatesOf),
    ),
    clusters: manager.informer(CAPI_CLUSTER, capiNamespace),
    infrastructures: manager.informer<Infrastructure>(INFRASTRUCTURE),
    mapiMachines: manager.informer<MapiMachine>(MAPI_MACHINE, mapiNamespace, (i) =>
      i.addIndex(BY_MACHINE_SET, (m) => machineSetOf(m, MAPI_GROUP_PREFIX)),
    ),
    capiMachines: manager.informer(CAPI_MACHINE, capiNamespace, (i) =>
      i.addIndex(BY_MACHINE_SET, (m) => machineSetOf(m, CAPI_GROUP_PREFIX)),
    ),
    templates: new KindInformers<MachineTemplate>(manager, {
      namespace: capiNamespace,
      indexes: {
        [TEMPLATES_BY_SOURCE]: templateSourceOf,
        [TEMPLATES_BY_NAME_PREFIX]: templateNamePrefixOf,
      },
      message: 'watching machine templates',
      logger,
      onSynced,
    }),
    infrastructureMachines: new KindInformers<InfrastructureMachine>(manager, {
      namespace: capiNamespace,
      message: 'watching infrastructure machines',
      logger,
      onSynced,
    }),
  };
}

/** The two reconcilers, reading the informers as caches and writing through them. */
function reconcilers(
  sources: Sources,
  options: ControllerOptions,
): Pick<RunningController, 'machineSetReconciler' | 'machineReconciler'> {
  const { client, mapiNamespace, capiNamespace, logger } = options;
  const caches = {
    mapiMachineSets: asCache(sources.mapiMachineSets),
    capiMachineSets: asCache(sources.capiMachineSets),
    clusters: asCache(sources.clusters),
    infrastructures: asCache(sources.infrastructures),
    mapiMachines: asCache(sources.mapiMachines),
    capiMachines: asCache(sources.capiMachines),
  };
  const shared = {
    mapiNamespace,
    capiNamespace,
    ...(options.platform ? { platform: options.platform } : {}),
    converterFor: options.converterFor,
    migration: options.migration ?? true,
    writer: createObjectWriter(client),
    events: createEventRecorder(client, () => new Date()),
    now: () => new Date(),
    logger,
    ...(options.onWrite ? { onWrite: options.onWrite } : {}),
    ...(options.onWriteFailure ? { onWriteFailure: options.onWriteFailure } : {}),
  };
  const templates = (converter: PlatformConverter) =>
    asCache(sources.templates.for(converter.template));
  const infrastructureMachines = (converter: PlatformConverter) =>
    converter.machine ? asCache(sources.infrastructureMachines.for(converter.machine)) : undefined;
  // Only once syncCaches found the cluster serves them (CAPO before v0.11 makes none).
  const instanceObjects = (converter: PlatformConverter) => {
    const kind = converter.machine?.instance?.kind;
    const informer = kind ? sources.infrastructureMachines.get(kind) : undefined;
    return informer && asCache(informer);
  };
  return {
    machineSetReconciler: machineSetReconciler({ caches: { ...caches, templates }, ...shared }),
    machineReconciler: machineReconciler({
      caches: { ...caches, infrastructureMachines, instanceObjects },
      ...shared,
    }),
  };
}

/** What the caches say about the cluster, for the ClusterOperator status. */
function clusterFacts(sources: Sources, options: ControllerOptions, synced: boolean): ClusterFacts {
  const infrastructure = sources.infrastructures.get(INFRASTRUCTURE_NAME);
  const platform = clusterPlatform(sources.infrastructures, options.platform);
  const clusterName = infrastructure?.status?.infrastructureName;
  return {
    synced,
    infrastructureFound: infrastructure !== undefined,
    ...(platform ? { platform } : {}),
    platformSupported: options.converterFor(platform) !== undefined,
    ...(clusterName ? { clusterName } : {}),
    clusterFound:
      clusterName !== undefined &&
      sources.clusters.get(options.capiNamespace, clusterName) !== undefined,
    machineSets: sources.mapiMachineSets.list(),
  };
}

/** Resolves when leadership is won; rejects when the controller stops first. */
async function leadership(options: ControllerOptions, stopped: AbortSignal): Promise<void> {
  if (!options.leadership) return;
  await Promise.race([
    options.leadership,
    new Promise((_, reject) =>
      stopped.addEventListener('abort', () => reject(new Error('stopped'))),
    ),
  ]);
}

/** Waits for the caches to sync: every kind's, then those of the platform the Infrastructure names. */
async function syncCaches(
  manager: Manager,
  sources: Sources,
  options: ControllerOptions,
  signal: AbortSignal,
): Promise<void> {
  await manager.waitForSync(signal);
  const converter = options.converterFor(
    clusterPlatform(sources.infrastructures, options.platform),
  );
  if (!converter) return;
  sources.templates.for(converter.template);
  if (converter.machine) sources.infrastructureMachines.for(converter.machine);
  const instance = converter.machine?.instance;
  if (instance && (await serves(options, instance))) sources.infrastructureMachines.for(instance);
  await manager.waitForSync(signal);
}

/**
 * Whether the API server serves an optional provider kind in the CAPI namespace: a list of one
 * answers 404 when it does not. Any other answer starts its informer, which retries and reports.
 */
async function serves(
  { client, capiNamespace, logger }: ControllerOptions,
  type: { apiVersion: string; kind: string; plural: string },
): Promise<boolean> {
  const path = resourcePath({ ...infrastructureResource(type), namespace: capiNamespace });
  try {
    await client.request('GET', path, { query: { limit: '1' } });
    return true;
  } catch (err) {
    if (!isNotFound(err)) return true;
    logger.info('the cluster serves no such kind; none is paused with its machine', {
      kind: type.kind,
      apiVersion: type.apiVersion,
    });
    return false;
  }
}

/** Resolves true once the workers (if they run) finished, false when the deadline came first. */
async function finishedWithin(workers: Promise<void> | undefined, timeoutMs: number) {
  let timer: NodeJS.Timeout | undefined;
  const finished = await Promise.race([
    (workers ?? Promise.resolve()).then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
  ]);
  clearTimeout(timer);
  return finished;
}

export function startController(options: ControllerOptions): RunningController {
  const { client, logger } = options;
  const manager = new Manager(client, {
    logger,
    ...(options.watchTimeoutSeconds ? { watchTimeoutSeconds: options.watchTimeoutSeconds } : {}),
  });
  const queue = new WorkQueue(
    options.metrics ? { metrics: options.metrics.workQueue(CONTROLLER_NAME) } : {},
  );
  const sources = watchedInformers(manager, options, () => resyncAll());
  const reconciling = reconcilers(sources, options);
  const controllers = [
    machineSetController(sources, reconciling.machineSetReconciler),
    machineController(sources, reconciling.machineReconciler),
  ];
  // Event handlers only map an object to the keys it concerns.
  attachWatches(controllers, (key) => queue.add(key));
  /** Queues every known MachineSet and Machine, as a periodic resync would. */
  const resyncAll = (): void => {
    for (const controller of controllers) {
      for (const name of controller.all()) queue.add(controller.key(name));
    }
  };

  manager.start();
  const stopSignal = new AbortController();
  let synced = false;
  let workers: Promise<void> | undefined;
  const ready = (async () => {
    await syncCaches(manager, sources, options, stopSignal.signal);
    synced = true;
    logger.info('caches synced', {
      platform: clusterPlatform(sources.infrastructures, options.platform),
    });
    await leadership(options, stopSignal.signal);
    logger.info('starting workers', { workers: options.workers });
    workers = runWorkers(queue, options.workers, dispatch(controllers, options.metrics), logger, {
      ...(options.progress ? { progress: options.progress } : {}),
    });
    resyncAll();
  })();
  ready.catch(() => undefined); // a stop before the caches synced is not an error

  return {
    ready,
    synced: () => synced,
    machineSets: () => sources.mapiMachineSets.list(),
    machines: () => sources.mapiMachines.list(),
    health: () => clusterFacts(sources, options, synced),
    ...reconciling,
    resyncAll,
    async stop(timeoutMs = 30_000): Promise<boolean> {
      stopSignal.abort();
      queue.shutDown();
      await ready.catch(() => undefined);
      const finished = await finishedWithin(workers, timeoutMs);
      await manager.stop();
      return finished;
    },
  };
}
