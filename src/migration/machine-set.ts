// The migration handshake of a MachineSet: the shared handshake (handshake.ts) over the
// MAPI MachineSet and its CAPI mirror, with the MachineSet's Machines following it. Pure.
import get from 'lodash/get.js';
import has from 'lodash/has.js';
import isEqual from 'lodash/isEqual.js';
import omit from 'lodash/omit.js';
import set from 'lodash/set.js';
import unset from 'lodash/unset.js';
import type { MapiMachineSet } from '../api/types.js';
import { migrationBlockers } from '../conversion/machine-set/to-capi.js';
import { pausedMirrorSpec } from '../sync/machine-set/forward.js';
import type { MachineSetObserved } from '../sync/machine-set/observed.js';
import { machineSetReverseMirror } from '../sync/machine-set/reverse.js';
import { formatFieldErrors } from '../sync/report.js';
import { specDiffers } from '../sync/same-machines.js';
import { patchSpec, type Step } from '../sync/steps.js';
import { planHandshake } from './handshake.js';
import { machinesGate, planMachinesFollow } from './machines.js';
import { MigrationReason, type Authority, type MigrationState } from './status.js';
import type { Subject } from './subject.js';

/**
 * The next write of the MachineSet's handshake, or undefined when it has nothing to write
 * (no migration wanted, or waiting with the reason already on the object). A write may be
 * to one of its MAPI Machines (handing it over).
 */
export function planMachineSetHandshake(o: MachineSetObserved): Step | undefined {
  const { mapi } = o;
  if (!mapi) return undefined;
  return planHandshake(machineSetSubject(o, mapi));
}

function machineSetSubject(o: MachineSetObserved, mapi: MapiMachineSet): Subject {
  return {
    kind: 'MachineSet',
    noun: 'machine set',
    mapi,
    capi: o.mirror,
    capiName: `${o.capiNamespace}/${o.name}`,
    // A MachineSet's template is reconciled by no one and needs no pause.
    companions: [],
    now: o.now,
    gate: (from, to) => providerSpecGate(o, mapi, to) ?? machinesGate(o, from, to),
    follow: (to, direction) => planMachinesFollow(o, mapi, to, direction),
    beforeTakeover: (from, to) =>
      (to === 'MachineAPI' ? restoreTemplateAuthority(mapi, from) : undefined) ??
      carryReplicas(o, mapi, from, to),
    scaledOnly: (from) => scaledOnly(o, mapi, from),
  };
}

/**
 * A scale of the old authority during the handshake (its MachineSet paused, nothing acted on it)
 * reaches the new side before that side takes over, which then creates or deletes the machines.
 */
function carryReplicas(
  o: MachineSetObserved,
  mapi: MapiMachineSet,
  from: Authority,
  to: Authority,
): Step | undefined {
  const capi = o.mirror;
  if (from === to || !capi) return undefined;
  const mapiReplicas = mapi.spec?.replicas ?? 1;
  const capiReplicas = capi.spec.replicas ?? 1;
  if (mapiReplicas === capiReplicas) return undefined;
  return to === 'ClusterAPI'
    ? patchSpec(
        capi,
        { replicas: mapiReplicas },
        `carrying the MAPI machine set's ${mapiReplicas} replicas over to the CAPI one`,
      )
    : patchSpec(
        mapi,
        { replicas: capiReplicas },
        `carrying the CAPI machine set's ${capiReplicas} replicas over to the MAPI one`,
      );
}

/**
 * Whether the old authority differs from its mirror in replicas alone: what it converts to is
 * the mirror, but for the count.
 */
function scaledOnly(o: MachineSetObserved, mapi: MapiMachineSet, from: Authority): boolean {
  const capi = o.mirror;
  if (!capi) return false;
  if (from === 'MachineAPI') {
    const spec = pausedMirrorSpec(o, mapi);
    return spec !== undefined && isEqual(omit(spec, 'replicas'), omit(capi.spec, 'replicas'));
  }
  const { infrastructure, converter } = o;
  if (!infrastructure || !converter) return false;
  const mirror = machineSetReverseMirror(o, mapi, capi);
  const conversion = mirror.convert(infrastructure, converter);
  if (!conversion.ok) return false;
  const wanted = conversion.value.spec;
  // The count, and the authority of the machines it creates, which the hand-back writes itself.
  const scaled = structuredClone(mapi.spec ?? {});
  for (const path of ['replicas', TEMPLATE_AUTHORITY]) {
    if (has(wanted, path)) set(scaled, path, get(wanted, path));
    else unset(scaled, path);
  }
  return !specDiffers({ infrastructure, converter }, scaled, wanted, mirror.machineSpec);
}

const TEMPLATE_AUTHORITY = 'template.spec.authoritativeAPI';

/**
 * What the providerSpec must say before Cluster API creates this MachineSet's machines, as the
 * platform tells (GCP: the Infrastructure's resource tags, which Machine API binds by itself).
 */
function providerSpecGate(
  o: MachineSetObserved,
  mapi: MapiMachineSet,
  to: Authority,
): MigrationState | undefined {
  const { converter, infrastructure } = o;
  if (to !== 'ClusterAPI' || !converter || !infrastructure) return undefined;
  const errors = migrationBlockers(mapi, converter, infrastructure);
  if (errors.length === 0) return undefined;
  return {
    status: 'True',
    reason: MigrationReason.ProviderSpecIncomplete,
    message: `Migration from MachineAPI to ClusterAPI is waiting: ${formatFieldErrors(errors)}. It starts by itself once the MachineSet says it; set spec.authoritativeAPI back to MachineAPI to withdraw the request.`,
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
