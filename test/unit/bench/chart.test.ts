import { expect } from 'chai';
import { escapeXml, readResults, renderChart } from '../../../hack/bench/chart.js';
import { RESULTS } from './sample-results.js';

describe('bench chart', () => {
  it('draws a bar per subject, phase and figure, with its value', () => {
    const svg = renderChart(RESULTS);
    expect(svg).to.match(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg.trimEnd()).to.match(/<\/svg>$/);
    // 4 panels × 2 phases × 2 subjects, less the floor's missing idle RSS, plus the 2 legend swatches
    // and the background
    expect(svg.match(/<rect /g)).to.have.length(4 * 2 * 2 - 1 + 2 + 1);
    expect(svg).to.include('<title>ours, initial: 7.00</title>');
    expect(svg).to.include('<title>floor, initial: 5.00</title>');
    for (const title of ['seconds', 'writes per MachineSet', 'CPU seconds', 'peak RSS, MiB']) {
      expect(svg).to.include(`class="title">${title}</text>`);
    }
  });

  it('scales the tallest bar of a panel to the panel', () => {
    const svg = renderChart(RESULTS);
    const height = (title: string) =>
      Number(new RegExp(`height="([\\d.]+)" fill="[^"]+"><title>${title}</title>`).exec(svg)?.[1]);
    expect(height('ours, initial: 12.0')).to.be.greaterThan(height('floor, initial: 8.0'));
    expect(height('ours, initial: 12.0') / height('floor, initial: 8.0')).to.be.closeTo(1.5, 0.01);
  });

  it('escapes text', () => {
    expect(escapeXml('a<b & "c">')).to.equal('a&lt;b &amp; &quot;c&quot;&gt;');
  });

  it('answers a wrong results file with the field at fault', () => {
    expect(() => readResults('{', 'r.json')).to.throw('r.json: not JSON');
    expect(() => readResults('{"runs": []}', 'r.json')).to.throw(
      'r.json: machineSets: expected a number',
    );
    expect(() => readResults('{"machineSets": 1, "runs": [{}]}', 'r.json')).to.throw(
      'r.json: runs[0].subject: expected a string',
    );
    expect(readResults(JSON.stringify(RESULTS), 'r.json')).to.deep.equal(RESULTS);
  });
});
