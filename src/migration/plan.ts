// The migration handshake of a MachineSet: the shared handshake (handshake.ts) over the
// MAPI MachineSet and its CAPI mirror, with the MachineSet's Machines following it. Pure.
import type { MapiMachineSet } from '../api/types.js';
import type { Observed } from '../sync/machine-set/observed.js';
import { patchSpec, type Step } from '../sync/steps.js';
import { planHandshake } from './handshake.js';
import { machinesGate, planMachinesFollow } from './machines.js';
import type { Authority } from './status.js';
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
    now: o.now,
    gate: (from, to) => machinesGate(o, from, to),
    follow: (to, direction) => planMachinesFollow(o, mapi, to, direction),
    beforeMachineApi: (from) => restoreTemplateAuthority(mapi, from),
  };
}

/** Machines this MachineSet creates were Cluster API's while it mirrored Cluster API. */
function restoreTemplateAuthority(mapi: MapiMachineSet, from: Authority): Step | undefined {
  if (from !== 'ClusterAPI' || mapi.spec?.template?.spec?.authoritativeAPI !== 'ClusterAPI') {
    return undefined;
  }
  return patchSpec(
    mapi,
    { template: { spec: { authoritativeAPI: 'MachineAPI' } } },
    'giving the machines this MAPI machine set creates back to Machine API',
  );
}
