// Wires informers, the work queue, workers and the reconciler together.
import isEqual from 'lodash/isEqual.js';
import type {
  CapiMachine,
  CapiMachineSet,
  Infrastructure,
  InfrastructureMachine,
  KubeObject,
  MachineTemplate,
  MapiMachine,
  MapiMachineSet,
} from '../api/types.js';
import type { PlatformConverter } from '../conversion/types.js';
import type { KubeClient } from '../kube/http-client.js';
import { createEventRecorder } from '../kube/events.js';
import {
  createInformer,
  type Informer,
  type InformerEvent,
  type InformerOptions,
} from '../kube/informer.js';
import {
  CAPI_CLUSTER,
  CAPI_MACHINE,
  CAPI_MACHINE_SET,
  INFRASTRUCTURE,
  INFRASTRUCTURE_NAME,
  MAPI_MACHINE,
  MAPI_MACHINE_SET,
  type Resource,
} from '../kube/resources.js';
import { createObjectWriter } from '../kube/writer.js';
import type { ClusterFacts } from '../status/operator-status.js';
import type { Logger } from '../logging.js';
import { CONTROLLER_NAME, type Metrics } from '../observability/metrics.js';
import type { WorkerProgress } from '../observability/progress.js';
import { SOURCE_ANNOTATION } from '../model/markers.js';
import {
  machineReconciler as createMachineReconciler,
  type MachineReconciler,
} from './machine-reconciler.js';
import {
  infrastructureResource,
  MACHINES_BY_MACHINE_SET as BY_MACHINE_SET,
  MACHINE_SETS_BY_TEMPLATE as BY_TEMPLATE,
  clusterPlatform,
  machineSetReconciler,
  TEMPLATES_BY_NAME_PREFIX,
  TEMPLATES_BY_SOURCE,
  templateNamePrefixOf,
  templateRef,
  templateSourceOf,
  templatesOf,
  type Reconciler,
  type ReconcilerOptions,
} from './reconciler.js';

import { asCache, machineCache } from './caches.js';
import {
  CAPI_GROUP,
  MAPI_GROUP,
  machineKey,
  machineName,
  machineSetOf,
  machineSetToWake,
  templatesReleased,
} from './watches.js';
import { runWorkers } from './workers.js';
import { WorkQueue } from './workqueue.js';

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
  onWrite?: ReconcilerOptions['onWrite'];
  /** Told of every write that failed. */
  onWriteFailure?: ReconcilerOptions['onWriteFailure'];
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
  reconciler: Reconciler;
  machineReconciler: MachineReconciler;
  /** Queues every known MachineSet and Machine, as a periodic resync would. */
  resyncAll(): void;
  /**
   * Stops taking keys, lets in-flight reconciles finish (for at most timeoutMs),
   * stops the informers. Resolves false when reconciles were still running at the deadline.
   */
  stop(timeoutMs?: number): Promise<boolean>;
}

export function startController(options: ControllerOptions): RunningController {
  const { client, mapiNamespace, capiNamespace, logger } = options;
  const informerOptions: InformerOptions = {
    logger,
    ...(options.watchTimeoutSeconds ? { watchTimeoutSeconds: options.watchTimeoutSeconds } : {}),
  };
  const informer = <T extends KubeObject>(resource: Resource, namespace?: string) =>
    createInformer<T>(
      client,
      {
        group: resource.group,
        version: resource.version,
        plural: resource.plural,
        ...(namespace ? { namespace } : {}),
      },
      informerOptions,
    );

  const queue = new WorkQueue(
    options.metrics ? { metrics: options.metrics.workQueue(CONTROLLER_NAME) } : {},
  );
  const mapiMachineSets = informer<MapiMachineSet>(MAPI_MACHINE_SET, mapiNamespace);
  const capiMachineSets = informer<CapiMachineSet>(CAPI_MACHINE_SET, capiNamespace);
  const clusters = informer<KubeObject>(CAPI_CLUSTER, capiNamespace);
  const infrastructures = informer<Infrastructure>(INFRASTRUCTURE);
  const mapiMachines = informer<MapiMachine>(MAPI_MACHINE, mapiNamespace);
  const capiMachines = informer<CapiMachine>(CAPI_MACHINE, capiNamespace);
  const templateInformers = new Map<string, Informer<MachineTemplate>>();
  const infrastructureMachineInformers = new Map<string, Informer<InfrastructureMachine>>();

  const addMachine = (name: string) => queue.add(machineKey(name));
  const resyncAll = (): void => {
    for (const machineSet of mapiMachineSets.list()) queue.add(machineSet.metadata.name);
    // CAPI MachineSets whose MAPI side is gone still need their finalizer released.
    for (const machineSet of capiMachineSets.list()) queue.add(machineSet.metadata.name);
    for (const machine of mapiMachines.list()) addMachine(machine.metadata.name);
    for (const machine of capiMachines.list()) addMachine(machine.metadata.name);
  };
  // Indexes, so that an event finds the objects it concerns without a scan of every object:
  // at a thousand MachineSets a scan per event makes the initial sync quadratic.
  mapiMachines.addIndex(BY_MACHINE_SET, (m) => machineSetOf(m, MAPI_GROUP));
  capiMachines.addIndex(BY_MACHINE_SET, (m) => machineSetOf(m, CAPI_GROUP));
  capiMachineSets.addIndex(BY_TEMPLATE, templatesOf);
  /** The Machines a MachineSet of this name owns, on either side, read their MachineSet. */
  const addMachinesOf = (setName: string): void => {
    for (const machine of mapiMachines.byIndex(BY_MACHINE_SET, setName)) {
      addMachine(machine.metadata.name);
    }
    for (const machine of capiMachines.byIndex(BY_MACHINE_SET, setName)) {
      addMachine(machine.metadata.name);
    }
  };

  // Event handlers only map an object to the MachineSet or Machine keys it concerns.
  mapiMachineSets.on((e) => {
    queue.add(e.object.metadata.name);
    addMachinesOf(e.object.metadata.name);
  });
  capiMachineSets.on((e) => {
    queue.add(e.object.metadata.name);
    addMachinesOf(e.object.metadata.name);
    // A template of ours it stopped using: the MachineSet that made it may delete it now.
    const before = e.type === 'add' ? undefined : e.type === 'update' ? e.old : e.object;
    const after = e.type === 'delete' ? undefined : e.object;
    for (const { kind, name } of templatesReleased(before, after)) {
      const template = templateInformers.get(kind)?.get(capiNamespace, name);
      const source = template?.metadata.annotations?.[SOURCE_ANNOTATION];
      if (source && source !== e.object.metadata.name) queue.add(source);
    }
  });
  // A Machine wakes itself, and its MachineSet when something the MachineSet's plan reads of it
  // changed (machine-api-operator rewrites a Machine's status every 20 s for nothing of that).
  const onMachineEvent =
    (groupPrefix: string) =>
    (e: InformerEvent<KubeObject>): void => {
      addMachine(e.object.metadata.name);
      const before = e.type === 'add' ? undefined : e.type === 'update' ? e.old : e.object;
      const after = e.type === 'delete' ? undefined : e.object;
      const set = machineSetToWake(before, after, groupPrefix);
      if (set) queue.add(set);
    };
  mapiMachines.on(onMachineEvent(MAPI_GROUP));
  capiMachines.on(onMachineEvent(CAPI_GROUP));
  // The plan reads a Cluster's identity (for ownerReferences) and the Infrastructure's
  // spec and status: Cluster API rewriting its Cluster's status must not wake every MachineSet.
  clusters.on((e) => {
    if (e.type !== 'update' || e.old.metadata.uid !== e.object.metadata.uid) resyncAll();
  });
  infrastructures.on((e) => {
    if (
      e.type !== 'update' ||
      !isEqual(e.old.status, e.object.status) ||
      !isEqual(e.old.spec, e.object.spec)
    ) {
      resyncAll();
    }
  });

  /** The template informer of a platform, started the first time it is asked for. */
  const templateInformerFor = (converter: PlatformConverter): Informer<MachineTemplate> => {
    const { kind, apiVersion, plural } = converter.template;
    let templateInformer = templateInformers.get(kind);
    if (!templateInformer) {
      const [group = '', version = ''] = apiVersion.split('/');
      templateInformer = informer<MachineTemplate>(
        { group, version, plural, kind, namespaced: true },
        capiNamespace,
      );
      templateInformer.addIndex(TEMPLATES_BY_SOURCE, templateSourceOf);
      templateInformer.addIndex(TEMPLATES_BY_NAME_PREFIX, templateNamePrefixOf);
      templateInformer.on((e) => {
        const source = e.object.metadata.annotations?.[SOURCE_ANNOTATION];
        if (source) queue.add(source);
        // Someone else's template: the authoritative CAPI MachineSets pointing at it read it.
        const ref = templateRef(kind, e.object.metadata.name);
        for (const machineSet of capiMachineSets.byIndex(BY_TEMPLATE, ref)) {
          if (machineSet.metadata.name !== source) queue.add(machineSet.metadata.name);
        }
      });
      templateInformers.set(kind, templateInformer);
      templateInformer.start();
      logger.info('watching machine templates', { kind, namespace: capiNamespace });
      void templateInformer.waitForSync().then(resyncAll, () => undefined);
    }
    return templateInformer;
  };
  const templates = (converter: PlatformConverter) => asCache(templateInformerFor(converter));

  /** The infrastructure machine informer of a platform, started the first time it is asked for. */
  const infrastructureMachineInformerFor = (
    converter: PlatformConverter,
  ): Informer<InfrastructureMachine> | undefined => {
    const machineType = converter.machine;
    if (!machineType) return undefined;
    let machineInformer = infrastructureMachineInformers.get(machineType.kind);
    if (!machineInformer) {
      machineInformer = informer<InfrastructureMachine>(
        infrastructureResource(machineType),
        capiNamespace,
      );
      // Named like its Machine, or owned by it.
      machineInformer.on((e) => {
        const owner = e.object.metadata.ownerReferences?.find(
          (r) => r.kind === 'Machine' && r.apiVersion.startsWith(CAPI_GROUP),
        );
        addMachine(owner?.name ?? e.object.metadata.name);
      });
      infrastructureMachineInformers.set(machineType.kind, machineInformer);
      machineInformer.start();
      logger.info('watching infrastructure machines', {
        kind: machineType.kind,
        namespace: capiNamespace,
      });
      void machineInformer.waitForSync().then(resyncAll, () => undefined);
    }
    return machineInformer;
  };
  const infrastructureMachines = (converter: PlatformConverter) => {
    const machineInformer = infrastructureMachineInformerFor(converter);
    return machineInformer ? asCache(machineInformer) : undefined;
  };

  const mapiMachineCache = machineCache(mapiMachines, MAPI_GROUP, (set) => queue.add(set));
  const capiMachineCache = machineCache(capiMachines, CAPI_GROUP, (set) => queue.add(set));
  const shared = {
    writer: createObjectWriter(client),
    events: createEventRecorder(client, () => new Date()),
    now: () => new Date(),
    logger,
    ...(options.onWrite ? { onWrite: options.onWrite } : {}),
    ...(options.onWriteFailure ? { onWriteFailure: options.onWriteFailure } : {}),
  };
  const platform = () => clusterPlatform(infrastructures, options.platform);
  const reconciler = machineSetReconciler({
    mapiNamespace,
    capiNamespace,
    ...(options.platform ? { platform: options.platform } : {}),
    caches: {
      mapiMachineSets: asCache(mapiMachineSets),
      capiMachineSets: asCache(capiMachineSets),
      clusters: asCache(clusters),
      infrastructures: asCache(infrastructures),
      templates,
      mapiMachines: mapiMachineCache,
      capiMachines: capiMachineCache,
    },
    converterFor: options.converterFor,
    migration: options.migration ?? true,
    ...shared,
  });
  const machineReconciler = createMachineReconciler({
    mapiNamespace,
    capiNamespace,
    caches: {
      mapiMachines: mapiMachineCache,
      capiMachines: capiMachineCache,
      mapiMachineSets: asCache(mapiMachineSets),
      capiMachineSets: asCache(capiMachineSets),
      clusters: asCache(clusters),
      infrastructures: asCache(infrastructures),
      infrastructureMachines,
    },
    platform: () => platform(),
    converterFor: options.converterFor,
    migration: options.migration ?? true,
    ...shared,
  });

  const reconcile = async (key: string) => {
    const started = performance.now();
    try {
      const machine = machineName(key);
      const result = machine
        ? await machineReconciler.reconcile(machine)
        : await reconciler.reconcile(key);
      const outcome = result.retry
        ? 'requeue'
        : result.requeueAfterMs === undefined
          ? 'success'
          : 'requeue_after';
      options.metrics?.reconciled(outcome, (performance.now() - started) / 1000);
      return result;
    } catch (err) {
      options.metrics?.reconciled('error', (performance.now() - started) / 1000);
      throw err;
    }
  };

  const base = [
    mapiMachineSets,
    capiMachineSets,
    clusters,
    infrastructures,
    mapiMachines,
    capiMachines,
  ];
  for (const i of base) i.start();
  const stopSignal = new AbortController();
  let synced = false;
  let workers: Promise<void> | undefined;
  const ready = (async () => {
    await Promise.all(base.map((i) => i.waitForSync(stopSignal.signal)));
    const converter = options.converterFor(platform());
    if (converter) {
      await templateInformerFor(converter).waitForSync(stopSignal.signal);
      await infrastructureMachineInformerFor(converter)?.waitForSync(stopSignal.signal);
    }
    synced = true;
    logger.info('caches synced', { platform: platform() });
    if (options.leadership) {
      await Promise.race([
        options.leadership,
        new Promise((_, reject) =>
          stopSignal.signal.addEventListener('abort', () => reject(new Error('stopped'))),
        ),
      ]);
    }
    logger.info('starting workers', { workers: options.workers });
    workers = runWorkers(queue, options.workers, reconcile, logger, {
      ...(options.progress ? { progress: options.progress } : {}),
    });
    resyncAll();
  })();
  ready.catch(() => undefined); // a stop before the caches synced is not an error

  return {
    ready,
    synced: () => synced,
    machineSets: () => mapiMachineSets.list(),
    machines: () => mapiMachines.list(),
    health(): ClusterFacts {
      const infrastructure = infrastructures.get(INFRASTRUCTURE_NAME);
      const name = platform();
      const clusterName = infrastructure?.status?.infrastructureName;
      return {
        synced,
        infrastructureFound: infrastructure !== undefined,
        ...(name ? { platform: name } : {}),
        platformSupported: options.converterFor(name) !== undefined,
        ...(clusterName ? { clusterName } : {}),
        clusterFound:
          clusterName !== undefined && clusters.get(capiNamespace, clusterName) !== undefined,
        machineSets: mapiMachineSets.list(),
      };
    },
    reconciler,
    machineReconciler,
    resyncAll,
    async stop(timeoutMs = 30_000): Promise<boolean> {
      stopSignal.abort();
      queue.shutDown();
      await ready.catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        (workers ?? Promise.resolve()).then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
      ]);
      clearTimeout(timer);
      const informers = [
        ...base,
        ...templateInformers.values(),
        ...infrastructureMachineInformers.values(),
      ];
      await Promise.all(informers.map((i) => i.stop()));
      return finished;
    },
  };
}
