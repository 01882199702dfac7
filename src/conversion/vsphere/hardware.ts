// MAPI → CAPI: the VM's size. Machine API leaves what the providerSpec does not set as the VM
// template has it; CAPV has defaults of its own instead (at least 2 vCPUs, 2048 MiB), so the
// vCPUs and memory must be set, and the machines keep their size.
import type { ConversionReport, ObjectReader } from '../common/field-reader.js';
import { CAPV_DEFAULT_MEMORY_MIB, CAPV_MIN_CPUS } from './names.js';

export interface Hardware {
  numCPUs: number;
  numCoresPerSocket?: number;
  memoryMiB: number;
  diskGiB?: number;
}

const INT32_MAX = 2 ** 31 - 1;

export function convertHardware(spec: ObjectReader): Hardware | undefined {
  const { report } = spec;
  const numCPUs = sizeField(spec, 'numCPUs', INT32_MAX);
  const numCoresPerSocket = sizeField(spec, 'numCoresPerSocket', INT32_MAX);
  const memoryMiB = sizeField(spec, 'memoryMiB', Number.MAX_SAFE_INTEGER);
  const diskGiB = sizeField(spec, 'diskGiB', INT32_MAX);
  checkCpus(spec, numCPUs, report);
  if (memoryMiB === 0) {
    report.error(
      spec.pathOf('memoryMiB'),
      'is not set, so Machine API gives each machine the memory of its VM template, while ' +
        `Cluster API's vSphere provider gives it ${CAPV_DEFAULT_MEMORY_MIB} MiB; set memoryMiB ` +
        "to the template's memory (the installer writes 16384).",
    );
  }
  if (numCPUs === undefined || numCPUs < CAPV_MIN_CPUS || !memoryMiB) {
    return undefined;
  }
  return {
    numCPUs,
    ...(numCoresPerSocket ? { numCoresPerSocket } : {}),
    memoryMiB,
    ...(diskGiB ? { diskGiB } : {}),
  };
}

function checkCpus(spec: ObjectReader, numCPUs: number | undefined, report: ConversionReport) {
  if (numCPUs === 0) {
    report.error(
      spec.pathOf('numCPUs'),
      'is not set, so Machine API gives each machine the vCPUs of its VM template, while Cluster ' +
        `API's vSphere provider gives it ${CAPV_MIN_CPUS}; set numCPUs to the template's count ` +
        '(the installer writes 4).',
    );
  } else if (numCPUs !== undefined && numCPUs < CAPV_MIN_CPUS) {
    report.error(
      spec.pathOf('numCPUs'),
      `is ${numCPUs}, but Cluster API's vSphere provider gives every machine at least ` +
        `${CAPV_MIN_CPUS} vCPUs, so its machines would differ; set numCPUs to ${CAPV_MIN_CPUS} ` +
        'or more.',
    );
  }
}

/** A whole number from 0 (unset) to `max`; undefined after an error. */
function sizeField(spec: ObjectReader, key: string, max: number): number | undefined {
  const errorsBefore = spec.report.errors.length;
  const value = spec.integer(key);
  if (spec.report.errors.length > errorsBefore) return undefined;
  if (value === undefined) return 0;
  if (value < 0 || value > max) {
    spec.report.error(
      spec.pathOf(key),
      `is ${value}, which is out of range; set a whole number from 1 to ${max}, or leave it unset.`,
    );
    return undefined;
  }
  return value;
}
