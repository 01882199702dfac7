// Reads an authoritative CAPI Machine (cluster.x-k8s.io/v1beta2) from whatever JSON it is, for the
// conversion to a MAPI Machine. Each field of the spec is mapped, dropped with a warning when the
// MAPI Machine behaves the same without it, or reported when it would not.
import {
  type ArrayItem,
  type ConversionReport,
  isJsonObject,
  type MapEntry,
  ObjectReader,
} from '../common/field-reader.js';
import {
  checkClusterName,
  type InfrastructureRefInput,
  readBootstrapSecret,
  readInfrastructureRef,
  readMachineDeletion,
  warnVersion,
} from '../common/capi-machine-spec.js';

export interface CapiMachineInput {
  name?: string;
  labels: MapEntry[];
  annotations: MapEntry[];
  dataSecretName?: string;
  infrastructureRef: InfrastructureRefInput;
  providerID?: string;
  failureDomain?: string;
  taints: ArrayItem[];
}

/** `clusterName`: this cluster's Cluster API cluster (the Infrastructure's infrastructureName). */
export function readCapiMachine(
  capi: unknown,
  clusterName: string,
  report: ConversionReport,
): CapiMachineInput {
  const root = ObjectReader.of(isJsonObject(capi) ? capi : {}, '', report)!;
  const input: CapiMachineInput = {
    labels: [],
    annotations: [],
    infrastructureRef: {},
    taints: [],
  };
  const metadata = root.objectOrEmpty('metadata');
  if (metadata) {
    input.name = metadata.string('name');
    input.labels = metadata.stringMap('labels') ?? [];
    input.annotations = metadata.stringMap('annotations') ?? [];
  }
  const spec = root.objectOrEmpty('spec');
  if (!spec) return input;
  checkClusterName(spec, clusterName);
  input.dataSecretName = readBootstrapSecret(spec);
  input.infrastructureRef = readInfrastructureRef(
    spec,
    'name the infrastructure machine of this Machine.',
  );
  warnVersion(spec);
  input.providerID = spec.string('providerID');
  input.failureDomain = spec.string('failureDomain');
  const minReadySeconds = spec.integer('minReadySeconds');
  if (minReadySeconds !== undefined && minReadySeconds !== 0) {
    report.warn(
      `${spec.pathOf('minReadySeconds')} ${minReadySeconds} is not converted: a Machine API ` +
        `Machine has no such field; its MachineSet counts availability.`,
    );
  }
  if ((spec.items('readinessGates') ?? []).length > 0) {
    report.error(
      spec.pathOf('readinessGates'),
      'has no Machine API equivalent: Machine API would count the machine as ready without ' +
        'these conditions; remove the readiness gates to mirror this Machine.',
    );
  }
  const deletion = spec.object('deletion');
  if (deletion) readMachineDeletion(deletion);
  input.taints = spec.items('taints') ?? [];
  spec.finishToMachineApi();
  return input;
}
