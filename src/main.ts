// The program: parse flags, connect, serve probes and metrics, elect a leader,
// run the controller until SIGTERM/SIGINT.
import { randomUUID } from 'node:crypto';
import { homedir, hostname } from 'node:os';
import { startController, type RunningController } from './controller/controller.js';
import { converterFor, SUPPORTED_PLATFORMS } from './conversion/platforms.js';
import { loadClusterAccess, type ClusterAccess } from './kube/cluster-access.js';
import { KubeClient } from './kube/http-client.js';
import { LeaderElector, validateTimings } from './kube/leader-election.js';
import { createLogger, type Logger } from './logging.js';
import { parseBindAddress, serve, type Endpoints } from './observability/http-server.js';
import { Metrics } from './observability/metrics.js';
import { ProgressTracker, type HealthStatus } from './observability/progress.js';
import { parseOptions, USAGE, UsageError, type Options } from './options.js';
import { RefusedWrites } from './status/refused-writes.js';
import { startOperatorReporter, type OperatorReporter } from './status/reporter.js';
import { programVersion } from './version.js';

function parse(): Options | 'help' | UsageError {
  try {
    const options = parseOptions(process.argv.slice(2), process.env, process.stderr.isTTY);
    if (options === 'help') return options;
    if (options.platform && !SUPPORTED_PLATFORMS.includes(options.platform)) {
      throw new UsageError(
        `--platform "${options.platform}" is not supported; supported: ${SUPPORTED_PLATFORMS.join(', ')}`,
      );
    }
    if (options.leaderElect) {
      try {
        validateTimings(options);
      } catch (err) {
        throw new UsageError(`leader election timings: ${(err as Error).message}`);
      }
    }
    parseBindAddress(options.metricsBindAddress);
    parseBindAddress(options.healthProbeBindAddress);
    return options;
  } catch (err) {
    if (err instanceof UsageError) return err;
    if (err instanceof Error) return new UsageError(err.message);
    throw err;
  }
}

/** Serves probes and metrics on one or two ports, as the bind addresses say. */
async function startHttp(options: Options, endpoints: Endpoints, logger: Logger): Promise<void> {
  const metrics = parseBindAddress(options.metricsBindAddress);
  const probes = parseBindAddress(options.healthProbeBindAddress);
  const ports: { metricsPort?: number; probePort?: number } = {};
  if (metrics && probes && metrics.port !== 0 && metrics.port === probes.port) {
    const { port } = await serve(metrics, { metrics: true, probes: true }, endpoints);
    ports.metricsPort = ports.probePort = port;
  } else {
    if (metrics) {
      ports.metricsPort = (await serve(metrics, { metrics: true, probes: false }, endpoints)).port;
    }
    if (probes) {
      ports.probePort = (await serve(probes, { metrics: false, probes: true }, endpoints)).port;
    }
  }
  logger.info('serving metrics and probes', ports);
}

/** The API server's address and our credentials, and the one client; undefined when unreadable. */
function connect(options: Options, logger: Logger): KubeClient | undefined {
  let access: ClusterAccess;
  try {
    // options.kubeconfig is --kubeconfig, or else $KUBECONFIG itself; the loader reads
    // $KUBECONFIG as kubectl does, a list of files to merge.
    const flag = options.kubeconfig !== process.env.KUBECONFIG ? options.kubeconfig : undefined;
    access = loadClusterAccess({
      env: process.env,
      ...(flag ? { kubeconfigPath: flag } : {}),
    });
  } catch (err) {
    logger.error('cannot load kubeconfig', { error: (err as Error).message });
    return undefined;
  }
  // One pool of connections for every request; the API server names our field manager after
  // the User-Agent: mapi-capi-sync.
  const client = new KubeClient(access, {
    timeoutMs: options.requestTimeoutMs,
    userAgent: `mapi-capi-sync/${programVersion()}`,
  });
  logger.info('starting', {
    server: access.server,
    credentials: access.source,
    mapiNamespace: options.mapiNamespace,
    capiNamespace: options.capiNamespace,
    platform: options.platform ?? '(from Infrastructure)',
    workers: options.workers,
    leaderElect: options.leaderElect,
    requestTimeoutMs: options.requestTimeoutMs,
    healthStallThresholdMs: options.healthStallThresholdMs,
  });
  return client;
}

/**
 * Campaigns for the leader lease when asked to: `leadership` resolves once it is ours. Losing it
 * exits at once, as client-go does: another replica may already be writing.
 */
function electLeader(
  options: Options,
  client: KubeClient,
  metrics: Metrics,
  logger: Logger,
): { elector?: LeaderElector; leadership?: Promise<void> } {
  if (!options.leaderElect) {
    metrics.leader(true);
    return {};
  }
  let elector: LeaderElector | undefined;
  const leadership = new Promise<void>((resolve) => {
    elector = new LeaderElector({
      client,
      namespace: options.leaderElectNamespace,
      name: options.leaderElectId,
      identity: `${hostname()}_${randomUUID()}`,
      leaseDurationMs: options.leaseDurationMs,
      renewDeadlineMs: options.renewDeadlineMs,
      retryPeriodMs: options.retryPeriodMs,
      requestTimeoutMs: options.requestTimeoutMs,
      logger,
      onStartedLeading: () => {
        metrics.leader(true);
        resolve();
      },
      onStoppedLeading: () => {
        metrics.leader(false);
        logger.error('leader lease lost; exiting');
        process.exit(1);
      },
    });
  });
  elector?.start();
  logger.info('waiting for the leader lease', {
    lease: `${options.leaderElectNamespace}/${options.leaderElectId}`,
  });
  return { ...(elector ? { elector } : {}), leadership };
}

/** The ClusterOperator: written by the leader only, once its caches have synced. */
function reportOperatorStatus(
  options: Options,
  client: KubeClient,
  running: RunningController,
  refusedWrites: RefusedWrites,
  logger: Logger,
): { stop(): void } {
  let reporter: OperatorReporter | undefined;
  const clusterOperator = options.clusterOperator;
  if (clusterOperator) {
    void running.ready.then(
      () => {
        reporter = startOperatorReporter({
          client,
          name: clusterOperator,
          intervalMs: options.operatorStatusIntervalMs,
          requestTimeoutMs: options.requestTimeoutMs,
          logger,
          facts: () => ({
            ...running.health(),
            now: new Date(),
            version: programVersion(),
            mapiNamespace: options.mapiNamespace,
            capiNamespace: options.capiNamespace,
            refusedWrites: refusedWrites.list(),
            degradedAfterMs: options.degradedAfterMs,
          }),
        });
      },
      () => undefined,
    );
  }
  return { stop: () => reporter?.stop() };
}

/** The liveness probe's answer: the workers' progress, logged when it turns. */
function livenessOf(progress: ProgressTracker, logger: Logger): () => HealthStatus {
  let stalled = false;
  return () => {
    const status = progress.health();
    if (!status.healthy && !stalled) {
      logger.error('workers stalled; /healthz fails', { reason: status.reason });
    } else if (status.healthy && stalled) {
      logger.info('workers progress again; /healthz passes');
    }
    stalled = !status.healthy;
    return status;
  };
}

/** Resolves with the name of the first SIGTERM or SIGINT. */
function terminationSignal(): Promise<string> {
  return new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
}

async function main(): Promise<number> {
  const options = parse();
  if (options instanceof UsageError) {
    process.stderr.write(`mapi-capi-sync: ${options.message}\n\n${USAGE}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }

  const logger = createLogger(options.logLevel, options.logFormat);
  const client = connect(options, logger);
  if (!client) return 1;
  // The metrics read the controller's cache, and the controller reports to the metrics.
  const wiring: { controller?: RunningController } = {};
  const metrics = new Metrics(() => wiring.controller?.machineSets() ?? []);
  const { elector, leadership } = electLeader(options, client, metrics, logger);

  // The workers report their progress here; /healthz fails when they stall.
  const progress = new ProgressTracker({ stallThresholdMs: options.healthStallThresholdMs });
  const refusedWrites = new RefusedWrites();
  const running = startController({
    client,
    mapiNamespace: options.mapiNamespace,
    capiNamespace: options.capiNamespace,
    ...(options.platform ? { platform: options.platform } : {}),
    workers: options.workers,
    converterFor,
    migration: options.migrationHandshake,
    logger,
    metrics,
    ...(leadership ? { leadership } : {}),
    progress,
    onWrite: refusedWrites.accepted,
    onWriteFailure: refusedWrites.failed,
  });
  wiring.controller = running;
  const reporter = reportOperatorStatus(options, client, running, refusedWrites, logger);
  const health = livenessOf(progress, logger);
  try {
    await startHttp(
      options,
      { health, ready: () => running.synced(), registry: metrics.registry },
      logger,
    );
  } catch (err) {
    logger.error('cannot serve probes or metrics', { error: (err as Error).message });
    await running.stop(0);
    return 1;
  }

  const signal = await terminationSignal();
  logger.info('shutting down', { signal, timeoutMs: options.shutdownTimeoutMs });
  reporter.stop();
  const finished = await running.stop(options.shutdownTimeoutMs);
  if (!finished) logger.warn('reconciles still running at the shutdown deadline; exiting anyway');
  await elector?.release();
  client.close();
  logger.info('stopped');
  return 0;
}

// `mapi-capi-sync check …` is a read-only report, not the controller; loaded only when asked
// for, so that the controller does not carry its libraries.
if (process.argv[2] === 'check') {
  const { runCheck } = await import('./cli/check/command.js');
  const { stdin, stdout, stderr, env } = process;
  process.exit(await runCheck(process.argv.slice(3), { stdin, stdout, stderr, env }));
}
// `mapi-capi-sync migrate …` is the plugin's `oc mapi-capi-sync migrate`, run from here too.
if (process.argv[2] === 'migrate') {
  const { runMigrate } = await import('./cli/migrate/command.js');
  const interrupted = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => interrupted.abort());
  }
  const { stdout, stderr, env } = process;
  process.exit(
    await runMigrate(process.argv.slice(3), {
      stdout,
      stderr,
      env,
      home: homedir(),
      signal: interrupted.signal,
      program: 'mapi-capi-sync',
    }),
  );
}
process.exit(await main());
