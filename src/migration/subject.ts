// What one run of the migration handshake is about: a MAPI object, its CAPI mirror, the
// objects paused together with that mirror, and how messages name them. MachineSets and
// Machines run the same handshake over different subjects.
import type { CapiCondition, KubeObject } from '../api/types.js';
import type { Step } from '../sync/steps.js';
import type { Authority, MigratingObject, MigrationState } from './status.js';

/** The CAPI object of the same name: it reports Cluster API's Paused condition. */
export interface CapiSide extends KubeObject {
  status?: { conditions?: CapiCondition[] };
}

/** How a message about the direction of the handshake begins and how it ends. */
export interface Direction {
  /** "Migrating from MachineAPI to ClusterAPI", "Returning to MachineAPI", … */
  lead: string;
  /** The way out, a sentence starting with a space, or empty. */
  wayOut: string;
}

export interface Subject {
  /** How messages name the kind: "this MachineSet", "the Cluster API Machine …". */
  kind: 'MachineSet' | 'Machine';
  /** How log notes name it: "the CAPI machine set". */
  noun: string;
  mapi: MigratingObject;
  /** The CAPI object of the same name as observed, possibly being deleted. */
  capi?: CapiSide;
  /** `namespace/name` of the CAPI object. */
  capiName: string;
  /**
   * Objects paused with the CAPI object, after it, and unpaused before it (a Machine's
   * infrastructure machine), so that nothing of the new side acts before its owner does.
   */
  companions: KubeObject[];
  /**
   * The finalizer a companion's own controller adds on its first reconcile after the unpause (the
   * provider's), or undefined when it has none. The CAPI object is unpaused only once every
   * companion carries it: deleted earlier, a companion would go at once, and its instance run on
   * with nothing to manage it.
   */
  providerFinalizer?(companion: KubeObject): string | undefined;
  /** RFC 3339 time for lastTransitionTime. */
  now: string;
  /** A further gate after the object's own (a MachineSet's Machines): why it waits, or undefined. */
  gate?(from: Authority, to: Authority): MigrationState | undefined;
  /**
   * Once the old side is paused and found unchanged, before the new side takes over: the next
   * step towards `to`, or undefined to go on. A MachineSet hands its Machines over here.
   */
  follow?(to: Authority, direction: Direction): Step | undefined;
  /**
   * After `follow`, before the new side takes over (the unpause of the CAPI object, or the final
   * write to MachineAPI): what the new side must have first, or undefined to go on.
   */
  beforeTakeover?(from: Authority, to: Authority): Step | undefined;
  /**
   * True when the old authority changed since it was synchronized in its replicas alone (a
   * person's or an autoscaler's scale): the handshake goes on, and `beforeTakeover` carries the
   * count over, rather than restarting for every scale of a busy MachineSet.
   */
  scaledOnly?(from: Authority): boolean;
}
