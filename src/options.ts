// Command-line flags. Pure: parses argv and the environment it is given.
import { parseArgs } from 'node:util';
import { SUPPORTED_PLATFORMS } from './conversion/platforms.js';
import type { LogFormat, LogLevel } from './logging.js';

/**
 * MachineSets reconciled in parallel by default. Each worker has at most one request in flight,
 * so this is how many writes at a time the API server sees. Measured at 1,000 MachineSets on two
 * cores, against the keep-alive floor (32 at a time): 4 workers took 1.33× its time for the
 * initial sync, 8 took 1.14× at less CPU per MachineSet and the same peak memory
 * (docs/benchmarks.md).
 */
export const DEFAULT_WORKERS = 8;

export interface Options {
  kubeconfig?: string;
  leaderElect: boolean;
  /** Default: $POD_NAMESPACE, else the CAPI namespace. */
  leaderElectNamespace: string;
  leaderElectId: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  /** "0" disables. */
  metricsBindAddress: string;
  healthProbeBindAddress: string;
  shutdownTimeoutMs: number;
  /** Timeout of every API request (watches excepted; lease requests at most half the retry period). */
  requestTimeoutMs: number;
  /** /healthz fails when the workers made no progress for this long. */
  healthStallThresholdMs: number;
  mapiNamespace: string;
  capiNamespace: string;
  platform?: string;
  workers: number;
  /** Runs the migration handshake; false where OpenShift's own migration controller runs. */
  migrationHandshake: boolean;
  logLevel: LogLevel;
  logFormat: LogFormat;
  /** The ClusterOperator the leader keeps up to date; undefined: none. */
  clusterOperator?: string;
  /** A MachineSet Synchronized=False for longer than this makes the ClusterOperator Degraded. */
  degradedAfterMs: number;
  operatorStatusIntervalMs: number;
}

export const USAGE = `Usage: mapi-capi-sync [flags]
       mapi-capi-sync check [flags]   report which MachineSets can migrate (check --help)

Mirrors Machine API MachineSets into paused Cluster API MachineSets and
infrastructure machine templates, in the direction given by each MachineSet's
status.authoritativeAPI.

Flags:
  --kubeconfig PATH        kubeconfig to use (default: $KUBECONFIG, else in-cluster config)
  --mapi-namespace NS      namespace of the Machine API MachineSets (default: openshift-machine-api)
  --capi-namespace NS      namespace of the Cluster API objects (default: openshift-cluster-api)
  --platform NAME          platform override: ${SUPPORTED_PLATFORMS.join(', ')}
                           (default: the Infrastructure's status.platformStatus.type)
  --workers N              MachineSets reconciled in parallel (default: ${DEFAULT_WORKERS})
  --migration-handshake BOOL   move status.authoritativeAPI to spec.authoritativeAPI through
                           Migrating; false where OpenShift's own migration controller runs
                           (default: true)
  --cluster-operator NAME  keep the ClusterOperator NAME (config.openshift.io/v1) up to date
                           with the controller's health; the leader writes it (default: none;
                           the Deployment sets mapi-capi-sync)
  --degraded-after D       a MachineSet Synchronized=False for longer than this makes the
                           ClusterOperator Degraded (default: 15m)
  --operator-status-interval D   how often the ClusterOperator status is derived (default: 30s)
  --log-level LEVEL        debug, info, warn or error (default: info)
  --log-format FORMAT      json or text (default: json when not on a terminal, else text)
  --leader-elect           elect a leader on a Lease before reconciling (default: false)
  --leader-elect-namespace NS   namespace of the Lease (default: $POD_NAMESPACE, else --capi-namespace)
  --leader-elect-id NAME   name of the Lease (default: mapi-capi-sync-leader)
  --leader-elect-lease-duration D   how long a lease is held without renewal (default: 137s)
  --leader-elect-renew-deadline D   how long the leader retries renewing before giving up (default: 107s)
  --leader-elect-retry-period D     time between attempts (default: 26s)
                           (single-node OpenShift uses 270s / 240s / 60s)
  --metrics-bind-address ADDR        serve /metrics here, "0" to disable (default: :8080)
  --health-probe-bind-address ADDR   serve /healthz and /readyz here, "0" to disable (default: :8081)
  --health-stall-threshold D   /healthz fails when a reconcile has run this long, or keys have
                           waited this long with no reconcile taken or finished (default: 5m)
  --request-timeout D      timeout of every API request; a lease request gets at most half the
                           retry period; watches are restarted when silent instead (default: 30s)
  --shutdown-timeout D     on SIGTERM, how long in-flight reconciles may take (default: 30s)
  -h, --help               show this help

Durations are numbers with a unit: 500ms, 26s, 2m.
`;

export class UsageError extends Error {}

type DurationFlag =
  | 'leader-elect-lease-duration'
  | 'leader-elect-renew-deadline'
  | 'leader-elect-retry-period'
  | 'shutdown-timeout'
  | 'request-timeout'
  | 'health-stall-threshold'
  | 'degraded-after'
  | 'operator-status-interval';

const UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "137s", "500ms", "2m" → milliseconds. */
function parseDuration(flag: string, value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(value);
  if (!match)
    throw new UsageError(`--${flag} must be a duration like 26s or 500ms, got "${value}"`);
  return Math.round(Number(match[1]) * (UNITS_MS[match[2] ?? 's'] ?? 1000));
}

const LOG_LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error'];
const LOG_FORMATS: LogFormat[] = ['json', 'text'];
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The flags parseArgs reads; the log format's default depends on the terminal. */
function flags(isTerminal: boolean) {
  return {
    kubeconfig: { type: 'string' },
    'mapi-namespace': { type: 'string', default: 'openshift-machine-api' },
    'capi-namespace': { type: 'string', default: 'openshift-cluster-api' },
    platform: { type: 'string' },
    workers: { type: 'string', default: String(DEFAULT_WORKERS) },
    'migration-handshake': { type: 'string', default: 'true' },
    'log-level': { type: 'string', default: 'info' },
    'log-format': { type: 'string', default: isTerminal ? 'text' : 'json' },
    'leader-elect': { type: 'boolean', default: false },
    'leader-elect-namespace': { type: 'string' },
    'leader-elect-id': { type: 'string', default: 'mapi-capi-sync-leader' },
    // OpenShift's values for a highly available control plane
    'leader-elect-lease-duration': { type: 'string', default: '137s' },
    'leader-elect-renew-deadline': { type: 'string', default: '107s' },
    'leader-elect-retry-period': { type: 'string', default: '26s' },
    'metrics-bind-address': { type: 'string', default: ':8080' },
    'health-probe-bind-address': { type: 'string', default: ':8081' },
    'shutdown-timeout': { type: 'string', default: '30s' },
    'request-timeout': { type: 'string', default: '30s' },
    'health-stall-threshold': { type: 'string', default: '5m' },
    'cluster-operator': { type: 'string', default: '' },
    'degraded-after': { type: 'string', default: '15m' },
    'operator-status-interval': { type: 'string', default: '30s' },
    help: { type: 'boolean', short: 'h', default: false },
  } as const;
}

type Values = ReturnType<typeof parseArgs<{ options: ReturnType<typeof flags> }>>['values'];

/** argv → the flags' values, defaults included; throws UsageError on an unknown or bad flag. */
function readFlags(argv: string[], isTerminal: boolean): Values {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: flags(isTerminal),
    }).values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** Throws UsageError on a value no flag accepts; durations are checked as they are read. */
function checkValues(values: Values): void {
  const workers = Number(values.workers);
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
    throw new UsageError(`--workers must be a whole number from 1 to 64, got "${values.workers}"`);
  }
  const handshake = values['migration-handshake'];
  if (handshake !== 'true' && handshake !== 'false') {
    throw new UsageError(`--migration-handshake must be true or false, got "${handshake}"`);
  }
  const logLevel = values['log-level'] as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const logFormat = values['log-format'] as LogFormat;
  if (!LOG_FORMATS.includes(logFormat)) {
    throw new UsageError(`--log-format must be json or text, got "${logFormat}"`);
  }
  for (const flag of ['mapi-namespace', 'capi-namespace'] as const) {
    const value = values[flag];
    if (!DNS_LABEL.test(value) || value.length > 63) {
      throw new UsageError(`--${flag} must be a valid namespace name, got "${value}"`);
    }
  }
}

/** Throws UsageError on a bind address or a ClusterOperator name that cannot be. */
function checkNames(values: Values): void {
  for (const flag of ['metrics-bind-address', 'health-probe-bind-address'] as const) {
    if (values[flag] !== '0' && !/^[^:]*:\d{1,5}$/.test(values[flag])) {
      throw new UsageError(
        `--${flag} must look like ":8080" or "127.0.0.1:8080" (or "0"), got "${values[flag]}"`,
      );
    }
  }
  const clusterOperator = values['cluster-operator'];
  if (clusterOperator && !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(clusterOperator)) {
    throw new UsageError(
      `--cluster-operator must be a valid object name, got "${clusterOperator}"`,
    );
  }
}

/** Returns the options, or 'help'; throws UsageError on bad flags. */
export function parseOptions(
  argv: string[],
  env: Record<string, string | undefined>,
  isTerminal: boolean,
): Options | 'help' {
  const values = readFlags(argv, isTerminal);
  if (values.help) return 'help';
  checkValues(values);
  const duration = (flag: DurationFlag): number => parseDuration(flag, values[flag]);
  checkNames(values);
  for (const flag of [
    'request-timeout',
    'health-stall-threshold',
    'degraded-after',
    'operator-status-interval',
  ] as const) {
    if (duration(flag) <= 0) throw new UsageError(`--${flag} must be longer than 0`);
  }
  const kubeconfig = values.kubeconfig ?? (env.KUBECONFIG || undefined);
  const clusterOperator = values['cluster-operator'];
  return {
    ...(kubeconfig ? { kubeconfig } : {}),
    leaderElect: values['leader-elect'],
    leaderElectNamespace:
      values['leader-elect-namespace'] ?? (env.POD_NAMESPACE || values['capi-namespace']),
    leaderElectId: values['leader-elect-id'],
    leaseDurationMs: duration('leader-elect-lease-duration'),
    renewDeadlineMs: duration('leader-elect-renew-deadline'),
    retryPeriodMs: duration('leader-elect-retry-period'),
    metricsBindAddress: values['metrics-bind-address'],
    healthProbeBindAddress: values['health-probe-bind-address'],
    shutdownTimeoutMs: duration('shutdown-timeout'),
    requestTimeoutMs: duration('request-timeout'),
    healthStallThresholdMs: duration('health-stall-threshold'),
    mapiNamespace: values['mapi-namespace'],
    capiNamespace: values['capi-namespace'],
    ...(values.platform ? { platform: values.platform } : {}),
    workers: Number(values.workers),
    migrationHandshake: values['migration-handshake'] === 'true',
    logLevel: values['log-level'] as LogLevel,
    logFormat: values['log-format'] as LogFormat,
    ...(clusterOperator ? { clusterOperator } : {}),
    degradedAfterMs: duration('degraded-after'),
    operatorStatusIntervalMs: duration('operator-status-interval'),
  };
}
