// CAPI Machine + infrastructure machine → the MAPI Machine's spec, labels and annotations, when
// Cluster API is authoritative. Pure, never throws. The platform converter turns the
// infrastructure machine's spec (without the fields that identify the instance) back into a
// providerSpec; labels, annotations, hooks and taints are written as on a MachineSet's template
// (common/to-mapi-machine.ts). What Cluster API cannot express is kept from the current MAPI
// Machine, so a round trip loses nothing.
import type {
  CapiMachine,
  Infrastructure,
  InfrastructureMachine,
  MapiMachine,
} from '../../api/types.js';
import type { CapiMachineInput } from '../common/capi-machine-spec.js';
import {
  ConversionReport,
  describeValue,
  isJsonObject,
  type JsonObject,
} from '../common/field-reader.js';
import { quote, shorten } from '../common/quote.js';
import { INFRASTRUCTURE_GROUP } from '../../model/api-groups.js';
import { isControlPlane } from '../common/metadata.js';
import {
  currentSpec,
  machinePartsToMapi,
  providerSpecToMapi,
  putMachineSpec,
} from '../common/to-mapi-machine.js';
import type { Conversion, PlatformConverter } from '../types.js';
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
export function machineToMapi(input: MachineReverseInput): Conversion<MapiMachineMirror> {
  const report = new ConversionReport();
  const capi = readCapiMachine(
    input.capi,
    input.infrastructure.status?.infrastructureName ?? '',
    report,
  );
  // The current MAPI Machine is only a guide: its own problems are not this conversion's.
  const current = readMachine(input.mapi ?? {}, new ConversionReport());
  const spec = currentSpec(input.mapi);

  const parts = machinePartsToMapi(capi, current, spec, report);
  const labels = Object.fromEntries(parts.labels.machine);
  if (isControlPlane(labels)) {
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

  putMachineSpec(spec, [], parts, providerSpec.value);
  // A new mirror of a Cluster API machine: Cluster API stays authoritative for it.
  if (input.mapi === undefined) spec.authoritativeAPI = 'ClusterAPI';
  return {
    ok: true,
    value: { spec, labels, annotations: Object.fromEntries(parts.annotations.machine) },
    warnings: [...report.warnings, ...providerSpec.warnings],
  };
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
  const context = { infrastructure, path, current, controlPlane: false };
  return providerSpecToMapi(converter.toMapi, spec, capi, context, report);
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
