// `oc mapi-capi-sync migrate`: read, check, plan, then per wave patch spec.authoritativeAPI and
// wait until the wave has arrived. A thin loop: every decision is in plan.ts and state.ts, every
// text in render.ts; everything is read again from the cluster, so a run can resume any other.
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  CapiMachine,
  CapiMachineSet,
  MachineAutoscaler,
  MapiMachine,
  MapiMachineSet,
} from '../../api/types.js';
import {
  CAPI_MACHINE,
  CAPI_MACHINE_SET,
  MACHINE_AUTOSCALER,
  MAPI_MACHINE,
  MAPI_MACHINE_SET,
} from '../../kube/resources.js';
import { isNotFound } from '../../kube/errors.js';
import {
  bootstrapSecretNotes,
  bootstrapSecretsToRead,
  withBootstrapSecret,
} from '../check/bootstrap-secret.js';
import {
  clusterFacts,
  reportMachineSet,
  type CheckFacts,
  type MachineSetReport,
  type Problem,
} from '../check/report.js';
import {
  clusterReader,
  loadKubeConfig,
  PluginError,
  type ClusterReader,
} from '../plugin/cluster.js';
import { CLEAR_SCREEN, REFRESH_MS, type PluginIO } from '../plugin/io.js';
import { PLUGIN_NAME, PluginUsageError } from '../plugin/flags.js';
import { migrateClient, PatchError, type MigrateClient } from './cluster.js';
import {
  commandLine,
  MIGRATE_USAGE,
  parseMigrateArgs,
  targetOf,
  type Authority,
  type MigrateFlags,
} from './flags.js';
import {
  judgeWave,
  operatorForWave,
  planMigration,
  selectMachineSets,
  type InFlight,
  type OperatorState,
  type Plan,
  type WaveStep,
} from './plan.js';
import {
  documentRow,
  headerLine,
  nextText,
  planText,
  progressKey,
  progressLine,
  progressTable,
  refusalText,
  summaryText,
  type MigrateDocument,
  type Result,
  type Row,
} from './render.js';
import { machineSnapshot, objectsOf, phaseOf, progressOf, type Fleet } from './state.js';

export interface MigrateIO extends PluginIO {
  /** How the command was started, for the commands it says to run next. */
  program?: string;
  /** The cluster, when not the kubeconfig's (both given: no kubeconfig is loaded). */
  client?: MigrateClient;
  reader?: ClusterReader;
}

/** Writing a MachineSet that changed since it was read: read again, this many times. */
const PATCH_ATTEMPTS = 3;

async function readFleet(reader: ClusterReader, flags: MigrateFlags): Promise<Fleet> {
  const [mapiMachineSets, capiMachineSets, mapiMachines, capiMachines, autoscalers] =
    await Promise.all([
      reader.list<MapiMachineSet>(MAPI_MACHINE_SET, flags.namespace),
      reader.list<CapiMachineSet>(CAPI_MACHINE_SET, flags.capiNamespace),
      reader.list<MapiMachine>(MAPI_MACHINE, flags.namespace),
      reader.list<CapiMachine>(CAPI_MACHINE, flags.capiNamespace),
      // a cluster without cluster-autoscaler-operator's CRD has none
      reader.list<MachineAutoscaler>(MACHINE_AUTOSCALER, flags.namespace).catch((err: unknown) => {
        if (isNotFound((err as { cause?: unknown }).cause)) return undefined;
        throw err;
      }),
    ]);
  return {
    mapiMachineSets,
    capiMachineSets,
    mapiMachines,
    capiMachines,
    ...(autoscalers ? { autoscalers } : {}),
  };
}

/** The checks' facts with the MachineAutoscalers as last read. */
function withAutoscalers(facts: CheckFacts, fleet: Fleet): CheckFacts {
  return fleet.autoscalers ? { ...facts, autoscalers: fleet.autoscalers } : facts;
}

type Stop = { result: 'failed'; name?: string; message: string } | { result: 'interrupted' };

class Run {
  private readonly target: Authority;
  private readonly rows = new Map<string, Row>();
  private readonly blocking = new Map<string, Problem[]>();
  /** What this run set moving (or found moving in its waves): exactly what the way back moves. */
  private readonly moved = new Set<string>();
  private readonly shown = new Map<string, string>();
  private readonly now: () => Date;
  private operator: OperatorState = { kind: 'unchecked' };
  private plan: Plan | undefined;
  private wave = 0;

  constructor(
    private readonly flags: MigrateFlags,
    private readonly io: MigrateIO,
    private readonly reader: ClusterReader,
    private readonly client: MigrateClient,
  ) {
    this.target = targetOf(flags);
    this.now = io.now ?? (() => new Date());
  }

  private get program(): string {
    return this.io.program ?? `oc ${PLUGIN_NAME}`;
  }

  /** Progress goes to stdout, or to stderr when stdout carries the JSON document. */
  private progress(text: string): void {
    (this.flags.json ? this.io.stderr : this.io.stdout).write(text);
  }

  async run(): Promise<number> {
    const fleet = await readFleet(this.reader, this.flags);
    const { selected, missing } = selectMachineSets(fleet.mapiMachineSets, this.flags.selection);
    for (const name of missing) {
      this.io.stderr.write(
        `error: MachineSet "${name}" not found in namespace ${this.flags.namespace}\n`,
      );
    }
    if (missing.length > 0) return 1;
    if (selected.length === 0) {
      this.io.stderr.write(`No MachineSets selected in namespace ${this.flags.namespace}.\n`);
    }
    const facts = clusterFacts(await this.client.infrastructure(), {
      capiNamespace: this.flags.capiNamespace,
    });
    const read = selected.map((name) => {
      const objects = objectsOf(fleet, name)!;
      return { name, objects, phase: phaseOf(objects, this.target) };
    });
    const reports = new Map(
      read
        .filter(({ phase }) => phase === 'pending')
        .map(({ name, objects }) => [
          name,
          reportMachineSet(objects.mapi, withAutoscalers(facts, fleet)),
        ]),
    );
    await this.checkBootstrapSecrets(reports);
    const candidates = read.map(({ name, objects, phase }) => {
      const blocking = reports.get(name)?.blocking ?? [];
      this.blocking.set(name, blocking);
      const progress = progressOf(objects, this.target);
      this.rows.set(name, { ...progress, outcome: phase === 'done' ? 'already' : 'not-started' });
      return { name, phase, authority: progress.authority, blocking };
    });
    const plan = planMigration(
      candidates,
      this.target,
      this.flags.maxInFlight,
      this.flags.skipBlocked,
    );
    this.plan = plan;
    plan.waves.forEach((wave, i) => {
      for (const step of wave) this.rows.get(step.name)!.wave = i + 1;
    });
    for (const { name } of plan.blocked) this.rows.get(name)!.outcome = 'skipped';

    if (this.flags.dryRun) {
      if (this.flags.json) this.io.stdout.write(this.document('planned'));
      else this.io.stdout.write(planText(plan, this.flags.namespace));
      return 0;
    }
    if (plan.refused) {
      this.io.stderr.write(refusalText(plan));
      if (this.flags.json) this.io.stdout.write(this.document('refused'));
      return 1;
    }
    this.operator = await this.client.operator(this.flags.clusterOperator);
    this.noteOperator();

    for (const [i, wave] of plan.waves.entries()) {
      this.wave = i + 1;
      const stop = await this.runWave(wave, facts);
      if (stop) return this.finish(stop);
    }
    return this.finish(undefined);
  }

  /**
   * Towards Cluster API, the Secret each mirror boots its machines from must be in the Cluster API
   * namespace, as `check` says; one that cannot be read is said once and holds nothing.
   */
  private async checkBootstrapSecrets(reports: Map<string, MachineSetReport>): Promise<void> {
    if (this.target !== 'ClusterAPI') return;
    const names = bootstrapSecretsToRead([...reports.values()]);
    if (names.length === 0) return;
    const secrets = await this.client.missingSecrets(this.flags.capiNamespace, names);
    for (const note of bootstrapSecretNotes(secrets)) this.progress(`${note}\n`);
    for (const [name, report] of reports) reports.set(name, withBootstrapSecret(report, secrets));
  }

  /** Said once: when the ClusterOperator's Degraded condition cannot be part of the checks. */
  private noteOperator(): void {
    const name = this.flags.clusterOperator;
    const note =
      this.operator.kind === 'absent'
        ? `ClusterOperator ${name} not found: its Degraded condition is not checked.`
        : this.operator.kind === 'unchecked'
          ? 'No ClusterOperator is checked (--cluster-operator "").'
          : this.operator.kind === 'unreadable'
            ? `ClusterOperator ${name} cannot be read (${this.operator.message}): its Degraded condition is not checked.`
            : undefined;
    if (note) this.progress(`${note}\n`);
  }

  private async readOperator(): Promise<void> {
    // absent or unreadable once said: not checked for the rest of the run
    if (this.operator.kind === 'healthy' || this.operator.kind === 'degraded') {
      const read = await this.client.operator(this.flags.clusterOperator);
      if (read.kind === 'healthy' || read.kind === 'degraded') this.operator = read;
    }
  }

  /** Starts a wave (patching what is not moving yet) and waits for it; a Stop, or undefined. */
  private async runWave(wave: WaveStep[], facts: CheckFacts): Promise<Stop | undefined> {
    await this.readOperator();
    const operatorAtStart = this.operator;
    if (operatorAtStart.kind === 'degraded') {
      this.progress(
        `ClusterOperator ${this.flags.clusterOperator} is Degraded before wave ${this.wave} (${operatorAtStart.message}): only a change of it is waited for.\n`,
      );
    }
    const inFlight: InFlight[] = [];
    for (const step of wave) {
      const started = await this.start(step.name, facts);
      if ('result' in started) return started;
      inFlight.push(started);
      this.moved.add(step.name);
      const row = this.rows.get(step.name)!;
      row.outcome = 'in-flight';
      row.since = started.since;
    }
    for (;;) {
      let fleet: Fleet;
      try {
        fleet = await readFleet(this.reader, this.flags);
        await this.readOperator();
      } catch (err) {
        if (!(err instanceof PluginError)) throw err;
        // the cluster may come back; the timeout still counts
        this.io.stderr.write(`error: ${err.message}\n`);
        if (await this.pause()) return { result: 'interrupted' };
        continue;
      }
      const now = this.now().getTime();
      const operator = operatorForWave(operatorAtStart, this.operator);
      const verdict = judgeWave(inFlight, fleet, this.target, operator, now, this.flags.timeoutMs);
      for (const member of inFlight) {
        const objects = objectsOf(fleet, member.name);
        const row = this.rows.get(member.name)!;
        if (objects) Object.assign(row, progressOf(objects, this.target));
        if (row.arrived && row.outcome === 'in-flight') {
          row.outcome = 'migrated';
          row.until = now;
        }
      }
      if (verdict.kind === 'failed') {
        const row = verdict.name === undefined ? undefined : this.rows.get(verdict.name);
        if (row) row.outcome = 'failed';
        this.show(verdict.message);
        return {
          result: 'failed',
          ...(verdict.name ? { name: verdict.name } : {}),
          message: verdict.message,
        };
      }
      this.show(verdict.kind === 'waiting' ? verdict.reason : undefined);
      if (verdict.kind === 'done') return undefined;
      if (await this.pause()) return { result: 'interrupted' };
    }
  }

  /** True when interrupted. */
  private async pause(): Promise<boolean> {
    try {
      const signal = this.io.signal;
      await sleep(this.io.refreshMs ?? REFRESH_MS, undefined, signal ? { signal } : {});
      return false;
    } catch {
      return true;
    }
  }

  /**
   * Reads the MachineSet again and, unless it already asks for the target, checks it and
   * patches spec.authoritativeAPI; returns what the wave waits for, or a Stop.
   */
  private async start(name: string, facts: CheckFacts): Promise<InFlight | Stop> {
    for (let attempt = 1; ; attempt++) {
      if (this.io.signal?.aborted) return { result: 'interrupted' };
      const fleet = await readFleet(this.reader, this.flags);
      const objects = objectsOf(fleet, name);
      if (!objects)
        return { result: 'failed', name, message: 'the MAPI MachineSet is gone (deleted)' };
      const phase = phaseOf(objects, this.target);
      const since = this.now().getTime();
      const member = { name, since, machines: machineSnapshot(objects) };
      if (phase === 'moving' || phase === 'done') return member;
      if (phase === 'pending') {
        // what the plan checked may have changed since (an earlier wave took a while)
        const { blocking } = reportMachineSet(objects.mapi, withAutoscalers(facts, fleet));
        if (blocking.length > 0) {
          this.blocking.set(name, blocking);
          return {
            result: 'failed',
            name,
            message: `cannot migrate any more: ${blocking.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
          };
        }
      }
      try {
        await this.client.setAuthority(
          this.flags.namespace,
          name,
          objects.mapi.metadata.resourceVersion ?? '',
          this.target,
        );
        this.progress(
          `${this.now().toISOString().slice(11, 19)} ${name} (wave ${this.wave}/${this.plan?.waves.length ?? 0}): spec.authoritativeAPI set to ${this.target}\n`,
        );
        return member;
      } catch (err) {
        if (!(err instanceof PatchError)) throw err;
        if (!err.conflict || attempt >= PATCH_ATTEMPTS)
          return { result: 'failed', name, message: err.message };
      }
    }
  }

  /** The table redrawn on a terminal; elsewhere a line per MachineSet whose state changed. */
  private show(reason: string | undefined): void {
    const now = this.now();
    const rows = [...this.rows.values()];
    const waves = this.plan?.waves.length ?? 0;
    if (this.io.stdout.isTTY === true && !this.flags.json) {
      const header = headerLine(this.target, this.wave, waves, now);
      this.io.stdout.write(
        CLEAR_SCREEN + header + progressTable(rows, now) + (reason ? `\n${reason}\n` : ''),
      );
      return;
    }
    for (const row of rows) {
      if (row.wave !== this.wave) continue;
      const key = progressKey(row);
      if (this.shown.get(row.name) === key) continue;
      this.shown.set(row.name, key);
      this.progress(progressLine(row, this.target, waves, now));
    }
  }

  private finish(stop: Stop | undefined): number {
    const result: Result = stop?.result ?? 'done';
    const now = this.now();
    const resume = commandLine(this.program, this.flags);
    const back = this.wayBack();
    if (this.flags.json) {
      this.io.stdout.write(this.document(result, stop));
    } else {
      this.io.stdout.write(summaryText([...this.rows.values()], this.target, result, now));
    }
    if (stop?.result === 'failed') {
      this.io.stderr.write(`error: ${stop.name ? `${stop.name}: ` : ''}${stop.message}\n`);
    } else if (stop?.result === 'interrupted') {
      this.io.stderr.write('Interrupted.\n');
    }
    if (stop && !this.flags.json) this.io.stdout.write(nextText(resume, back, this.target));
    return stop ? 1 : 0;
  }

  /**
   * The command that takes back what this run moved, by name: a MachineSet that was on the
   * target before the run stays there. Undefined when the run moved nothing.
   */
  private wayBack(): string | undefined {
    if (this.moved.size === 0) return undefined;
    const names = [...this.moved].sort();
    const flags = { ...this.flags, selection: { kind: 'names' as const, names } };
    return commandLine(this.program, flags, !this.flags.rollback);
  }

  private document(result: Result, stop?: Stop): string {
    const now = this.now().getTime();
    const back = this.wayBack();
    const operator = this.operator;
    const document: MigrateDocument = {
      target: this.target,
      rollback: this.flags.rollback,
      dryRun: this.flags.dryRun,
      result,
      waves: this.plan?.waves ?? [],
      machineSets: [...this.rows.values()].map((row) =>
        documentRow(row, now, this.blocking.get(row.name)),
      ),
      clusterOperator: {
        name: this.flags.clusterOperator,
        state: operator.kind,
        ...('message' in operator ? { message: operator.message } : {}),
      },
      ...(stop?.result === 'failed'
        ? { failure: { ...(stop.name ? { machineSet: stop.name } : {}), message: stop.message } }
        : {}),
      ...(stop
        ? {
            next: {
              resume: commandLine(this.program, this.flags),
              ...(back ? { rollback: back } : {}),
            },
          }
        : {}),
    };
    return `${JSON.stringify(document, null, 2)}\n`;
  }
}

/** Runs `migrate` with the arguments after the word; resolves with the exit code. */
export async function runMigrate(argv: string[], io: MigrateIO): Promise<number> {
  const program = io.program ?? `oc ${PLUGIN_NAME}`;
  let flags: MigrateFlags | 'help';
  try {
    flags = parseMigrateArgs(argv);
  } catch (err) {
    if (!(err instanceof PluginUsageError)) throw err;
    io.stderr.write(`error: ${err.message}\nSee '${program} migrate --help' for usage.\n`);
    return 2;
  }
  if (flags === 'help') {
    io.stdout.write(MIGRATE_USAGE);
    return 0;
  }
  let created: ClusterReader | undefined;
  try {
    let { client, reader } = io;
    if (!client || !reader) {
      const kubeConfig = loadKubeConfig(flags, io.env, io.home);
      client ??= migrateClient(kubeConfig);
      reader ??= created = clusterReader(kubeConfig);
    }
    return await new Run(flags, io, reader, client).run();
  } catch (err) {
    if (!(err instanceof PluginError)) throw err;
    io.stderr.write(`error: ${err.message}\n`);
    return 1;
  } finally {
    // Its keep-alive sockets would keep the process running.
    created?.close();
  }
}
