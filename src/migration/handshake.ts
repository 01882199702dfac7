// The migration handshake over one subject: moves status.authoritativeAPI to what the
// administrator asked for in spec.authoritativeAPI, one observable step at a time. Pure.
//
// Every state is derived from the objects alone (MAPI status, the CAPI object's
// annotations, both sides' Paused conditions), so a restart resumes where it stopped and
// never repeats a step wrongly.
import type { KubeObject } from '../api/types.js';
import { findSynchronized } from '../sync/conditions.js';
import { AUTHORITY_ANNOTATION, PAUSED_ANNOTATION, PAUSED_VALUE } from '../model/markers.js';
import { annotate, done, hasFinalizer, isDeleting, isPaused, type Step } from '../sync/steps.js';
import {
  conditionWrite,
  finalStatus,
  findMigration,
  isPausedBy,
  MigrationReason,
  type Authority,
  type MigrationState,
} from './status.js';
import type { CapiSide, Direction, Subject } from './subject.js';

/**
 * The next write of the handshake, or undefined when it has nothing to write
 * (no migration wanted, or waiting with the reason already on the object).
 */
export function planHandshake(s: Subject): Step | undefined {
  const { mapi } = s;
  // An object being deleted follows the deletion table, whatever its authority, once a
  // migration it stops has left authority where it was when the deletion was asked.
  if (isDeleting(mapi)) return stopForDeletion(s);
  const current = mapi.status?.authoritativeAPI;
  const wanted = wantedAuthority(mapi);
  if (!current) {
    return conditionWrite(mapi, s.now, undefined, 'copying spec.authoritativeAPI into status', {
      authoritativeAPI: wanted,
    });
  }
  if (current === 'Migrating') return planHandover(s, wanted);
  if (current === wanted) return settleWithdrawnRequest(s, current);
  return planGate(s, current, wanted);
}

/**
 * Whether the handshake has anything to do beyond bookkeeping: a migration is asked for (spec and
 * status differ) or under way (Migrating). Only then does it read the subject's followers (a
 * MachineSet's Machines), so only then need a change of one of them wake it. Mirrors the branches
 * of planHandshake.
 */
export function migrationWantedOrUnderWay(mapi: Subject['mapi']): boolean {
  if (isDeleting(mapi)) return false;
  const current = mapi.status?.authoritativeAPI;
  if (!current) return false;
  return current === 'Migrating' || current !== wantedAuthority(mapi);
}

/**
 * What spec.authoritativeAPI asks for (the CRD defaults it to MachineAPI). An object without
 * spec, which the CRD admits, asks for nothing: the authority stays where status has it, a
 * migration under way goes on to its target, and an empty status gets the CRD's default.
 */
function wantedAuthority(mapi: Subject['mapi']): Authority {
  if (mapi.spec) return mapi.spec.authoritativeAPI ?? 'MachineAPI';
  const { authoritativeAPI, synchronizedAPI } = mapi.status ?? {};
  if (authoritativeAPI === 'MachineAPI' || authoritativeAPI === 'ClusterAPI') {
    return authoritativeAPI;
  }
  if (authoritativeAPI === 'Migrating' && synchronizedAPI) return opposite(synchronizedAPI);
  return 'MachineAPI';
}

/** A request withdrawn before the gate opened leaves no "waiting" message behind. */
function settleWithdrawnRequest(s: Subject, current: Authority) {
  if (findMigration(s.mapi.status?.conditions)?.status !== 'True') return undefined;
  return conditionWrite(s.mapi, s.now, {
    status: 'False',
    reason: MigrationReason.NotRequested,
    message: `${current} is authoritative, as spec.authoritativeAPI asks; no migration is under way.`,
  });
}

/**
 * Step 2: the current authority must be fully mirrored before anything moves;
 * entering Migrating earlier would stop the sync that has yet to catch up.
 */
function planGate(s: Subject, from: Authority, to: Authority): Step | undefined {
  const waiting = gateBlocker(s, from);
  if (waiting) {
    return conditionWrite(s.mapi, s.now, {
      status: 'True',
      reason: MigrationReason.WaitingForSynchronization,
      message: `Migration from ${from} to ${to} is waiting: ${waiting} It starts by itself once the sync has caught up; set spec.authoritativeAPI back to ${from} to withdraw the request.`,
    });
  }
  const further = s.gate?.(from, to);
  if (further) return conditionWrite(s.mapi, s.now, further);
  return conditionWrite(
    s.mapi,
    s.now,
    pausingState(s, from, to),
    `entering Migrating (${from} → ${to})`,
    { authoritativeAPI: 'Migrating', synchronizedAPI: from },
    { type: 'Normal', reason: 'MigrationStarted', message: `Migrating from ${from} to ${to}.` },
  );
}

/** Why the current authority is not fully mirrored yet, or undefined when it is. */
function gateBlocker(s: Subject, from: Authority): string | undefined {
  const { capi, mapi } = s;
  if (!capi) return `the Cluster API ${s.kind} ${s.capiName} does not exist yet.`;
  if (isDeleting(capi)) return `the Cluster API ${s.kind} ${s.capiName} is being deleted.`;
  const synchronized = findSynchronized(mapi.status?.conditions);
  const authoritative = from === 'MachineAPI' ? mapi : capi;
  const generation = authoritative.metadata.generation ?? 0;
  const synchronizedGeneration = mapi.status?.synchronizedGeneration ?? 0;
  if (synchronized?.status === 'True' && synchronizedGeneration === generation) return undefined;
  const which = from === 'MachineAPI' ? `this ${s.kind}` : s.capiName;
  const condition = synchronized
    ? `Synchronized is ${synchronized.status} (${synchronized.reason ?? 'no reason'})`
    : 'Synchronized is not reported yet';
  return `${condition}, and synchronizedGeneration is ${synchronizedGeneration} while the generation of ${which} (authoritative) is ${generation}.`;
}

/**
 * Steps 4–7 while Migrating: the target is whatever spec asks now, so setting
 * spec back to status.synchronizedAPI cancels by running the same steps home.
 */
function planHandover(s: Subject, to: Authority): Step | undefined {
  const from = s.mapi.status?.synchronizedAPI;
  if (!from) return settleUnexplainedMigrating(s);
  if (from === 'ClusterAPI' && (!s.capi || isDeleting(s.capi))) return yieldToDeletion(s);
  const live = s.capi && !isDeleting(s.capi) ? s.capi : undefined;

  // A mirror we marked MachineAPI would be deleted if the MAPI side vanished now.
  if (live && live.metadata.annotations?.[AUTHORITY_ANNOTATION] === 'MachineAPI') {
    return annotate(
      live,
      { [AUTHORITY_ANNOTATION]: 'Migrating' },
      `marking the CAPI ${s.noun} as migrating`,
    );
  }
  return to === 'ClusterAPI'
    ? handOverToClusterApi(s, from, live)
    : handOverToMachineApi(s, from, live);
}

/**
 * Migrating without synchronizedAPI was written by someone else: where authority was is not
 * guessed from spec but read from the objects (Cluster API acts only on an unpaused object), and
 * status returns there; a migration that spec asks for then starts at the gate like any other.
 */
function settleUnexplainedMigrating(s: Subject): Step {
  const proven: Authority = s.capi && !isPaused(s.capi) ? 'ClusterAPI' : 'MachineAPI';
  const evidence =
    proven === 'ClusterAPI'
      ? `Cluster API acts on ${s.capiName} (it is not paused)`
      : s.capi
        ? `${s.capiName} is paused`
        : `there is no Cluster API ${s.kind} ${s.capiName}`;
  const state: MigrationState = {
    status: 'False',
    reason: MigrationReason.NotStarted,
    message: `status.authoritativeAPI was Migrating without status.synchronizedAPI, which this controller never writes; ${proven} is authoritative, as the objects show (${evidence}). No migration was started: edit spec.authoritativeAPI to migrate.`,
  };
  return finalStatus(s.mapi, s.now, proven, state, {
    type: 'Warning',
    reason: MigrationReason.NotStarted,
    message: state.message,
  });
}

/**
 * Cluster API's object is being deleted, or is gone, while authority leaves it (or while Cluster
 * API, unpaused, already acts on it): the deletion, asked of the authoritative side, wins. Everything paused for the hand-over is unpaused so that
 * Cluster API finishes it (a paused object is never deleted), and ClusterAPI stays
 * authoritative; the deletion table then lets the MAPI side follow.
 */
function yieldToDeletion(
  s: Subject,
  message = `${s.capiName} is ${s.capi ? 'being deleted' : 'deleted'}, so the migration to MachineAPI stops: ClusterAPI stays authoritative, and this ${s.kind} follows the deletion.`,
  why = ' being deleted',
): Step {
  return (s.capi && unpause(s, s.capi, why)) ?? returnAuthority(s, 'ClusterAPI', message);
}

/**
 * The MAPI side is being deleted while Migrating: the migration stops, and the API that was
 * authoritative when the deletion was asked carries it out (a paused object nobody acts on,
 * Terminating or not, stays for ever, with its instance). Coming back from Cluster API, still
 * authoritative: what the hand-back paused is unpaused, and the deletion table lets the MAPI side
 * go and leaves the CAPI side as it was. Going to Cluster API: whatever was unpaused is paused
 * again, and status returns to MachineAPI, whose controllers delete the machines (drained) before
 * the deletion table deletes the paused mirror.
 */
function stopForDeletion(s: Subject): Step | undefined {
  const { status } = s.mapi;
  if (status?.authoritativeAPI !== 'Migrating') return undefined;
  const why = `: the MAPI ${s.noun} is being deleted`;
  if (status.synchronizedAPI === 'ClusterAPI') return s.capi && unpause(s, s.capi, why);
  if (status.synchronizedAPI !== 'MachineAPI') return undefined;
  const { capi } = s;
  // Cluster API, already acting, is deleting the CAPI side too: it finishes what it began.
  if (capi && isDeleting(capi) && !isPaused(capi)) {
    return yieldToDeletion(
      s,
      `This ${s.kind} is being deleted, and Cluster API, already authoritative for ${s.capiName}, is deleting it too: the migration ends at ClusterAPI, which carries the deletion out.`,
      why,
    );
  }
  if (capi && !isPaused(capi)) {
    return annotate(
      capi,
      { [PAUSED_ANNOTATION]: PAUSED_VALUE },
      `pausing the CAPI ${s.noun} again${why}`,
    );
  }
  const companion = pauseCompanionsAgain(s, why);
  if (companion) return companion;
  if (capi && !isDeleting(capi) && !isPausedBy(capi.status?.conditions, 'True')) {
    return done(`waiting for Cluster API to pause ${s.capiName} again`);
  }
  // Machines already handed over stay Cluster API's: deleted with the MachineSet, by it.
  return returnAuthority(
    s,
    'MachineAPI',
    `This ${s.kind} is being deleted, so the migration to ClusterAPI stops: MachineAPI, authoritative when the deletion was asked, stays authoritative and carries it out.`,
  );
}

/**
 * Pauses again, one per step, the companions a hand-over to Cluster API unpaused, even one being
 * deleted: with its CAPI object paused or gone, Cluster API does not finish it.
 */
function pauseCompanionsAgain(s: Subject, why: string): Step | undefined {
  const unpaused = s.companions.find((c) => !isPaused(c));
  return (
    unpaused &&
    annotate(
      unpaused,
      { [PAUSED_ANNOTATION]: PAUSED_VALUE },
      `pausing the ${describe(unpaused)} again${why}`,
    )
  );
}

/** Status returns to the API that carries out a deletion, and says why. */
function returnAuthority(s: Subject, to: Authority, message: string): Step {
  const state: MigrationState = {
    status: 'False',
    reason: MigrationReason.StoppedByDeletion,
    message,
  };
  return finalStatus(s.mapi, s.now, to, state, {
    type: 'Normal',
    reason: MigrationReason.StoppedByDeletion,
    message,
  });
}

/**
 * The CAPI side was deleted while authority was moving to it. Cluster API, already acting on it
 * (unpaused), carries the deletion out and stays authoritative. Otherwise Machine API is
 * authoritative again (what was unpaused under the CAPI side paused again first): the sync creates
 * the mirror again, and the migration, still asked for, starts again at the gate.
 */
function restartWithoutCapi(s: Subject): Step {
  const { capi } = s;
  if (capi && !isPaused(capi)) {
    return yieldToDeletion(
      s,
      `${s.capiName} is being deleted by Cluster API, which already acts on it: the migration ends at ClusterAPI, which carries the deletion out, and this ${s.kind} follows it.`,
    );
  }
  const companion = pauseCompanionsAgain(
    s,
    `: the CAPI ${s.noun} is ${capi ? 'being deleted' : 'gone'}`,
  );
  if (companion) return companion;
  const state: MigrationState = {
    status: 'True',
    reason: MigrationReason.Restarting,
    message: `${s.capiName} was deleted while migrating to ClusterAPI; MachineAPI is authoritative again until the sync has created it again, then the migration starts again. Set spec.authoritativeAPI to MachineAPI to stay on Machine API.`,
  };
  return finalStatus(s.mapi, s.now, 'MachineAPI', state, {
    type: 'Normal',
    reason: 'MigrationRestarted',
    message: state.message,
  });
}

function handOverToClusterApi(
  s: Subject,
  from: Authority,
  capi: CapiSide | undefined,
): Step | undefined {
  const { mapi } = s;
  if (!capi) return restartWithoutCapi(s);
  if (!isPausedBy(mapi.status?.conditions, 'True')) {
    return conditionWrite(mapi, s.now, pausingState(s, from, 'ClusterAPI'));
  }
  // The old authority changed after the gate: go back, let the sync carry the
  // change over, and migrate again (spec still asks for ClusterAPI).
  if (from === 'MachineAPI' && changedSinceGate(s, mapi, from)) {
    return restart(s, 'MachineAPI', 'ClusterAPI', capi);
  }
  const towards = direction(from, 'ClusterAPI');
  return (
    s.follow?.('ClusterAPI', towards) ??
    unpauseCompanions(s, '') ??
    awaitProvider(s, towards) ??
    s.beforeTakeover?.(from, 'ClusterAPI') ??
    unpause(s, capi, '') ??
    finish(s, from, 'ClusterAPI')
  );
}

/**
 * The old authority changed after the gate (its generation moved past the synchronized one) in
 * more than what the subject carries over itself (a MachineSet's replicas).
 */
function changedSinceGate(s: Subject, old: KubeObject, from: Authority): boolean {
  const synchronized =
    (old.metadata.generation ?? 0) === (s.mapi.status?.synchronizedGeneration ?? 0);
  return !synchronized && !s.scaledOnly?.(from);
}

/**
 * The companions are unpaused, and the CAPI object waits until their provider has taken them in
 * hand (its finalizer): a deletion from then on is carried out by the provider, instance and all.
 * Until then Machine API stays authoritative, and a deletion is Machine API's.
 */
function awaitProvider(s: Subject, { lead, wayOut }: Direction): Step | undefined {
  const waiting = s.companions.find((c) => {
    const finalizer = s.providerFinalizer?.(c);
    return finalizer !== undefined && !isDeleting(c) && !hasFinalizer(c, finalizer);
  });
  if (!waiting) return undefined;
  const state: MigrationState = {
    status: 'True',
    reason: MigrationReason.WaitingForProvider,
    message: `${lead}: waiting for the provider to take ${describe(waiting)} in hand (its finalizer ${s.providerFinalizer?.(waiting) ?? ''}, added on its first reconcile after the unpause) before ${s.capiName} is unpaused; if it does not come, see that object's conditions and the provider's controller.${wayOut}`,
  };
  return (
    conditionWrite(s.mapi, s.now, state) ?? done(`waiting for the provider of ${describe(waiting)}`)
  );
}

function handOverToMachineApi(
  s: Subject,
  from: Authority,
  capi: CapiSide | undefined,
): Step | undefined {
  const { mapi } = s;
  if (capi) {
    // The old authority changed after the gate: go back (checked before pausing, so that a
    // return under way is not paused again), let the sync carry the change, migrate again.
    if (from === 'ClusterAPI' && changedSinceGate(s, capi, from)) {
      return restart(s, 'ClusterAPI', 'MachineAPI', capi);
    }
    if (!isPaused(capi) || capi.metadata.annotations?.[AUTHORITY_ANNOTATION] !== 'Migrating') {
      return annotate(
        capi,
        { [PAUSED_ANNOTATION]: PAUSED_VALUE, [AUTHORITY_ANNOTATION]: 'Migrating' },
        `pausing the CAPI ${s.noun}`,
      );
    }
  }
  const companion = pauseCompanions(s, '');
  if (companion) return companion;
  if (capi && !isPausedBy(capi.status?.conditions, 'True')) {
    return conditionWrite(mapi, s.now, pausingState(s, from, 'MachineAPI'));
  }
  return (
    s.follow?.('MachineAPI', direction(from, 'MachineAPI')) ??
    s.beforeTakeover?.(from, 'MachineAPI') ??
    finish(s, from, 'MachineAPI')
  );
}

/** Pauses the companions that are not paused yet, one per step. */
function pauseCompanions(s: Subject, again: string): Step | undefined {
  // One being deleted, or whose CAPI object Cluster API is deleting (it deletes the companion
  // next), is left to its deletion: paused, it would never finish. The deletion wins.
  if (s.capi && isDeleting(s.capi)) return undefined;
  const unpaused = s.companions.find((c) => !isPaused(c) && !isDeleting(c));
  if (!unpaused) return undefined;
  return annotate(
    unpaused,
    { [PAUSED_ANNOTATION]: PAUSED_VALUE },
    `pausing the ${describe(unpaused)}${again}`,
  );
}

/** Unpauses the companions, one per step. */
function unpauseCompanions(s: Subject, again: string): Step | undefined {
  const paused = s.companions.find((c) => isPaused(c));
  return (
    paused &&
    annotate(paused, { [PAUSED_ANNOTATION]: null }, `unpausing the ${describe(paused)}${again}`)
  );
}

/** Unpauses the companions, then the CAPI object (marking it ClusterAPI's), one per step. */
function unpause(s: Subject, capi: CapiSide, again: string): Step | undefined {
  const companion = unpauseCompanions(s, again);
  if (companion) return companion;
  if (isPaused(capi) || capi.metadata.annotations?.[AUTHORITY_ANNOTATION] !== 'ClusterAPI') {
    return annotate(
      capi,
      { [PAUSED_ANNOTATION]: null, [AUTHORITY_ANNOTATION]: 'ClusterAPI' },
      `unpausing the CAPI ${s.noun}${again}`,
    );
  }
  return undefined;
}

function describe(object: KubeObject): string {
  return `${object.kind} ${object.metadata.namespace ?? ''}/${object.metadata.name}`;
}

/** Step 7: one status write leaves Migrating. */
function finish(s: Subject, from: Authority, to: Authority): Step {
  const cancelled = from === to;
  const state: MigrationState = cancelled
    ? {
        status: 'False',
        reason: MigrationReason.Cancelled,
        message: `The migration was cancelled; ${to} is authoritative again.`,
      }
    : {
        status: 'False',
        reason: MigrationReason.Completed,
        message: `Migrated from ${from} to ${to}; the sync now runs from ${to}.`,
      };
  return finalStatus(s.mapi, s.now, to, state, {
    type: 'Normal',
    reason: cancelled ? 'MigrationCancelled' : 'MigrationCompleted',
    message: state.message,
  });
}

/** The old authority changed during the handshake: return to it, then migrate again. */
function restart(s: Subject, home: Authority, to: Authority, capi: CapiSide): Step {
  const which = home === 'MachineAPI' ? `This ${s.kind}` : s.capiName;
  const state: MigrationState = {
    status: 'True',
    reason: MigrationReason.Restarting,
    message: `${which} changed while migrating to ${to}; ${home} is authoritative again until the change is synchronized, then the migration starts again.`,
  };
  if (home === 'MachineAPI') {
    // Never two active sides: the CAPI side is paused again first.
    if (!isPaused(capi)) {
      return annotate(
        capi,
        { [PAUSED_ANNOTATION]: PAUSED_VALUE },
        `pausing the CAPI ${s.noun} again`,
      );
    }
    const companion = pauseCompanions(s, ' again');
    if (companion) return companion;
    if (!isPausedBy(capi.status?.conditions, 'True')) {
      return conditionWrite(s.mapi, s.now, state) ?? done('waiting for Cluster API to pause again');
    }
  }
  const back: Direction = {
    lead: `Returning to ${home} (${which} changed while migrating to ${to})`,
    wayOut: '',
  };
  return (
    s.follow?.(home, back) ??
    (home === 'ClusterAPI' ? unpause(s, capi, ' again') : undefined) ??
    finalStatus(s.mapi, s.now, home, state, {
      type: 'Normal',
      reason: 'MigrationRestarted',
      message: state.message,
    })
  );
}

/** How messages about a handshake from `from` to `to` begin, and the way out they offer. */
function direction(from: Authority, to: Authority): Direction {
  if (from === to) {
    return {
      lead: `Returning to ${to}`,
      wayOut: ` Set spec.authoritativeAPI to ${opposite(to)} to migrate after all.`,
    };
  }
  return {
    lead: `Migrating from ${from} to ${to}`,
    wayOut: ` Set spec.authoritativeAPI to ${from} to cancel.`,
  };
}

/** What step 5 waits for, said on the object. */
function pausingState(s: Subject, from: Authority, to: Authority): MigrationState {
  const waitingFor =
    to === 'ClusterAPI'
      ? `machine-api-operator to pause this ${s.kind} (its condition Paused=True, set while status.authoritativeAPI is Migrating; machine-api-operator must run with the MachineAPIMigration feature gate)`
      : `Cluster API to pause ${s.capiName} (its condition Paused=True, set from the cluster.x-k8s.io/paused annotation)`;
  const { lead, wayOut } = direction(from, to);
  return {
    status: 'True',
    reason: MigrationReason.WaitingForPause,
    message: `${lead}: waiting for ${waitingFor}.${wayOut}`,
  };
}

function opposite(authority: Authority): Authority {
  return authority === 'MachineAPI' ? 'ClusterAPI' : 'MachineAPI';
}
