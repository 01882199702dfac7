// Decides the next write for one MachineSet from what was observed. Pure.
//
// The reconciler calls `planNext` in a loop: observe, plan one step, execute
// it, observe again, until the plan says `done`. One step at a time keeps each
// decision simple and makes every intermediate state (a crash between two
// steps) one that the next reconcile knows how to finish.
import type { CapiMachineSet, MapiMachineSet } from '../../api/types.js';
import { AUTHORITY_ANNOTATION, CLUSTER_API_UID_ANNOTATION } from '../../model/markers.js';
import { planSyncStart } from '../report.js';
import { annotate, isDeleting, isPaused, type Step } from '../steps.js';
import { planMapiDeletion, planMirrorDeletion, planWithoutMapi } from './deletion.js';
import { planMachineSetForward } from './forward.js';
import type { Observed } from './observed.js';
import { planReverseSync } from './reverse.js';

export type { EventSpec, Step } from '../steps.js';
export { formatFieldErrors } from '../report.js';

export function planNext(o: Observed): Step {
  const { mapi, mirror } = o;
  if (!mapi) return planWithoutMapi(o);
  if (isDeleting(mapi)) return planMapiDeletion(o, mapi);
  if (mirror && isDeleting(mirror)) return planMirrorDeletion(o, mapi, mirror);

  // Migrating belongs to the migration handshake, and an empty authority to whoever copies
  // spec into status first: the sync writes nothing at all.
  const start = planSyncStart(mapi, o.now, 'adding finalizer to MAPI machine set');
  if ('step' in start) return start.step;
  const { authority } = start;

  if (authority === 'MachineAPI') return planMachineSetForward(o, mapi, 'MachineAPI');
  if (!mirror) {
    // Recorded, not guessed: a CAPI side that existed and is gone was deleted;
    // the MAPI mirror follows it (deletion table), nothing is recreated.
    if (mapi.metadata.annotations?.[CLUSTER_API_UID_ANNOTATION]) {
      return {
        kind: 'delete',
        object: mapi,
        note: 'deleting the MAPI mirror of an authoritative CAPI machine set that is gone',
      };
    }
    return planMachineSetForward(o, mapi, 'ClusterAPI');
  }
  return initialSyncUnderway(mapi, mirror)
    ? planMachineSetForward(o, mapi, 'ClusterAPI')
    : planClusterApiAuthoritative(o, mapi, mirror);
}

/**
 * The initial sync under ClusterAPI creates the CAPI MachineSet paused and
 * marked as such, gives it its template, then unpauses it; until the MAPI side
 * records the CAPI uid, a paused CAPI MachineSet with that mark is ours to finish.
 */
function initialSyncUnderway(mapi: MapiMachineSet, mirror: CapiMachineSet): boolean {
  return (
    isPaused(mirror) &&
    mirror.metadata.annotations?.[AUTHORITY_ANNOTATION] === 'ClusterAPI' &&
    !mapi.metadata.annotations?.[CLUSTER_API_UID_ANNOTATION]
  );
}

/**
 * ClusterAPI is authoritative and its MachineSet exists: nothing is written to
 * Cluster API. The MAPI side records which CAPI MachineSet is authoritative for
 * it, then mirrors it.
 */
function planClusterApiAuthoritative(
  o: Observed,
  mapi: MapiMachineSet,
  mirror: CapiMachineSet,
): Step {
  const uid = mirror.metadata.uid ?? '';
  if (uid && mapi.metadata.annotations?.[CLUSTER_API_UID_ANNOTATION] !== uid) {
    return annotate(
      mapi,
      { [CLUSTER_API_UID_ANNOTATION]: uid },
      'recording the authoritative CAPI machine set',
    );
  }
  return planReverseSync(o, mapi, mirror);
}
