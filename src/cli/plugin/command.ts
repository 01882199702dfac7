// `oc mapi-capi-sync status|machines`: reads both sides, prints one table, and with --watch
// keeps printing it (redrawn on a terminal, appended when it changed on a pipe).
import { setTimeout as sleep } from 'node:timers/promises';
import type { CapiMachine, CapiMachineSet, MapiMachine, MapiMachineSet } from '../../api/types.js';
import {
  CAPI_MACHINE,
  CAPI_MACHINE_SET,
  MAPI_MACHINE,
  MAPI_MACHINE_SET,
} from '../../kube/resources.js';
import { clusterReader, loadKubeConfig, PluginError, type ClusterReader } from './cluster.js';
import {
  parsePluginArgs,
  PLUGIN_NAME,
  PLUGIN_USAGE,
  PluginUsageError,
  type PluginFlags,
} from './flags.js';
import { migrateCommandIndex } from '../migrate/flags.js';
import { machineRow, machineSetOf, machineSetRow } from './rows.js';
import { machineSetTable, machineTable } from './table.js';
import { CLEAR_SCREEN, REFRESH_MS, type PluginIO } from './io.js';

export { type PluginIO } from './io.js';

/** What one read of the cluster shows. */
export interface View {
  /** The table for a given time, or undefined when there is nothing to show. */
  render(now: Date): string | undefined;
  /** Equal for two reads that show the same thing (ages aside). */
  key: string;
  /** Said instead of an empty table. */
  empty: string;
  /** Names asked for that do not exist. */
  missing: string[];
}

const byName = (a: { metadata: { name: string } }, b: { metadata: { name: string } }) =>
  a.metadata.name.localeCompare(b.metadata.name);

async function readMachineSets(reader: ClusterReader, flags: PluginFlags): Promise<View> {
  const [mapi, capi] = await Promise.all([
    reader.list<MapiMachineSet>(MAPI_MACHINE_SET, flags.namespace),
    reader.list<CapiMachineSet>(CAPI_MACHINE_SET, flags.capiNamespace),
  ]);
  const mirrors = new Map(capi.map((c) => [c.metadata.name, c]));
  const wanted = new Set(flags.names);
  const shown = mapi.filter((m) => wanted.size === 0 || wanted.has(m.metadata.name)).sort(byName);
  const rows = shown.map((m) => machineSetRow(m, mirrors.get(m.metadata.name)));
  const found = new Set(shown.map((m) => m.metadata.name));
  return {
    render: (now) => (rows.length > 0 ? machineSetTable(rows, now, flags.wide) : undefined),
    key: JSON.stringify(rows),
    empty: `No MachineSets found in namespace ${flags.namespace}.`,
    missing: flags.names.filter((name) => !found.has(name)),
  };
}

async function readMachines(reader: ClusterReader, flags: PluginFlags): Promise<View> {
  const [mapi, capi] = await Promise.all([
    reader.list<MapiMachine>(MAPI_MACHINE, flags.namespace),
    reader.list<CapiMachine>(CAPI_MACHINE, flags.capiNamespace),
  ]);
  const mirrors = new Map(capi.map((c) => [c.metadata.name, c]));
  const wanted = new Set(flags.names);
  const shown = mapi
    .filter((m) => wanted.size === 0 || wanted.has(machineSetOf(m) ?? ''))
    .sort(byName);
  const rows = shown.map((m) => machineRow(m, mirrors.get(m.metadata.name)));
  const of = flags.names.length > 0 ? ` of MachineSet ${flags.names.join(', ')}` : '';
  return {
    render: (now) => (rows.length > 0 ? machineTable(rows, now, flags.wide) : undefined),
    key: JSON.stringify(rows),
    empty: `No Machines${of} found in namespace ${flags.namespace}.`,
    missing: [],
  };
}

export const read = (reader: ClusterReader, flags: PluginFlags): Promise<View> =>
  flags.command === 'status' ? readMachineSets(reader, flags) : readMachines(reader, flags);

function reportMissing(io: PluginIO, flags: PluginFlags, view: View): void {
  for (const name of view.missing) {
    io.stderr.write(`error: MachineSet "${name}" not found in namespace ${flags.namespace}\n`);
  }
}

export async function watch(
  reader: ClusterReader,
  flags: PluginFlags,
  io: PluginIO,
  first: View,
): Promise<number> {
  const now = io.now ?? (() => new Date());
  const terminal = io.stdout.isTTY === true;
  const refreshMs = io.refreshMs ?? REFRESH_MS;
  let view = first;
  let shownKey: string | undefined;
  for (;;) {
    const at = now();
    if (terminal) {
      const header = `${PLUGIN_NAME} ${flags.command} -n ${flags.namespace} (mirrors in ${flags.capiNamespace}), every ${refreshMs / 1000}s: ${at.toISOString()}\n\n`;
      io.stdout.write(CLEAR_SCREEN + header + (view.render(at) ?? `${view.empty}\n`));
    } else if (view.key !== shownKey) {
      const text = view.render(at);
      if (text) io.stdout.write((shownKey === undefined ? '' : '\n') + text);
      else io.stderr.write(`${view.empty}\n`);
    }
    shownKey = view.key;
    try {
      await sleep(refreshMs, undefined, io.signal ? { signal: io.signal } : {});
    } catch {
      return 0; // interrupted: the watch is over
    }
    try {
      view = await read(reader, flags);
    } catch (err) {
      if (!(err instanceof PluginError)) throw err;
      // Keep watching: the cluster may come back; the last table stays on screen.
      io.stderr.write(`error: ${err.message}\n`);
    }
  }
}

/** Runs the plugin with the given arguments; resolves with the exit code. */
export async function runPlugin(argv: string[], io: PluginIO): Promise<number> {
  const migrate = migrateCommandIndex(argv);
  if (migrate >= 0) {
    // loaded only when asked for: the read-only commands do not carry the checks' converters
    const { runMigrate } = await import('../migrate/command.js');
    return runMigrate([...argv.slice(0, migrate), ...argv.slice(migrate + 1)], io);
  }
  let flags: PluginFlags | 'help';
  try {
    flags = parsePluginArgs(argv);
  } catch (err) {
    if (!(err instanceof PluginUsageError)) throw err;
    io.stderr.write(`error: ${err.message}\nSee 'oc ${PLUGIN_NAME} --help' for usage.\n`);
    return 2;
  }
  if (flags === 'help') {
    io.stdout.write(PLUGIN_USAGE);
    return 0;
  }
  let reader: ClusterReader | undefined;
  try {
    reader = clusterReader(loadKubeConfig(flags, io.env, io.home), io.env);
    const view = await read(reader, flags);
    reportMissing(io, flags, view);
    if (flags.watch) return await watch(reader, flags, io, view);
    const text = view.render((io.now ?? (() => new Date()))());
    if (text) io.stdout.write(text);
    else if (view.missing.length === 0) io.stderr.write(`${view.empty}\n`);
    return view.missing.length > 0 ? 1 : 0;
  } catch (err) {
    if (!(err instanceof PluginError)) throw err;
    io.stderr.write(`error: ${err.message}\n`);
    return 1;
  } finally {
    reader?.close();
  }
}
