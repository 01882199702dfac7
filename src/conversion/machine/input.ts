// Reads a MAPI Machine from whatever JSON it is: every field of the wrong type is a field error,
// never an exception.
import {
  type ArrayItem,
  type ConversionReport,
  isJsonObject,
  type MapEntry,
  ObjectReader,
} from '../common/field-reader.js';
import { readMachineSpecBody, type HookInput } from '../common/mapi-machine-spec.js';

export interface OwnerInput {
  apiVersion?: string;
  kind?: string;
  name?: string;
}

export interface MachineInput {
  name?: string;
  labels: MapEntry[];
  annotations: MapEntry[];
  owners: OwnerInput[];
  nodeLabels: MapEntry[];
  nodeAnnotations: MapEntry[];
  preDrainHooks: HookInput[];
  preTerminateHooks: HookInput[];
  taints: ArrayItem[];
  providerID?: string;
  providerSpec: { readable: boolean; value: unknown };
}

export function readMachine(mapi: unknown, report: ConversionReport): MachineInput {
  const root = ObjectReader.of(isJsonObject(mapi) ? mapi : {}, '', report)!;
  const input: MachineInput = {
    labels: [],
    annotations: [],
    owners: [],
    nodeLabels: [],
    nodeAnnotations: [],
    preDrainHooks: [],
    preTerminateHooks: [],
    taints: [],
    providerSpec: { readable: false, value: undefined },
  };
  const metadata = root.objectOrEmpty('metadata');
  if (metadata) {
    input.name = metadata.requiredString('name', 'every Machine has a name.');
    input.labels = metadata.stringMap('labels') ?? [];
    input.annotations = metadata.stringMap('annotations') ?? [];
    input.owners = (metadata.objects('ownerReferences') ?? []).map((owner) => ({
      apiVersion: owner.string('apiVersion'),
      kind: owner.string('kind'),
      name: owner.string('name'),
    }));
  }
  const spec = root.objectOrEmpty('spec');
  if (!spec) return input;
  const nodeMetadata = spec.objectOrEmpty('metadata');
  if (nodeMetadata) {
    input.nodeLabels = nodeMetadata.stringMap('labels') ?? [];
    input.nodeAnnotations = nodeMetadata.stringMap('annotations') ?? [];
  }
  readMachineSpecBody(spec, input);
  return input;
}
