import { expect } from 'chai';
import {
  parseCpuTicks,
  parsePeakRss,
  parseRss,
  readProcessUsage,
} from '../../../hack/bench/process-usage.js';

describe('process usage from /proc', () => {
  it('adds utime and stime, also when the command name holds spaces and parentheses', () => {
    const stat =
      '4242 (node (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 11 0 900 1000 2000';
    expect(parseCpuTicks(stat)).to.equal(325);
  });

  it('reads VmHWM in bytes', () => {
    expect(
      parsePeakRss('Name:\tnode\nVmPeak:\t  9000 kB\nVmHWM:\t  102400 kB\nVmRSS:\t 90000 kB\n'),
    ).to.equal(100 * 1024 * 1024);
    expect(() => parsePeakRss('Name:\tnode\n')).to.throw('no VmHWM');
    expect(parseRss('VmHWM:\t  102400 kB\nVmRSS:\t 90000 kB\n')).to.equal(90000 * 1024);
  });

  it('reads this very process', () => {
    const usage = readProcessUsage(process.pid);
    expect(usage?.peakRssBytes).to.be.greaterThan(1024 * 1024);
    expect(usage?.rssBytes).to.be.within(1024 * 1024, usage?.peakRssBytes ?? 0);
    expect(usage?.cpuSeconds).to.be.greaterThan(0);
  });
});
