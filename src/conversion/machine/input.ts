// Reads a MAPI Machine from whatever JSON it is: every field of the wrong type is a field error,
// never an exception. Its spec is read as a MachineSet's template is (common/mapi-machine-spec.ts).
import { type ConversionReport, ObjectReader } from '../common/field-reader.js';
import {
  emptyMapiMachine,
  type MapiMachineInput,
  readMapiMachineSpec,
} from '../common/mapi-machine-spec.js';
import { readMetadataMaps } from '../common/object-metadata.js';

export interface OwnerInput {
  apiVersion?: string;
  kind?: string;
  name?: string;
}

export interface MachineInput extends MapiMachineInput {
  name?: string;
  owners: OwnerInput[];
}

export function readMachine(mapi: unknown, report: ConversionReport): MachineInput {
  const root = ObjectReader.root(mapi, report);
  const input: MachineInput = { ...emptyMapiMachine(), owners: [] };
  const metadata = root.objectOrEmpty('metadata');
  if (metadata) {
    input.name = metadata.requiredString('name', 'every Machine has a name.');
    readMetadataMaps(metadata, input);
    input.owners = (metadata.objects('ownerReferences') ?? []).map((owner) => ({
      apiVersion: owner.string('apiVersion'),
      kind: owner.string('kind'),
      name: owner.string('name'),
    }));
  }
  const spec = root.objectOrEmpty('spec');
  if (spec) readMapiMachineSpec(spec, input);
  return input;
}
