// The command line of `oc mapi-capi-sync migrate`. Pure: parses the arguments it is given.
import { parseArgs } from 'node:util';
import { PLUGIN_NAME, PluginUsageError } from '../plugin/flags.js';
import { parseSelector, type Selector } from './selector.js';

export type Authority = 'MachineAPI' | 'ClusterAPI';
const AUTHORITIES: readonly Authority[] = ['ClusterAPI', 'MachineAPI'];

/** Which MachineSets the command is about. */
export type Selection =
  | { kind: 'names'; names: string[] }
  | { kind: 'selector'; text: string; selector: Selector }
  | { kind: 'all' };

export interface MigrateFlags {
  selection: Selection;
  /** The authority the run moves MachineSets to (with --rollback: the one it moves them from). */
  to: Authority;
  rollback: boolean;
  maxInFlight: number;
  /** Per MachineSet, from when the run starts waiting for it. */
  timeoutMs: number;
  skipBlocked: boolean;
  dryRun: boolean;
  json: boolean;
  namespace: string;
  capiNamespace: string;
  /** The ClusterOperator whose Degraded condition is checked between waves; '' for none. */
  clusterOperator: string;
  kubeconfig?: string;
  context?: string;
}

const DEFAULT_TIMEOUT_MS = 15 * 60_000;
const DEFAULT_CLUSTER_OPERATOR = 'mapi-capi-sync';

export const MIGRATE_USAGE = `Migrates Machine API MachineSets (with their Machines) to Cluster API or back, in waves.

Usage:
  oc ${PLUGIN_NAME} migrate (MACHINESET... | -l SELECTOR | --all) --to ClusterAPI|MachineAPI [flags]
  (also: kubectl ${PLUGIN_NAME} migrate ..., or ${PLUGIN_NAME} migrate ...)

Each migration sets spec.authoritativeAPI of a MAPI MachineSet; the controller runs the
handshake and hands its Machines over. MachineSets that cannot migrate (the checks of
"${PLUGIN_NAME} check") are refused before anything is written. Between waves the command waits
until every MachineSet of the wave and its Machines are on the target, Synchronized=True at the
generation of the new authority, with no machine created or deleted, and the ClusterOperator
not Degraded. Everything is read from the objects: run the same command again to resume.

Flags:
      --to API               ClusterAPI or MachineAPI (required)
  -l, --selector SELECTOR    the MachineSets matching a label selector (a=b,c!=d,e in (f,g),!h)
      --all                  every MachineSet of the namespace
      --max-in-flight N      MachineSets migrating at once, one wave (default: 1)
      --timeout DURATION     how long to wait for each MachineSet (default: 15m)
      --skip-blocked         migrate the others when some cannot migrate, and list them
      --rollback             return what is at (or moving to) --to: the same as --to the
                             other API, for the selected MachineSets
      --dry-run              print the plan (waves, order, what each step writes); write nothing
  -o, --output json          one JSON document at the end (progress goes to stderr)
  -n, --namespace NS         namespace of the MAPI MachineSets (default: openshift-machine-api)
      --capi-namespace NS    namespace of the CAPI mirrors (default: openshift-cluster-api)
      --cluster-operator NAME  ClusterOperator checked between waves (default: ${DEFAULT_CLUSTER_OPERATOR};
                             "" checks none)
      --kubeconfig PATH      kubeconfig to use (default: $KUBECONFIG, else ~/.kube/config)
      --context NAME         kubeconfig context to use (default: the current context)
  -h, --help                 show this help

Exit codes: 0 done (or nothing to do, or --dry-run), 1 refused, stopped on a failure, a
timeout or an interruption (it prints what to run next), 2 bad command line.
`;

const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

const OPTIONS = {
  to: { type: 'string' },
  selector: { type: 'string', short: 'l' },
  all: { type: 'boolean' },
  'max-in-flight': { type: 'string' },
  timeout: { type: 'string' },
  'skip-blocked': { type: 'boolean' },
  rollback: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  output: { type: 'string', short: 'o' },
  namespace: { type: 'string', short: 'n' },
  'capi-namespace': { type: 'string' },
  'cluster-operator': { type: 'string' },
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * Where the word `migrate` stands in the plugin's arguments, when it is the command (the first
 * argument that is not a flag or a flag's value); -1 otherwise.
 */
export function migrateCommandIndex(argv: string[]): number {
  const { tokens } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    tokens: true,
    options: { ...OPTIONS, watch: { type: 'boolean', short: 'w' } },
  });
  const first = tokens.find((t) => t.kind === 'positional');
  return first?.kind === 'positional' && first.value === 'migrate' ? first.index : -1;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go-style duration (`90s`, `15m`, `1h30m`, `500ms`) in ms, or undefined. */
export function parseDuration(text: string): number | undefined {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return undefined;
  const ms = parts.reduce((sum, [, value, unit]) => sum + Number(value) * UNITS[unit!]!, 0);
  return ms > 0 ? Math.round(ms) : undefined;
}

/** The other API: where a rollback goes. */
const opposite = (authority: Authority): Authority =>
  authority === 'ClusterAPI' ? 'MachineAPI' : 'ClusterAPI';

/** Where this run moves MachineSets: --to, or with --rollback the other API. */
export const targetOf = (flags: Pick<MigrateFlags, 'to' | 'rollback'>): Authority =>
  flags.rollback ? opposite(flags.to) : flags.to;

function usage(message: string): never {
  throw new PluginUsageError(message);
}

function namespaceFlag(flag: string, value: string): string {
  if (!NAMESPACE.test(value)) usage(`${flag} "${value}" is not a valid namespace name`);
  return value;
}

function selectionOf(names: string[], selector: string | undefined, all: boolean): Selection {
  const given = [names.length > 0, selector !== undefined, all].filter(Boolean).length;
  if (given === 0) usage('no MachineSets selected: name them, or use -l SELECTOR or --all');
  if (given > 1) usage('select MachineSets one way only: by name, with -l SELECTOR, or with --all');
  if (all) return { kind: 'all' };
  if (selector !== undefined) {
    const parsed = parseSelector(selector);
    if (typeof parsed === 'string') usage(`-l "${selector}": ${parsed}`);
    return { kind: 'selector', text: selector, selector: parsed };
  }
  const bad = names.find((name) => !NAME.test(name));
  if (bad !== undefined) usage(`"${bad}" is not a valid MachineSet name`);
  return { kind: 'names', names: [...new Set(names)] };
}

/** The flags (the arguments after `migrate`), 'help', or a PluginUsageError naming the problem. */
export function parseMigrateArgs(argv: string[]): MigrateFlags | 'help' {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
  } catch (err) {
    const message = (err as Error).message.split(/\.\s/)[0]?.replace(/\.$/, '') ?? '';
    throw new PluginUsageError(message, { cause: err });
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  const to = values.to;
  if (to === undefined) usage('--to is required: --to ClusterAPI or --to MachineAPI');
  const authority = AUTHORITIES.find((a) => a === to);
  if (!authority) usage(`--to "${to}": use ClusterAPI or MachineAPI`);
  const selection = selectionOf(positionals, values.selector, values.all ?? false);
  const inFlight = values['max-in-flight'] ?? '1';
  if (!/^[1-9]\d*$/.test(inFlight)) usage(`--max-in-flight "${inFlight}": give a whole number ≥ 1`);
  const timeout = values.timeout ?? '15m';
  const timeoutMs = parseDuration(timeout);
  if (timeoutMs === undefined)
    usage(`--timeout "${timeout}": give a duration such as 90s, 15m or 1h`);
  if (values.output !== undefined && values.output !== 'json') {
    usage(`--output "${values.output}" is not supported: the only format is "json"`);
  }
  const clusterOperator = values['cluster-operator'] ?? DEFAULT_CLUSTER_OPERATOR;
  if (clusterOperator !== '' && !NAME.test(clusterOperator)) {
    usage(`--cluster-operator "${clusterOperator}" is not a valid object name`);
  }
  if (values.kubeconfig === '') usage('--kubeconfig must not be empty');
  if (values.context === '') usage('--context must not be empty');
  return {
    selection,
    to: authority,
    rollback: values.rollback ?? false,
    maxInFlight: Number(inFlight),
    timeoutMs,
    skipBlocked: values['skip-blocked'] ?? false,
    dryRun: values['dry-run'] ?? false,
    json: values.output === 'json',
    namespace: namespaceFlag('--namespace', values.namespace ?? 'openshift-machine-api'),
    capiNamespace: namespaceFlag(
      '--capi-namespace',
      values['capi-namespace'] ?? 'openshift-cluster-api',
    ),
    clusterOperator,
    ...(values.kubeconfig !== undefined ? { kubeconfig: values.kubeconfig } : {}),
    ...(values.context !== undefined ? { context: values.context } : {}),
  };
}

/** A word as a POSIX shell reads it back: quoted only when it has to be. */
function shellQuote(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

const durationText = (ms: number): string =>
  ms % 3_600_000 === 0
    ? `${ms / 3_600_000}h`
    : ms % 60_000 === 0
      ? `${ms / 60_000}m`
      : ms % 1000 === 0
        ? `${ms / 1000}s`
        : `${ms}ms`;

/**
 * The command line that runs `flags` again (`program` is how the command was started, e.g.
 * `oc mapi-capi-sync`), with --rollback as given: what to run next.
 */
export function commandLine(
  program: string,
  flags: MigrateFlags,
  rollback: boolean = flags.rollback,
): string {
  const words = ['migrate'];
  const { selection } = flags;
  if (selection.kind === 'names') words.push(...selection.names);
  else if (selection.kind === 'selector') words.push('-l', selection.text);
  else words.push('--all');
  words.push('--to', flags.to);
  if (rollback) words.push('--rollback');
  if (flags.maxInFlight !== 1) words.push('--max-in-flight', String(flags.maxInFlight));
  if (flags.timeoutMs !== DEFAULT_TIMEOUT_MS)
    words.push('--timeout', durationText(flags.timeoutMs));
  if (flags.skipBlocked) words.push('--skip-blocked');
  if (flags.json) words.push('-o', 'json');
  if (flags.namespace !== 'openshift-machine-api') words.push('-n', flags.namespace);
  if (flags.capiNamespace !== 'openshift-cluster-api') {
    words.push('--capi-namespace', flags.capiNamespace);
  }
  if (flags.clusterOperator !== DEFAULT_CLUSTER_OPERATOR) {
    words.push('--cluster-operator', flags.clusterOperator);
  }
  if (flags.kubeconfig !== undefined) words.push('--kubeconfig', flags.kubeconfig);
  if (flags.context !== undefined) words.push('--context', flags.context);
  return [program, ...words.map(shellQuote)].join(' ');
}
