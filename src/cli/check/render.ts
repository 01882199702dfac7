// The reports as text: a table for people, YAML or JSON for tools. Pure.
import { dumpYaml } from '@kubernetes/client-node';
import type { OutputFormat } from './flags.js';
import { summarize, type MachineSetReport, type Problem, type Summary } from './report.js';

/** The structured form of `-o yaml` and `-o json`. */
export interface CheckDocument {
  readFrom: ReadFrom;
  summary: Summary;
  machineSets: MachineSetReport[];
  /** What concerns no one MachineSet (a MachineAutoscaler that names none, what was not read). */
  notes: string[];
}

/** Where the MachineSets were read: from files, their status may be stale and is not judged. */
export type ReadFrom = 'cluster' | 'files';

export function render(
  reports: MachineSetReport[],
  format: OutputFormat,
  readFrom: ReadFrom,
  notes: readonly string[] = [],
): string {
  if (format === 'table') return renderTable(reports, readFrom, notes);
  const document: CheckDocument = {
    readFrom,
    summary: summarize(reports),
    machineSets: reports,
    notes: [...notes],
  };
  if (format === 'json') return `${JSON.stringify(document, null, 2)}\n`;
  // No anchors (objects are plain copies anyway) and no folding: one message, one line.
  return dumpYaml(document, { noRefs: true, lineWidth: -1 });
}

const HEADERS = ['NAME', 'PLATFORM', 'MIRROR', 'MIGRATE'] as const;
const INDENT = '    ';
const FILES_NOTE =
  'Read from files: the migration gate (Synchronized at the current generation) is checked only when reading a cluster.';

/** One line per MachineSet, its blocking problems and warnings indented below, a summary. */
function renderTable(
  reports: MachineSetReport[],
  readFrom: ReadFrom,
  notes: readonly string[] = [],
): string {
  const rows = reports.map((r) => [
    r.namespace && hasNameClash(reports, r.name) ? `${r.namespace}/${r.name}` : r.name,
    r.platform ?? '-',
    yesNo(r.canMirror),
    yesNo(r.canMigrate),
  ]);
  const widths = HEADERS.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => row[i]?.length ?? 0)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd((widths[i] ?? 0) + 2)))
      .join('');
  const out: string[] = [];
  if (reports.length > 0) out.push(line(HEADERS));
  reports.forEach((report, i) => {
    out.push(line(rows[i] ?? []));
    for (const problem of report.blocking)
      out.push(`${INDENT}blocking: ${describeProblem(problem)}`);
    for (const warning of report.warnings) out.push(`${INDENT}warning: ${warning}`);
  });
  if (reports.length > 0) out.push('');
  out.push(summaryLine(summarize(reports)));
  if (readFrom === 'files' && reports.length > 0) out.push(FILES_NOTE);
  for (const note of notes) out.push(`note: ${note}`);
  return `${out.join('\n')}\n`;
}

/** e.g. "3 MachineSets: 2 can migrate, 1 cannot (1 cannot be mirrored)". */
function summaryLine({ machineSets, canMirror, canMigrate }: Summary): string {
  const noun = machineSets === 1 ? 'MachineSet' : 'MachineSets';
  if (machineSets === 0) return `0 MachineSets`;
  const cannot = machineSets - canMigrate;
  const unmirrored = machineSets - canMirror;
  const mirrorNote = unmirrored > 0 ? ` (${unmirrored} cannot be mirrored)` : '';
  return `${machineSets} ${noun}: ${canMigrate} can migrate, ${cannot} cannot${mirrorNote}`;
}

const STAGE_NOTE: Record<Problem['stage'], string> = {
  mirror: '',
  reverse: '(converting the mirror back to Machine API) ',
  migration: '(migration gate) ',
};

/** `(stage) path: message`, as the table shows a problem. */
export function describeProblem({ stage, path, message }: Problem): string {
  return `${STAGE_NOTE[stage]}${path}: ${message}`;
}

function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

/** Names are shown with their namespace only where they would be ambiguous. */
function hasNameClash(reports: MachineSetReport[], name: string): boolean {
  return reports.filter((r) => r.name === name).length > 1;
}
