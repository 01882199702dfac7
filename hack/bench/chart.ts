// The results of a side-by-side run as an SVG: one panel per figure, a pair of bars (ours, the
// floor) per phase. Pure: results in, SVG text out.
import { PHASES } from './cli.js';
import type { BenchResults, PhaseResult } from './report.js';

interface Panel {
  title: string;
  value: (phase: PhaseResult) => number | undefined;
  digits: number;
}

const PANELS: Panel[] = [
  { title: 'seconds', value: (p) => p.seconds, digits: 1 },
  { title: 'writes per MachineSet', value: (p) => p.writesPerMachineSet, digits: 2 },
  { title: 'CPU seconds', value: (p) => p.cpuSeconds, digits: 1 },
  { title: 'peak RSS, MiB', value: (p) => p.peakRssMiB, digits: 0 },
];

const COLOURS: Record<string, string> = { ours: '#3b6fb6', floor: '#9a9a9a' };
const PANEL_WIDTH = 440;
const PANEL_HEIGHT = 260;
const MARGIN = { top: 40, right: 16, bottom: 40, left: 16 };
const HEADER = 56;

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function text(x: number, y: number, content: string, attrs = ''): string {
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}"${attrs ? ' ' + attrs : ''}>${escapeXml(content)}</text>`;
}

function renderPanel(
  results: BenchResults,
  panel: Panel,
  originX: number,
  originY: number,
): string {
  const phases = PHASES.filter((phase) => results.runs.some((r) => r.phases[phase]));
  const subjects = results.runs.map((r) => r.subject);
  const values = phases.flatMap((phase) => results.runs.map((r) => r.phases[phase]));
  const max = Math.max(0, ...values.map((p) => (p ? (panel.value(p) ?? 0) : 0)));
  const plotWidth = PANEL_WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = PANEL_HEIGHT - MARGIN.top - MARGIN.bottom;
  const baseline = originY + MARGIN.top + plotHeight;
  const groupWidth = plotWidth / Math.max(1, phases.length);
  const barWidth = Math.min(48, (groupWidth * 0.7) / Math.max(1, subjects.length));
  const parts = [
    text(
      originX + PANEL_WIDTH / 2,
      originY + 22,
      panel.title,
      'text-anchor="middle" class="title"',
    ),
    `<line x1="${originX + MARGIN.left}" y1="${baseline}" x2="${originX + MARGIN.left + plotWidth}" y2="${baseline}" class="axis"/>`,
  ];
  phases.forEach((phase, g) => {
    const groupX = originX + MARGIN.left + g * groupWidth;
    const barsX = groupX + (groupWidth - barWidth * subjects.length) / 2;
    results.runs.forEach((run, s) => {
      const result = run.phases[phase];
      const value = result && panel.value(result);
      const x = barsX + s * barWidth;
      if (value === undefined) {
        parts.push(text(x + barWidth / 2, baseline - 4, '—', 'text-anchor="middle"'));
        return;
      }
      const height = max > 0 ? (value / max) * (plotHeight - 16) : 0;
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${(baseline - height).toFixed(1)}" width="${(barWidth - 2).toFixed(1)}" height="${height.toFixed(1)}" fill="${COLOURS[run.subject] ?? '#c07030'}"><title>${escapeXml(`${run.subject}, ${phase}: ${value.toFixed(panel.digits)}`)}</title></rect>`,
        text(
          x + barWidth / 2 - 1,
          baseline - height - 4,
          value.toFixed(panel.digits),
          'text-anchor="middle" class="value"',
        ),
      );
    });
    parts.push(text(groupX + groupWidth / 2, baseline + 18, phase, 'text-anchor="middle"'));
  });
  return parts.join('\n');
}

/** The whole chart: a title, a legend and the panels two by two. */
export function renderChart(results: BenchResults): string {
  const columns = 2;
  const rows = Math.ceil(PANELS.length / columns);
  const width = PANEL_WIDTH * columns;
  const height = HEADER + PANEL_HEIGHT * rows;
  const ours = results.runs.find((r) => r.subject === 'ours');
  const title = `mapi-capi-sync bench: ${results.machineSets} MachineSets, ${results.workers} workers (floor: ${results.floorConcurrency} at a time), ${results.startedAt}`;
  const legend = results.runs.map((run, i) => {
    const x = 16 + i * 220;
    return [
      `<rect x="${x}" y="34" width="12" height="12" fill="${COLOURS[run.subject] ?? '#c07030'}"/>`,
      text(x + 18, 44, `${run.subject}: ${run.label}`),
    ].join('');
  });
  const panels = PANELS.map((panel, i) =>
    renderPanel(
      results,
      panel,
      (i % columns) * PANEL_WIDTH,
      HEADER + Math.floor(i / columns) * PANEL_HEIGHT,
    ),
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    '<style>.title{font-weight:bold;font-size:14px}.value{font-size:11px}.axis{stroke:#444}</style>',
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    text(16, 20, title, 'class="title"'),
    ...legend,
    ...panels,
    ours ? '' : text(16, height - 8, 'no run of ours in these results'),
    '</svg>',
    '',
  ].join('\n');
}

/** The results file, checked enough that a wrong file gets a clear answer rather than a crash. */
export function readResults(json: string, source: string): BenchResults {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (err) {
    throw new Error(`${source}: not JSON (${(err as Error).message})`, { cause: err });
  }
  const results = parsed as Partial<BenchResults> | null;
  if (typeof results !== 'object' || results === null) {
    throw new Error(`${source}: not an object`);
  }
  if (typeof results.machineSets !== 'number') {
    throw new Error(`${source}: machineSets: expected a number`);
  }
  if (!Array.isArray(results.runs)) throw new Error(`${source}: runs: expected a list`);
  results.runs.forEach((run, i) => {
    if (typeof run?.subject !== 'string') {
      throw new Error(`${source}: runs[${i}].subject: expected a string`);
    }
    if (typeof run.phases !== 'object' || run.phases === null) {
      throw new Error(`${source}: runs[${i}].phases: expected an object`);
    }
  });
  return results as BenchResults;
}
