// CAPI Machine + infrastructure machine → the MAPI Machine's spec, labels and annotations, when
// Cluster API is authoritative. Pure, never throws. The platform converter turns the
// infrastructure machine's spec (without the fields that identify the instance) back into a
// providerSpec; labels, annotations, hooks and taints follow the MachineSet reverse rules. What
// Cluster API cannot express is kept from the current MAPI Machine, so a round trip loses nothing.
import type {
  CapiMachine,
  Infrastructure,
  InfrastructureMachine,
  MapiMachine,
} from '../../api/types.js';
import {
  ConversionReport,
  describeValue,
  isJsonObject,
  type JsonObject,
} from '../common/field-reader.js';
import { quote, shorten } from '../common/quote.js';
import { INFRASTRUCTURE_GROUP } from '../../model/api-groups.js';
import { objectAt, putList, putMap } from '../common/json-edit.js';
import { isControlPlane, PRE_DRAIN_HOOK, PRE_TERMINATE_HOOK } from '../common/metadata.js';
import { annotationsToMapi, hooksToMapi, labelsToMapi } from '../common/to-mapi-metadata.js';
import { currentMapiTaints, taintsToMapi } from '../common/taints.js';
import type { Conversion, PlatformConverter } from '../types.js';
import type { CapiMachineInput } from '../common/capi-machine-spec.js';
import { readCapiMachine } from './capi-input.js';
import { readMachine } from './input.js';

export interface MachineReverseInput {
  /** The authoritative CAPI Machine (read as any JSON). */
  capi: CapiMachine;
  /** The infrastructure machine its infrastructureRef names; undefined when it was not found. */
  infrastructureMachine: InfrastructureMachine | undefined;
  /** The MAPI Machine as it is now; undefined when the mirror is new. */
  mapi?: MapiMachine;
  infrastructure: Infrastructure;
  converter: PlatformConverter;
}

export interface MapiMachineMirror {
  spec: Record<string, unknown>;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

const REF_PATH = 'spec.infrastructureRef';
const OUT_OF_SCOPE =
  'control-plane machines are out of scope of the Machine sync: the ControlPlaneMachineSet ' +
  'operator manages them, and they stay on Machine API.';

/**
 * The MAPI Machine that mirrors `capi`, or every field error found, each on a field of the CAPI
 * Machine or of its infrastructure machine (`<Kind> <name> spec…`). Never throws.
 */
export function convertMachineToMapi(input: MachineReverseInput): Conversion<MapiMachineMirror> {
  const report = new ConversionReport();
  const capi = readCapiMachine(
    input.capi,
    input.infrastructure.status?.infrastructureName ?? '',
    report,
  );
  // The current MAPI Machine is only a guide: its own problems are not this conversion's.
  const current = readMachine(input.mapi ?? {}, new ConversionReport());
  const spec = currentSpec(input.mapi);

  const labels = labelsToMapi(capi.labels, { machine: current.labels, node: current.nodeLabels });
  const isHook = (key: string) =>
    key.startsWith(PRE_DRAIN_HOOK) || key.startsWith(PRE_TERMINATE_HOOK);
  const annotations = annotationsToMapi(
    capi.annotations.filter((entry) => !isHook(entry.key)),
    { machine: current.annotations, node: current.nodeAnnotations },
  );
  const preDrain = hooksToMapi(capi.annotations, PRE_DRAIN_HOOK, current.preDrainHooks, report);
  const preTerminate = hooksToMapi(
    capi.annotations,
    PRE_TERMINATE_HOOK,
    current.preTerminateHooks,
    report,
  );
  const taints = taintsToMapi(capi.taints, currentMapiTaints(spec.taints), report);
  if (isControlPlane(Object.fromEntries(labels.machine))) {
    report.error('metadata.labels', `mark a control-plane (master) machine: ${OUT_OF_SCOPE}`);
  }
  const providerSpec = convertInfrastructureMachine(
    input,
    capi,
    current.providerSpec.value,
    report,
  );
  if (report.errors.length > 0 || !providerSpec?.ok) {
    return { ok: false, errors: report.errors };
  }

  putMap(spec, ['metadata', 'labels'], labels.node);
  putMap(spec, ['metadata', 'annotations'], annotations.node);
  putList(spec, ['lifecycleHooks', 'preDrain'], preDrain);
  putList(spec, ['lifecycleHooks', 'preTerminate'], preTerminate);
  putList(spec, ['taints'], taints);
  if (capi.providerID !== undefined) spec.providerID = capi.providerID;
  objectAt(spec, 'providerSpec').value = providerSpec.value;
  // A new mirror of a Cluster API machine: Cluster API stays authoritative for it.
  if (input.mapi === undefined) spec.authoritativeAPI = 'ClusterAPI';
  return {
    ok: true,
    value: {
      spec,
      labels: Object.fromEntries(labels.machine),
      annotations: Object.fromEntries(annotations.machine),
    },
    warnings: [...report.warnings, ...providerSpec.warnings],
  };
}

/** A copy of the current MAPI spec, which the conversion overwrites field by field. */
function currentSpec(mapi: unknown): JsonObject {
  const spec = isJsonObject(mapi) ? mapi.spec : undefined;
  return isJsonObject(spec) ? structuredClone<JsonObject>(spec) : {};
}

/** The providerSpec from the infrastructure machine, or undefined after reporting why not. */
function convertInfrastructureMachine(
  input: MachineReverseInput,
  capi: CapiMachineInput,
  current: unknown,
  report: ConversionReport,
) {
  const { converter, infrastructureMachine, infrastructure } = input;
  const machineType = converter.machine;
  if (!machineType) {
    report.error(
      REF_PATH,
      `cannot be converted: this version knows no Cluster API infrastructure machine for ` +
        `${converter.platform}; keep the Machine on Machine API.`,
    );
    return undefined;
  }
  const expected = machineType.kind;
  const { apiGroup, kind, name } = capi.infrastructureRef;
  if (apiGroup !== undefined && apiGroup !== INFRASTRUCTURE_GROUP) {
    report.error(
      `${REF_PATH}.apiGroup`,
      `is ${quote(apiGroup)}, but infrastructure machines are in ${INFRASTRUCTURE_GROUP}; point ` +
        `the Machine at its ${expected}.`,
    );
    return undefined;
  }
  if (kind !== expected) {
    report.error(
      `${REF_PATH}.kind`,
      `${kind === undefined ? 'is required' : `is ${shorten(kind)}`}, but this cluster runs on ` +
        `${converter.platform}, whose Machine API machines can only be described by an ` +
        `${expected}; point the Machine at one.`,
    );
    return undefined;
  }
  if (name === undefined) return undefined;
  const actualName: unknown = infrastructureMachine?.metadata?.name;
  if (!isJsonObject(infrastructureMachine) || actualName !== name) {
    report.error(
      `${REF_PATH}.name`,
      `names the ${expected} ${quote(name)}, which does not exist in the Machine's namespace; ` +
        `create it or point the Machine at its ${expected}.`,
    );
    return undefined;
  }
  const actualKind: unknown = infrastructureMachine.kind;
  if (actualKind !== expected) {
    report.error(
      `${REF_PATH}.name`,
      `names ${quote(name)}, which is ${typeof actualKind === 'string' ? `a ${shorten(actualKind)}` : 'not an infrastructure machine'}, ` +
        `not an ${expected}; point the Machine at its ${expected}.`,
    );
    return undefined;
  }
  const path = `${expected} ${shorten(name)} spec`;
  if (!converter.toMapi) {
    report.error(
      path,
      `cannot be converted to a Machine API providerSpec: this version converts ` +
        `${converter.platform} machines only from Machine API to Cluster API; keep Machine API ` +
        `authoritative for this Machine until it can.`,
    );
    return undefined;
  }
  const spec = withoutIdentity(infrastructureMachine.spec, capi.providerID, input, path, report);
  if (spec === undefined) return undefined;
  const result = converter.toMapi(spec, {
    infrastructure,
    path,
    ...(capi.failureDomain !== undefined ? { failureDomain: capi.failureDomain } : {}),
    ...(capi.dataSecretName !== undefined ? { userDataSecretName: capi.dataSecretName } : {}),
    current,
    controlPlane: false,
  });
  if (!result.ok) report.errors.push(...result.errors);
  return result;
}

/**
 * The infrastructure machine's spec without the fields that tie it to its instance: they come
 * from the providerID, which the MAPI Machine keeps in `spec.providerID`, not in its providerSpec.
 * A value that disagrees with the Machine's providerID is an error: the two would name different
 * instances.
 */
function withoutIdentity(
  spec: unknown,
  providerID: string | undefined,
  input: MachineReverseInput,
  path: string,
  report: ConversionReport,
): unknown {
  if (!isJsonObject(spec) || providerID === undefined) return spec;
  const identity = input.converter.machine!.identity(providerID);
  if (!identity.ok) {
    report.errors.push(...identity.errors);
    return undefined;
  }
  const rest: JsonObject = { ...spec };
  let agrees = true;
  for (const [key, value] of Object.entries(identity.value)) {
    if (rest[key] !== undefined && rest[key] !== value) {
      report.error(
        `${path}.${key}`,
        `is ${describeValue(rest[key])}, but the Machine's spec.providerID ${quote(providerID)} ` +
          `gives ${quote(String(value))}: they name different instances; correct one of them.`,
      );
      agrees = false;
    }
    delete rest[key];
  }
  return agrees ? rest : undefined;
}
