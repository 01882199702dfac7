// Reads a MAPI machine, a MachineSet's template or a Machine: its Node's labels and annotations,
// lifecycle hooks, taints, providerID and providerSpec, read the same way for both. Every field of
// the wrong type becomes a field error, never an exception.
import type { ArrayItem, MapEntry, ObjectReader } from './field-reader.js';
import { type MetadataMaps, readMetadataMaps } from './object-metadata.js';
import type { ProviderSpecInput } from './mirror.js';

export interface HookInput {
  name: string;
  owner: string;
  /** Path of the hook's name, e.g. `spec.template.spec.lifecycleHooks.preDrain[0].name`. */
  path: string;
}

/** What a MAPI machine says: a MachineSet's template or a Machine. */
export interface MapiMachineInput extends MetadataMaps {
  /** The Node's, `metadata` of the machine spec. */
  nodeLabels: MapEntry[];
  nodeAnnotations: MapEntry[];
  preDrainHooks: HookInput[];
  preTerminateHooks: HookInput[];
  /** The items of the machine spec's `taints`, as they are. */
  taints: ArrayItem[];
  providerID?: string;
  /** The providerSpec value; `readable` is false when a field above it has the wrong type. */
  providerSpec: ProviderSpecInput;
}

/** A machine with nothing read yet. */
export function emptyMapiMachine(): MapiMachineInput {
  return {
    labels: [],
    annotations: [],
    nodeLabels: [],
    nodeAnnotations: [],
    preDrainHooks: [],
    preTerminateHooks: [],
    taints: [],
    providerSpec: { readable: false, value: undefined },
  };
}

/**
 * Reads a MAPI MachineSpec into `input`; `checkNodeMetadata` is given the Node's metadata, for what
 * a kind says more of it. False when some Node label could not be read.
 */
export function readMapiMachineSpec(
  machineSpec: ObjectReader,
  input: MapiMachineInput,
  checkNodeMetadata?: (metadata: ObjectReader) => void,
): boolean {
  const nodeMetadata = machineSpec.objectOrEmpty('metadata');
  const nodeMaps: MetadataMaps = { labels: [], annotations: [] };
  const nodeLabelsRead = nodeMetadata !== undefined && readMetadataMaps(nodeMetadata, nodeMaps);
  input.nodeLabels = nodeMaps.labels;
  input.nodeAnnotations = nodeMaps.annotations;
  if (nodeMetadata) checkNodeMetadata?.(nodeMetadata);
  const hooks = machineSpec.object('lifecycleHooks');
  if (hooks) {
    input.preDrainHooks = readHooks(hooks, 'preDrain');
    input.preTerminateHooks = readHooks(hooks, 'preTerminate');
  }
  input.taints = machineSpec.items('taints') ?? [];
  input.providerID = machineSpec.string('providerID');
  const providerSpec = machineSpec.objectOrEmpty('providerSpec');
  if (providerSpec) input.providerSpec = { readable: true, value: providerSpec.raw('value') };
  return nodeLabelsRead;
}

function readHooks(hooks: ObjectReader, key: string): HookInput[] {
  return (hooks.objects(key) ?? []).flatMap((hook) => {
    const name = hook.requiredString('name', 'set the name of the lifecycle hook.');
    const owner = hook.requiredString('owner', 'set who owns the lifecycle hook.');
    if (name === undefined || owner === undefined) return [];
    return [{ name, owner, path: hook.pathOf('name') }];
  });
}
