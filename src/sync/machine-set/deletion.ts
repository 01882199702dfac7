// The deletion table (product.md, "Deletion"): what happens when either side of
// a MachineSet is deleted, or the MAPI side is gone without us. Pure.
//
// The rule that matters most: the authoritative side is never deleted because
// its mirror went away. A paused CAPI MachineSet carries Cluster API's own
// finalizer, which Cluster API never removes while it is paused; whenever we
// let a paused mirror go, we remove that finalizer too, or it stays
// Terminating for ever.
import type { CapiMachineSet, MapiMachineSet } from '../../api/types.js';
import { Reason } from '../conditions.js';
import { CAPI_MACHINE_SET_FINALIZER, FINALIZER } from '../../model/markers.js';
import type { Observed } from './observed.js';
import { isOurPausedMirror, releaseDeletedMirror } from '../mirror-deletion.js';
import { reportFailure } from '../report.js';
import { done, hasFinalizer, isDeleting, isPaused, removeFinalizers, type Step } from '../steps.js';
import { planStaleTemplates } from './templates.js';

const releaseMachineSet = (mirror: CapiMachineSet) =>
  releaseDeletedMirror(mirror, CAPI_MACHINE_SET_FINALIZER, 'CAPI machine set');

/** The MAPI MachineSet is being deleted. */
export function planMapiDeletion(o: Observed, mapi: MapiMachineSet): Step {
  if (!hasFinalizer(mapi)) return done('MAPI machine set is being deleted; nothing of ours on it');
  const { mirror } = o;
  const machineApi = mapi.status?.authoritativeAPI === 'MachineAPI';
  if (mirror && machineApi && isPaused(mirror)) {
    // MAPI is authoritative: its paused mirror goes with it.
    if (!isDeleting(mirror)) {
      return {
        kind: 'delete',
        object: mirror,
        note: 'deleting the mirror of a deleted MAPI machine set',
      };
    }
    return releaseMachineSet(mirror) ?? done('waiting for the deleted mirror to go');
  }
  if (mirror) {
    // The CAPI side is, or may become, authoritative: it stays, only our finalizer leaves it.
    const release = removeFinalizers(
      mirror,
      [FINALIZER],
      'releasing the CAPI machine set of a deleted MAPI machine set; it stays',
    );
    if (release) return release;
  } else if (machineApi) {
    const stale = planStaleTemplates(o.templates, o.name, undefined, undefined, o.templateUsers);
    if (stale) return stale;
  }
  return (
    removeFinalizers(mapi, [FINALIZER], 'releasing the deleted MAPI machine set') ??
    done('MAPI machine set released')
  );
}

/** The CAPI MachineSet is being deleted while the MAPI MachineSet stays. */
export function planMirrorDeletion(
  o: Observed,
  mapi: MapiMachineSet,
  mirror: CapiMachineSet,
): Step {
  const authority = mapi.status?.authoritativeAPI;
  if (authority === 'ClusterAPI') {
    // The authoritative side is going: its MAPI mirror follows.
    return {
      kind: 'delete',
      object: mapi,
      note: 'deleting the MAPI mirror of a deleted authoritative CAPI machine set',
    };
  }
  if (authority === 'MachineAPI') {
    const report = reportFailure(
      mapi,
      o.now,
      Reason.UpdateFailed,
      `The Cluster API mirror ${o.capiNamespace}/${o.name} is being deleted; it is created again from this MachineSet once it is gone.`,
      'mirror deletion reported',
    );
    if (report.kind !== 'done') return report;
  }
  // Migrating or not set: release what is deleted, never delete the other side.
  return releaseMachineSet(mirror) ?? done('waiting for the deleted CAPI machine set to go');
}

/** No MAPI MachineSet of this name: let go of whatever we held for it. */
export function planWithoutMapi(o: Observed): Step {
  const { mirror } = o;
  if (mirror && isOurPausedMirror(mirror) && (hasFinalizer(mirror) || isDeleting(mirror))) {
    // A paused mirror of a MAPI MachineSet that was authoritative and is gone mirrors nothing.
    if (!isDeleting(mirror)) {
      return {
        kind: 'delete',
        object: mirror,
        note: 'deleting the mirror of a MAPI machine set that is gone',
      };
    }
    return releaseMachineSet(mirror) ?? done('waiting for the deleted mirror to go');
  }
  if (mirror) {
    return (
      removeFinalizers(
        mirror,
        [FINALIZER],
        'releasing a CAPI machine set whose MAPI side is gone',
      ) ?? done('no MAPI machine set; the CAPI machine set is not ours to manage')
    );
  }
  return (
    planStaleTemplates(o.templates, o.name, undefined, undefined, o.templateUsers) ??
    done('nothing to do')
  );
}
