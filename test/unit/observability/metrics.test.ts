import { expect } from 'chai';
import perfHooks from 'node:perf_hooks';
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

  it('samples the event loop once a second, not 100 times as prom-client does by default', () => {
    // Every sample of an idle event loop is a wake-up: at 10 ms, some half a CPU second a minute.
    const original = perfHooks.monitorEventLoopDelay;
    const resolutions: (number | undefined)[] = [];
    perfHooks.monitorEventLoopDelay = (options) => {
      resolutions.push(options?.resolution);
      return original(options);
    };
    try {
      new Metrics(() => []);
    } finally {
      perfHooks.monitorEventLoopDelay = original;
    }
    expect(resolutions).to.deep.equal([1000]);
  });
});
