// Benchmarks: prints figures, asserts nothing (see docs/benchmarks.md).
//   npm run bench [-- --machinesets N] [--workers W] [--phases initial,rotation,idle,restart] [--out FILE]
//     our compiled controller and the write floor, each on a fresh control plane, side by side;
//   npm run bench -- --scenario machines [--machinesets N] [--machines M] [--workers W]
//     the controller in-process with Cluster API and machine-api-operator, Machines included.
import { writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { BENCH_USAGE, BenchUsageError, parseBenchArgs, type SyncBenchOptions } from './cli.js';
import { buildProgram, ControllerProcess } from './controller-process.js';
import { FloorProcess } from './floor-process.js';
import { runMachinesScenario } from './machines-scenario.js';
import { renderTable, renderWrites, type BenchResults } from './report.js';
import { CAPI_NAMESPACE, MAPI_NAMESPACE, runSubject } from './run.js';

async function runSideBySide(options: SyncBenchOptions): Promise<void> {
  const { machineSets, workers, floorConcurrency, phases } = options;
  buildProgram();
  const results: BenchResults = {
    machineSets,
    workers,
    floorConcurrency,
    startedAt: new Date().toISOString(),
    cpus: availableParallelism(),
    runs: [],
  };
  const namespaces = { mapiNamespace: MAPI_NAMESPACE, capiNamespace: CAPI_NAMESPACE };
  results.runs.push(
    await runSubject(
      machineSets,
      phases,
      ({ plane, logDir }) =>
        new ControllerProcess({
          kubeconfigPath: plane.identityKubeconfigPaths['mapi-capi-sync'],
          ...namespaces,
          workers,
          logDir,
        }),
    ),
  );
  results.runs.push(
    await runSubject(
      machineSets,
      phases,
      ({ plane, logDir }) =>
        new FloorProcess({
          kubeconfigPath: plane.identityKubeconfigPaths['mapi-capi-sync'],
          ...namespaces,
          concurrency: floorConcurrency,
          logDir,
        }),
    ),
  );
  await writeFile(options.out, JSON.stringify(results, null, 2) + '\n');
  console.log(renderTable(results, phases));
  console.log('\nwrites by verb and resource:');
  console.log(renderWrites(results, phases));
  console.log(`\nresults: ${options.out}`);
  console.log(`chart:   npm run bench:chart -- ${options.out}`);
}

let options: ReturnType<typeof parseBenchArgs>;
try {
  options = parseBenchArgs(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof BenchUsageError)) throw err;
  process.stderr.write(`bench: ${err.message}\n\n${BENCH_USAGE}`);
  process.exit(2);
}
if (options === 'help') {
  process.stdout.write(BENCH_USAGE);
} else if (options.scenario === 'machines') {
  await runMachinesScenario(options);
} else {
  await runSideBySide(options);
}
