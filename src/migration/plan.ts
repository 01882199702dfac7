// The migration handshake of a MachineSet: the shared handshake (handshake.ts) over the
// MAPI MachineSet and its CAPI mirror, with the MachineSet's Machines following it. Pure.
import type { MapiMachineSet } from '../api/types.js';
import type { Observed } from '../sync/plan.js';
import { patchSpec, type Step } from '../sync/steps.js';
import { planHandshake } from './handshake.js';
import { MigrationReason, type Authority, type MigrationState } from './status.js';
import type { Subject } from './subject.js';

/**
 * The next write of the MachineSet's handshake, or undefined when it has nothing to write
 * (no migration wanted, or waiting with the reason already on the object). A write may be
 * to one of its MAPI Machines (handing it over).
 */
export function planMigration(o: Observed): Step | undefined {
  const { mapi } = o;
  if (!mapi) return undefined;
  return planHandshake(machineSetSubject(o, mapi));
}

function machineSetSubject(o: Observed, mapi: MapiMachineSet): Subject {
  return {
    kind: 'MachineSet',
    noun: 'machine set',
    mapi,
    capi: o.mirror,
    capiName: `${o.capiNamespace}/${o.name}`,
    // A MachineSet's template is reconciled by no one and needs no pause.
    companions: [],
    missingCapiReason: MigrationReason.WaitingForClusterAPIMachineSet,
    now: o.now,
    gate: (from, to) => machinesBlocker(o, mapi, from, to),
    beforeMachineApi: (from) => restoreTemplateAuthority(mapi, from),
  };
}

/** Machines this MachineSet creates were Cluster API's while it mirrored Cluster API. */
function restoreTemplateAuthority(mapi: MapiMachineSet, from: Authority): Step | undefined {
  if (from !== 'ClusterAPI' || mapi.spec.template?.spec?.authoritativeAPI !== 'ClusterAPI') {
    return undefined;
  }
  return patchSpec(
    mapi,
    { template: { spec: { authoritativeAPI: 'MachineAPI' } } },
    'giving the machines this MAPI machine set creates back to Machine API',
  );
}

/**
 * Machines are not mirrored between the APIs yet: the new authority would find
 * none of the old one's machines and create its own fleet beside them. So only
 * a MachineSet without machines moves (spec and status both at 0).
 */
function machinesBlocker(
  o: Observed,
  mapi: MapiMachineSet,
  from: Authority,
  to: Authority,
): MigrationState | undefined {
  const side = from === 'MachineAPI' ? mapi : o.mirror;
  if (!side) return undefined;
  const wanted = side.spec.replicas ?? 1;
  const running = side.status?.replicas ?? 0;
  if (wanted === 0 && running === 0) return undefined;
  const which = from === 'MachineAPI' ? 'this MachineSet' : `${o.capiNamespace}/${o.name}`;
  return {
    status: 'True',
    reason: MigrationReason.MachinesNotMirrored,
    message: `Migration from ${from} to ${to} is waiting: ${which} has machines (spec.replicas ${wanted}, status.replicas ${running}), and this version does not mirror Machines between the APIs, so ${to} would create machines of its own beside them. Scale it to 0 to migrate it, or set spec.authoritativeAPI back to ${from} to withdraw the request; it starts by itself at 0 replicas.`,
  };
}
