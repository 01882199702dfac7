import { expect } from 'chai';
import { BenchUsageError, parseBenchArgs, parseChartArgs } from '../../../hack/bench/cli.js';

const NOW = new Date('2026-01-02T03:04:05.678Z');

describe('bench command line', () => {
  it('defaults to the sync scenario: 1000 MachineSets, 8 workers, every phase, a temp file', () => {
    const options = parseBenchArgs([], NOW);
    expect(options).to.include({
      scenario: 'sync',
      machineSets: 1000,
      workers: 8,
      floorConcurrency: 32,
    });
    expect(options).to.have.deep.property('phases', ['initial', 'rotation', 'idle', 'restart']);
    expect(options)
      .to.have.property('out')
      .that.match(/mapi-capi-sync-bench-2026-01-02T03-04-05-678Z\.json$/);
  });

  it('takes N, W, the floor’s concurrency, the phases (run in their own order) and the output path', () => {
    expect(
      parseBenchArgs([
        '--machinesets',
        '50',
        '--workers',
        '8',
        '--floor-concurrency',
        '16',
        '--phases',
        'idle,initial',
        '--out',
        'r.json',
      ]),
    ).to.deep.equal({
      scenario: 'sync',
      machineSets: 50,
      workers: 8,
      floorConcurrency: 16,
      phases: ['initial', 'idle'],
      out: 'r.json',
    });
  });

  it('keeps the machines scenario with its own defaults', () => {
    expect(parseBenchArgs(['--scenario', 'machines'])).to.deep.equal({
      scenario: 'machines',
      machineSets: 100,
      machines: 2,
      workers: 8,
      migrate: 50,
    });
    expect(
      parseBenchArgs([
        '--scenario',
        'machines',
        '--machinesets',
        '10',
        '--machines',
        '3',
        '--migrate',
        '0',
      ]),
    ).to.include({
      machineSets: 10,
      machines: 3,
      migrate: 0,
    });
  });

  for (const [args, message] of [
    [['--machinesets', '0'], '--machinesets: "0" is not a positive whole number'],
    [['--workers', 'two'], '--workers: "two" is not a positive whole number'],
    [['--phases', 'initial,warmup'], '--phases: unknown phase "warmup"'],
    [['--phases', 'rotation'], '--phases: "initial" is required'],
    [['--scenario', 'fast'], '--scenario: "fast" is neither sync nor machines'],
    [['--machines', '3'], '--machines applies to --scenario machines only'],
    [['--migrate', '5'], '--migrate applies to --scenario machines only'],
    [['--scenario', 'machines', '--migrate', 'all'], '--migrate: "all" is not a whole number'],
    [
      ['--scenario', 'machines', '--phases', 'initial'],
      '--phases applies to the sync scenario only',
    ],
    [['--bogus'], "Unknown option '--bogus'"],
  ] as const) {
    it(`refuses ${args.join(' ')} with a clear message`, () => {
      expect(() => parseBenchArgs([...args])).to.throw(BenchUsageError, message);
    });
  }

  it('answers --help', () => {
    expect(parseBenchArgs(['--help'])).to.equal('help');
  });
});

describe('bench:chart command line', () => {
  it('writes the SVG beside the results unless told where', () => {
    expect(parseChartArgs(['/x/results.json'])).to.deep.equal({
      results: '/x/results.json',
      out: '/x/results.svg',
    });
    expect(parseChartArgs(['r.json', '--out', 'c.svg'])).to.deep.equal({
      results: 'r.json',
      out: 'c.svg',
    });
  });

  it('needs exactly one results file', () => {
    expect(() => parseChartArgs([])).to.throw(BenchUsageError, 'expected exactly one results file');
    expect(() => parseChartArgs(['a.json', 'b.json'])).to.throw(BenchUsageError, 'got 2');
  });
});
