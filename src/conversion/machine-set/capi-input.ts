// Reads an authoritative CAPI MachineSet (cluster.x-k8s.io/v1beta2, Cluster API v1.13) from
// whatever JSON it is, for the conversion to MAPI. Each field of the spec is mapped, dropped with a
// warning when MAPI machines behave the same without it, or reported when they would not; a field
// this code does not know is reported rather than dropped.
import {
  type ArrayItem,
  type ConversionReport,
  isJsonObject,
  type MapEntry,
  ObjectReader,
} from '../common/field-reader.js';
import { quote } from '../common/quote.js';
import {
  checkClusterName,
  type InfrastructureRefInput,
  readBootstrapSecret,
  readInfrastructureRef,
  readMachineDeletion,
  warnVersion,
} from '../common/capi-machine-spec.js';

export interface CapiMachineSetInput {
  name?: string;
  /** The MachineSet's own labels and annotations. */
  labels: MapEntry[];
  annotations: MapEntry[];
  replicas?: number;
  /** `spec.deletion.order`. */
  deletionOrder?: 'Random' | 'Newest' | 'Oldest';
  templateLabels: MapEntry[];
  templateAnnotations: MapEntry[];
  dataSecretName?: string;
  infrastructureRef: InfrastructureRefInput;
  failureDomain?: string;
  minReadySeconds?: number;
  taints: ArrayItem[];
}

const MAX_INT32 = 2 ** 31 - 1;
/** Cluster API's own default; Machine API names machines `<MachineSet name>-<5 characters>`. */
const DEFAULT_MACHINE_NAMING = '{{ .machineSet.name }}-{{ .random }}';

/** `clusterName`: this cluster's Cluster API cluster (the Infrastructure's infrastructureName). */
export function readCapiMachineSet(
  capi: unknown,
  clusterName: string,
  report: ConversionReport,
): CapiMachineSetInput {
  const root = ObjectReader.of(isJsonObject(capi) ? capi : {}, '', report)!;
  const input: CapiMachineSetInput = {
    labels: [],
    annotations: [],
    templateLabels: [],
    templateAnnotations: [],
    infrastructureRef: {},
    taints: [],
  };
  const metadata = root.object('metadata');
  input.name = metadata?.string('name');
  input.labels = metadata?.stringMap('labels') ?? [];
  input.annotations = metadata?.stringMap('annotations') ?? [];

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
    input.templateLabels = templateMetadata.stringMap('labels') ?? [];
    input.templateAnnotations = templateMetadata.stringMap('annotations') ?? [];
    templateMetadata.finishToMachineApi();
  }
  const machineSpec = template?.objectOrEmpty('spec');
  if (machineSpec) readMachineSpec(machineSpec, clusterName, input);
  template?.finishToMachineApi();
  spec.finishToMachineApi();
  return input;
}

function readMachineSpec(spec: ObjectReader, clusterName: string, input: CapiMachineSetInput) {
  const { report } = spec;
  checkClusterName(spec, clusterName);
  input.dataSecretName = readBootstrapSecret(spec);
  input.infrastructureRef = readInfrastructureRef(
    spec,
    'name the machine template of this MachineSet.',
  );
  warnVersion(spec);
  if (spec.string('providerID') !== undefined) {
    report.error(
      spec.pathOf('providerID'),
      'must not be set on a MachineSet template: every machine gets its own; remove it.',
    );
  }
  input.failureDomain = spec.string('failureDomain');
  input.minReadySeconds = count(spec, 'minReadySeconds');
  if ((spec.items('readinessGates') ?? []).length > 0) {
    report.error(
      spec.pathOf('readinessGates'),
      'has no Machine API equivalent: Machine API would count machines as ready without these ' +
        'conditions; remove the readiness gates to mirror this MachineSet.',
    );
  }
  const deletion = spec.object('deletion');
  if (deletion) readMachineDeletion(deletion);
  input.taints = spec.items('taints') ?? [];
  spec.finishToMachineApi();
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
