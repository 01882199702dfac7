// The plugin's tables as text, kubectl-style: upper-case headers, columns three spaces apart,
// ages as kubectl prints them. Pure: the time is given.
import { NONE, type MachineRow, type MachineSetRow } from './rows.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;

/** `value` whole units, and the remainder in smaller ones unless it is zero (`2m5s`, `3h`). */
function twoUnits(ms: number, big: number, bigName: string, small: number, smallName: string) {
  const whole = Math.floor(ms / big);
  const rest = Math.floor((ms % big) / small);
  return rest === 0 ? `${whole}${bigName}` : `${whole}${bigName}${rest}${smallName}`;
}

/**
 * How long ago `since` was, with the precision kubectl's AGE column uses: seconds up to 2
 * minutes, then minutes (with seconds below 10 minutes), hours (with minutes below 8 hours),
 * days (with hours below 8 days), years (with days below 8 years). A time up to a second in
 * the future reads as `0s` (clocks differ); further is `<invalid>`; no time is `-`.
 */
export function formatAge(since: string | undefined, now: Date): string {
  if (!since) return NONE;
  const then = Date.parse(since);
  if (Number.isNaN(then)) return NONE;
  const ms = now.getTime() - then;
  // Whole seconds towards zero, as a duration is truncated.
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (ms < 2 * MINUTE) return `${seconds}s`;
  if (ms < 10 * MINUTE) return twoUnits(ms, MINUTE, 'm', SECOND, 's');
  if (ms < 3 * HOUR) return `${Math.floor(ms / MINUTE)}m`;
  if (ms < 8 * HOUR) return twoUnits(ms, HOUR, 'h', MINUTE, 'm');
  if (ms < 48 * HOUR) return `${Math.floor(ms / HOUR)}h`;
  if (ms < 8 * DAY) return twoUnits(ms, DAY, 'd', HOUR, 'h');
  if (ms < 2 * YEAR) return `${Math.floor(ms / DAY)}d`;
  if (ms < 8 * YEAR) return twoUnits(ms, YEAR, 'y', DAY, 'd');
  return `${Math.floor(ms / YEAR)}y`;
}

/** Left-aligned columns, three spaces apart; the last column is not padded. */
export function renderTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('   ')
      .trimEnd();
  return [headers, ...rows].map(line).join('\n') + '\n';
}

interface Column<Row> {
  header: string;
  cell: (row: Row, now: Date) => string;
  wide?: boolean;
}

function render<Row>(columns: Column<Row>[], rows: Row[], now: Date, wide: boolean): string {
  const shown = columns.filter((c) => wide || !c.wide);
  return renderTable(
    shown.map((c) => c.header),
    rows.map((row) => shown.map((c) => c.cell(row, now))),
  );
}

const MACHINE_SET_COLUMNS: Column<MachineSetRow>[] = [
  { header: 'NAME', cell: (r) => r.name },
  { header: 'AUTHORITY', cell: (r) => r.authority },
  { header: 'SYNCHRONIZED', cell: (r) => r.synchronized },
  { header: 'AGE', cell: (r, now) => formatAge(r.synchronizedSince, now) },
  { header: 'GENERATION', cell: (r) => r.generation },
  { header: 'MIRROR', cell: (r) => r.mirror },
  { header: 'PAUSED', cell: (r) => r.paused },
  { header: 'TEMPLATE', cell: (r) => r.template },
  { header: 'REPLICAS', cell: (r) => r.replicas },
  { header: 'STEP', cell: (r) => r.step },
  { header: 'MESSAGE', cell: (r) => r.message, wide: true },
];

const MACHINE_COLUMNS: Column<MachineRow>[] = [
  { header: 'NAME', cell: (r) => r.name },
  { header: 'MACHINESET', cell: (r) => r.machineSet },
  { header: 'AUTHORITY', cell: (r) => r.authority },
  { header: 'SYNCHRONIZED', cell: (r) => r.synchronized },
  { header: 'AGE', cell: (r, now) => formatAge(r.synchronizedSince, now), wide: true },
  { header: 'GENERATION', cell: (r) => r.generation, wide: true },
  { header: 'PHASE', cell: (r) => r.phase },
  { header: 'PROVIDERID', cell: (r) => r.providerID },
  { header: 'PAUSED', cell: (r) => r.paused },
  { header: 'STEP', cell: (r) => r.step, wide: true },
  { header: 'MESSAGE', cell: (r) => r.message, wide: true },
];

export function machineSetTable(rows: MachineSetRow[], now: Date, wide = false): string {
  return render(MACHINE_SET_COLUMNS, rows, now, wide);
}

export function machineTable(rows: MachineRow[], now: Date, wide = false): string {
  return render(MACHINE_COLUMNS, rows, now, wide);
}
