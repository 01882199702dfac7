// Command-line flags. Pure: parses argv and the environment it is given.
import { parseArgs } from 'node:util';
import type { LogFormat, LogLevel } from './logging.js';

export interface Options {
  kubeconfig?: string;
  mapiNamespace: string;
  capiNamespace: string;
  platform?: string;
  workers: number;
  logLevel: LogLevel;
  logFormat: LogFormat;
}

export const USAGE = `Usage: mapi-capi-sync [flags]

Mirrors Machine API MachineSets into paused Cluster API MachineSets and
infrastructure machine templates, in the direction given by each MachineSet's
status.authoritativeAPI.

Flags:
  --kubeconfig PATH        kubeconfig to use (default: $KUBECONFIG, else in-cluster config)
  --mapi-namespace NS      namespace of the Machine API MachineSets (default: openshift-machine-api)
  --capi-namespace NS      namespace of the Cluster API objects (default: openshift-cluster-api)
  --platform NAME          platform override: AWS (default: the Infrastructure's status.platformStatus.type)
  --workers N              MachineSets reconciled in parallel (default: 2)
  --log-level LEVEL        debug, info, warn or error (default: info)
  --log-format FORMAT      json or text (default: json when not on a terminal, else text)
  -h, --help               show this help
`;

export class UsageError extends Error {}

const LOG_LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error'];
const LOG_FORMATS: LogFormat[] = ['json', 'text'];
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Returns the options, or 'help'; throws UsageError on bad flags. */
export function parseOptions(
  argv: string[],
  env: Record<string, string | undefined>,
  isTerminal: boolean,
): Options | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        kubeconfig: { type: 'string' },
        'mapi-namespace': { type: 'string', default: 'openshift-machine-api' },
        'capi-namespace': { type: 'string', default: 'openshift-cluster-api' },
        platform: { type: 'string' },
        workers: { type: 'string', default: '2' },
        'log-level': { type: 'string', default: 'info' },
        'log-format': { type: 'string', default: isTerminal ? 'text' : 'json' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return 'help';
  const workers = Number(values.workers);
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
    throw new UsageError(`--workers must be a whole number from 1 to 64, got "${values.workers}"`);
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
  const kubeconfig = values.kubeconfig ?? (env.KUBECONFIG || undefined);
  return {
    ...(kubeconfig ? { kubeconfig } : {}),
    mapiNamespace: values['mapi-namespace'],
    capiNamespace: values['capi-namespace'],
    ...(values.platform ? { platform: values.platform } : {}),
    workers,
    logLevel,
    logFormat,
  };
}
