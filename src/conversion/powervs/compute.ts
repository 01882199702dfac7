// The size of a PowerVS machine: systemType, processorType, processors and memoryGiB. Machine
// API and CAPIBM both leave them optional, but with different defaults (MAPI: 0.5 or 1
// processors and 32 GiB; CAPIBM's webhook: 0.25 processors and 2 GiB), so every value is
// written out with Machine API's default: the machines keep their size, and CAPIBM's
// defaulting webhook finds nothing to change, so the stored template equals ours.
import { describeValue, type ConversionReport, type ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';

export type ProcessorType = 'Dedicated' | 'Shared' | 'Capped';

export interface PowerVsCompute {
  systemType: string;
  processorType: ProcessorType;
  /** An integer, or a decimal string such as "0.5", as written in the providerSpec. */
  processors: number | string;
  memoryGiB: number;
}

/** The system types IBMPowerVSMachineTemplate v1beta2 accepts (its CRD enum). */
export const SYSTEM_TYPES = ['s922', 'e980', 's1022', 'e1050', 'e1080', 's1122'] as const;
export const PROCESSOR_TYPES: readonly ProcessorType[] = ['Dedicated', 'Shared', 'Capped'];

/** Machine API's defaults (the machine webhook's), which differ from CAPIBM's. */
const DEFAULT_SYSTEM_TYPE = 's922';
const DEFAULT_PROCESSOR_TYPE: ProcessorType = 'Shared';
const DEFAULT_DEDICATED_PROCESSORS = 1;
const DEFAULT_SHARED_PROCESSORS = '0.5';
const DEFAULT_MEMORY_GIB = 32;

/** CAPIBM's webhook rejects less. */
const MIN_PROCESSORS = 0.25;
export const MIN_MEMORY_GIB = 2;
export const MAX_INT32 = 2 ** 31 - 1;
/** A plain unsigned decimal; Go's ParseFloat would also take forms like "1e3" or "Inf". */
const DECIMAL = /^(\d+(\.\d*)?|\.\d+)$/;

export function convertCompute(spec: ObjectReader, report: ConversionReport): PowerVsCompute {
  const processorType = convertProcessorType(spec, report);
  return {
    systemType: convertSystemType(spec, report),
    processorType,
    processors: convertProcessors(spec, processorType, report),
    memoryGiB: convertMemory(spec, report),
  };
}

/** Both Machine API and CAPIBM send the system type in lower case, so the case is not kept. */
function convertSystemType(spec: ObjectReader, report: ConversionReport): string {
  const systemType = spec.string('systemType');
  if (systemType === undefined) return DEFAULT_SYSTEM_TYPE;
  const lower = systemType.toLowerCase();
  if ((SYSTEM_TYPES as readonly string[]).includes(lower)) return lower;
  report.error(
    spec.pathOf('systemType'),
    `is ${quote(systemType)}, which Cluster API cannot create machines on; ` +
      `use one of ${SYSTEM_TYPES.join(', ')}.`,
  );
  return DEFAULT_SYSTEM_TYPE;
}

/** Both Machine API and CAPIBM send the processor type in lower case, so "shared" is Shared. */
function convertProcessorType(spec: ObjectReader, report: ConversionReport): ProcessorType {
  const processorType = spec.string('processorType');
  if (processorType === undefined) return DEFAULT_PROCESSOR_TYPE;
  const match = PROCESSOR_TYPES.find((t) => t.toLowerCase() === processorType.toLowerCase());
  if (match !== undefined) return match;
  report.error(
    spec.pathOf('processorType'),
    `is ${quote(processorType)}, which is not a PowerVS processor type; ` +
      `use one of ${PROCESSOR_TYPES.join(', ')}.`,
  );
  return DEFAULT_PROCESSOR_TYPE;
}

/**
 * Processors are an int-or-string: an integer, or a decimal number in a string. 0 and "" mean
 * "not set" (Go writes an unset int-or-string as 0), which Machine API defaults by processor type.
 */
function convertProcessors(
  spec: ObjectReader,
  processorType: ProcessorType,
  report: ConversionReport,
): number | string {
  const defaultValue =
    processorType === 'Dedicated' ? DEFAULT_DEDICATED_PROCESSORS : DEFAULT_SHARED_PROCESSORS;
  const value = spec.raw('processors');
  if (isUnsetProcessors(value)) return defaultValue;
  return checkProcessors(value, processorType, spec.pathOf('processors'), report)
    ? value
    : defaultValue;
}

/** The zero values Go writes for an unset int-or-string, or nothing at all. */
export function isUnsetProcessors(value: unknown): boolean {
  return value === undefined || value === 0 || value === '';
}

/**
 * Whether a set `value` is a number of processors both APIs take the same way; when not, the
 * problem is recorded at `path`. Both sides hold it as an int-or-string.
 */
export function checkProcessors(
  value: unknown,
  processorType: ProcessorType,
  path: string,
  report: ConversionReport,
): value is number | string {
  let amount: number;
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value > MAX_INT32) {
      report.error(
        path,
        `is ${describeValue(value)}, which Machine API cannot read: a number must be a whole ` +
          `32-bit integer; write fractional processors as a string, e.g. "0.5".`,
      );
      return false;
    }
    amount = value;
  } else if (typeof value === 'string') {
    if (!DECIMAL.test(value)) {
      report.error(
        path,
        `is ${describeValue(value)}, which is not a number of processors; ` +
          'write a positive decimal number such as "0.5" or "2".',
      );
      return false;
    }
    amount = Number(value);
  } else {
    report.error(
      path,
      `must be an integer or a string holding a decimal number, but is ${describeValue(value)}; ` +
        'write it like "0.5" or 2.',
    );
    return false;
  }
  if (amount < MIN_PROCESSORS) {
    report.error(
      path,
      `is ${quote(value)}, but Cluster API requires at least ${MIN_PROCESSORS} processors; ` +
        `raise it to ${MIN_PROCESSORS} or more, or remove it for the default.`,
    );
    return false;
  }
  if (processorType === 'Dedicated' && !Number.isInteger(amount)) {
    report.error(
      path,
      `is ${quote(value)}, but dedicated processors cannot be fractional; ` +
        'use a whole number, or set processorType to Shared or Capped.',
    );
    return false;
  }
  return true;
}

/** 0 means "not set" (memoryGiB is omitempty), which Machine API defaults to 32 GiB. */
function convertMemory(spec: ObjectReader, report: ConversionReport): number {
  const memoryGiB = spec.integer('memoryGiB');
  if (memoryGiB === undefined || memoryGiB === 0) return DEFAULT_MEMORY_GIB;
  if (memoryGiB < MIN_MEMORY_GIB || memoryGiB > MAX_INT32) {
    report.error(
      spec.pathOf('memoryGiB'),
      `is ${memoryGiB}, but Cluster API accepts ${MIN_MEMORY_GIB} to ${MAX_INT32} GiB; ` +
        `set the memory in GiB (at least ${MIN_MEMORY_GIB}), or remove it for the default of ${DEFAULT_MEMORY_GIB}.`,
    );
    return DEFAULT_MEMORY_GIB;
  }
  return memoryGiB;
}
