// What `migrate` prints: the plan, the refusal, the live table or progress lines, the summary,
// what to run next, and the JSON document. Pure: the time is given.
import { describeProblem } from '../check/render.js';
import type { Problem } from '../check/report.js';
import { formatAge, renderTable } from '../plugin/table.js';
import type { Authority } from './flags.js';
import type { Plan, WaveStep } from './plan.js';
import type { Progress } from './state.js';

/** What became of a MachineSet in this run. */
type Outcome =
  | 'migrated' // arrived during this run
  | 'already' // on the target before the run
  | 'skipped' // cannot migrate (--skip-blocked)
  | 'failed' // the run stopped on it
  | 'in-flight' // its wave was under way when the run stopped
  | 'not-started'; // a later wave

export interface Row extends Progress {
  /** 1-based; absent for MachineSets in no wave. */
  wave?: number;
  outcome: Outcome;
  /** When the run started waiting for it, and when it arrived (ms since the epoch). */
  since?: number;
  until?: number;
}

export type Result = 'done' | 'failed' | 'refused' | 'interrupted' | 'planned';

const INDENT = '    ';
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function problems(blocking: Problem[]): string[] {
  return blocking.map((p) => `${INDENT}blocking: ${describeProblem(p)}`);
}

function stepText(step: WaveStep, target: Authority): string {
  if (step.action === 'wait') return `already asked for ${target} (${step.from}): wait only`;
  const patch = `patch spec.authoritativeAPI: ${target} (a JSON patch testing the resourceVersion read)`;
  return step.action === 'cancel'
    ? `${step.from}: cancel the migration away from ${target}, ${patch}`
    : `${step.from}: ${patch}`;
}

/** The plan of --dry-run: each wave, in order, and what each of its steps writes. */
export function planText(plan: Plan, namespace: string): string {
  const count = plan.waves.reduce((n, w) => n + w.length, 0);
  const size = Math.max(0, ...plan.waves.map((w) => w.length));
  const lines = [
    count === 0
      ? `Nothing to migrate to ${plan.target} in ${namespace}.`
      : `Plan: ${plural(count, 'MachineSet')} of ${namespace} to ${plan.target} in ${plural(plan.waves.length, 'wave')} of at most ${size}.`,
  ];
  plan.waves.forEach((wave, i) => {
    lines.push(`wave ${i + 1}:`);
    const width = Math.max(...wave.map((s) => s.name.length));
    for (const step of wave)
      lines.push(`  ${step.name.padEnd(width)}   ${stepText(step, plan.target)}`);
    lines.push(
      `  then wait until each is on ${plan.target}, Synchronized=True at the new authority's generation, its Machines too, none created or deleted`,
    );
  });
  if (plan.done.length > 0) lines.push(`already on ${plan.target}: ${plan.done.join(', ')}`);
  if (plan.blocked.length > 0) {
    lines.push(plan.refused ? 'cannot migrate (the run is refused):' : 'skipped (cannot migrate):');
    for (const { name, blocking } of plan.blocked) lines.push(`  ${name}`, ...problems(blocking));
  }
  lines.push('Nothing was written (--dry-run).');
  return `${lines.join('\n')}\n`;
}

/** Why nothing was written: every MachineSet that cannot migrate, and every field in its way. */
export function refusalText(plan: Plan): string {
  const lines = [
    `error: ${plural(plan.blocked.length, 'MachineSet cannot', 'MachineSets cannot')} migrate to ${plan.target}; nothing was written:`,
  ];
  for (const { name, blocking } of plan.blocked) lines.push(`  ${name}`, ...problems(blocking));
  lines.push(
    'Fix what is named and run the command again, or add --skip-blocked to migrate the others.',
  );
  return `${lines.join('\n')}\n`;
}

const elapsed = (row: Row, now: Date): string =>
  row.since === undefined
    ? '-'
    : formatAge(new Date(row.since).toISOString(), row.until ? new Date(row.until) : now);

const machinesText = (row: Row) =>
  row.machines.total === 0 ? '0' : `${row.machines.onTarget}/${row.machines.total}`;

/** The live table: one row per MachineSet of the run. */
export function progressTable(rows: Row[], now: Date): string {
  return renderTable(
    ['MACHINESET', 'WAVE', 'AUTHORITY', 'STEP', 'MACHINES', 'SYNCHRONIZED', 'ELAPSED', 'STATE'],
    rows.map((r) => [
      r.name,
      r.wave === undefined ? '-' : String(r.wave),
      r.authority,
      r.step,
      machinesText(r),
      r.synchronized,
      elapsed(r, now),
      r.outcome,
    ]),
  );
}

/** What a progress line says, for telling when it changed. */
export const progressKey = (row: Row): string =>
  JSON.stringify([row.authority, row.step, row.machines, row.synchronized, row.outcome]);

/** One line per change, where no terminal redraws a table. */
export function progressLine(row: Row, target: Authority, waves: number, now: Date): string {
  const time = now.toISOString().slice(11, 19);
  const wave = row.wave === undefined ? '' : ` (wave ${row.wave}/${waves})`;
  const state =
    row.outcome === 'migrated'
      ? `on ${target}`
      : `${row.authority}, step ${row.step}, Synchronized ${row.synchronized}`;
  return `${time} ${row.name}${wave}: ${state}, Machines ${machinesText(row)} on ${target}, ${elapsed(row, now)}\n`;
}

export function headerLine(target: Authority, wave: number, waves: number, now: Date): string {
  return `migrating to ${target}: wave ${wave} of ${waves}, ${now.toISOString()}\n\n`;
}

/** The last lines: the table, the counts, and the failure if there was one. */
export function summaryText(rows: Row[], target: Authority, result: Result, now: Date): string {
  const count = (o: Outcome) => rows.filter((r) => r.outcome === o).length;
  const parts = [
    `${count('migrated')} migrated`,
    `${count('already')} already on ${target}`,
    ...(count('skipped') ? [`${count('skipped')} skipped`] : []),
    ...(count('failed') ? [`${count('failed')} failed`] : []),
    ...(count('in-flight') ? [`${count('in-flight')} in flight`] : []),
    ...(count('not-started') ? [`${count('not-started')} not started`] : []),
  ];
  const verdict = {
    done: `done: every selected MachineSet is on ${target}`,
    failed: 'stopped on a failure',
    interrupted: 'interrupted',
    refused: 'refused',
    planned: 'planned',
  }[result];
  return `\n${progressTable(rows, now)}\n${plural(rows.length, 'MachineSet')}: ${parts.join(', ')}; ${verdict}.\n`;
}

/**
 * What to run next after a stop: the same command to resume, or the way back (undefined: the run
 * moved nothing).
 */
export function nextText(resume: string, back: string | undefined, target: Authority): string {
  return [
    'What has moved stays where it is. Next:',
    `  to continue:   ${resume}`,
    back
      ? `  to go back:    ${back}`
      : `  to go back:    nothing to do: this run moved no MachineSet to ${target}`,
    ...(back
      ? [`(the way back moves, by name, the MachineSets this run moved to ${target}, and no other)`]
      : []),
    '',
  ].join('\n');
}

/** The document of -o json. */
export interface MigrateDocument {
  target: Authority;
  rollback: boolean;
  dryRun: boolean;
  result: Result;
  waves: WaveStep[][];
  machineSets: {
    name: string;
    outcome: Outcome;
    wave?: number;
    authority: string;
    step: string;
    synchronized: string;
    machines: { onTarget: number; total: number };
    elapsedSeconds?: number;
    blocking?: Problem[];
  }[];
  clusterOperator: { name: string; state: string; message?: string };
  failure?: { machineSet?: string; message: string };
  /** `rollback` is absent when the run moved nothing. */
  next?: { resume: string; rollback?: string };
}

export function documentRow(row: Row, now: number, blocking?: Problem[]) {
  const end = row.until ?? now;
  return {
    name: row.name,
    outcome: row.outcome,
    ...(row.wave !== undefined ? { wave: row.wave } : {}),
    authority: row.authority,
    step: row.step,
    synchronized: row.synchronized,
    machines: row.machines,
    ...(row.since !== undefined ? { elapsedSeconds: Math.round((end - row.since) / 1000) } : {}),
    ...(blocking && blocking.length > 0 ? { blocking } : {}),
  };
}
