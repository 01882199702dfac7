// How the planners name a MachineSet (../kind.ts).
import { Reason } from '../conditions.js';
import type { SyncKind } from '../kind.js';

export const MACHINE_SETS: SyncKind = {
  kind: 'MachineSet',
  mapiNoun: 'MAPI machine set',
  capiNoun: 'CAPI machine set',
  companionNoun: 'template',
  reasons: Reason,
};
