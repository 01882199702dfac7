// `mapi-capi-sync check`: flags, reading files or the cluster, printing the report, the exit code.
import { readFile } from 'node:fs/promises';
import type { MapiMachineSet } from '../../api/types.js';
import { strayAutoscalers } from './autoscalers.js';
import { leftoverMirrors } from './leftovers.js';
import { describeError } from '../../kube/errors.js';
import {
  bootstrapSecretNotes,
  bootstrapSecretsToRead,
  withBootstrapSecret,
  type BootstrapSecrets,
} from './bootstrap-secret.js';
import { loadKubeConfig, readCluster, readMissingSecrets, type ClusterRead } from './cluster.js';
import { CHECK_USAGE, CheckInputError, parseCheckFlags, type CheckFlags } from './flags.js';
import { parseMachineSets } from './input.js';
import { render } from './render.js';
import { clusterFacts, exitCodeOf, reportMachineSet, type CheckFacts } from './report.js';

export interface CheckIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

const EXIT_BAD_INPUT = 2;

type AutoscalersRead = ClusterRead['autoscalers'];

/** Runs the command; resolves with its exit code (0 all can migrate, 1 some cannot, 2 bad input). */
export async function runCheck(argv: string[], io: CheckIo): Promise<number> {
  try {
    const flags = parseCheckFlags(argv);
    if (flags === 'help') {
      await write(io.stdout, CHECK_USAGE);
      return 0;
    }
    const {
      machineSets,
      facts,
      autoscalers: read,
      readSecrets,
      capiMachineSets,
    } = await readInput(flags, io);
    let reports = machineSets.map((machineSet) => reportMachineSet(machineSet, facts));
    const secrets = await readSecrets?.(bootstrapSecretsToRead(reports));
    if (secrets) reports = reports.map((report) => withBootstrapSecret(report, secrets));
    const notes = [
      ...autoscalerNotes(read, machineSets),
      ...bootstrapSecretNotes(secrets),
      ...leftoverNotes(capiMachineSets, machineSets),
    ];
    await write(
      io.stdout,
      render(reports, flags.output, flags.source.kind === 'files' ? 'files' : 'cluster', notes),
    );
    return exitCodeOf(reports);
  } catch (err) {
    // A user's mistake gets one line; anything else too, without a stack.
    const message = err instanceof CheckInputError ? err.message : describeError(err);
    await write(io.stderr, `mapi-capi-sync check: ${message}\n`);
    return EXIT_BAD_INPUT;
  }
}

async function readInput(
  flags: CheckFlags,
  io: CheckIo,
): Promise<{
  machineSets: MapiMachineSet[];
  facts: CheckFacts;
  autoscalers?: AutoscalersRead;
  /** From a cluster: which of the named bootstrap Secrets the Cluster API namespace lacks. */
  readSecrets?: (names: string[]) => Promise<BootstrapSecrets>;
  /** From a cluster: the Cluster API MachineSets, or why they were not read. */
  capiMachineSets?: ClusterRead['capiMachineSets'];
}> {
  const given = {
    capiNamespace: flags.capiNamespace,
    ...(flags.infrastructureName ? { infrastructureName: flags.infrastructureName } : {}),
  };
  if (flags.source.kind === 'files') {
    const machineSets: MapiMachineSet[] = [];
    for (const file of flags.source.files) {
      const text = file === '-' ? await readStream(io.stdin) : await readInputFile(file);
      machineSets.push(...parseMachineSets(text, file === '-' ? 'stdin' : file));
    }
    const platform = flags.platform ? { platform: flags.platform } : {};
    return { machineSets, facts: { ...given, ...platform, fromCluster: false } };
  }
  const kubeConfig = loadKubeConfig(flags.source.kubeconfig, io.env);
  const { machineSets, infrastructure, autoscalers, capiMachineSets } = await readCluster(
    kubeConfig,
    flags.source.mapiNamespace,
    flags.capiNamespace,
    undefined,
    io.env,
  );
  return {
    machineSets: machineSets.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name)),
    facts: {
      ...clusterFacts(infrastructure, {
        ...given,
        ...(flags.platform ? { platform: flags.platform } : {}),
      }),
      ...(Array.isArray(autoscalers) ? { autoscalers } : {}),
    },
    autoscalers,
    capiMachineSets,
    readSecrets: async (names) => ({
      namespace: flags.capiNamespace,
      ...(await readMissingSecrets(kubeConfig, flags.capiNamespace, names, undefined, io.env)),
    }),
  };
}

/** What the MachineAutoscalers read from a cluster add to the report. */
function autoscalerNotes(
  read: AutoscalersRead | undefined,
  machineSets: readonly MapiMachineSet[],
): string[] {
  if (read === undefined) return [];
  if (!Array.isArray(read)) return [`MachineAutoscalers not checked: ${read.notRead}.`];
  return strayAutoscalers(
    read,
    machineSets.map((m) => m.metadata.name),
  );
}

/** The paused mirrors left over with no MAPI MachineSet, read from a cluster. */
function leftoverNotes(
  read: ClusterRead['capiMachineSets'] | undefined,
  machineSets: readonly MapiMachineSet[],
): string[] {
  if (read === undefined) return [];
  if (!Array.isArray(read))
    return [`leftover Cluster API MachineSets not checked: ${read.notRead}.`];
  return leftoverMirrors(
    read,
    machineSets.map((m) => m.metadata.name),
  );
}

async function readInputFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : describeError(err);
    throw new CheckInputError(`cannot read ${file}: ${reason}`);
  }
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    }
  } catch (err) {
    throw new CheckInputError(`cannot read stdin: ${describeError(err)}`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Writes and waits until the text is handed over, so the exit code never cuts output short. */
function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (err) => (err ? reject(err) : resolve()));
  });
}
