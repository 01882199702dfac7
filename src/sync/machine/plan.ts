// Decides the next write for one Machine from what was observed. Pure. The same shape as the
// MachineSet plan: deletion first (a deleted paused infrastructure machine before anything),
// nothing while the handshake runs, then the direction that status.authoritativeAPI names.
import type { CapiMachine, MapiMachine } from '../../api/types.js';
import { AUTHORITY_ANNOTATION, CLUSTER_API_UID_ANNOTATION } from '../../model/markers.js';
import { planSyncStart } from '../report.js';
import { annotate, controllingMachineSet, isDeleting, isPaused, type Step } from '../steps.js';
import {
  planMachineMirrorDeletion,
  planMachineWithoutMapi,
  releaseDeletedInfrastructureMachine,
  planMapiMachineDeletion,
  planWhileMachineSetDeleted,
} from './deletion.js';
import { planMachineForward } from './forward.js';
import type { MachineObserved } from './observed.js';
import { planMachineReverse, planMapiMirrorCreation } from './reverse.js';

export function planMachine(o: MachineObserved): Step {
  const { mapi, mirror } = o;
  const infrastructure = releaseDeletedInfrastructureMachine(o);
  if (infrastructure) return infrastructure;
  if (!mapi) return planMapiMirrorCreation(o) ?? planMachineWithoutMapi(o);
  if (isDeleting(mapi)) return planMapiMachineDeletion(o, mapi);
  if (machineSetGoneOrGoing(o, mapi)) return planWhileMachineSetDeleted(o);
  if (mirror && isDeleting(mirror)) return planMachineMirrorDeletion(o, mapi, mirror);

  const start = planSyncStart(mapi, o.now, 'adding finalizer to MAPI Machine');
  if ('step' in start) return start.step;
  const { authority } = start;
  if (authority === 'MachineAPI') return planMachineForward(o, mapi, 'MachineAPI');
  if (!mirror) {
    // Recorded, not guessed: a CAPI Machine that existed and is gone was deleted; the MAPI
    // mirror follows it, nothing is created again.
    if (mapi.metadata.annotations?.[CLUSTER_API_UID_ANNOTATION]) {
      return {
        kind: 'delete',
        object: mapi,
        note: 'deleting the MAPI mirror of an authoritative CAPI Machine that is gone',
      };
    }
    return planMachineForward(o, mapi, 'ClusterAPI');
  }
  if (initialSyncUnderway(mapi, mirror)) return planMachineForward(o, mapi, 'ClusterAPI');
  const uid = mirror.metadata.uid ?? '';
  if (uid && mapi.metadata.annotations?.[CLUSTER_API_UID_ANNOTATION] !== uid) {
    return annotate(
      mapi,
      { [CLUSTER_API_UID_ANNOTATION]: uid },
      'recording the authoritative CAPI Machine',
    );
  }
  return planMachineReverse(o, mapi, mirror);
}

/**
 * True when the MAPI MachineSet that controls the Machine is being deleted or is already gone
 * (absent, or replaced by one with another uid): the garbage collector deletes the Machine next,
 * so it is neither reported nor mirrored again in between.
 */
function machineSetGoneOrGoing(o: MachineObserved, mapi: MapiMachine): boolean {
  const set = o.mapiMachineSet;
  if (set && isDeleting(set)) return true;
  const owner = controllingMachineSet(mapi, 'machine.openshift.io/');
  return owner !== undefined && set?.metadata.uid !== owner.uid;
}

/** The initial sync under ClusterAPI creates the CAPI Machine paused and unpauses it last. */
function initialSyncUnderway(mapi: MapiMachine, mirror: CapiMachine): boolean {
  return (
    isPaused(mirror) &&
    mirror.metadata.annotations?.[AUTHORITY_ANNOTATION] === 'ClusterAPI' &&
    !mapi.metadata.annotations?.[CLUSTER_API_UID_ANNOTATION]
  );
}
