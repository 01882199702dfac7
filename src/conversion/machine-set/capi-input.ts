// Reads an authoritative CAPI MachineSet (cluster.x-k8s.io/v1beta2, Cluster API v1.13) from
// whatever JSON it is, for the conversion to MAPI. Each field of the spec is mapped, dropped with a
// warning when MAPI machines behave the same without it, or reported when they would not; a field
// this code does not know is reported rather than dropped. Its machine template is read as a
// Machine is (common/capi-machine-spec.ts).
import { type ConversionReport, ObjectReader } from '../common/field-reader.js';
import { type MetadataMaps, readMetadataMaps } from '../common/object-metadata.js';
import { quote } from '../common/quote.js';
import {
  type CapiMachineInput,
  type CapiMachineRules,
  checkClusterName,
  emptyCapiMachine,
  readCapiMachineSpec,
} from '../common/capi-machine-spec.js';

export interface CapiMachineSetInput extends MetadataMaps {
  name?: string;
  replicas?: number;
  /** `spec.deletion.order`. */
  deletionOrder?: 'Random' | 'Newest' | 'Oldest';
  /** The machines it makes: `spec.template`. */
  template: CapiMachineInput;
}

const MAX_INT32 = 2 ** 31 - 1;
/** Cluster API's own default; Machine API names machines `<MachineSet name>-<5 characters>`. */
const DEFAULT_MACHINE_NAMING = '{{ .machineSet.name }}-{{ .random }}';

/** A MachineSet's template: every machine gets its own providerID; minReadySeconds is the set's. */
const TEMPLATE: CapiMachineRules = {
  kind: 'MachineSet',
  machines: 'machines',
  infrastructureRefHint: 'name the machine template of this MachineSet.',
  providerID: (spec) => {
    if (spec.string('providerID') !== undefined) {
      spec.report.error(
        spec.pathOf('providerID'),
        'must not be set on a MachineSet template: every machine gets its own; remove it.',
      );
    }
    return undefined;
  },
  minReadySeconds: (spec) => count(spec, 'minReadySeconds'),
};

/** `clusterName`: this cluster's Cluster API cluster (the Infrastructure's infrastructureName). */
export function readCapiMachineSet(
  capi: unknown,
  clusterName: string,
  report: ConversionReport,
): CapiMachineSetInput {
  const root = ObjectReader.root(capi, report);
  const input: CapiMachineSetInput = { labels: [], annotations: [], template: emptyCapiMachine() };
  const metadata = root.objectOrEmpty('metadata');
  if (metadata) {
    input.name = metadata.string('name');
    readMetadataMaps(metadata, input);
  }

  const spec = root.objectOrEmpty('spec');
  if (!spec) return input;
  checkClusterName(spec, clusterName);
  input.replicas = count(spec, 'replicas');
  spec.raw('selector'); // The MAPI selector is kept: see to-mapi.ts.
  const deletion = spec.object('deletion');
  input.deletionOrder = deletion?.enumeration('order', ['Random', 'Newest', 'Oldest']);
  deletion?.finishToMachineApi();
  const naming = spec.object('machineNaming');
  const namingTemplate = naming?.string('template');
  naming?.finishToMachineApi();
  if (namingTemplate !== undefined && namingTemplate !== DEFAULT_MACHINE_NAMING) {
    report.warn(
      `${spec.pathOf('machineNaming')}.template ${quote(namingTemplate)} is not converted: ` +
        `Machine API names every machine after its MachineSet with 5 random characters.`,
    );
  }

  const template = spec.objectOrEmpty('template');
  const templateMetadata = template?.objectOrEmpty('metadata');
  if (templateMetadata) {
    readMetadataMaps(templateMetadata, input.template);
    templateMetadata.finishToMachineApi();
  }
  const machineSpec = template?.objectOrEmpty('spec');
  if (machineSpec) readCapiMachineSpec(machineSpec, clusterName, TEMPLATE, input.template);
  template?.finishToMachineApi();
  spec.finishToMachineApi();
  return input;
}

/** A non-negative int32. */
function count(reader: ObjectReader, key: string): number | undefined {
  const value = reader.integer(key);
  if (value === undefined) return undefined;
  if (value < 0 || value > MAX_INT32) {
    reader.report.error(
      reader.pathOf(key),
      `is ${value}, but must be between 0 and ${MAX_INT32}; correct it.`,
    );
    return undefined;
  }
  return value;
}
