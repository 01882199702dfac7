// Command lines of `npm run bench` and `npm run bench:chart`. Pure: argv in, options or a
// BenchUsageError (naming the flag) out.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_WORKERS } from '../../src/options.js';

export const PHASES = ['initial', 'rotation', 'idle', 'restart'] as const;
export type Phase = (typeof PHASES)[number];

/** The side-by-side run: our compiled controller and the floor script, each on its own control plane. */
export interface SyncBenchOptions {
  scenario: 'sync';
  machineSets: number;
  workers: number;
  /** How many MachineSets the floor script writes for at a time. */
  floorConcurrency: number;
  /** In run order; always starts with initial. */
  phases: Phase[];
  out: string;
}

/** N MachineSets of M Machines, our controller next to Cluster API and machine-api-operator. */
export interface MachinesBenchOptions {
  scenario: 'machines';
  machineSets: number;
  machines: number;
  workers: number;
  /** Machines of the MachineSet migrated to Cluster API at the end; 0: no migration. */
  migrate: number;
}

export type BenchOptions = SyncBenchOptions | MachinesBenchOptions;

export interface ChartOptions {
  results: string;
  out: string;
}

export class BenchUsageError extends Error {}

/**
 * Enough writes in flight to keep the API server busy on two cores (see docs/benchmarks.md):
 * the floor is then what the API server can take, not how patient the script is.
 */
const DEFAULT_FLOOR_CONCURRENCY = 32;

/** Machines of the MachineSet the machines scenario migrates: a large MachineSet's share. */
const DEFAULT_MIGRATE = 50;

export const BENCH_USAGE = `usage: npm run bench [-- --machinesets N] [--workers W] [--floor-concurrency C] [--phases initial,rotation,idle,restart] [--out RESULTS.json]
       npm run bench -- --scenario machines [--machinesets N] [--machines M] [--workers W] [--migrate K]
  --scenario sync|machines  sync (default): our controller and the write floor side by side;
                            machines: our controller next to Cluster API and machine-api-operator
  --machinesets N           MachineSets to create (default: 1000; machines scenario: 100)
  --machines M              Machines per MachineSet, machines scenario only (default: 2)
  --migrate K               machines scenario: then migrate a MachineSet of K Machines to Cluster API
                            (default: ${DEFAULT_MIGRATE}; 0: none)
  --workers W               the controller's --workers (default: the program's, ${DEFAULT_WORKERS})
  --floor-concurrency C     MachineSets the floor script writes for at a time (default ${DEFAULT_FLOOR_CONCURRENCY})
  --phases LIST             comma-separated, in this order: ${PHASES.join(',')} (default: all; initial is required)
  --out PATH                where the results go as JSON (default: in the OS temp dir)
`;

export const CHART_USAGE = `usage: npm run bench:chart -- RESULTS.json [--out chart.svg]
`;

function wholeNumber(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value))
    throw new BenchUsageError(`--${flag}: "${value}" is not a whole number`);
  return Number(value);
}

function positiveInteger(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new BenchUsageError(`--${flag}: "${value}" is not a positive whole number`);
  }
  return Number(value);
}

function parsePhases(value: string | undefined): Phase[] {
  if (value === undefined) return [...PHASES];
  const named = value.split(',').map((p) => p.trim());
  const unknown = named.filter((p) => !(PHASES as readonly string[]).includes(p));
  if (unknown.length > 0) {
    throw new BenchUsageError(
      `--phases: unknown phase ${unknown.map((p) => `"${p}"`).join(', ')}; phases are ${PHASES.join(', ')}`,
    );
  }
  if (!named.includes('initial')) {
    throw new BenchUsageError(
      '--phases: "initial" is required (every other phase starts from synced MachineSets)',
    );
  }
  // Always run in the one order that makes sense, whatever order they were named in.
  return PHASES.filter((p) => named.includes(p));
}

/** Runs node's parseArgs, turning its complaints into usage errors. */
function parsing<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    throw new BenchUsageError((err as Error).message, { cause: err });
  }
}

/** `npm run bench` arguments; `now` names the default results file. */
export function parseBenchArgs(argv: string[], now: Date = new Date()): BenchOptions | 'help' {
  const { values } = parsing(() =>
    parseArgs({
      args: argv,
      strict: true,
      options: {
        scenario: { type: 'string', default: 'sync' },
        machinesets: { type: 'string' },
        machines: { type: 'string' },
        migrate: { type: 'string' },
        workers: { type: 'string' },
        'floor-concurrency': { type: 'string' },
        phases: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }),
  );
  const text = (key: keyof typeof values): string | undefined => {
    const value = values[key];
    return typeof value === 'string' ? value : undefined;
  };
  if (values.help === true) return 'help';
  const scenario = text('scenario');
  if (scenario === 'machines') {
    for (const flag of ['phases', 'out', 'floor-concurrency'] as const) {
      if (text(flag) !== undefined) {
        throw new BenchUsageError(`--${flag} applies to the sync scenario only`);
      }
    }
    return {
      scenario,
      machineSets: positiveInteger('machinesets', text('machinesets'), 100),
      machines: positiveInteger('machines', text('machines'), 2),
      workers: positiveInteger('workers', text('workers'), DEFAULT_WORKERS),
      migrate: wholeNumber('migrate', text('migrate'), DEFAULT_MIGRATE),
    };
  }
  if (scenario !== 'sync') {
    throw new BenchUsageError(`--scenario: "${scenario}" is neither sync nor machines`);
  }
  for (const flag of ['machines', 'migrate'] as const) {
    if (text(flag) !== undefined) {
      throw new BenchUsageError(`--${flag} applies to --scenario machines only`);
    }
  }
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return {
    scenario,
    machineSets: positiveInteger('machinesets', text('machinesets'), 1000),
    workers: positiveInteger('workers', text('workers'), DEFAULT_WORKERS),
    floorConcurrency: positiveInteger(
      'floor-concurrency',
      text('floor-concurrency'),
      DEFAULT_FLOOR_CONCURRENCY,
    ),
    phases: parsePhases(text('phases')),
    out: text('out') ?? join(tmpdir(), `mapi-capi-sync-bench-${stamp}.json`),
  };
}

/** `npm run bench:chart` arguments: the results file, and where the SVG goes (default beside it). */
export function parseChartArgs(argv: string[]): ChartOptions | 'help' {
  const { values, positionals } = parsing(() =>
    parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }),
  );
  if (values.help === true) return 'help';
  if (positionals.length !== 1 || !positionals[0]) {
    throw new BenchUsageError(
      `expected exactly one results file (the JSON npm run bench wrote), got ${positionals.length}`,
    );
  }
  const results = positionals[0];
  const out =
    typeof values.out === 'string' ? values.out : results.replace(/(\.json)?$/, '') + '.svg';
  return { results, out };
}
