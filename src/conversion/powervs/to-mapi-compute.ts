// The machine size back to Machine API. A field the template leaves unset is what CAPIBM's
// defaulting webhook makes it (0.25 processors, 2 GiB, s922, Shared), written out explicitly:
// Machine API's own defaults are larger (0.5 or 1 processors, 32 GiB), so leaving it unset would
// change the size of the machines.
import { type ConversionReport, type ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';
import {
  checkProcessors,
  isUnsetProcessors,
  MAX_INT32,
  MIN_MEMORY_GIB,
  PROCESSOR_TYPES,
  SYSTEM_TYPES,
  type PowerVsCompute,
  type ProcessorType,
} from './compute.js';

/** CAPIBM's defaulting webhook's values for a template that leaves the size unset. */
const CAPIBM_DEFAULT_SYSTEM_TYPE = 's922';
const CAPIBM_DEFAULT_PROCESSOR_TYPE: ProcessorType = 'Shared';
const CAPIBM_DEFAULT_PROCESSORS = '0.25';
const CAPIBM_DEFAULT_MEMORY_GIB = 2;

/** The size, or undefined once every problem is recorded. */
export function computeToMapi(
  spec: ObjectReader,
  report: ConversionReport,
): PowerVsCompute | undefined {
  const errorsBefore = report.errors.length;
  const systemType = systemTypeToMapi(spec, report);
  // The CRD takes the processor types in their canonical case only.
  const processorType =
    spec.enumeration('processorType', PROCESSOR_TYPES) ?? CAPIBM_DEFAULT_PROCESSOR_TYPE;
  const compute: PowerVsCompute = {
    systemType,
    processorType,
    processors: processorsToMapi(spec, processorType, report),
    memoryGiB: memoryToMapi(spec, report),
  };
  return report.errors.length > errorsBefore ? undefined : compute;
}

/** The CRD takes the system types in lower case only, as Machine API's webhook writes them. */
function systemTypeToMapi(spec: ObjectReader, report: ConversionReport): string {
  const systemType = spec.string('systemType');
  if (systemType === undefined) return CAPIBM_DEFAULT_SYSTEM_TYPE;
  if ((SYSTEM_TYPES as readonly string[]).includes(systemType)) return systemType;
  report.error(
    spec.pathOf('systemType'),
    `is ${quote(systemType)}, which is not a system type of IBMPowerVSMachineTemplate; ` +
      `use one of ${SYSTEM_TYPES.join(', ')}.`,
  );
  return CAPIBM_DEFAULT_SYSTEM_TYPE;
}

function processorsToMapi(
  spec: ObjectReader,
  processorType: ProcessorType,
  report: ConversionReport,
): number | string {
  const value = spec.raw('processors');
  const path = spec.pathOf('processors');
  if (isUnsetProcessors(value)) {
    if (processorType === 'Dedicated') {
      report.error(
        path,
        `is not set, so Cluster API makes it ${CAPIBM_DEFAULT_PROCESSORS}, but dedicated ` +
          'processors cannot be fractional; set processors to a whole number.',
      );
    }
    return CAPIBM_DEFAULT_PROCESSORS;
  }
  return checkProcessors(value, processorType, path, report) ? value : CAPIBM_DEFAULT_PROCESSORS;
}

function memoryToMapi(spec: ObjectReader, report: ConversionReport): number {
  const memoryGiB = spec.integer('memoryGiB');
  if (memoryGiB === undefined || memoryGiB === 0) return CAPIBM_DEFAULT_MEMORY_GIB;
  if (memoryGiB < MIN_MEMORY_GIB || memoryGiB > MAX_INT32) {
    report.error(
      spec.pathOf('memoryGiB'),
      `is ${memoryGiB}, but Cluster API accepts ${MIN_MEMORY_GIB} to ${MAX_INT32} GiB; ` +
        `set the memory in GiB (at least ${MIN_MEMORY_GIB}).`,
    );
  }
  return memoryGiB;
}
