// Reads an authoritative CAPI Machine (cluster.x-k8s.io/v1beta2) from whatever JSON it is, for the
// conversion to a MAPI Machine, the way a MachineSet's template is read
// (common/capi-machine-spec.ts); a Machine has its own providerID, and no minReadySeconds.
import { type ConversionReport, ObjectReader } from '../common/field-reader.js';
import { readMetadataMaps } from '../common/object-metadata.js';
import {
  type CapiMachineInput,
  type CapiMachineRules,
  emptyCapiMachine,
  readCapiMachineSpec,
} from '../common/capi-machine-spec.js';

const MACHINE: CapiMachineRules = {
  kind: 'Machine',
  machines: 'the machine',
  infrastructureRefHint: 'name the infrastructure machine of this Machine.',
  providerID: (spec) => spec.string('providerID'),
  minReadySeconds: (spec) => {
    const minReadySeconds = spec.integer('minReadySeconds');
    if (minReadySeconds !== undefined && minReadySeconds !== 0) {
      spec.report.warn(
        `${spec.pathOf('minReadySeconds')} ${minReadySeconds} is not converted: a Machine API ` +
          `Machine has no such field; its MachineSet counts availability.`,
      );
    }
    return undefined;
  },
};

/** `clusterName`: this cluster's Cluster API cluster (the Infrastructure's infrastructureName). */
export function readCapiMachine(
  capi: unknown,
  clusterName: string,
  report: ConversionReport,
): CapiMachineInput & { name?: string } {
  const root = ObjectReader.root(capi, report);
  const input: CapiMachineInput & { name?: string } = emptyCapiMachine();
  const metadata = root.objectOrEmpty('metadata');
  if (metadata) {
    input.name = metadata.string('name');
    readMetadataMaps(metadata, input);
  }
  const spec = root.objectOrEmpty('spec');
  if (spec) readCapiMachineSpec(spec, clusterName, MACHINE, input);
  return input;
}
