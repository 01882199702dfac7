// How the planners name a MachineSet (../kind.ts).
import { Reason } from '../conditions.js';
import type { MirrorKind } from '../kind.js';

export const MACHINE_SETS: MirrorKind = {
  kind: 'MachineSet',
  mapiNoun: 'MAPI machine set',
  capiNoun: 'CAPI machine set',
  companionNoun: 'template',
  reasons: Reason,
};
