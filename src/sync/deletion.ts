// The deletion table (product.md, "Deletion"), written once for both kinds of mirror: what
// happens when either side of a MachineSet or a Machine is deleted, or the MAPI side is gone
// without us. Each kind describes itself (`DeletionKind`); what only one kind has (a MachineSet's
// templates, a Machine's infrastructure machine) stays with that kind. Pure.
//
// The rule that matters most: the authoritative side is never deleted because its mirror went
// away. Controllers never remove their own finalizer from an object they pause: Cluster API's
// from a paused CAPI object, machine-api-operator's from a MAPI Machine it pauses. Whenever we
// let such a paused object go, we remove that finalizer too, or it stays Terminating for ever.
import type { KubeObject } from '../api/types.js';
import { AUTHORITY_ANNOTATION, FINALIZER, MIRROR_UID_ANNOTATION } from '../model/markers.js';
import type { SyncKind } from './kind.js';
import type { MirrorObserved } from './observed.js';
import { reportFailure, type ReportingObject } from './report.js';
import { done, isDeleting, isPaused, removeFinalizers, type Step } from './steps.js';

/** What the deletion table needs to know of one kind of mirror. */
export interface DeletionKind extends SyncKind {
  /** Cluster API's finalizer on the CAPI object, never removed while it is paused. */
  capiFinalizer: string;
  /** machine-api-operator's finalizer on a MAPI object it pauses, when it puts one there. */
  pausedMapiFinalizer?: string;
  /** What the report of a deleted mirror adds after "… created again from this <kind> once it is gone." */
  mirrorDeletedNote: string;
  /** What else of ours goes once no mirror is left (a MachineSet's templates). */
  leftovers?(): Step | undefined;
  /**
   * Why the paused mirror of an authoritative MAPI object being deleted must stay as it is for
   * now (machine-api-operator still draining a Machine's node and deleting its instance), or
   * undefined when it may go.
   */
  mapiStillDeleting?(mapi: MapiSide): string | undefined;
  /**
   * Whether the deletion of `deleted`, either side, asks for the object itself to go, the
   * authoritative side following (a Machine is one machine, whichever side a person or a
   * remediation deletes), rather than being a cascade from its owner. Absent: never (a
   * MachineSet's authoritative side never follows its mirror).
   */
  deletionAsksToGo?(deleted: KubeObject): boolean;
}

/** A MAPI object as the table reads it. */
type MapiSide = ReportingObject;

/** Our paused mirror of an authoritative MAPI object: nobody else acts on it. */
export function isOurPausedMirror(mirror: KubeObject): boolean {
  return isPaused(mirror) && mirror.metadata.annotations?.[AUTHORITY_ANNOTATION] === 'MachineAPI';
}

/** A mirror that records its own uid is one we created: a copy records another, or none. */
export function isRecordedMirror(mirror: KubeObject): boolean {
  const uid = mirror.metadata.uid;
  return uid !== undefined && mirror.metadata.annotations?.[MIRROR_UID_ANNOTATION] === uid;
}

/** Lets a deleted CAPI object go: our finalizer, and Cluster API's too while it is paused. */
export function releaseMirror(k: DeletionKind, mirror: KubeObject): Step | undefined {
  const paused = isPaused(mirror);
  return removeFinalizers(
    mirror,
    paused ? [FINALIZER, k.capiFinalizer] : [FINALIZER],
    paused
      ? `releasing the deleted paused ${k.capiNoun} (our and Cluster API's finalizers)`
      : `releasing the deleted ${k.capiNoun} (Cluster API finishes its own deletion)`,
  );
}

/** Lets a deleted MAPI object go: our finalizer, and machine-api-operator's while it pauses it. */
function releaseMapi(k: DeletionKind, mapi: MapiSide): Step | undefined {
  const authority = mapi.status?.authoritativeAPI;
  const paused =
    k.pausedMapiFinalizer !== undefined &&
    (authority === 'ClusterAPI' || authority === 'Migrating');
  return removeFinalizers(
    mapi,
    paused ? [FINALIZER, k.pausedMapiFinalizer!] : [FINALIZER],
    paused
      ? `releasing the deleted ${k.mapiNoun} (our and machine-api-operator's finalizers; it is paused)`
      : `releasing the deleted ${k.mapiNoun}`,
  );
}

/**
 * The table's step while the MAPI side or the mirror is being deleted; undefined while neither
 * is.
 */
export function planDeletion(k: DeletionKind, o: MirrorObserved, mapi: MapiSide): Step | undefined {
  const { mirror } = o;
  if (isDeleting(mapi)) return planMapiDeletion(k, o, mapi);
  if (mirror && isDeleting(mirror)) return planMirrorDeletion(k, o, mapi, mirror);
  return undefined;
}

/** The MAPI side is being deleted. */
function planMapiDeletion(k: DeletionKind, o: MirrorObserved, mapi: MapiSide): Step {
  const { mirror } = o;
  const machineApi = mapi.status?.authoritativeAPI === 'MachineAPI';
  const clusterApi = mapi.status?.authoritativeAPI === 'ClusterAPI';
  if (mirror && clusterApi && !isDeleting(mirror) && k.deletionAsksToGo?.(mapi)) {
    // The object itself is to go: Cluster API deletes it (drain, instance); the MAPI side
    // follows as it follows any deleted authoritative CAPI object.
    return {
      kind: 'delete',
      object: mirror,
      note: `deleting the authoritative ${k.capiNoun}: its ${k.mapiNoun} was deleted`,
    };
  }
  if (mirror && machineApi && isPaused(mirror)) {
    // Machine API is authoritative: its paused mirror goes with it, once Machine API is done.
    const busy = k.mapiStillDeleting?.(mapi);
    if (busy) return done(busy);
    if (!isDeleting(mirror)) {
      return {
        kind: 'delete',
        object: mirror,
        note: `deleting the mirror of a deleted ${k.mapiNoun}`,
      };
    }
    const release = releaseMirror(k, mirror);
    if (release) return release;
    // Leftovers of the mirror (templates) are released once it is gone, while we still hold
    // the MAPI side.
    if (k.leftovers) return done('waiting for the deleted mirror to go');
  } else if (mirror && isDeleting(mirror)) {
    const release = releaseMirror(k, mirror);
    if (release) return release;
  } else if (mirror) {
    // The CAPI side is, or may become, authoritative: it stays, and is no longer ours (neither
    // our finalizer nor the record that would have it deleted as our mirror).
    const release = removeFinalizers(
      mirror,
      [FINALIZER],
      `releasing the ${k.capiNoun} of a deleted ${k.mapiNoun}; it stays`,
      [MIRROR_UID_ANNOTATION],
    );
    if (release) return release;
  } else if (machineApi) {
    const leftover = k.leftovers?.();
    if (leftover) return leftover;
  }
  return releaseMapi(k, mapi) ?? done(`${k.mapiNoun} is being deleted; nothing of ours on it`);
}

/** The CAPI side is being deleted while the MAPI side stays. */
function planMirrorDeletion(
  k: DeletionKind,
  o: MirrorObserved,
  mapi: MapiSide,
  mirror: KubeObject,
): Step {
  const authority = mapi.status?.authoritativeAPI;
  if (authority === 'ClusterAPI') {
    // The authoritative side is going: its MAPI mirror follows.
    return {
      kind: 'delete',
      object: mapi,
      note: `deleting the MAPI mirror of a deleted authoritative ${k.capiNoun}`,
    };
  }
  if (authority === 'MachineAPI' && k.deletionAsksToGo?.(mirror)) {
    // The object itself is to go: Machine API deletes it (drain, instance), then its mirror goes.
    return {
      kind: 'delete',
      object: mapi,
      note: `deleting the authoritative ${k.mapiNoun}: its ${k.capiNoun} was deleted`,
    };
  }
  if (authority === 'MachineAPI') {
    const report = reportFailure(
      mapi,
      o.now,
      // Under MachineAPI a deleted mirror is a failed update of it.
      k.reasons.UpdateFailed,
      `The Cluster API mirror ${o.capiNamespace}/${o.name} is being deleted; it is created again from this ${k.kind} once it is gone.${k.mirrorDeletedNote}`,
      'mirror deletion reported',
    );
    if (report.kind !== 'done') return report;
  }
  // Migrating or not set: release what is deleted, never delete the other side.
  return releaseMirror(k, mirror) ?? done(`waiting for the deleted ${k.capiNoun} to go`);
}

/** No MAPI object of this name (and none to create): let go of whatever we held for it. */
export function planWithoutMapi(k: DeletionKind, o: MirrorObserved): Step {
  const { mirror } = o;
  if (mirror && isOurPausedMirror(mirror) && (isRecordedMirror(mirror) || isDeleting(mirror))) {
    // A paused mirror of a MAPI object that was authoritative and is gone mirrors nothing, even
    // if the MAPI side went while nothing held it (an uninstall); one being deleted is released.
    if (!isDeleting(mirror)) {
      return {
        kind: 'delete',
        object: mirror,
        note: `deleting the mirror of a ${k.mapiNoun} that is gone`,
      };
    }
    return releaseMirror(k, mirror) ?? done('waiting for the deleted mirror to go');
  }
  if (mirror) {
    return (
      removeFinalizers(mirror, [FINALIZER], `releasing a ${k.capiNoun} whose MAPI side is gone`) ??
      done(`no ${k.mapiNoun}; the ${k.capiNoun} is not ours to manage`)
    );
  }
  return k.leftovers?.() ?? done('nothing to do');
}
