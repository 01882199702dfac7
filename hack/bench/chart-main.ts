// Renders the results of `npm run bench` as an SVG chart:
//   npm run bench:chart -- RESULTS.json [--out chart.svg]
import { readFile, writeFile } from 'node:fs/promises';
import { readResults, renderChart } from './chart.js';
import { BenchUsageError, CHART_USAGE, parseChartArgs } from './cli.js';

async function main(): Promise<number> {
  let options: ReturnType<typeof parseChartArgs>;
  try {
    options = parseChartArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof BenchUsageError)) throw err;
    process.stderr.write(`bench:chart: ${err.message}\n\n${CHART_USAGE}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(CHART_USAGE);
    return 0;
  }
  let text: string;
  try {
    text = await readFile(options.results, 'utf8');
  } catch (err) {
    process.stderr.write(
      `bench:chart: cannot read ${options.results}: ${(err as Error).message}\n`,
    );
    return 1;
  }
  try {
    await writeFile(options.out, renderChart(readResults(text, options.results)));
  } catch (err) {
    process.stderr.write(`bench:chart: ${(err as Error).message}\n`);
    return 1;
  }
  console.log(options.out);
  return 0;
}

process.exitCode = await main();
