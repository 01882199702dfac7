// CAPG `guestAccelerators[]` → MAPI `gpus[]`. CAPG hands Compute Engine the accelerator type as
// written, a path such as zones/<zone>/acceleratorTypes/<type>; MAPI takes the type's name and
// builds that path in the machine's zone and project, so the path must name those.
import type { ObjectReader } from '../common/field-reader.js';
import { quote, shorten } from '../common/quote.js';
import { ACCELERATOR_TYPE, GPU_MACHINE_FAMILIES } from './scheduling.js';
import { KEEP_ON_CLUSTER_API } from './template-errors.js';

export interface MapiGpu {
  type: string;
  count: number;
}

export interface GpuContext {
  machineType?: string;
  /** The failure domain: the zone MAPI attaches the GPUs in. */
  zone?: string;
  /** The cluster's project. */
  projectID?: string;
}

const ACCELERATOR_PATH =
  /^(?:(?:https:\/\/(?:www|compute)\.googleapis\.com\/compute\/v1\/)?projects\/([^/]+)\/)?zones\/([^/]+)\/acceleratorTypes\/([^/]+)$/;
/** Machine API's admission webhook refuses this type: it comes only with a2 machine types. */
const A2_ONLY_ACCELERATOR = 'nvidia-tesla-a100';

/** The GPUs, or undefined when there are none or an error was recorded. */
export function gpusToMapi(spec: ObjectReader, context: GpuContext): MapiGpu[] | undefined {
  const { report } = spec;
  const accelerators = spec.objects('guestAccelerators');
  if (accelerators === undefined || accelerators.length === 0) return undefined;
  const errorsBefore = report.errors.length;
  const gpus = accelerators.flatMap((reader) => gpuToMapi(reader, context) ?? []);
  if (accelerators.length > 1) {
    report.error(
      spec.pathOf('guestAccelerators'),
      `lists ${accelerators.length} accelerator types, but Machine API attaches one GPU type to a ` +
        `machine; keep one entry ${KEEP_ON_CLUSTER_API}.`,
    );
  }
  const machineType = context.machineType;
  if (machineType !== undefined && GPU_MACHINE_FAMILIES.some((f) => machineType.startsWith(f))) {
    report.error(
      spec.pathOf('guestAccelerators'),
      `cannot be used with instanceType ${shorten(machineType)}, which comes with its GPUs ` +
        'attached, and Machine API refuses more; remove guestAccelerators.',
    );
  }
  return report.errors.length === errorsBefore ? gpus : undefined;
}

function gpuToMapi(reader: ObjectReader, context: GpuContext): MapiGpu | undefined {
  const { report } = reader;
  const typeErrorsBefore = report.errors.length;
  const path = reader.string('type');
  const typeInvalid = report.errors.length > typeErrorsBefore;
  const countErrorsBefore = report.errors.length;
  const count = reader.integer('count');
  const countInvalid = report.errors.length > countErrorsBefore;
  reader.finishToMachineApi();
  const type = path === undefined ? undefined : acceleratorName(reader, path, context);
  if (path === undefined && !typeInvalid) {
    report.error(
      reader.pathOf('type'),
      'is required; set the accelerator type, e.g. zones/<zone>/acceleratorTypes/nvidia-tesla-t4.',
    );
  }
  if (!countInvalid && (count === undefined || count < 1)) {
    report.error(
      reader.pathOf('count'),
      `${count === undefined ? 'is required' : `is ${count}`}; set the number of GPUs to attach (at least 1).`,
    );
  }
  return type === undefined || count === undefined || count < 1 ? undefined : { type, count };
}

/** The accelerator type's name, when the path names the machine's zone and project. */
function acceleratorName(
  reader: ObjectReader,
  path: string,
  context: GpuContext,
): string | undefined {
  const { report } = reader;
  const typePath = reader.pathOf('type');
  const parts = ACCELERATOR_PATH.exec(path);
  const [, project, zone, name] = parts ?? [];
  if (parts === null || name === undefined || zone === undefined) {
    report.error(
      typePath,
      `is ${quote(path)}, which is not an accelerator type path such as ` +
        'zones/<zone>/acceleratorTypes/nvidia-tesla-t4, and Compute Engine needs one; correct it.',
    );
    return undefined;
  }
  const problems: string[] = [];
  if (!ACCELERATOR_TYPE.test(name)) {
    problems.push(`names ${quote(name)}, which is not an accelerator type name; correct it.`);
  } else if (name === A2_ONLY_ACCELERATOR) {
    problems.push(
      `names ${A2_ONLY_ACCELERATOR}, which comes only with a2 machine types, and Machine API ` +
        'refuses it as a GPU; use an a2 machine type without guestAccelerators.',
    );
  }
  if (context.zone !== undefined && zone !== context.zone) {
    problems.push(
      `names the zone ${quote(zone)}, but the machines run in ${quote(context.zone)} (the ` +
        "failure domain) and Machine API attaches GPUs of the machine's zone; use " +
        `zones/${shorten(context.zone)}/acceleratorTypes/${shorten(name)}.`,
    );
  }
  if (project !== undefined && context.projectID !== undefined && project !== context.projectID) {
    problems.push(
      `names the project ${quote(project)}, but Machine API attaches GPUs of the cluster's ` +
        `project ${quote(context.projectID)}; use zones/${shorten(zone)}/acceleratorTypes/${shorten(name)}.`,
    );
  }
  for (const problem of problems) report.error(typePath, problem);
  return problems.length === 0 ? name : undefined;
}
