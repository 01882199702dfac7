// The flags of `mapi-capi-sync check`. Pure: parses the argv it is given.
import { parseArgs } from 'node:util';
import { SUPPORTED_PLATFORMS } from '../../conversion/platforms.js';

const OUTPUT_FORMATS = ['table', 'yaml', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

const DEFAULT_MAPI_NAMESPACE = 'openshift-machine-api';
const DEFAULT_CAPI_NAMESPACE = 'openshift-cluster-api';

/** Where the MachineSets come from: files (`-` is stdin), or a cluster. */
type CheckSource =
  | { kind: 'files'; files: string[] }
  | { kind: 'cluster'; kubeconfig?: string; mapiNamespace: string };

export interface CheckFlags {
  source: CheckSource;
  output: OutputFormat;
  /** Namespace of the CAPI objects the report shows. */
  capiNamespace: string;
  platform?: string;
  infrastructureName?: string;
}

export const CHECK_USAGE = `Usage: mapi-capi-sync check [flags]
       oc get machinesets.machine.openshift.io -n openshift-machine-api -o yaml | mapi-capi-sync check -f -

Reports, for each Machine API MachineSet, whether it can be mirrored into Cluster API and
whether it can be migrated (mirrored, converted back without error, and, read from a cluster,
not held by the migration gate), with every blocking field and how to fix it. Reads only.

Flags:
  -f, --filename FILE       read MachineSets from FILE (YAML or JSON: single objects, several
                            documents, List or MachineSetList); "-" reads stdin; repeatable.
                            Without -f, MachineSets are read from the cluster.
  -o, --output FORMAT       table, yaml or json (default: table); yaml and json include the
                            Cluster API objects each MachineSet would get
  --kubeconfig PATH         kubeconfig to use (default: $KUBECONFIG, else in-cluster config)
  --mapi-namespace NS       namespace of the MachineSets in the cluster (default: ${DEFAULT_MAPI_NAMESPACE})
  --capi-namespace NS       namespace of the Cluster API objects shown (default: ${DEFAULT_CAPI_NAMESPACE})
  --platform NAME           platform: ${SUPPORTED_PLATFORMS.join(', ')} (default: the Infrastructure's
                            status.platformStatus.type; from files, the providerSpec's kind)
  --infrastructure-name NAME  the Cluster API cluster name (default: the Infrastructure's
                            status.infrastructureName; from files, the MachineSet's
                            machine.openshift.io/cluster-api-cluster label)
  -h, --help                show this help

Exit codes: 0 every MachineSet can migrate; 1 some cannot; 2 bad input (flags, files, cluster).
`;

/** A problem with the flags or the input: exit code 2 with this one-line message. */
export class CheckInputError extends Error {}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const STDIN = '-';

/** The flags, or 'help'; throws CheckInputError on bad flags. */
export function parseCheckFlags(argv: string[]): CheckFlags | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        filename: { type: 'string', short: 'f', multiple: true },
        output: { type: 'string', short: 'o', default: 'table' },
        kubeconfig: { type: 'string' },
        'mapi-namespace': { type: 'string' },
        'capi-namespace': { type: 'string', default: DEFAULT_CAPI_NAMESPACE },
        platform: { type: 'string' },
        'infrastructure-name': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    // node's own message goes on about positionals; its first sentence is the point.
    const first = (err as Error).message.split(/\.(?: |$)/)[0] ?? '';
    throw new CheckInputError(`${first}; see mapi-capi-sync check --help`);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length > 0) {
    throw new CheckInputError(
      `unexpected argument "${positionals[0]}"; name files with -f FILE (or -f - for stdin)`,
    );
  }
  const output = OUTPUT_FORMATS.find((format) => format === values.output);
  if (!output) {
    throw new CheckInputError(
      `--output must be one of ${OUTPUT_FORMATS.join(', ')}, got "${values.output}"`,
    );
  }
  const namespaces = {
    'mapi-namespace': values['mapi-namespace'],
    'capi-namespace': values['capi-namespace'],
  };
  for (const [flag, value] of Object.entries(namespaces)) {
    if (value !== undefined && (!DNS_LABEL.test(value) || value.length > 63)) {
      throw new CheckInputError(`--${flag} must be a valid namespace name, got "${value}"`);
    }
  }
  if (values.platform !== undefined && !SUPPORTED_PLATFORMS.includes(values.platform)) {
    throw new CheckInputError(
      `--platform "${values.platform}" is not supported; supported: ${SUPPORTED_PLATFORMS.join(', ')}`,
    );
  }
  if (values['infrastructure-name'] === '') {
    throw new CheckInputError('--infrastructure-name must not be empty');
  }
  return {
    source: source(values.filename, values.kubeconfig, values['mapi-namespace']),
    output,
    capiNamespace: values['capi-namespace'],
    ...(values.platform !== undefined ? { platform: values.platform } : {}),
    ...(values['infrastructure-name'] !== undefined
      ? { infrastructureName: values['infrastructure-name'] }
      : {}),
  };
}

function source(
  files: string[] | undefined,
  kubeconfigFlag: string | undefined,
  mapiNamespace: string | undefined,
): CheckSource {
  if (files === undefined) {
    // Without --kubeconfig the loader reads $KUBECONFIG, a list of files, as kubectl does.
    return {
      kind: 'cluster',
      ...(kubeconfigFlag !== undefined ? { kubeconfig: kubeconfigFlag } : {}),
      mapiNamespace: mapiNamespace ?? DEFAULT_MAPI_NAMESPACE,
    };
  }
  // Reading a cluster and reading files are exclusive: say so rather than ignore a flag.
  const clusterFlag =
    kubeconfigFlag !== undefined
      ? '--kubeconfig'
      : mapiNamespace !== undefined
        ? '--mapi-namespace'
        : undefined;
  if (clusterFlag) {
    throw new CheckInputError(`${clusterFlag} reads from a cluster and cannot be used with -f`);
  }
  if (files.some((file) => file === '')) throw new CheckInputError('-f needs a file name');
  if (files.filter((file) => file === STDIN).length > 1) {
    throw new CheckInputError('-f - (stdin) can be given only once');
  }
  return { kind: 'files', files };
}
