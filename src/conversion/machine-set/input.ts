// Reads the MAPI MachineSet around the providerSpec from whatever JSON it is. Every field of
// the wrong type becomes a field error, never an exception; a field below one of the wrong type
// is not read (its parent's error says it all), while a missing parent reads as empty, so that
// what is required below it is still reported.
import { type ConversionReport, type MapEntry, ObjectReader } from '../common/field-reader.js';
import { shorten } from '../common/quote.js';
import {
  emptyMapiMachine,
  type MapiMachineInput,
  readMapiMachineSpec,
} from '../common/mapi-machine-spec.js';
import { type MetadataMaps, readMetadataMaps } from '../common/object-metadata.js';

interface ExpressionInput {
  key?: string;
  operator?: string;
  /** Absent values read as an empty list. */
  values: string[];
  /** e.g. `spec.selector.matchExpressions[0]` */
  path: string;
}

export interface SelectorInput {
  matchLabels: MapEntry[];
  matchExpressions: ExpressionInput[];
}

export interface MachineSetInput extends MetadataMaps {
  name?: string;
  /** The owners, named for a message, e.g. `MachineDeployment web`. */
  owners: string[];
  replicas?: number;
  minReadySeconds?: number;
  deletePolicy?: string;
  /** Undefined when missing (reported as required) or unreadable. */
  selector?: SelectorInput;
  /** The machines it makes: `spec.template`. */
  template: MapiMachineInput;
  /** False when some template or node label could not be read: the labels are incomplete. */
  templateLabelsRead: boolean;
}

const MAX_INT32 = 2 ** 31 - 1;
/** Fields of a MAPI ObjectMeta that no machine controller reads and CAPI has no place for. */
const UNUSED_METADATA = ['name', 'generateName', 'namespace', 'ownerReferences'];

export function readMachineSet(mapi: unknown, report: ConversionReport): MachineSetInput {
  const root = ObjectReader.root(mapi, report);
  const input: MachineSetInput = {
    labels: [],
    annotations: [],
    owners: [],
    template: emptyMapiMachine(),
    templateLabelsRead: false,
  };

  const metadata = root.objectOrEmpty('metadata');
  if (metadata) readMetadata(metadata, input);

  const spec = root.objectOrEmpty('spec');
  if (!spec) return input;
  input.replicas = count(spec, 'replicas');
  input.minReadySeconds = count(spec, 'minReadySeconds');
  input.deletePolicy = spec.string('deletePolicy');
  if (spec.raw('selector') === undefined) {
    report.error(
      spec.pathOf('selector'),
      'is required; set matchLabels that select the machines of this MachineSet and that ' +
        'spec.template.metadata.labels also sets, e.g. machine.openshift.io/cluster-api-machineset: <name>.',
    );
  } else {
    input.selector = readSelector(spec);
  }

  const template = spec.objectOrEmpty('template');
  if (!template) return input;
  const templateMetadata = template.objectOrEmpty('metadata');
  const labelsRead =
    templateMetadata !== undefined && readMetadataMaps(templateMetadata, input.template);
  if (templateMetadata) warnUnused(templateMetadata);
  const machineSpec = template.objectOrEmpty('spec');
  if (!machineSpec) return input;
  const nodeLabelsRead = readMapiMachineSpec(machineSpec, input.template, warnUnused);
  input.templateLabelsRead = labelsRead && nodeLabelsRead;
  return input;
}

function readMetadata(metadata: ObjectReader, input: MachineSetInput): void {
  input.name = metadata.requiredString('name', 'every MachineSet has a name.');
  readMetadataMaps(metadata, input);
  const owners = metadata.objects('ownerReferences') ?? [];
  input.owners = owners.map((owner) => {
    const kind = owner.string('kind') ?? 'an object';
    const name = owner.string('name') ?? '';
    return shorten(`${kind} ${name}`.trim());
  });
}

/** A non-negative int32, as Cluster API's replicas and minReadySeconds are. */
function count(spec: ObjectReader, key: string): number | undefined {
  const value = spec.integer(key);
  if (value === undefined) return undefined;
  if (value < 0) {
    spec.report.error(
      spec.pathOf(key),
      `is ${value}, but must be 0 or more; Cluster API refuses a negative ${key}.`,
    );
    return undefined;
  }
  if (value > MAX_INT32) {
    spec.report.error(
      spec.pathOf(key),
      `is ${value}, but must be at most ${MAX_INT32}; Cluster API stores ${key} as a 32-bit integer.`,
    );
    return undefined;
  }
  return value;
}

function readSelector(spec: ObjectReader): SelectorInput | undefined {
  const before = spec.report.errors.length;
  const selector = spec.object('selector');
  if (!selector) return undefined;
  const matchLabels = selector.stringMap('matchLabels');
  const expressions = selector.objects('matchExpressions');
  const matchExpressions = (expressions ?? []).map((expression): ExpressionInput => ({
    key: expression.string('key', { keepEmpty: true }),
    operator: expression.string('operator', { keepEmpty: true }),
    values: expression.strings('values') ?? [],
    path: expression.path,
  }));
  // A selector that cannot be read whole is not checked any further: its errors say enough.
  if (selector.report.errors.length > before) return undefined;
  return { matchLabels: matchLabels ?? [], matchExpressions };
}

function warnUnused(metadata: ObjectReader): void {
  const set = UNUSED_METADATA.filter((key) => {
    const value = metadata.raw(key);
    return value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);
  });
  for (const key of set) {
    metadata.report.warn(
      `${metadata.pathOf(key)} is not used by Machine API and has no place in a Cluster API ` +
        `MachineSet, so it is not converted.`,
    );
  }
}
