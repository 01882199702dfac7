// CAPI MachineSet + infrastructure machine template → the MAPI MachineSet's spec, when Cluster API
// is authoritative. Pure. The platform converter turns the template back into a providerSpec;
// this module does everything that is the same on every platform. What Cluster API cannot
// express is kept from the current MAPI MachineSet, so that a round trip loses nothing.
import type {
  CapiMachineSet,
  Infrastructure,
  MachineTemplate,
  MapiMachineSet,
} from '../../api/types.js';
import { ConversionReport, isJsonObject, type JsonObject } from '../common/field-reader.js';
import { quote, shorten } from '../common/quote.js';
import type { Conversion, PlatformConverter } from '../types.js';
import { readCapiMachineSet, type CapiMachineSetInput } from './capi-input.js';
import { INFRASTRUCTURE_GROUP } from '../../model/api-groups.js';
import { readMachineSet } from './input.js';
import { existingObject, putMap } from '../common/json-edit.js';
import { checkKeptSelector } from './kept-selector.js';
import { isControlPlane } from '../common/metadata.js';
import { machineSetMetadataToMapi, type MachineSetMetadata } from '../common/to-mapi-metadata.js';
import {
  currentSpec,
  machinePartsToMapi,
  providerSpecToMapi,
  putMachineSpec,
} from '../common/to-mapi-machine.js';

export interface ReverseInput {
  /** The authoritative CAPI MachineSet (read as any JSON). */
  capi: CapiMachineSet;
  /** The template its infrastructureRef names; undefined when it was not found. */
  template: MachineTemplate | undefined;
  /** The MAPI MachineSet as it is now (the mirror). */
  mapi: MapiMachineSet;
  infrastructure: Infrastructure;
  converter: PlatformConverter;
}

const REF_PATH = 'spec.template.spec.infrastructureRef';

/** The MAPI MachineSet's spec, labels and annotations that mirror a CAPI MachineSet. */
export interface MapiMachineSetMirror extends MachineSetMetadata {
  spec: Record<string, unknown>;
}

/**
 * The full MAPI MachineSet spec, with its own labels and annotations, that mirrors `capi`, or
 * every field error found, each on a field of the CAPI MachineSet or of its template
 * (`<Kind> <name> spec.template.spec…`). Never throws.
 */
export function machineSetToMapi(input: ReverseInput): Conversion<MapiMachineSetMirror> {
  const { infrastructure } = input;
  const report = new ConversionReport();
  const capi = readCapiMachineSet(
    input.capi,
    infrastructure.status?.infrastructureName ?? '',
    report,
  );
  // The current MAPI MachineSet is only a guide: its own problems are not this conversion's.
  const current = readMachineSet(input.mapi, new ConversionReport());
  const spec = currentSpec(input.mapi);

  const machineSpec = existingObject(existingObject(spec, 'template') ?? {}, 'spec') ?? {};
  const parts = machinePartsToMapi(capi.template, current.template, machineSpec, report);
  checkKeptSelector(current.selector, parts.labels.machine, report);
  const controlPlane = isControlPlane(Object.fromEntries(parts.labels.machine));
  const providerSpec = convertTemplate(
    input,
    capi,
    current.template.providerSpec.value,
    controlPlane,
    report,
  );
  if (report.errors.length > 0 || !providerSpec?.ok) {
    return { ok: false, errors: report.errors };
  }

  spec.replicas = capi.replicas ?? 1;
  putNumber(spec, 'minReadySeconds', capi.template.minReadySeconds ?? 0);
  const order = capi.deletionOrder ?? 'Random';
  if (order !== 'Random' || (current.deletePolicy ?? 'Random') !== 'Random') {
    spec.deletePolicy = order;
  }
  putMap(spec, ['template', 'metadata', 'labels'], parts.labels.machine);
  putMap(spec, ['template', 'metadata', 'annotations'], parts.annotations.machine);
  const template = putMachineSpec(spec, ['template', 'spec'], parts, providerSpec.value);
  // The machines this MachineSet creates belong to Cluster API, which is authoritative.
  template.authoritativeAPI = 'ClusterAPI';
  const metadata = machineSetMetadataToMapi(
    capi,
    { labels: current.labels, annotations: current.annotations },
    report,
  );
  return {
    ok: true,
    value: { spec, ...metadata },
    warnings: [...report.warnings, ...providerSpec.warnings],
  };
}

/** MAPI's int32 fields with `omitempty`: 0 and absent mean the same, and absent stays absent. */
function putNumber(spec: JsonObject, key: string, value: number): void {
  if (value === 0 && (spec[key] === undefined || spec[key] === null)) return;
  spec[key] = value;
}

/** The providerSpec from the template, or undefined after reporting why there is none. */
function convertTemplate(
  input: ReverseInput,
  capi: CapiMachineSetInput,
  current: unknown,
  controlPlane: boolean,
  report: ConversionReport,
) {
  const { converter, template, infrastructure } = input;
  const expected = converter.template.kind;
  const { apiGroup, kind, name } = capi.template.infrastructureRef;
  if (apiGroup !== undefined && apiGroup !== INFRASTRUCTURE_GROUP) {
    report.error(
      `${REF_PATH}.apiGroup`,
      `is ${quote(apiGroup)}, but machine templates are in ${INFRASTRUCTURE_GROUP}; point the ` +
        `MachineSet at ${withArticle(expected)}.`,
    );
    return undefined;
  }
  if (kind !== expected) {
    report.error(
      `${REF_PATH}.kind`,
      `${kind === undefined ? 'is required' : `is ${shorten(kind)}`}, but this cluster runs on ` +
        `${converter.platform}, whose Machine API machines can only be described by ` +
        `${withArticle(expected)}; point the MachineSet at one.`,
    );
    return undefined;
  }
  if (name === undefined) return undefined;
  if (template === undefined) {
    report.error(
      `${REF_PATH}.name`,
      `names the ${expected} ${quote(name)}, which does not exist in the MachineSet's ` +
        `namespace; create it or point the MachineSet at an existing ${expected}.`,
    );
    return undefined;
  }
  const templateKind: unknown = isJsonObject(template) ? template.kind : undefined;
  if (templateKind !== expected) {
    report.error(
      `${REF_PATH}.name`,
      `names ${quote(name)}, which is ${typeof templateKind === 'string' ? `a ${shorten(templateKind)}` : 'not a machine template'}, ` +
        `not ${withArticle(expected)}; point the MachineSet at ${withArticle(expected)}.`,
    );
    return undefined;
  }
  const path = `${expected} ${shorten(name)} spec.template.spec`;
  if (!converter.toMapi) {
    report.error(
      path,
      `cannot be converted to a Machine API providerSpec: this version converts ` +
        `${converter.platform} machine templates only from Machine API to Cluster API; keep ` +
        `Machine API authoritative for this MachineSet until it can.`,
    );
    return undefined;
  }
  const spec: unknown =
    isJsonObject(template.spec) && isJsonObject(template.spec.template)
      ? template.spec.template.spec
      : undefined;
  const context = { infrastructure, path, current, controlPlane };
  return providerSpecToMapi(converter.toMapi, spec, capi.template, context, report);
}

function withArticle(word: string): string {
  return `${/^[AEIOU]/i.test(word) ? 'an' : 'a'} ${word}`;
}
