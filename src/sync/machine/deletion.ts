// The deletion table (../deletion.ts) for Machines, and what only Machines have: the
// infrastructure machine, whose provider's finalizer stays on it after a round trip through
// Cluster API (the provider never removes it from a paused object), and the MachineSet whose
// deletion takes its Machines along. Pure.
import type { KubeObject, MapiMachine } from '../../api/types.js';
import { CAPI_MACHINE_FINALIZER, FINALIZER, MAPI_MACHINE_FINALIZER } from '../../model/markers.js';
import { planDeletion, planWithoutMapi, releaseMirror, type DeletionKind } from '../deletion.js';
import {
  controllingMachineSet,
  done,
  hasFinalizer,
  isDeleting,
  isPaused,
  removeFinalizers,
  type Step,
} from '../steps.js';
import type { ReportingObject } from '../report.js';
import { MACHINES } from './kind.js';
import type { MachineObserved } from './observed.js';

const MACHINE_DELETION: DeletionKind = {
  ...MACHINES,
  capiFinalizer: CAPI_MACHINE_FINALIZER,
  pausedMapiFinalizer: MAPI_MACHINE_FINALIZER,
  mirrorDeletedNote: ' The instance is not affected: the mirror is paused.',
  mapiStillDeleting: machineApiOperatorDeleting,
};

/**
 * While machine-api-operator drains the node of an authoritative MAPI Machine being deleted and
 * deletes its instance (it holds its finalizer until both are done), the paused mirror and the
 * provider objects under it stay: a provider object let go early could act on the instance
 * while pods are still being evicted (CAPO's OpenStackServer deletes its server).
 */
function machineApiOperatorDeleting(mapi: ReportingObject): string | undefined {
  if (!isDeleting(mapi) || mapi.status?.authoritativeAPI !== 'MachineAPI') return undefined;
  if (!hasFinalizer(mapi, MAPI_MACHINE_FINALIZER)) return undefined;
  return 'machine-api-operator is still deleting the MAPI Machine (draining its node, then deleting its instance); its paused mirror stays until it has finished';
}

/**
 * A paused provider object being deleted (the infrastructure machine, the instance object under
 * it): the provider never acts on it, so its finalizer goes with ours, unless an unpaused CAPI
 * Machine (Cluster API authoritative) still owns it.
 */
export function releaseDeletedProviderObjects(o: MachineObserved): Step | undefined {
  if (o.mirror && !isPaused(o.mirror)) return undefined;
  const machine = o.converter?.machine;
  const objects: [KubeObject | undefined, string | undefined][] = [
    [o.infrastructureMachine, machine?.finalizer],
    [o.instanceObject, machine?.instance?.finalizer],
  ];
  for (const [object, providerFinalizer] of objects) {
    if (!object || !providerFinalizer || !isDeleting(object) || !isPaused(object)) continue;
    const release = removeFinalizers(
      object,
      [FINALIZER, providerFinalizer],
      `releasing the deleted paused ${object.kind} (our and the provider's finalizers)`,
    );
    if (release) return release;
  }
  return undefined;
}

/**
 * A Machine is one machine: deleting either side of it (a person's `oc delete`, a
 * MachineHealthCheck's remediation) asks for the machine to go. Not a cascade, though: a side
 * deleted because its MachineSet or its Cluster is going (the garbage collector, Cluster API)
 * leaves the other side's machine alone.
 */
function deletedOnItsOwn(o: MachineObserved, deleted: KubeObject): boolean {
  if (isDeleting(o.cluster)) return false;
  const capi = deleted.apiVersion.startsWith('cluster.x-k8s.io/');
  return capi
    ? !goesWithItsMachineSet(deleted, o.capiMachineSet, 'cluster.x-k8s.io/')
    : !goesWithItsMachineSet(deleted, o.mapiMachineSet, 'machine.openshift.io/');
}

/**
 * Whether one side of a Machine goes with its MachineSet: the MachineSet controlling it (matched
 * by uid with `set`, the one observed under that name) is being deleted or gone, so the garbage
 * collector deletes the Machine, if it has not already.
 */
export function goesWithItsMachineSet(
  side: KubeObject,
  set: KubeObject | undefined,
  groupPrefix: string,
): boolean {
  const owner = controllingMachineSet(side, groupPrefix);
  return owner !== undefined && (set?.metadata.uid !== owner.uid || isDeleting(set));
}

/**
 * The MAPI Machine (machine-api-operator deletes the instance) or its mirror is being deleted;
 * undefined while neither is.
 */
export const planMachineDeletion = (o: MachineObserved, mapi: MapiMachine): Step | undefined =>
  planDeletion(
    { ...MACHINE_DELETION, deletionAsksToGo: (deleted) => deletedOnItsOwn(o, deleted) },
    o,
    mapi,
  );

/** No MAPI Machine of this name, and no MAPI mirror to create: let go of what we held. */
export const planMachineWithoutMapi = (o: MachineObserved): Step =>
  planWithoutMapi(MACHINE_DELETION, o);

/**
 * The MAPI MachineSet that owns the Machine is being deleted, and its Machines go with it (the
 * garbage collector deletes them, and the CAPI mirrors with the CAPI MachineSet): nothing to
 * report or recreate, only a deleted mirror to release.
 */
export function planWhileMachineSetDeleted(o: MachineObserved, mapi: MapiMachine): Step {
  const { mirror } = o;
  // machine-api-operator deletes the instance of a MachineAPI Machine: its mirror waits for it.
  if (mapi.status?.authoritativeAPI === 'MachineAPI' && isPaused(mirror)) {
    return done('its MachineSet is being deleted; the paused mirror goes once the Machine has');
  }
  const release =
    mirror && isDeleting(mirror) ? releaseMirror(MACHINE_DELETION, mirror) : undefined;
  return release ?? done('its MachineSet is being deleted; the Machine goes with it');
}
