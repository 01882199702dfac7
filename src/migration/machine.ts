// The migration handshake of one Machine: the shared handshake (handshake.ts) over the MAPI
// Machine, its CAPI Machine and its infrastructure machine (with the provider's instance object
// under it, CAPO's OpenStackServer), which are paused and unpaused with the CAPI Machine. Pure.
import type { MachineObserved } from '../sync/machine/observed.js';
import type { Step } from '../sync/steps.js';
import { planHandshake } from './handshake.js';

/**
 * The next write of the Machine's handshake, or undefined when it has nothing to write (no
 * migration wanted, the Machine is being deleted, or waiting with the reason already on it).
 */
export function planMachineHandshake(o: MachineObserved): Step | undefined {
  const { mapi, infrastructureMachine, instanceObject } = o;
  if (!mapi) return undefined;
  const companions = [infrastructureMachine, instanceObject].filter((c) => c !== undefined);
  const provider = o.converter?.machine;
  return planHandshake({
    kind: 'Machine',
    noun: 'machine',
    mapi,
    capi: o.mirror,
    capiName: `${o.capiNamespace}/${o.name}`,
    companions,
    providerFinalizer: (companion) =>
      companion === infrastructureMachine ? provider?.finalizer : provider?.instance?.finalizer,
    now: o.now,
  });
}
