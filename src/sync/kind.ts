// MachineSets and Machines are two kinds of one mirror. Every planner of the sync (direction,
// forward, reverse, status, deletion) is written once, over what names a kind (here) and what else
// that planner needs of it (its own description, which extends this one). Pure data.
import type { KindReasons } from './conditions.js';

/**
 * A kind as the sync's planners know it: its words and its reasons. Not the reconciler's
 * description of a kind (ReconciledKind, src/controller/mirror.ts), which reads caches: the core
 * never does.
 */
export interface SyncKind {
  /** How messages name the object, on either side: "MachineSet", "Machine". */
  kind: 'MachineSet' | 'Machine';
  /** How notes name the two sides: "MAPI machine set" / "CAPI machine set", "… Machine". */
  mapiNoun: string;
  capiNoun: string;
  /** What the CAPI object's machines are made from: "template", "infrastructure machine". */
  companionNoun: string;
  /** The reasons of its Synchronized condition. */
  reasons: KindReasons;
}
