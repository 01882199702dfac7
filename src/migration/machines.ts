// A MachineSet's Machines follow it: they must be fully mirrored before the MachineSet
// migrates, and the MachineSet hands each of them over (their spec.authoritativeAPI) and
// waits for their own handshakes before the new side of the MachineSet takes over. Pure.
import type { CapiMachine, MapiMachine, MapiMachineSet } from '../api/types.js';
import { findSynchronized } from '../sync/conditions.js';
import type { MachineSetObserved } from '../sync/machine-set/observed.js';
import { done, isDeleting, patchSpec, type Step } from '../sync/steps.js';
import { conditionWrite, MigrationReason, type Authority, type MigrationState } from './status.js';
import type { Direction } from './subject.js';

/** How many Machines a message names; the rest are counted. */
const NAMED_MACHINES = 5;
/** How much of a Synchronized message a gate message quotes per Machine. */
const QUOTED_MESSAGE = 80;

/**
 * The MachineSet's gate on its Machines: every Machine of the old authority must be fully
 * mirrored, or the new authority would not find it. Undefined when they all are.
 */
export function machinesGate(
  o: MachineSetObserved,
  from: Authority,
  to: Authority,
): MigrationState | undefined {
  const { mapi: mapiMachines, capi: capiMachines } = liveMachines(o);
  const mapiByName = new Map(mapiMachines.map((m) => [m.metadata.name, m]));
  const capiByName = new Map(capiMachines.map((m) => [m.metadata.name, m]));
  // From Machine API the MAPI Machines are the fleet; from Cluster API the CAPI Machines are.
  const names =
    from === 'MachineAPI'
      ? mapiMachines.map((m) => m.metadata.name)
      : capiMachines.map((m) => m.metadata.name);
  const unmirrored = names.flatMap((name) => {
    const why = whyNotMirrored(mapiByName.get(name), capiByName.get(name));
    return why ? [`${name} (${why})`] : [];
  });
  if (unmirrored.length === 0) return undefined;
  const side =
    from === 'MachineAPI'
      ? 'this MachineSet'
      : `the Cluster API MachineSet ${o.capiNamespace}/${o.name}`;
  return {
    status: 'True',
    reason: MigrationReason.MachinesNotMirrored,
    message: `Migration from ${from} to ${to} is waiting: ${unmirrored.length} of ${names.length} Machines of ${side} are not fully mirrored, and ${to} must find every one of them: ${nameSome(unmirrored)}. It starts by itself once they are. Fix what their Synchronized condition names, or delete them (the MachineSet replaces them), or set spec.authoritativeAPI back to ${from} to withdraw the request.`,
  };
}

/**
 * Why a Machine is not fully mirrored at the generation of its own authority, or undefined
 * when it is. A Machine already moved to the other API on its own counts once synchronized.
 */
function whyNotMirrored(
  mapi: MapiMachine | undefined,
  capi: CapiMachine | undefined,
): string | undefined {
  if (!mapi) return 'no Machine API Machine mirrors it yet';
  if (isProvisioning(mapi)) return PROVISIONING;
  const authority = mapi.status?.authoritativeAPI;
  if (authority === 'Migrating') {
    return 'it is migrating on its own; see its MigrationProgressing condition';
  }
  if (!authority) return 'its status.authoritativeAPI is not set yet';
  const synchronized = findSynchronized(mapi.status?.conditions);
  if (synchronized?.status !== 'True') {
    if (!synchronized) return 'Synchronized is not reported yet';
    const reason = synchronized.reason || 'no reason';
    const message = synchronized.message ? `: ${quoteStart(synchronized.message)}` : '';
    return `Synchronized is ${synchronized.status}, ${reason}${message}`;
  }
  const authoritative = authority === 'MachineAPI' ? mapi : capi;
  if (!authoritative) {
    return 'it is on ClusterAPI, but its Cluster API Machine is not one of the Cluster API MachineSet';
  }
  const generation = authoritative.metadata.generation ?? 0;
  const synchronizedGeneration = mapi.status?.synchronizedGeneration ?? 0;
  if (synchronizedGeneration === generation) return undefined;
  const which = authority === 'MachineAPI' ? 'its' : 'its Cluster API Machine';
  return `synchronizedGeneration ${synchronizedGeneration}, ${which} generation ${generation}`;
}

/**
 * While the MachineSet migrates to `to`: hands its Machines over one per step, then waits
 * until each of them has finished its own handshake. Undefined once all are on `to`.
 */
export function planMachinesFollow(
  o: MachineSetObserved,
  mapi: MapiMachineSet,
  to: Authority,
  direction: Direction,
): Step | undefined {
  const { mapi: machines, capi: capiMachines } = liveMachines(o);
  const mirrored = new Set(machines.map((m) => m.metadata.name));
  const unmirrored =
    to === 'MachineAPI' ? capiMachines.filter((c) => !mirrored.has(c.metadata.name)) : [];
  if (unmirrored.length > 0) {
    const state: MigrationState = {
      status: 'True',
      reason: MigrationReason.WaitingForMachines,
      message: `${direction.lead}: waiting for the Machine API mirror of ${nameSome(unmirrored.map((m) => m.metadata.name))}, created by the Cluster API MachineSet ${o.capiNamespace}/${o.name} during the migration, to hand it over with the others; if it does not come, the controller's log says why (a Cluster API Machine that Machine API cannot express).${direction.wayOut}`,
    };
    return conditionWrite(mapi, o.now, state) ?? done('waiting for Machines to be mirrored');
  }
  // A Machine without spec (its CRD admits one) asks for the default, MachineAPI.
  const toHandOver = machines.find((m) => (m.spec?.authoritativeAPI ?? 'MachineAPI') !== to);
  const notYet = toHandOver && whyNotHandedOverYet(toHandOver);
  if (toHandOver && notYet) {
    const state: MigrationState = {
      status: 'True',
      reason: MigrationReason.WaitingForMachines,
      message: `${direction.lead}: waiting to hand Machine ${toHandOver.metadata.name} over: ${notYet}.${direction.wayOut}`,
    };
    return conditionWrite(mapi, o.now, state) ?? done(`waiting for ${toHandOver.metadata.name}`);
  }
  if (toHandOver) {
    return patchSpec(
      toHandOver,
      { authoritativeAPI: to },
      `handing Machine ${toHandOver.metadata.name} to ${to}`,
    );
  }
  const behind = machines.filter((m) => m.status?.authoritativeAPI !== to);
  if (behind.length === 0) return undefined;
  const over = machines.length - behind.length;
  const state: MigrationState = {
    status: 'True',
    reason: MigrationReason.WaitingForMachines,
    message: `${direction.lead}: ${over} of ${machines.length} Machines are on ${to}; waiting for ${nameSome(behind.map((m) => m.metadata.name))} (their own handshake: see their MigrationProgressing condition).${direction.wayOut}`,
  };
  return conditionWrite(mapi, o.now, state) ?? done(`waiting for Machines to move to ${to}`);
}

/**
 * A Machine whose instance is being created has no authority to hand over yet; OpenShift's own
 * policy (openshift-prevent-migration-when-machine-updating) refuses the change, even to us.
 */
const PROVISIONING =
  'it is Provisioning, and its authority can move only once its instance exists (Provisioned or Running)';

/**
 * Why a Machine cannot be handed over yet: its instance is being created, or it is new and its
 * own authority not recorded (handed over first, it would record the new one while the old
 * still acts on it).
 */
function whyNotHandedOverYet(machine: MapiMachine): string | undefined {
  if (isProvisioning(machine)) return PROVISIONING;
  if (!machine.status?.authoritativeAPI) return 'its status.authoritativeAPI is not set yet';
  return undefined;
}

function isProvisioning(machine: MapiMachine): boolean {
  return machine.status?.phase === 'Provisioning';
}

/** Machines that are being deleted neither hold nor follow: they are going away. */
function liveMachines(o: MachineSetObserved): { mapi: MapiMachine[]; capi: CapiMachine[] } {
  return {
    mapi: (o.machines?.mapi ?? []).filter((m) => !isDeleting(m)),
    capi: (o.machines?.capi ?? []).filter((m) => !isDeleting(m)),
  };
}

function nameSome(items: string[]): string {
  const named = items.slice(0, NAMED_MACHINES).join(', ');
  const rest = items.length - NAMED_MACHINES;
  return rest > 0 ? `${named} and ${rest} more` : named;
}

function quoteStart(message: string): string {
  const start =
    message.length > QUOTED_MESSAGE ? `${message.slice(0, QUOTED_MESSAGE - 1)}…` : message;
  return `"${start}"`;
}
