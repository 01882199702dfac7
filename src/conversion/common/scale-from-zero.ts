// The cluster autoscaler's scale-from-zero annotations on a MachineSet: what one machine brings,
// so that the autoscaler can grow a MachineSet that has none. Machine API's providers write them
// in OpenShift's spelling (`machine.openshift.io/vCPU`, …); Cluster API's autoscaler reads the
// upstream one (`capacity.cluster-autoscaler.kubernetes.io/cpu`, …). A MachineSet gets, in each
// direction, the other spelling of every one it has in one spelling only; one it has in both is
// copied as it is, like any other annotation.
import type { ConversionReport, MapEntry } from './field-reader.js';
import { quote } from './quote.js';

const CAPACITY = 'capacity.cluster-autoscaler.kubernetes.io/';

interface Spelling {
  mapi: string;
  capi: string;
  /** The value in the other spelling, or undefined when there is none. */
  toCapi(value: string): string | undefined;
  toMapi(value: string): string | undefined;
  /** What a value must be to have the other spelling, completing "is not …". */
  expected: { toCapi: string; toMapi: string };
}

const WHOLE = /^(0|[1-9][0-9]*)$/;
const whole = (value: string) => (WHOLE.test(value) ? value : undefined);
const COUNT = { toCapi: 'a whole number', toMapi: 'a whole number' };

const MIB = 1024n * 1024n;
/** Byte multipliers of the quantity suffixes a memory size is written with. */
const MULTIPLIERS: ReadonlyMap<string, bigint> = new Map([
  ['', 1n],
  ['k', 10n ** 3n],
  ['M', 10n ** 6n],
  ['G', 10n ** 9n],
  ['T', 10n ** 12n],
  ['P', 10n ** 15n],
  ['E', 10n ** 18n],
  ['Ki', 1024n],
  ['Mi', MIB],
  ['Gi', MIB * 1024n],
  ['Ti', MIB * 1024n ** 2n],
  ['Pi', MIB * 1024n ** 3n],
  ['Ei', MIB * 1024n ** 4n],
]);
const MEMORY = /^([0-9]+)(?:\.([0-9]+))?(|[kMGTPE]|[KMGTPE]i)$/;

/**
 * A memory quantity in whole MiB, rounded down: the autoscaler must never expect more memory
 * than a machine brings.
 */
function quantityToMib(value: string): string | undefined {
  const match = MEMORY.exec(value);
  if (match === null) return undefined;
  const [, integer = '', fraction = '', suffix = ''] = match;
  const multiplier = MULTIPLIERS.get(suffix);
  if (multiplier === undefined) return undefined;
  const bytes = (BigInt(integer + fraction) * multiplier) / 10n ** BigInt(fraction.length);
  return String(bytes / MIB);
}

export const SCALE_FROM_ZERO_SPELLINGS: readonly Spelling[] = [
  {
    mapi: 'machine.openshift.io/vCPU',
    capi: `${CAPACITY}cpu`,
    toCapi: whole,
    toMapi: whole,
    expected: COUNT,
  },
  {
    mapi: 'machine.openshift.io/memoryMb',
    capi: `${CAPACITY}memory`,
    toCapi: (value) => (WHOLE.test(value) ? `${value}Mi` : undefined),
    toMapi: quantityToMib,
    expected: {
      toCapi: 'a whole number of MiB',
      toMapi: 'a memory size such as 16Gi or 16384Mi',
    },
  },
  {
    mapi: 'machine.openshift.io/GPU',
    capi: `${CAPACITY}gpu-count`,
    toCapi: whole,
    toMapi: whole,
    expected: COUNT,
  },
  {
    mapi: 'machine.openshift.io/maxPods',
    capi: `${CAPACITY}maxPods`,
    toCapi: whole,
    toMapi: whole,
    expected: COUNT,
  },
];

/**
 * The upstream spelling of every scale-from-zero annotation of a MAPI MachineSet that has only
 * OpenShift's, each with the path of the annotation it comes from. A value that has no upstream
 * spelling is a warning: the annotation itself is still copied.
 */
export function scaleFromZeroToCapi(
  mapi: readonly MapEntry[],
  report: ConversionReport,
): MapEntry[] {
  return otherSpellings(mapi, 'toCapi', report);
}

/**
 * A CAPI MachineSet's annotations as the MAPI MachineSet gets them: with OpenShift's spelling of
 * every scale-from-zero annotation that has only the upstream one, unless the MAPI MachineSet
 * itself has only the upstream one; and without an upstream one that is exactly what
 * `scaleFromZeroToCapi` adds, unless the MAPI MachineSet has it itself. So MAPI → CAPI → MAPI
 * gives its annotations back; CAPI → MAPI → CAPI adds OpenShift's spelling once.
 */
export function scaleFromZeroToMapi(
  capi: readonly MapEntry[],
  currentMapi: readonly MapEntry[],
  report: ConversionReport,
): MapEntry[] {
  const values = new Map(capi.map((entry) => [entry.key, entry.value]));
  const mapiHas = new Set(currentMapi.map((entry) => entry.key));
  const addedForward = (entry: MapEntry) =>
    SCALE_FROM_ZERO_SPELLINGS.some((s) => {
      if (entry.key !== s.capi || mapiHas.has(s.capi)) return false;
      const mapiValue = values.get(s.mapi);
      return mapiValue !== undefined && s.toCapi(mapiValue) === entry.value;
    });
  const upstreamOnly = SCALE_FROM_ZERO_SPELLINGS.filter(
    (s) => mapiHas.has(s.capi) && !mapiHas.has(s.mapi),
  );
  return [
    ...capi.filter((entry) => !addedForward(entry)),
    ...otherSpellings(capi, 'toMapi', report, upstreamOnly),
  ];
}

function otherSpellings(
  entries: readonly MapEntry[],
  direction: 'toCapi' | 'toMapi',
  report: ConversionReport,
  skipped: readonly Spelling[] = [],
): MapEntry[] {
  const keys = new Set(entries.map((entry) => entry.key));
  const out: MapEntry[] = [];
  for (const spelling of SCALE_FROM_ZERO_SPELLINGS) {
    if (skipped.includes(spelling)) continue;
    const [from, to] =
      direction === 'toCapi' ? [spelling.mapi, spelling.capi] : [spelling.capi, spelling.mapi];
    const source = entries.find((entry) => entry.key === from);
    if (source === undefined || keys.has(to)) continue;
    const value = spelling[direction](source.value);
    if (value === undefined) {
      report.warn(
        `${source.path} is ${quote(source.value)}, not ${spelling.expected[direction]}, so the ` +
          `MachineSet gets no ${to} from it: an autoscaler that reads that spelling cannot ` +
          'scale it from zero until the value is corrected.',
      );
      continue;
    }
    out.push({ key: to, value, path: source.path });
  }
  return out;
}
