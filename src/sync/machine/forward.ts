// MAPI → CAPI for one Machine, in the order of ../forward.ts: the paused CAPI Machine and its
// infrastructure machine while Machine API is authoritative, or the initial sync that creates
// them for a Machine born under Cluster API. Pure. What is the Machine's own: its conversion,
// the infrastructure machine (the companion) and its mirrored status.
import type { CapiMachine, InfrastructureMachine, MapiMachine } from '../../api/types.js';
import { machineToCapi } from '../../conversion/machine/to-capi.js';
import { PAUSED_ANNOTATION, PAUSED_VALUE, SPEC_HASH_ANNOTATION } from '../../model/markers.js';
import { stableHashOfFrozen } from '../../model/naming.js';
import { MachineReason } from '../conditions.js';
import { convertForward, planForward, type ForwardKind } from '../forward.js';
import { remembered } from '../remembered-conversion.js';
import {
  adoptWithOwnedMetadata,
  createWithOwnedMetadata,
  ownedMetadataDiffers,
  type OwnedKeys,
  type SharedMetadata,
} from '../owned-metadata.js';
import { reportFailure, warningEvents } from '../report.js';
import { annotate, controllerReference, isOwnedBy, isPaused, type Step } from '../steps.js';
import { MACHINES } from './kind.js';
import { planMachineCapiStatus } from './mirror-status.js';
import type { MachineObserved } from './observed.js';

/** Fields Cluster API's Machine webhook defaults; kept as the server has them. */
const DEFAULTED_SPEC_FIELDS = ['deletion'] as const;

/**
 * Converted once per version of the Machine and of what it is converted with. Of its MachineSet
 * and Cluster the conversion reads only which one they are (owner references), so their status
 * updates, frequent while Machines come up, do not convert every Machine of the set again.
 */
const machineToCapiOnce = remembered(machineToCapi, {
  machineSet: (set) => set?.metadata.uid,
  cluster: (cluster) => cluster?.metadata.uid,
});

const FORWARD: ForwardKind = {
  ...MACHINES,
  messages: {
    infrastructureUnavailable: () =>
      'The Infrastructure "cluster" (config.openshift.io/v1) or its status.infrastructureName was not found; it names the Cluster API cluster. The Machine is mirrored once it is set.',
    unsupportedPlatformAdvice: '',
    conversionFailed: (errors) =>
      `Cannot mirror this Machine to Cluster API: ${errors}. Fix the Machine (or what is named); it is converted again when it changes.`,
  },
};

export function planMachineForward(
  o: MachineObserved,
  mapi: MapiMachine,
  authority: 'MachineAPI' | 'ClusterAPI',
): Step {
  const paused = authority === 'MachineAPI';
  const converted = convertForward(FORWARD, o, mapi, (infrastructure, converter) =>
    machineToCapiOnce({
      mapi,
      infrastructure,
      converter,
      capiNamespace: o.capiNamespace,
      paused: true, // unpaused last, by the initial sync or the handshake
      ...(o.capiMachineSet ? { machineSet: o.capiMachineSet } : {}),
      ...(o.cluster ? { cluster: o.cluster } : {}),
    }),
  );
  if ('step' in converted) return converted.step;
  const { machine, infrastructureMachine } = converted.value;
  const capiName = `${o.capiNamespace}/${o.name}`;
  return planForward(MACHINES, o, mapi, authority, {
    desired: machine,
    events: warningEvents(converted.warnings),
    ownerReferences: () => machine.metadata.ownerReferences ?? [],
    spec: (mirror) => ({ ...machine.spec, ...pickDefaulted(mirror) }),
    companion: (mirror) =>
      planInfrastructureMachine(o, mapi, mirror, infrastructureMachine, paused) ??
      pauseInstanceObject(o, paused),
    status: (mirror) => planMachineCapiStatus(mapi, mirror),
    synchronized: (mirror) =>
      paused
        ? `Mirrored to ${capiName} (paused) with ${mirror.spec.infrastructureRef.kind} ${mirror.spec.infrastructureRef.name}.`
        : `Cluster API is authoritative; the initial synchronization created ${capiName}.`,
  });
}

/**
 * Under Machine API, the provider's instance object (an OpenStackServer left from a time under
 * Cluster API) is paused as the handshake leaves it, even while it is being deleted: unpaused,
 * its controller would act on the instance Machine API manages.
 */
function pauseInstanceObject(o: MachineObserved, paused: boolean): Step | undefined {
  const object = o.instanceObject;
  if (!paused || !object || isPaused(object)) return undefined;
  return annotate(
    object,
    { [PAUSED_ANNOTATION]: PAUSED_VALUE },
    `pausing the ${object.kind} ${object.metadata.name} (Machine API is authoritative)`,
  );
}

/**
 * The next write of the infrastructure machine: create it owned by the CAPI Machine, adopt it,
 * or write a changed spec (known by the hash of what we last wrote, not by comparing with what
 * the provider's defaulting made of it), pause state or labels and annotations of ours.
 * Undefined when it is as wanted.
 */
function planInfrastructureMachine(
  o: MachineObserved,
  mapi: MapiMachine,
  mirror: CapiMachine,
  desired: InfrastructureMachine,
  paused: boolean,
): Step | undefined {
  const current = o.infrastructureMachine;
  const hash = stableHashOfFrozen(desired.spec);
  const owner = controllerReference(mirror);
  const labels = desired.metadata.labels ?? {};
  if (!current) {
    // Created paused, as the CAPI Machine is: unpaused last, with it.
    const annotations = { [PAUSED_ANNOTATION]: PAUSED_VALUE, [SPEC_HASH_ANNOTATION]: hash };
    return createWithOwnedMetadata(
      desired,
      { labels, annotations, ownerReferences: [owner] },
      { note: `creating ${desired.kind}`, failure: MachineReason.InfraMachineUpdateFailed },
    );
  }
  const annotations = {
    ...(paused ? { [PAUSED_ANNOTATION]: PAUSED_VALUE } : {}),
    [SPEC_HASH_ANNOTATION]: hash,
  };
  return (
    reportForeignController(o, mapi, mirror, current) ??
    updateInfrastructureMachine(current, mirror, desired, { labels, annotations }, paused)
  );
}

/**
 * What an infrastructure machine without a record of our keys (created before records, or by
 * Cluster API and adopted) counts as ours: what we have always written there, never the
 * provider's or anyone else's.
 */
function unrecordedKeys(metadata: SharedMetadata): OwnedKeys {
  return {
    labels: Object.keys(metadata.labels ?? {}),
    annotations: [PAUSED_ANNOTATION, SPEC_HASH_ANNOTATION],
  };
}

function updateInfrastructureMachine(
  current: InfrastructureMachine,
  mirror: CapiMachine,
  desired: InfrastructureMachine,
  metadata: SharedMetadata,
  paused: boolean,
): Step | undefined {
  const currentAnnotations = current.metadata.annotations ?? {};
  const hashDiffers =
    currentAnnotations[SPEC_HASH_ANNOTATION] !== metadata.annotations?.[SPEC_HASH_ANNOTATION];
  const owned = isOwnedBy(current, mirror);
  const unrecorded = unrecordedKeys(metadata);
  if (owned && !hashDiffers && !ownedMetadataDiffers(current.metadata, metadata, unrecorded)) {
    return undefined;
  }
  const adopted = adoptWithOwnedMetadata(
    current,
    metadata,
    controllerReference(mirror),
    unrecorded,
  );
  const object: InfrastructureMachine = {
    ...adopted,
    spec: hashDiffers ? desired.spec : current.spec,
  };
  const pauseDiffers = (currentAnnotations[PAUSED_ANNOTATION] !== undefined) !== paused;
  return {
    kind: 'update',
    object,
    note: hashDiffers
      ? `updating ${current.kind}`
      : pauseDiffers && !paused
        ? `unpausing ${current.kind}`
        : owned && !pauseDiffers
          ? `updating the labels and annotations of ${current.kind}`
          : `adopting ${current.kind}`,
    failure: MachineReason.InfraMachineUpdateFailed,
  };
}

/** An infrastructure machine another object controls is never taken over: reported. */
function reportForeignController(
  o: MachineObserved,
  mapi: MapiMachine,
  mirror: CapiMachine,
  current: InfrastructureMachine,
): Step | undefined {
  const foreign = current.metadata.ownerReferences?.find(
    (r) => r.controller && r.uid !== mirror.metadata.uid,
  );
  if (!foreign) return undefined;
  return reportFailure(
    mapi,
    o.now,
    MachineReason.InfraMachineUpdateFailed,
    `The ${current.kind} ${o.capiNamespace}/${current.metadata.name} is controlled by ${foreign.kind} ${foreign.name}, not by the Cluster API Machine ${o.capiNamespace}/${o.name}; it is never taken over. Delete it, or the CAPI Machine, to have both created again.`,
    'infrastructure machine controlled by another object',
  );
}

function pickDefaulted(mirror: CapiMachine): Record<string, unknown> {
  const spec = mirror.spec as Record<string, unknown>;
  return Object.fromEntries(
    DEFAULTED_SPEC_FIELDS.filter((key) => spec[key] !== undefined).map((key) => [key, spec[key]]),
  );
}
