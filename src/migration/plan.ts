// The migration handshake: moves status.authoritativeAPI to what the administrator
// asked for in spec.authoritativeAPI, one observable step at a time. Pure.
//
// Every state is derived from the objects alone (MAPI status, the CAPI
// MachineSet's annotations, both sides' Paused conditions), so a restart
// resumes where it stopped and never repeats a step wrongly.
import type { CapiMachineSet, MapiMachineSet } from '../api/types.js';
import { findSynchronized } from '../sync/conditions.js';
import { AUTHORITY_ANNOTATION, PAUSED_ANNOTATION, PAUSED_VALUE } from '../sync/markers.js';
import type { Observed } from '../sync/plan.js';
import { annotate, done, isDeleting, isPaused, patchSpec, type Step } from '../sync/steps.js';
import {
  conditionWrite,
  finalStatus,
  findMigration,
  isPausedBy,
  MigrationReason,
  type Authority,
  type MigrationState,
} from './status.js';

/**
 * The next write of the handshake, or undefined when it has nothing to write
 * (no migration wanted, or waiting with the reason already on the object).
 */
export function planMigration(o: Observed): Step | undefined {
  const { mapi } = o;
  // A MachineSet being deleted follows the deletion table, whatever its authority.
  if (!mapi || isDeleting(mapi)) return undefined;
  const wanted: Authority = mapi.spec.authoritativeAPI ?? 'MachineAPI';
  const current = mapi.status?.authoritativeAPI;
  if (!current) {
    return conditionWrite(mapi, o.now, undefined, 'copying spec.authoritativeAPI into status', {
      authoritativeAPI: wanted,
    });
  }
  if (current === 'Migrating') return planHandover(o, mapi, wanted);
  if (current === wanted) return settleWithdrawnRequest(o, mapi, current);
  return planGate(o, mapi, current, wanted);
}

/** A request withdrawn before the gate opened leaves no "waiting" message behind. */
function settleWithdrawnRequest(o: Observed, mapi: MapiMachineSet, current: Authority) {
  if (findMigration(mapi.status?.conditions)?.status !== 'True') return undefined;
  return conditionWrite(mapi, o.now, {
    status: 'False',
    reason: MigrationReason.NotRequested,
    message: `${current} is authoritative, as spec.authoritativeAPI asks; no migration is under way.`,
  });
}

/**
 * Step 2: the current authority must be fully mirrored before anything moves;
 * entering Migrating earlier would stop the sync that has yet to catch up.
 */
function planGate(
  o: Observed,
  mapi: MapiMachineSet,
  from: Authority,
  to: Authority,
): Step | undefined {
  const machines = machinesBlocker(o, mapi, from, to);
  if (machines) {
    return conditionWrite(mapi, o.now, {
      status: 'True',
      reason: MigrationReason.MachinesNotMirrored,
      message: `Migration from ${from} to ${to} is waiting: ${machines} Scale it to 0 to migrate it, or set spec.authoritativeAPI back to ${from} to withdraw the request; it starts by itself at 0 replicas.`,
    });
  }
  const waiting = gateBlocker(o, mapi, from);
  if (waiting) {
    return conditionWrite(mapi, o.now, {
      status: 'True',
      reason: MigrationReason.WaitingForSynchronization,
      message: `Migration from ${from} to ${to} is waiting: ${waiting} It starts by itself once the sync has caught up; set spec.authoritativeAPI back to ${from} to withdraw the request.`,
    });
  }
  return conditionWrite(
    mapi,
    o.now,
    pausingState(from, to, o),
    `entering Migrating (${from} → ${to})`,
    { authoritativeAPI: 'Migrating', synchronizedAPI: from },
    { type: 'Normal', reason: 'MigrationStarted', message: `Migrating from ${from} to ${to}.` },
  );
}

/**
 * Machines are not mirrored between the APIs yet: the new authority would find
 * none of the old one's machines and create its own fleet beside them. So only
 * a MachineSet without machines moves (spec and status both at 0).
 */
function machinesBlocker(
  o: Observed,
  mapi: MapiMachineSet,
  from: Authority,
  to: Authority,
): string | undefined {
  const side = from === 'MachineAPI' ? mapi : o.mirror;
  if (!side) return undefined; // the gate below says what is missing
  const wanted = side.spec.replicas ?? 1;
  const running = side.status?.replicas ?? 0;
  if (wanted === 0 && running === 0) return undefined;
  const which = from === 'MachineAPI' ? 'this MachineSet' : `${o.capiNamespace}/${o.name}`;
  return `${which} has machines (spec.replicas ${wanted}, status.replicas ${running}), and this version does not mirror Machines between the APIs, so ${to} would create machines of its own beside them.`;
}

/** Why the current authority is not fully mirrored yet, or undefined when it is. */
function gateBlocker(o: Observed, mapi: MapiMachineSet, from: Authority): string | undefined {
  const mirrorName = `${o.capiNamespace}/${o.name}`;
  const { mirror } = o;
  if (!mirror) return `the Cluster API MachineSet ${mirrorName} does not exist yet.`;
  if (isDeleting(mirror)) return `the Cluster API MachineSet ${mirrorName} is being deleted.`;
  const synchronized = findSynchronized(mapi.status?.conditions);
  const authoritative = from === 'MachineAPI' ? mapi : mirror;
  const generation = authoritative.metadata.generation ?? 0;
  const synchronizedGeneration = mapi.status?.synchronizedGeneration ?? 0;
  if (synchronized?.status === 'True' && synchronizedGeneration === generation) return undefined;
  const which = from === 'MachineAPI' ? 'this MachineSet' : mirrorName;
  const condition = synchronized
    ? `Synchronized is ${synchronized.status} (${synchronized.reason ?? 'no reason'})`
    : 'Synchronized is not reported yet';
  return `${condition}, and synchronizedGeneration is ${synchronizedGeneration} while the generation of ${which} (authoritative) is ${generation}.`;
}

/**
 * Steps 4–7 while Migrating: the target is whatever spec asks now, so setting
 * spec back to status.synchronizedAPI cancels by running the same steps home.
 */
function planHandover(o: Observed, mapi: MapiMachineSet, to: Authority): Step | undefined {
  const from: Authority =
    mapi.status?.synchronizedAPI ?? (to === 'MachineAPI' ? 'ClusterAPI' : 'MachineAPI');
  const { mirror } = o;
  const live = mirror && !isDeleting(mirror) ? mirror : undefined;

  // A mirror we marked MachineAPI would be deleted if the MAPI side vanished now.
  if (live && live.metadata.annotations?.[AUTHORITY_ANNOTATION] === 'MachineAPI') {
    return annotate(
      live,
      { [AUTHORITY_ANNOTATION]: 'Migrating' },
      'marking the CAPI machine set as migrating',
    );
  }
  return to === 'ClusterAPI'
    ? handOverToClusterApi(o, mapi, from, live)
    : handOverToMachineApi(o, mapi, from, live);
}

function handOverToClusterApi(
  o: Observed,
  mapi: MapiMachineSet,
  from: Authority,
  capi: CapiMachineSet | undefined,
): Step | undefined {
  const mirrorName = `${o.capiNamespace}/${o.name}`;
  if (!capi) {
    return conditionWrite(mapi, o.now, {
      status: 'True',
      reason: MigrationReason.WaitingForClusterAPIMachineSet,
      message: `Migrating to ClusterAPI needs the Cluster API MachineSet ${mirrorName}, which ${o.mirror ? 'is being deleted' : 'does not exist'}. Set spec.authoritativeAPI to MachineAPI to return this MachineSet to Machine API; the sync then creates the mirror again.`,
    });
  }
  if (!isPausedBy(mapi.status?.conditions, 'True')) {
    return conditionWrite(mapi, o.now, pausingState(from, 'ClusterAPI', o));
  }
  // The old authority changed after the gate: go back, let the sync carry the
  // change over, and migrate again (spec still asks for ClusterAPI).
  if (
    from === 'MachineAPI' &&
    (mapi.metadata.generation ?? 0) !== (mapi.status?.synchronizedGeneration ?? 0)
  ) {
    return restart(o, mapi, 'MachineAPI', 'ClusterAPI', capi);
  }
  if (isPaused(capi) || capi.metadata.annotations?.[AUTHORITY_ANNOTATION] !== 'ClusterAPI') {
    return annotate(
      capi,
      { [PAUSED_ANNOTATION]: null, [AUTHORITY_ANNOTATION]: 'ClusterAPI' },
      'unpausing the CAPI machine set',
    );
  }
  return finish(o, mapi, from, 'ClusterAPI');
}

function handOverToMachineApi(
  o: Observed,
  mapi: MapiMachineSet,
  from: Authority,
  capi: CapiMachineSet | undefined,
): Step | undefined {
  if (capi) {
    if (!isPaused(capi) || capi.metadata.annotations?.[AUTHORITY_ANNOTATION] !== 'Migrating') {
      return annotate(
        capi,
        { [PAUSED_ANNOTATION]: PAUSED_VALUE, [AUTHORITY_ANNOTATION]: 'Migrating' },
        'pausing the CAPI machine set',
      );
    }
    if (!isPausedBy(capi.status?.conditions, 'True')) {
      return conditionWrite(mapi, o.now, pausingState(from, 'MachineAPI', o));
    }
    if (
      from === 'ClusterAPI' &&
      (capi.metadata.generation ?? 0) !== (mapi.status?.synchronizedGeneration ?? 0)
    ) {
      return restart(o, mapi, 'ClusterAPI', 'MachineAPI', capi);
    }
  }
  // Machines this MachineSet creates were Cluster API's while it mirrored Cluster API.
  if (from === 'ClusterAPI' && mapi.spec.template?.spec?.authoritativeAPI === 'ClusterAPI') {
    return patchSpec(
      mapi,
      { template: { spec: { authoritativeAPI: 'MachineAPI' } } },
      'giving the machines this MAPI machine set creates back to Machine API',
    );
  }
  return finish(o, mapi, from, 'MachineAPI');
}

/** Step 7: one status write leaves Migrating. */
function finish(o: Observed, mapi: MapiMachineSet, from: Authority, to: Authority): Step {
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
  return finalStatus(mapi, o.now, to, state, {
    type: 'Normal',
    reason: cancelled ? 'MigrationCancelled' : 'MigrationCompleted',
    message: state.message,
  });
}

/** The old authority changed during the handshake: return to it, then migrate again. */
function restart(
  o: Observed,
  mapi: MapiMachineSet,
  home: Authority,
  to: Authority,
  capi: CapiMachineSet,
): Step {
  const which =
    home === 'MachineAPI' ? 'This MachineSet' : `${o.capiNamespace}/${capi.metadata.name}`;
  const state: MigrationState = {
    status: 'True',
    reason: MigrationReason.Restarting,
    message: `${which} changed while migrating to ${to}; ${home} is authoritative again until the change is synchronized, then the migration starts again.`,
  };
  if (home === 'MachineAPI' && !isPaused(capi)) {
    // Never two active sides: the CAPI MachineSet is paused again first.
    return annotate(
      capi,
      { [PAUSED_ANNOTATION]: PAUSED_VALUE },
      'pausing the CAPI machine set again',
    );
  }
  if (home === 'MachineAPI' && !isPausedBy(capi.status?.conditions, 'True')) {
    return conditionWrite(mapi, o.now, state) ?? done('waiting for Cluster API to pause again');
  }
  if (home === 'ClusterAPI' && isPaused(capi)) {
    return annotate(
      capi,
      { [PAUSED_ANNOTATION]: null, [AUTHORITY_ANNOTATION]: 'ClusterAPI' },
      'unpausing the CAPI machine set again',
    );
  }
  return finalStatus(mapi, o.now, home, state, {
    type: 'Normal',
    reason: 'MigrationRestarted',
    message: state.message,
  });
}

/** What step 5 waits for, said on the object. */
function pausingState(from: Authority, to: Authority, o: Observed): MigrationState {
  const waitingFor =
    to === 'ClusterAPI'
      ? 'machine-api-operator to pause this MachineSet (its condition Paused=True, set while status.authoritativeAPI is Migrating; machine-api-operator must run with the MachineAPIMigration feature gate)'
      : `Cluster API to pause ${o.capiNamespace}/${o.name} (its condition Paused=True, set from the cluster.x-k8s.io/paused annotation)`;
  const verb = from === to ? 'Returning to' : `Migrating from ${from} to`;
  return {
    status: 'True',
    reason: MigrationReason.WaitingForPause,
    message: `${verb} ${to}: waiting for ${waitingFor}. Set spec.authoritativeAPI to ${from === to ? (to === 'MachineAPI' ? 'ClusterAPI' : 'MachineAPI') : from} to ${from === to ? 'migrate after all' : 'cancel'}.`,
  };
}
