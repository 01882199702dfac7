// The deletion table for Machines (product.md, "Deletion", per Machine). Pure.
//
// Besides our own finalizer, three finalizers belong to controllers that never remove them while
// they pause an object: Cluster API's on a paused CAPI Machine, the provider's on a paused
// infrastructure machine (added while Cluster API was authoritative, so after a round trip), and
// machine-api-operator's on a MAPI Machine it pauses (authority not MachineAPI). Whenever we let such a paused object go, we
// remove that finalizer too, or it stays Terminating for ever. The authoritative side is never
// deleted because its mirror went away.
import type { CapiMachine, MapiMachine } from '../../api/types.js';
import { MachineReason } from '../conditions.js';
import { CAPI_MACHINE_FINALIZER, FINALIZER, MAPI_MACHINE_FINALIZER } from '../../model/markers.js';
import { isOurPausedMirror, releaseDeletedMirror } from '../mirror-deletion.js';
import { reportFailure } from '../report.js';
import { done, hasFinalizer, isDeleting, isPaused, removeFinalizers, type Step } from '../steps.js';
import type { MachineObserved } from './observed.js';

/** Lets a deleted CAPI Machine go: our finalizer, and Cluster API's too while it is paused. */
const releaseMachine = (mirror: CapiMachine) =>
  releaseDeletedMirror(mirror, CAPI_MACHINE_FINALIZER, 'CAPI Machine');

/** True when machine-api-operator pauses this MAPI Machine and so never releases it. */
function pausedByMachineApiOperator(mapi: MapiMachine): boolean {
  const authority = mapi.status?.authoritativeAPI;
  return authority === 'ClusterAPI' || authority === 'Migrating';
}

/** Lets a deleted MAPI Machine go: our finalizer, and machine-api-operator's while it pauses it. */
function releaseDeletedMapi(mapi: MapiMachine): Step | undefined {
  const paused = pausedByMachineApiOperator(mapi);
  return removeFinalizers(
    mapi,
    paused ? [FINALIZER, MAPI_MACHINE_FINALIZER] : [FINALIZER],
    paused
      ? "releasing the deleted MAPI Machine (our and machine-api-operator's finalizers; it is paused)"
      : 'releasing the deleted MAPI Machine',
  );
}

/**
 * A paused infrastructure machine being deleted: the provider never acts on it, so its finalizer
 * goes with ours, unless an unpaused CAPI Machine (Cluster API authoritative) still owns it.
 */
export function releaseDeletedInfrastructureMachine(o: MachineObserved): Step | undefined {
  const { infrastructureMachine: infra, mirror } = o;
  const providerFinalizer = o.converter?.machine?.finalizer;
  if (!infra || !providerFinalizer || !isDeleting(infra) || !isPaused(infra)) return undefined;
  if (mirror && !isPaused(mirror)) return undefined;
  return removeFinalizers(
    infra,
    [FINALIZER, providerFinalizer],
    `releasing the deleted paused ${infra.kind} (our and the provider's finalizers)`,
  );
}

/** The MAPI Machine is being deleted. */
export function planMapiMachineDeletion(o: MachineObserved, mapi: MapiMachine): Step {
  const { mirror } = o;
  const machineApi = mapi.status?.authoritativeAPI === 'MachineAPI';
  if (mirror && machineApi && isPaused(mirror)) {
    // Machine API is authoritative: its paused mirror goes with it (machine-api-operator
    // deletes the instance and releases the MAPI Machine).
    if (!isDeleting(mirror)) {
      return {
        kind: 'delete',
        object: mirror,
        note: 'deleting the mirror of a deleted MAPI Machine',
      };
    }
    const release = releaseMachine(mirror);
    if (release) return release;
  } else if (mirror) {
    // The CAPI Machine is, or may become, authoritative: it stays; only our finalizer leaves it.
    const release = removeFinalizers(
      mirror,
      [FINALIZER],
      'releasing the CAPI Machine of a deleted MAPI Machine; it stays',
    );
    if (release) return release;
  }
  return releaseDeletedMapi(mapi) ?? done('MAPI Machine is being deleted; nothing of ours on it');
}

/** The CAPI Machine is being deleted while the MAPI Machine stays. */
export function planMachineMirrorDeletion(
  o: MachineObserved,
  mapi: MapiMachine,
  mirror: CapiMachine,
): Step {
  const authority = mapi.status?.authoritativeAPI;
  if (authority === 'ClusterAPI') {
    // The authoritative machine is going: its MAPI mirror follows.
    return {
      kind: 'delete',
      object: mapi,
      note: 'deleting the MAPI mirror of a deleted authoritative CAPI Machine',
    };
  }
  if (authority === 'MachineAPI') {
    const report = reportFailure(
      mapi,
      o.now,
      MachineReason.UpdateFailed,
      `The Cluster API mirror ${o.capiNamespace}/${o.name} is being deleted; it is created again from this Machine once it is gone. The instance is not affected: the mirror is paused.`,
      'mirror deletion reported',
    );
    if (report.kind !== 'done') return report;
  }
  return releaseMachine(mirror) ?? done('waiting for the deleted CAPI Machine to go');
}

/**
 * The MAPI MachineSet that owns the Machine is being deleted, and its Machines go with it (the
 * garbage collector deletes them, and the CAPI mirrors with the CAPI MachineSet): nothing to
 * report or recreate, only a deleted mirror to release.
 */
export function planWhileMachineSetDeleted(o: MachineObserved): Step {
  const { mirror } = o;
  const release = mirror && isDeleting(mirror) ? releaseMachine(mirror) : undefined;
  return release ?? done('its MachineSet is being deleted; the Machine goes with it');
}

/** No MAPI Machine of this name, and no MAPI mirror to create: let go of what we held. */
export function planMachineWithoutMapi(o: MachineObserved): Step {
  const { mirror } = o;
  if (mirror && isOurPausedMirror(mirror) && (hasFinalizer(mirror) || isDeleting(mirror))) {
    if (!isDeleting(mirror)) {
      return {
        kind: 'delete',
        object: mirror,
        note: 'deleting the mirror of a MAPI Machine that is gone',
      };
    }
    return releaseMachine(mirror) ?? done('waiting for the deleted mirror to go');
  }
  if (mirror) {
    return (
      removeFinalizers(mirror, [FINALIZER], 'releasing a CAPI Machine whose MAPI side is gone') ??
      done('no MAPI Machine; the CAPI Machine is not ours to manage')
    );
  }
  return done('nothing to do');
}
