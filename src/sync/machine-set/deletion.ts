// The deletion table (../deletion.ts) for MachineSets: their templates go with them. Pure.
import type { MapiMachineSet } from '../../api/types.js';
import { CAPI_MACHINE_SET_FINALIZER } from '../../model/markers.js';
import { planDeletion, planWithoutMapi, type DeletionKind } from '../deletion.js';
import type { Step } from '../steps.js';
import { MACHINE_SETS } from './kind.js';
import type { MachineSetObserved } from './observed.js';
import { planStaleTemplates } from './templates.js';

function machineSets(o: MachineSetObserved): DeletionKind {
  return {
    ...MACHINE_SETS,
    capiFinalizer: CAPI_MACHINE_SET_FINALIZER,
    mirrorDeletedNote: '',
    // With no mirror left, the templates we created for it are stale.
    leftovers: () => planStaleTemplates(o.templates, o.name, undefined, undefined, o.templateUsers),
  };
}

/** The MAPI MachineSet or its mirror is being deleted; undefined while neither is. */
export const planMachineSetDeletion = (
  o: MachineSetObserved,
  mapi: MapiMachineSet,
): Step | undefined => planDeletion(machineSets(o), o, mapi);

/** No MAPI MachineSet of this name: let go of whatever we held for it. */
export const planMachineSetWithoutMapi = (o: MachineSetObserved): Step =>
  planWithoutMapi(machineSets(o), o);
