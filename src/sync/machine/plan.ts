// Decides the next write for one Machine from what was observed. Pure. The same shape as the
// MachineSet plan: deletion first (a deleted paused infrastructure machine before anything),
// then the direction that status.authoritativeAPI names (../direction.ts). What is the
// Machine's own: the MAPI mirror of a CAPI Machine an authoritative CAPI MachineSet created, and
// a Machine whose MachineSet is going goes with it.
import type { MapiMachine } from '../../api/types.js';
import { planDirection } from '../direction.js';
import { done, isDeleting, type Step } from '../steps.js';
import {
  goesWithItsMachineSet,
  planMachineDeletion,
  planMachineWithoutMapi,
  planWhileMachineSetDeleted,
  releaseDeletedProviderObjects,
} from './deletion.js';
import { planMachineForward } from './forward.js';
import { MACHINES } from './kind.js';
import type { MachineObserved } from './observed.js';
import { planMachineReverse, planMapiMirrorCreation } from './reverse.js';

export function planMachineSync(o: MachineObserved): Step {
  const { mapi } = o;
  const infrastructure = releaseDeletedProviderObjects(o);
  if (infrastructure) return infrastructure;
  if (!mapi) return planMapiMirrorCreation(o) ?? planMachineWithoutMapi(o);
  // Its MachineSet going takes the Machine along; a Machine being deleted itself follows the
  // deletion table.
  if (!isDeleting(mapi) && machineSetGoneOrGoing(o, mapi))
    return planWhileMachineSetDeleted(o, mapi);
  return (
    planMachineDeletion(o, mapi) ??
    waitForDeletedMachineSet(o) ??
    planDirection(MACHINES, o, mapi, planMachineForward, planMachineReverse)
  );
}

/**
 * A CAPI Machine created under a CAPI MachineSet that is being deleted would be deleted with it
 * at once, and created again, for as long as the MachineSet waits for its Machines: the mirror
 * waits for the MachineSet to go (the MachineSet's sync then creates it again).
 */
function waitForDeletedMachineSet(o: MachineObserved): Step | undefined {
  const set = o.capiMachineSet;
  if (o.mirror || !isDeleting(set)) return undefined;
  return done(
    `waiting for the CAPI machine set ${o.capiNamespace}/${set?.metadata.name} being deleted to go before mirroring`,
  );
}

/**
 * True when the MAPI MachineSet that controls the Machine is being deleted or is already gone
 * (absent, or replaced by one with another uid): the garbage collector deletes the Machine next,
 * so it is neither reported nor mirrored again in between.
 */
function machineSetGoneOrGoing(o: MachineObserved, mapi: MapiMachine): boolean {
  return (
    isDeleting(o.mapiMachineSet) ||
    goesWithItsMachineSet(mapi, o.mapiMachineSet, 'machine.openshift.io/')
  );
}
