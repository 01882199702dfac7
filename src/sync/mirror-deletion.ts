// Shared by the deletion of MachineSets and Machines: which paused mirror is ours, and how a
// deleted mirror is let go. Pure.
import type { KubeObject } from '../api/types.js';
import { AUTHORITY_ANNOTATION, FINALIZER } from '../model/markers.js';
import { isPaused, removeFinalizers, type Step } from './steps.js';

/** Our paused mirror of an authoritative MAPI object: nobody else acts on it. */
export function isOurPausedMirror(mirror: KubeObject): boolean {
  return isPaused(mirror) && mirror.metadata.annotations?.[AUTHORITY_ANNOTATION] === 'MachineAPI';
}

/**
 * Lets a deleted CAPI object go: our finalizer, and Cluster API's own (`capiFinalizer`) too when
 * it is paused (Cluster API then never will). Undefined when nothing of that is left.
 */
export function releaseDeletedMirror(
  mirror: KubeObject,
  capiFinalizer: string,
  what: string,
): Step | undefined {
  const paused = isPaused(mirror);
  return removeFinalizers(
    mirror,
    paused ? [FINALIZER, capiFinalizer] : [FINALIZER],
    paused
      ? `releasing the deleted paused ${what} (our and Cluster API's finalizers)`
      : `releasing the deleted ${what} (Cluster API finishes its own deletion)`,
  );
}
