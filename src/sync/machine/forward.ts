// MAPI → CAPI for one Machine: the paused CAPI Machine and infrastructure machine while Machine
// API is authoritative, or the initial sync that creates them for a Machine born under Cluster
// API. Pure. Written in an order a crash can resume from: the CAPI Machine first, then the
// infrastructure machine owned by it, then whatever changed, then the status.
import isEqual from 'lodash/isEqual.js';
import type { CapiMachine, InfrastructureMachine, MapiMachine } from '../../api/types.js';
import { convertMachine } from '../../conversion/machine/to-capi.js';
import { SUPPORTED_PLATFORMS } from '../../conversion/platforms.js';
import { MachineReason } from '../conditions.js';
import {
  AUTHORITY_ANNOTATION,
  FINALIZER,
  PAUSED_ANNOTATION,
  PAUSED_VALUE,
  SPEC_HASH_ANNOTATION,
} from '../../model/markers.js';
import { stableHash } from '../../model/naming.js';
import { formatFieldErrors, reportFailure, reportState } from '../report.js';
import {
  addFinalizer,
  done,
  hasFinalizer,
  isOwnedBy,
  isPaused,
  type EventSpec,
  type Step,
} from '../steps.js';
import type { MachineObserved } from './observed.js';
import { mergeOwnedMetadata, ownedMetadataDiffers } from '../owned-metadata.js';
import { planCapiMachineStatus } from './status.js';

/** Fields Cluster API's Machine webhook defaults; kept as the server has them. */
const DEFAULTED_SPEC_FIELDS = ['deletion'] as const;

export function planMachineForward(
  o: MachineObserved,
  mapi: MapiMachine,
  authority: 'MachineAPI' | 'ClusterAPI',
): Step {
  const paused = authority === 'MachineAPI';
  if (!o.infrastructure?.status?.infrastructureName) {
    return reportFailure(
      mapi,
      o.now,
      MachineReason.InfraResourcesUnavailable,
      'The Infrastructure "cluster" (config.openshift.io/v1) or its status.infrastructureName was not found; it names the Cluster API cluster. The Machine is mirrored once it is set.',
      'infrastructure unavailable',
    );
  }
  if (!o.converter) {
    return reportFailure(
      mapi,
      o.now,
      MachineReason.ConversionFailed,
      `The platform "${o.platform ?? 'unknown'}" has no Cluster API conversion; supported platforms: ${SUPPORTED_PLATFORMS.join(', ')}.`,
      'unsupported platform',
    );
  }
  const conversion = convertMachine({
    mapi,
    infrastructure: o.infrastructure,
    converter: o.converter,
    capiNamespace: o.capiNamespace,
    paused: true, // unpaused last, by the initial sync or the handshake
    ...(o.capiMachineSet ? { machineSet: o.capiMachineSet } : {}),
    ...(o.cluster ? { cluster: o.cluster } : {}),
  });
  if (!conversion.ok) {
    return reportFailure(
      mapi,
      o.now,
      MachineReason.ConversionFailed,
      `Cannot mirror this Machine to Cluster API: ${formatFieldErrors(conversion.errors)}. Fix the Machine (or what is named); it is converted again when it changes.`,
      'conversion failed; waiting for a change',
    );
  }
  const warnings: EventSpec[] = conversion.warnings.map((message) => ({
    type: 'Warning',
    reason: 'ConversionWarning',
    message,
  }));
  const converted = conversion.value.machine;
  const desired: CapiMachine = {
    ...converted,
    metadata: {
      ...converted.metadata,
      annotations: { ...converted.metadata.annotations, [AUTHORITY_ANNOTATION]: authority },
    },
  };
  const { mirror } = o;

  // 1. The CAPI Machine, paused, so the infrastructure machine can be owned by it from the start.
  if (!mirror) {
    return {
      kind: 'create',
      object: {
        ...desired,
        metadata: {
          ...desired.metadata,
          ...mergeOwnedMetadata({}, desired.metadata),
          finalizers: [FINALIZER],
        },
      },
      note: paused
        ? 'creating paused CAPI Machine'
        : 'creating CAPI Machine (paused until complete)',
      failure: MachineReason.CreateFailed,
      events: warnings,
    };
  }
  if (mirror.spec.clusterName !== desired.spec.clusterName) {
    return reportFailure(
      mapi,
      o.now,
      MachineReason.UpdateFailed,
      `${o.capiNamespace}/${o.name} belongs to the Cluster API cluster "${mirror.spec.clusterName}", but the Infrastructure names the cluster "${desired.spec.clusterName}"; Cluster API forbids changing spec.clusterName. Delete the CAPI Machine to have it created again, or restore status.infrastructureName.`,
      'cluster name changed',
    );
  }

  // 2. The infrastructure machine, owned by the CAPI Machine.
  const infrastructure = planInfrastructureMachine(
    o,
    mapi,
    mirror,
    conversion.value.infrastructureMachine,
    paused,
  );
  if (infrastructure) return infrastructure;

  // 3. The CAPI Machine's spec and metadata; unpaused last in the initial sync under ClusterAPI.
  const spec = { ...desired.spec, ...pickDefaulted(mirror) };
  const annotations = paused
    ? (desired.metadata.annotations ?? {})
    : withoutKey(desired.metadata.annotations ?? {}, PAUSED_ANNOTATION);
  const ownerReferences = desired.metadata.ownerReferences ?? [];
  const metadata = { labels: desired.metadata.labels, annotations };
  const mirrorDiffers =
    !isEqual(mirror.spec, spec) ||
    ownedMetadataDiffers(mirror.metadata, metadata) ||
    !isEqual(mirror.metadata.ownerReferences ?? [], ownerReferences);
  if (mirrorDiffers) {
    return {
      kind: 'update',
      object: {
        ...mirror,
        metadata: {
          ...mirror.metadata,
          ...mergeOwnedMetadata(mirror.metadata, metadata),
          ownerReferences,
        },
        spec,
      } as CapiMachine,
      note: isPaused(mirror) && !paused ? 'unpausing CAPI Machine' : 'updating CAPI Machine',
      failure: MachineReason.UpdateFailed,
      events: warnings,
    };
  }
  if (!hasFinalizer(mirror)) return addFinalizer(mirror, 'adding finalizer to CAPI Machine');

  // 4. The paused mirror's status, from the MAPI Machine's.
  const status = paused ? planCapiMachineStatus(mapi, mirror) : undefined;
  if (status) return { ...status, failure: MachineReason.UpdateFailed };

  const message = paused
    ? `Mirrored to ${o.capiNamespace}/${o.name} (paused) with ${mirror.spec.infrastructureRef.kind} ${mirror.spec.infrastructureRef.name}.`
    : `Cluster API is authoritative; the initial synchronization created ${o.capiNamespace}/${o.name}.`;
  const generation = paused ? mapi.metadata.generation : mirror.metadata.generation;
  return (
    reportState(
      mapi,
      o.now,
      { status: 'True', reason: MachineReason.Synchronized, message },
      generation,
    ) ?? done('in sync')
  );
}

/**
 * The next write of the infrastructure machine: create it owned by the CAPI Machine, adopt it,
 * or write a changed spec (known by the hash of what we last wrote, not by comparing with what
 * the provider's defaulting made of it) or pause state. Undefined when it is as wanted.
 */
function planInfrastructureMachine(
  o: MachineObserved,
  mapi: MapiMachine,
  mirror: CapiMachine,
  desired: InfrastructureMachine,
  paused: boolean,
): Step | undefined {
  const current = o.infrastructureMachine;
  const hash = stableHash(desired.spec);
  const owner = {
    apiVersion: mirror.apiVersion,
    kind: mirror.kind,
    name: mirror.metadata.name,
    uid: mirror.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
  const annotations = {
    ...(paused ? { [PAUSED_ANNOTATION]: PAUSED_VALUE } : {}),
    [SPEC_HASH_ANNOTATION]: hash,
  };
  if (!current) {
    return {
      kind: 'create',
      object: {
        ...desired,
        metadata: {
          ...desired.metadata,
          annotations: { ...annotations, [PAUSED_ANNOTATION]: PAUSED_VALUE },
          ownerReferences: [owner],
        },
      },
      note: `creating ${desired.kind}`,
      failure: MachineReason.InfraMachineUpdateFailed,
    };
  }
  const foreignController = current.metadata.ownerReferences?.find(
    (r) => r.controller && r.uid !== mirror.metadata.uid,
  );
  if (foreignController) {
    return reportFailure(
      mapi,
      o.now,
      MachineReason.InfraMachineUpdateFailed,
      `The ${current.kind} ${o.capiNamespace}/${current.metadata.name} is controlled by ${foreignController.kind} ${foreignController.name}, not by the Cluster API Machine ${o.capiNamespace}/${o.name}; it is never taken over. Delete it, or the CAPI Machine, to have both created again.`,
      'infrastructure machine controlled by another object',
    );
  }
  const currentAnnotations = current.metadata.annotations ?? {};
  const pauseDiffers = (currentAnnotations[PAUSED_ANNOTATION] !== undefined) !== paused;
  const hashDiffers = currentAnnotations[SPEC_HASH_ANNOTATION] !== hash;
  if (!isOwnedBy(current, mirror) || pauseDiffers || hashDiffers) {
    const others = withoutKey(
      withoutKey(currentAnnotations, PAUSED_ANNOTATION),
      SPEC_HASH_ANNOTATION,
    );
    const owners = (current.metadata.ownerReferences ?? []).filter(
      (r) => r.uid !== mirror.metadata.uid,
    );
    return {
      kind: 'update',
      object: {
        ...current,
        metadata: {
          ...current.metadata,
          labels: { ...current.metadata.labels, ...desired.metadata.labels },
          annotations: { ...others, ...annotations },
          ownerReferences: [...owners, owner],
        },
        spec: hashDiffers ? desired.spec : current.spec,
      } as InfrastructureMachine,
      note: hashDiffers
        ? `updating ${current.kind}`
        : pauseDiffers && !paused
          ? `unpausing ${current.kind}`
          : `adopting ${current.kind}`,
      failure: MachineReason.InfraMachineUpdateFailed,
    };
  }
  return undefined;
}

function pickDefaulted(mirror: CapiMachine): Record<string, unknown> {
  const spec = mirror.spec as Record<string, unknown>;
  return Object.fromEntries(
    DEFAULTED_SPEC_FIELDS.filter((key) => spec[key] !== undefined).map((key) => [key, spec[key]]),
  );
}

function withoutKey(map: Record<string, string>, key: string): Record<string, string> {
  const { [key]: _dropped, ...rest } = map;
  return rest;
}
