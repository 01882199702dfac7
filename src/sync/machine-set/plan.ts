// Decides the next write for one MachineSet from what was observed. Pure.
//
// The reconciler calls `planMachineSetSync` in a loop: observe, plan one step, execute
// it, observe again, until the plan says `done`. One step at a time keeps each
// decision simple and makes every intermediate state (a crash between two
// steps) one that the next reconcile knows how to finish.
import { planDirection } from '../direction.js';
import type { Step } from '../steps.js';
import { planMachineSetDeletion, planMachineSetWithoutMapi } from './deletion.js';
import { planMachineSetForward } from './forward.js';
import { MACHINE_SETS } from './kind.js';
import type { MachineSetObserved } from './observed.js';
import { planMachineSetReverse } from './reverse.js';

export type { Step } from '../steps.js';
export function planMachineSetSync(o: MachineSetObserved): Step {
  const { mapi } = o;
  if (!mapi) return planMachineSetWithoutMapi(o);
  return (
    planMachineSetDeletion(o, mapi) ??
    planDirection(MACHINE_SETS, o, mapi, planMachineSetForward, planMachineSetReverse)
  );
}
