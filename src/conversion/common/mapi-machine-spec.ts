// Reads the body of a MAPI MachineSpec that a MachineSet's template and a Machine share: lifecycle
// hooks, taints, providerID and providerSpec.
import type { ArrayItem, ObjectReader } from './field-reader.js';

export interface HookInput {
  name: string;
  owner: string;
  /** Path of the hook's name, e.g. `spec.template.spec.lifecycleHooks.preDrain[0].name`. */
  path: string;
}

/** What `readMachineSpecBody` fills in, on a MachineSet's template and on a Machine. */
export interface MachineSpecBodyInput {
  preDrainHooks: HookInput[];
  preTerminateHooks: HookInput[];
  /** The items of `spec.taints`, as they are. */
  taints: ArrayItem[];
  providerID?: string;
  /** The providerSpec value; `readable` is false when a field above it has the wrong type. */
  providerSpec: { readable: boolean; value: unknown };
}

/** A MAPI MachineSpec's lifecycle hooks, taints, providerID and providerSpec (a Machine's too). */
export function readMachineSpecBody(machineSpec: ObjectReader, input: MachineSpecBodyInput): void {
  const hooks = machineSpec.object('lifecycleHooks');
  if (hooks) {
    input.preDrainHooks = readHooks(hooks, 'preDrain');
    input.preTerminateHooks = readHooks(hooks, 'preTerminate');
  }
  input.taints = machineSpec.items('taints') ?? [];
  input.providerID = machineSpec.string('providerID');
  const providerSpec = machineSpec.objectOrEmpty('providerSpec');
  if (providerSpec) input.providerSpec = { readable: true, value: providerSpec.raw('value') };
}

function readHooks(hooks: ObjectReader, key: string): HookInput[] {
  return (hooks.objects(key) ?? []).flatMap((hook) => {
    const name = hook.requiredString('name', 'set the name of the lifecycle hook.');
    const owner = hook.requiredString('owner', 'set who owns the lifecycle hook.');
    if (name === undefined || owner === undefined) return [];
    return [{ name, owner, path: hook.pathOf('name') }];
  });
}
