// The results of a side-by-side run, as JSON and as a table with the ratios to the floor. Pure.
import type { Phase } from './cli.js';
import type { WriteCounts } from './metrics.js';

export interface PhaseResult {
  /** Wall-clock seconds until the phase's end condition held. */
  seconds: number;
  /** The subject's writes as kube-apiserver counted them, by verb and resource. */
  writes: WriteCounts;
  writesPerMachineSet: number;
  /** CPU seconds (user + system) of the subject's process during the phase. */
  cpuSeconds: number;
  /** The process's peak resident set size at the end of the phase, MiB; undefined when no process ran. */
  peakRssMiB?: number;
  /** CPU seconds of kube-apiserver and of etcd during the phase (what serving the subject cost). */
  apiServerCpuSeconds?: number;
  etcdCpuSeconds?: number;
  /**
   * Idle only: CPU seconds of each of its minutes. The first follows the work and catches V8's
   * memory reducer (full collections some seconds after the last allocation); the second is
   * what the process costs while nothing happens.
   */
  cpuSecondsByMinute?: number[];
  /** Idle only: the resident set at the end, MiB (after the memory reducer). */
  endRssMiB?: number;
}

export interface SubjectResult {
  /** 'ours' or 'floor'. */
  subject: string;
  /** What ran, e.g. `node dist/main.js --workers 2`. */
  label: string;
  phases: Partial<Record<Phase, PhaseResult>>;
}

export interface BenchResults {
  machineSets: number;
  workers: number;
  floorConcurrency: number;
  startedAt: string;
  /** The host, for a reader comparing two result files. */
  cpus: number;
  runs: SubjectResult[];
}

/** `ours / floor`, or undefined when there is nothing to divide by. */
export function ratio(ours: number | undefined, floor: number | undefined): number | undefined {
  if (ours === undefined || floor === undefined || floor === 0) return undefined;
  return ours / floor;
}

interface Row {
  label: string;
  value: (phase: PhaseResult, machineSets: number) => number | undefined;
  digits: number;
}

const ROWS: Row[] = [
  { label: 'seconds', value: (p) => p.seconds, digits: 1 },
  { label: 'writes per MachineSet', value: (p) => p.writesPerMachineSet, digits: 2 },
  { label: 'CPU s', value: (p) => p.cpuSeconds, digits: 2 },
  { label: 'CPU ms per MachineSet', value: (p, n) => (p.cpuSeconds * 1000) / n, digits: 1 },
  { label: 'peak RSS, MiB', value: (p) => p.peakRssMiB, digits: 0 },
  { label: 'API server CPU s', value: (p) => p.apiServerCpuSeconds, digits: 2 },
  { label: 'etcd CPU s', value: (p) => p.etcdCpuSeconds, digits: 2 },
  { label: 'API server CPU ms per write', value: apiServerMsPerWrite, digits: 2 },
];

/** On two cores the API server is the limit: what each write cost it (reads and watches included). */
function apiServerMsPerWrite(phase: PhaseResult): number | undefined {
  const writes = Object.values(phase.writes).reduce((sum, n) => sum + n, 0);
  if (phase.apiServerCpuSeconds === undefined || writes === 0) return undefined;
  return (phase.apiServerCpuSeconds * 1000) / writes;
}

function format(value: number | undefined, digits: number): string {
  return value === undefined ? '—' : value.toFixed(digits);
}

function formatRatio(value: number | undefined): string {
  return value === undefined ? '—' : `${value.toFixed(2)}×`;
}

/** One line per phase and figure: ours, the floor, ours / floor. */
export function renderTable(results: BenchResults, phases: readonly Phase[]): string {
  const ours = results.runs.find((r) => r.subject === 'ours');
  const floor = results.runs.find((r) => r.subject === 'floor');
  const header = ['phase', 'figure', 'ours', 'floor', 'ours / floor'];
  const lines: string[][] = [];
  for (const phase of phases) {
    const o = ours?.phases[phase];
    const f = floor?.phases[phase];
    if (!o && !f) continue;
    for (const row of ROWS) {
      const ov = o && row.value(o, results.machineSets);
      const fv = f && row.value(f, results.machineSets);
      lines.push([
        phase,
        row.label,
        format(ov, row.digits),
        format(fv, row.digits),
        formatRatio(ratio(ov, fv)),
      ]);
    }
    if (phase === 'idle' && o) {
      lines.push([phase, 'CPU s per minute', format(perMinute(o), 2), '—', '—']);
      o.cpuSecondsByMinute?.forEach((cpu, i) => {
        // minute 1 follows the work; see PhaseResult.cpuSecondsByMinute
        lines.push([phase, `CPU s, minute ${i + 1}`, format(cpu, 2), '—', '—']);
      });
      if (o.endRssMiB !== undefined) {
        lines.push([phase, 'RSS at the end, MiB', format(o.endRssMiB, 0), '—', '—']);
      }
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]?.length ?? 0)));
  const render = (cells: string[]) =>
    cells
      .map((cell, i) => (i < 2 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const title =
    `${results.machineSets} MachineSets; ours: ${ours?.label ?? '—'}; ` +
    `floor: ${floor?.label ?? '—'}`;
  return [
    title,
    render(header),
    render(widths.map((w) => '-'.repeat(w))),
    ...lines.map(render),
  ].join('\n');
}

/** CPU seconds per minute of a phase (for idle). */
export function perMinute(phase: PhaseResult): number | undefined {
  return phase.seconds > 0 ? (phase.cpuSeconds * 60) / phase.seconds : undefined;
}

/** The writes of every phase, by verb and resource, for a reader who wants to know which ones. */
export function renderWrites(results: BenchResults, phases: readonly Phase[]): string {
  const lines: string[] = [];
  for (const run of results.runs) {
    for (const phase of phases) {
      const result = run.phases[phase];
      if (!result) continue;
      const entries = Object.entries(result.writes);
      const text =
        entries.length === 0 ? 'none' : entries.map(([key, n]) => `${key} ${n}`).join(', ');
      lines.push(`${run.subject.padEnd(5)} ${phase.padEnd(8)} ${text}`);
    }
  }
  return lines.join('\n');
}
