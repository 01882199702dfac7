import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { Metrics } from '../../../src/observability/metrics.js';

describe('Metrics', () => {
  it('serves the event loop delay series', async () => {
    const text = await new Metrics(() => []).registry.metrics();
    expect(text).to.include('nodejs_eventloop_lag_p99_seconds');
    expect(text).to.include('controller_runtime_reconcile_total');
  });

  it('counts reconciles per controller: MachineSets and Machines apart', async () => {
    const metrics = new Metrics(() => []);
    metrics.reconciled('machine-sync', 'success', 0.002);
    metrics.reconciled('machine-sync', 'error', 0.002);
    const text = await metrics.registry.metrics();
    const value = (series: string) =>
      text
        .split('\n')
        .find((line) => line.startsWith(`${series} `))
        ?.split(' ')[1];
    const total = (controller: string, result: string) =>
      value(`controller_runtime_reconcile_total{controller="${controller}",result="${result}"}`);
    expect(total('machine-sync', 'success')).to.equal('1');
    expect(total('machine-sync', 'error')).to.equal('1');
    expect(total('machineset-sync', 'success')).to.equal('0');
    expect(value('controller_runtime_reconcile_errors_total{controller="machine-sync"}')).to.equal(
      '1',
    );
    expect(
      value('controller_runtime_reconcile_errors_total{controller="machineset-sync"}'),
    ).to.equal('0');
  });

  it('does not keep waking an idle process to sample the event loop', async () => {
    new Metrics(() => []);
    // Every wake-up of an idle event loop is a voluntary context switch: with prom-client's
    // default 10 ms sampling, some 20 in each 200 ms. The quietest of a few windows leaves out
    // the process's own settling (compiler and collector threads, other tests' leftovers).
    const windows: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = process.resourceUsage().voluntaryContextSwitches;
      await sleep(200);
      windows.push(process.resourceUsage().voluntaryContextSwitches - before);
    }
    expect(Math.min(...windows), `context switches per 200 ms: ${windows.join(', ')}`).to.be.below(
      8,
    );
  });
});
