// The plugin's command line. Pure: parses the arguments it is given.
import { parseArgs } from 'node:util';

export const PLUGIN_NAME = 'mapi-capi-sync';

type PluginCommand = 'status' | 'machines';

export interface PluginFlags {
  command: PluginCommand;
  /** MachineSet names to show (status), or whose Machines to show (machines); all when empty. */
  names: string[];
  namespace: string;
  capiNamespace: string;
  wide: boolean;
  watch: boolean;
  kubeconfig?: string;
  context?: string;
}

export class PluginUsageError extends Error {
  override name = 'PluginUsageError';
}

export const PLUGIN_USAGE = `Shows how Machine API MachineSets and Machines are mirrored into Cluster API.

Usage:
  oc ${PLUGIN_NAME} status [MACHINESET...] [flags]     (or: kubectl ${PLUGIN_NAME} ...)
  oc ${PLUGIN_NAME} machines [MACHINESET...] [flags]
  oc ${PLUGIN_NAME} migrate (MACHINESET... | -l SELECTOR | --all) --to API [flags]

Commands:
  status     one row per MAPI MachineSet: its authority (spec→status), Synchronized and since
             when, synchronized/authoritative generation, its CAPI mirror, which sides are
             paused (as machine-api-operator and Cluster API report it), the mirror's
             template, replicas and ready replicas on both sides, and the migration step
  machines   one row per MAPI Machine (of the given MachineSets): its MachineSet, authority,
             Synchronized, phase on both sides, providerID and which sides are paused
  migrate    migrates MachineSets to Cluster API or back, in waves, waiting for each
             wave's handshakes; its own flags: oc ${PLUGIN_NAME} migrate --help

Flags:
  -n, --namespace NS        namespace of the MAPI objects (default: openshift-machine-api)
      --capi-namespace NS   namespace of the CAPI mirrors (default: openshift-cluster-api)
  -o, --output wide         more columns: the message to read, ages and generations
  -w, --watch               refresh every 2 seconds until interrupted
      --kubeconfig PATH     kubeconfig to use (default: $KUBECONFIG, else ~/.kube/config)
      --context NAME        kubeconfig context to use (default: the current context)
  -h, --help                show this help

Exit codes: 0 shown, 1 the cluster could not be read, 2 bad command line.
`;

/** A namespace name as the API server accepts it (an RFC 1123 label). */
const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
/** An object name as the API server accepts it (an RFC 1123 subdomain). */
const NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

function checkNamespace(flag: string, value: string): string {
  if (!NAMESPACE.test(value)) {
    throw new PluginUsageError(`${flag} "${value}" is not a valid namespace name`);
  }
  return value;
}

/** The first sentence of node's own message: the rest tells about `--`, not about this tool. */
function shortMessage(err: Error): string {
  return err.message.split(/\.\s/)[0]?.replace(/\.$/, '') ?? err.message;
}

/** The flags, 'help', or a PluginUsageError naming what is wrong. */
export function parsePluginArgs(argv: string[]): PluginFlags | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        namespace: { type: 'string', short: 'n' },
        'capi-namespace': { type: 'string' },
        output: { type: 'string', short: 'o' },
        watch: { type: 'boolean', short: 'w' },
        kubeconfig: { type: 'string' },
        context: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new PluginUsageError(shortMessage(err as Error), { cause: err });
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  const [command, ...names] = positionals;
  if (command === 'help') return 'help';
  if (command === undefined) {
    throw new PluginUsageError('no command given: use "status", "machines" or "migrate"');
  }
  if (command !== 'status' && command !== 'machines') {
    throw new PluginUsageError(
      `unknown command "${command}": use "status", "machines" or "migrate"`,
    );
  }
  const badName = names.find((name) => !NAME.test(name));
  if (badName !== undefined) {
    throw new PluginUsageError(`"${badName}" is not a valid MachineSet name`);
  }
  const output = values.output;
  if (output !== undefined && output !== 'wide') {
    throw new PluginUsageError(`--output "${output}" is not supported: the only format is "wide"`);
  }
  if (values.kubeconfig === '') throw new PluginUsageError('--kubeconfig must not be empty');
  if (values.context === '') throw new PluginUsageError('--context must not be empty');
  return {
    command,
    names,
    namespace: checkNamespace('--namespace', values.namespace ?? 'openshift-machine-api'),
    capiNamespace: checkNamespace(
      '--capi-namespace',
      values['capi-namespace'] ?? 'openshift-cluster-api',
    ),
    wide: output === 'wide',
    watch: values.watch ?? false,
    ...(values.kubeconfig !== undefined ? { kubeconfig: values.kubeconfig } : {}),
    ...(values.context !== undefined ? { context: values.context } : {}),
  };
}
