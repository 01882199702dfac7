// The deletion table (../deletion.ts) for MachineSets: their templates go with them. Pure.
import type { CapiMachineSet, MapiMachineSet } from '../../api/types.js';
import { CAPI_MACHINE_SET_FINALIZER } from '../../model/markers.js';
import { Reason } from '../conditions.js';
import {
  planMapiDeletion as planMapiSideDeletion,
  planMirrorDeletion as planMirrorSideDeletion,
  planWithoutMapi as planWithoutMapiSide,
  type DeletionKind,
} from '../deletion.js';
import type { Step } from '../steps.js';
import type { Observed } from './observed.js';
import { planStaleTemplates } from './templates.js';

function machineSets(o: Observed): DeletionKind {
  return {
    kind: 'MachineSet',
    mapiNoun: 'MAPI machine set',
    capiNoun: 'CAPI machine set',
    capiFinalizer: CAPI_MACHINE_SET_FINALIZER,
    mirrorDeletedReason: Reason.UpdateFailed,
    mirrorDeletedNote: '',
    // With no mirror left, the templates we created for it are stale.
    leftovers: () => planStaleTemplates(o.templates, o.name, undefined, undefined, o.templateUsers),
  };
}

/** The MAPI MachineSet is being deleted. */
export const planMapiDeletion = (o: Observed, mapi: MapiMachineSet): Step =>
  planMapiSideDeletion(machineSets(o), o, mapi);

/** The CAPI MachineSet is being deleted while the MAPI MachineSet stays. */
export const planMirrorDeletion = (
  o: Observed,
  mapi: MapiMachineSet,
  mirror: CapiMachineSet,
): Step => planMirrorSideDeletion(machineSets(o), o, mapi, mirror);

/** No MAPI MachineSet of this name: let go of whatever we held for it. */
export const planWithoutMapi = (o: Observed): Step => planWithoutMapiSide(machineSets(o), o);
