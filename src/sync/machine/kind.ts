// How the planners name a Machine (../kind.ts).
import { MachineReason } from '../conditions.js';
import type { SyncKind } from '../kind.js';

export const MACHINES: SyncKind = {
  kind: 'Machine',
  mapiNoun: 'MAPI Machine',
  capiNoun: 'CAPI Machine',
  companionNoun: 'infrastructure machine',
  reasons: MachineReason,
};
