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

export interface InfrastructureRefInput {
  apiGroup?: string;
  kind?: string;
  name?: string;
}

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
/** What Cluster API's Machine webhook sets when the field is empty. */
const DEFAULT_NODE_DELETION_TIMEOUT = 10;

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

export function checkClusterName(reader: ObjectReader, clusterName: string): void {
  const value = reader.string('clusterName');
  if (value === undefined || value === clusterName) return;
  reader.report.error(
    reader.pathOf('clusterName'),
    `is ${quote(value)}, but this cluster's Cluster API cluster is ${quote(clusterName)}; only ` +
      `the machines of this cluster can be mirrored to Machine API.`,
  );
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

/**
 * The Secret a Cluster API machine boots from (`bootstrap.dataSecretName`); a bootstrap config
 * instead has no Machine API equivalent. Shared by MachineSet templates and Machines.
 */
export function readBootstrapSecret(spec: ObjectReader): string | undefined {
  const bootstrap = spec.objectOrEmpty('bootstrap');
  if (!bootstrap) return undefined;
  let dataSecretName: string | undefined;
  const configRef = bootstrap.raw('configRef');
  if (
    configRef !== undefined &&
    !(isJsonObject(configRef) && Object.keys(configRef).length === 0)
  ) {
    spec.report.error(
      bootstrap.pathOf('configRef'),
      'has no Machine API equivalent: Machine API machines boot from a ready user data ' +
        'Secret; set dataSecretName to such a Secret instead of a bootstrap config.',
    );
  } else {
    dataSecretName = bootstrap.requiredString(
      'dataSecretName',
      'Machine API machines boot from the user data Secret named here.',
    );
  }
  bootstrap.finishToMachineApi();
  return dataSecretName;
}

/** `infrastructureRef`; `fix` completes the message when its name is missing. */
export function readInfrastructureRef(spec: ObjectReader, fix: string): InfrastructureRefInput {
  const ref = spec.objectOrEmpty('infrastructureRef');
  if (!ref) return {};
  const read = {
    apiGroup: ref.string('apiGroup'),
    kind: ref.string('kind'),
    name: ref.requiredString('name', fix),
  };
  ref.finishToMachineApi();
  return read;
}

/** `version` is left to the image and user data on Machine API: said, not converted. */
export function warnVersion(spec: ObjectReader): void {
  const version = spec.string('version');
  if (version === undefined) return;
  spec.report.warn(
    `${spec.pathOf('version')} ${quote(version)} is not converted: Machine API machines run ` +
      `the version their image and user data give them.`,
  );
}

/** Timeouts MAPI machines do not have: only the values that behave like MAPI are accepted. */
export function readMachineDeletion(deletion: ObjectReader): void {
  const unlimited = (key: string, what: string) => {
    const value = deletion.integer(key);
    if (value === undefined || value === 0) return;
    deletion.report.error(
      deletion.pathOf(key),
      `is ${value}, but Machine API ${what} without a time limit; remove it (or set 0) to ` +
        `mirror it to Machine API.`,
    );
  };
  unlimited('nodeDrainTimeoutSeconds', 'drains a node');
  unlimited('nodeVolumeDetachTimeoutSeconds', 'waits for the volumes of a node to detach');
  const deletionTimeout = deletion.integer('nodeDeletionTimeoutSeconds');
  if (deletionTimeout !== undefined && deletionTimeout !== DEFAULT_NODE_DELETION_TIMEOUT) {
    deletion.report.error(
      deletion.pathOf('nodeDeletionTimeoutSeconds'),
      `is ${deletionTimeout}, but Machine API has no such timeout; remove it (or set ` +
        `${DEFAULT_NODE_DELETION_TIMEOUT}, Cluster API's default) to mirror it to Machine API.`,
    );
  }
  deletion.finishToMachineApi();
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
