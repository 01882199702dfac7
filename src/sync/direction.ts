// Which way one object syncs, written once for both kinds: nothing while the migration handshake
// owns it or before anyone copied spec into status; MAPI → CAPI while Machine API is
// authoritative, or while the CAPI side of a new object under Cluster API is still being made;
// CAPI → MAPI once Cluster API's object exists, recorded on the MAPI side. The deletion table
// (deletion.ts) comes first, and what else only one kind decides first (machine/plan.ts). Pure.
import type { KubeObject } from '../api/types.js';
import { AUTHORITY_ANNOTATION, CLUSTER_API_UID_ANNOTATION } from '../model/markers.js';
import type { SyncKind } from './kind.js';
import type { ReportingObject } from './report.js';
import { addFinalizer, annotate, done, hasFinalizer, isPaused, type Step } from './steps.js';

/**
 * The next write of one object's sync once neither side is being deleted: `forward` (MAPI → CAPI:
 * the paused mirror under MachineAPI, or the initial sync under ClusterAPI) or `reverse` (CAPI →
 * MAPI while Cluster API is authoritative), or what comes before either.
 */
export function planDirection<
  O extends { mirror?: C; now: string },
  M extends ReportingObject,
  C extends KubeObject,
>(
  k: SyncKind,
  o: O,
  mapi: M,
  forward: (o: O, mapi: M, authority: 'MachineAPI' | 'ClusterAPI') => Step,
  reverse: (o: O, mapi: M, capi: C) => Step,
): Step {
  const { mirror } = o;
  const authority = mapi.status?.authoritativeAPI;
  // Migrating belongs to the migration handshake, and an empty authority to whoever copies
  // spec into status first: the sync writes nothing at all.
  if (authority === 'Migrating') return done('authority is migrating; nothing is written');
  if (authority !== 'MachineAPI' && authority !== 'ClusterAPI') {
    return done('status.authoritativeAPI is not set yet; nothing is written');
  }
  // Our finalizer, before anything exists on the other side. No interim condition: the first
  // status write is the outcome, True or False (docs/machine-sets.md, "The writes, in order").
  if (!hasFinalizer(mapi)) return addFinalizer(mapi, `adding finalizer to ${k.mapiNoun}`);
  if (authority === 'MachineAPI') return forward(o, mapi, 'MachineAPI');
  if (!mirror) {
    // Recorded, not guessed: a CAPI side that existed and is gone was deleted; the MAPI mirror
    // follows it (deletion table), nothing is created again.
    if (recordedCapiUid(mapi)) {
      return {
        kind: 'delete',
        object: mapi,
        note: `deleting the MAPI mirror of an authoritative ${k.capiNoun} that is gone`,
      };
    }
    return forward(o, mapi, 'ClusterAPI');
  }
  if (initialSyncUnderway(mapi, mirror)) return forward(o, mapi, 'ClusterAPI');
  // The MAPI side records which CAPI object is authoritative for it, then mirrors it.
  const uid = mirror.metadata.uid ?? '';
  const record = capiUidRecord(mapi, uid);
  if (uid && mapi.metadata.annotations?.[CLUSTER_API_UID_ANNOTATION] !== record) {
    return annotate(
      mapi,
      { [CLUSTER_API_UID_ANNOTATION]: record },
      `recording the authoritative ${k.capiNoun}`,
    );
  }
  return reverse(o, mapi, mirror);
}

/**
 * The record of the authoritative CAPI object's uid, bound to the MAPI object it is written on
 * (`<MAPI uid>/<CAPI uid>`): `oc get -o yaml` and backups copy annotations, and a copy is a new
 * object, not the mirror of a CAPI object that is gone.
 */
function capiUidRecord(mapi: KubeObject, capiUid: string): string {
  return mapi.metadata.uid ? `${mapi.metadata.uid}/${capiUid}` : capiUid;
}

/**
 * The CAPI uid recorded on this very object. A record bound to another uid was copied (a clone,
 * a restore) and is none; an unbound one was written with the object itself (a MAPI mirror we
 * created, before the API server gave it a uid) and is bound by the next write.
 */
function recordedCapiUid(mapi: KubeObject): string | undefined {
  const value = mapi.metadata.annotations?.[CLUSTER_API_UID_ANNOTATION];
  if (!value) return undefined;
  const slash = value.indexOf('/');
  if (slash < 0) return value;
  return value.slice(0, slash) === mapi.metadata.uid ? value.slice(slash + 1) : undefined;
}

/**
 * The initial sync under ClusterAPI creates the CAPI object paused and marked as such, gives it
 * its companion, then unpauses it; until the MAPI side records the CAPI uid, a paused CAPI object
 * with that mark is ours to finish.
 */
function initialSyncUnderway(mapi: KubeObject, mirror: KubeObject): boolean {
  return (
    isPaused(mirror) &&
    mirror.metadata.annotations?.[AUTHORITY_ANNOTATION] === 'ClusterAPI' &&
    !recordedCapiUid(mapi)
  );
}
