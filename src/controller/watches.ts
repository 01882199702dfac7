// What an event on each watched kind wakes: pure maps from a change of an object to the names of
// the MachineSets or Machines whose plans read it. The controllers (controllers.ts) say which
// informer feeds which map; whatever a map must look up in the caches it is given as a function.
import isEqual from 'lodash/isEqual.js';
import type {
  CapiMachineSet,
  Infrastructure,
  InfrastructureMachine,
  KubeObject,
  MachineTemplate,
  MapiMachine,
} from '../api/types.js';
import type { InformerEvent } from '../kube/informer.js';
import { CAPI_GROUP_PREFIX } from '../model/api-groups.js';
import { SOURCE_ANNOTATION } from '../model/markers.js';
import { controllingMachineSet } from '../sync/steps.js';
import { change } from '../runtime/controllers.js';
import { templateRef, templatesOf } from './reconciler.js';

/** Machine keys share the queue with MachineSet names, which never contain a slash. */
const MACHINE_PREFIX = 'machine/';
/** The queue key of Machine `name`. */
export const machineKey = (name: string): string => `${MACHINE_PREFIX}${name}`;
/** The Machine a queue key names; undefined for a MachineSet's key. */
export const machineName = (key: string): string | undefined =>
  key.startsWith(MACHINE_PREFIX) ? key.slice(MACHINE_PREFIX.length) : undefined;

/** The name of the MachineSet of this API group that controls the object, if one does. */
export function owningMachineSetName(object: KubeObject, groupPrefix: string): string | undefined {
  return controllingMachineSet(object, groupPrefix)?.name;
}

/** A Machine's values in the MACHINES_BY_MACHINE_SET index: its controlling MachineSet of that group. */
export function machineSetOf(machine: KubeObject, groupPrefix: string): string[] {
  const name = owningMachineSetName(machine, groupPrefix);
  return name === undefined ? [] : [name];
}

/**
 * The templates a change of a CAPI MachineSet stopped pointing at: it points elsewhere now, or it
 * is being deleted or gone.
 */
export function templatesReleased(
  before: CapiMachineSet | undefined,
  after: CapiMachineSet | undefined,
): { kind: string; name: string }[] {
  const live = (ms: CapiMachineSet | undefined) =>
    ms && !ms.metadata.deletionTimestamp ? templatesOf(ms) : [];
  const still = new Set(live(after));
  return live(before)
    .filter((ref) => !still.has(ref))
    .map((ref) => {
      const slash = ref.indexOf('/');
      return { kind: ref.slice(0, slash), name: ref.slice(slash + 1) };
    });
}

/**
 * A CAPI MachineSet that stopped using a template of ours wakes the MachineSet that made it (named
 * in the template's source annotation, `sourceOf`): that one may delete it now.
 */
export function machineSetsReleasedBy(
  event: InformerEvent<CapiMachineSet>,
  sourceOf: (kind: string, name: string) => string | undefined,
): string[] {
  const { before, after } = change(event);
  const self = event.object.metadata.name;
  return templatesReleased(before, after)
    .map(({ kind, name }) => sourceOf(kind, name))
    .filter((source): source is string => !!source && source !== self);
}

/** What a MachineSet's plan (the handshake) reads of one of its Machines. */
function readBySet(machine: KubeObject & { spec?: object; status?: object }) {
  const { generation, deletionTimestamp, ownerReferences } = machine.metadata;
  // A CAPI Machine has none of the MAPI fields: they read as undefined.
  const spec: Partial<MapiMachine['spec']> = machine.spec ?? {};
  const status: NonNullable<MapiMachine['status']> = machine.status ?? {};
  return {
    generation,
    deletionTimestamp,
    ownerReferences,
    wanted: spec.authoritativeAPI,
    authority: status.authoritativeAPI,
    synchronizedGeneration: status.synchronizedGeneration,
    synchronized: status.conditions?.find((c) => c.type === 'Synchronized'),
  };
}

/**
 * The MachineSet to wake for a Machine that changed from `before` to `after` (either absent when
 * it appeared or went): its controlling MachineSet of that group, when that MachineSet's plan
 * reads its Machines now (`readsMachines`: only its migration handshake does) and what it reads
 * of them changed (machine-api-operator rewrites a Machine's status every 20 s for nothing of
 * that).
 */
function machineSetToWake(
  before: KubeObject | undefined,
  after: KubeObject | undefined,
  groupPrefix: string,
  readsMachines: (machineSet: string) => boolean,
): string | undefined {
  const machine = after ?? before;
  const set = machine && owningMachineSetName(machine, groupPrefix);
  if (!set || !readsMachines(set)) return undefined;
  const changed = !before || !after || !isEqual(readBySet(before), readBySet(after));
  return changed ? set : undefined;
}

/** A Machine of that group wakes its MachineSet, when the MachineSet's plan reads the change. */
export function machineSetOfMachine(
  event: InformerEvent<KubeObject>,
  groupPrefix: string,
  readsMachines: (machineSet: string) => boolean,
): string[] {
  const { before, after } = change(event);
  const set = machineSetToWake(before, after, groupPrefix, readsMachines);
  return set ? [set] : [];
}

/**
 * A template wakes the MachineSet that made it (its source annotation) and, someone else's
 * template, the CAPI MachineSets pointing at it (`usersOf` a templateRef), which read it.
 */
export function machineSetsReadingTemplate(
  event: InformerEvent<MachineTemplate>,
  kind: string,
  usersOf: (ref: string) => string[],
): string[] {
  const source = event.object.metadata.annotations?.[SOURCE_ANNOTATION];
  const users = usersOf(templateRef(kind, event.object.metadata.name));
  return [...(source ? [source] : []), ...users.filter((name) => name !== source)];
}

/**
 * The plans read a Cluster's identity (for ownerReferences) only: Cluster API rewriting its
 * Cluster's status must not wake every MachineSet and Machine.
 */
export function clusterIdentityChanged(event: InformerEvent<KubeObject>): boolean {
  return event.type !== 'update' || event.old.metadata.uid !== event.object.metadata.uid;
}

/** The plans read the Infrastructure's spec and status. */
export function infrastructureChanged(event: InformerEvent<Infrastructure>): boolean {
  return (
    event.type !== 'update' ||
    !isEqual(event.old.status, event.object.status) ||
    !isEqual(event.old.spec, event.object.spec)
  );
}

/**
 * What a Machine's plans read of its MachineSets: which one it is (the owner and its mirror),
 * whether it is going, and its authority (a Machine a CAPI MachineSet created under ClusterAPI
 * gets a MAPI mirror).
 */
function readByMachines(machineSet: KubeObject): unknown[] {
  const { spec, status } = machineSet as {
    spec?: { authoritativeAPI?: unknown };
    status?: { authoritativeAPI?: unknown };
  };
  return [
    machineSet.metadata.uid,
    machineSet.metadata.deletionTimestamp,
    spec?.authoritativeAPI,
    status?.authoritativeAPI,
  ];
}

/**
 * A MachineSet wakes the Machines it controls on either side (`machinesOf`) when it comes, goes,
 * or changes what they read of it; not on the replica counts its status gains as they come up.
 */
export function machinesOfMachineSet(
  event: InformerEvent<KubeObject>,
  machinesOf: (machineSet: string) => string[],
): string[] {
  if (event.type === 'update' && isEqual(readByMachines(event.old), readByMachines(event.object))) {
    return [];
  }
  return machinesOf(event.object.metadata.name);
}

/** An infrastructure machine wakes the CAPI Machine that owns it, else the one named like it. */
export function machineOfInfrastructureMachine(
  event: InformerEvent<InfrastructureMachine>,
): string[] {
  const owner = event.object.metadata.ownerReferences?.find(
    (r) => r.kind === 'Machine' && r.apiVersion.startsWith(CAPI_GROUP_PREFIX),
  );
  return [owner?.name ?? event.object.metadata.name];
}
