// MAPI → CAPI, written once for both kinds of mirror: the CAPI object created paused (so that
// its companion, a template or an infrastructure machine, is owned by it from its first
// moment), its companion, its spec and metadata, our finalizer, its status, then
// `Synchronized=True`. Each kind converts and brings its companion and status; the order, which
// a crash between any two writes can resume from, is here. Pure.
import isEqual from 'lodash/isEqual.js';
import type { KubeObject, OwnerReference } from '../api/types.js';
import {
  AUTHORITY_ANNOTATION,
  FINALIZER,
  PAUSED_ANNOTATION,
  PAUSED_VALUE,
} from '../model/markers.js';
import type { SyncReason } from './conditions.js';
import {
  createWithOwnedMetadata,
  mergeOwnedMetadata,
  ownedMetadataDiffers,
} from './owned-metadata.js';
import { reportFailure, reportState, type ReportingObject } from './report.js';
import {
  addFinalizer,
  done,
  hasFinalizer,
  isPaused,
  type EventSpec,
  type Step,
  type WriteStep,
} from './steps.js';

/** A CAPI MachineSet or Machine as the forward planner reads it. */
export interface CapiMirror extends KubeObject {
  spec: { clusterName: string };
}

/** One forward sync of one object, as its kind describes it. */
export interface Forward<C extends CapiMirror> {
  /** How notes name the CAPI side: "CAPI machine set", "CAPI Machine". */
  capiNoun: string;
  /** `namespace/name` of the CAPI object. */
  capiName: string;
  reasons: { create: SyncReason; update: SyncReason; synchronized: SyncReason };
  mapi: ReportingObject;
  mirror?: C;
  /** The CAPI object as converted, with our authority annotation. */
  desired: C;
  /** True while Machine API is authoritative; false for the initial sync under Cluster API. */
  paused: boolean;
  now: string;
  /** Warning events of the conversion, told with the writes of the CAPI object. */
  events: EventSpec[];
  /** The owner references the CAPI object should have (from what it has now, if it exists). */
  ownerReferences(mirror?: C): OwnerReference[];
  /** The spec to write, from the desired one and the current object (what webhooks defaulted). */
  spec(mirror: C): C['spec'];
  /** The companion's next write, once the CAPI object exists. */
  companion(mirror: C): Step | undefined;
  /** Writes after the CAPI object's own: its mirrored status, leftovers to let go. */
  after(mirror: C): Step | undefined;
  /** What `Synchronized=True` says. */
  synchronized(mirror: C): string;
}

/** The next write of a forward sync, or `done` once it is synchronized. */
export function planForward<C extends CapiMirror>(f: Forward<C>): Step {
  const { mirror } = f;
  if (!mirror) return createMirror(f);
  if (mirror.spec.clusterName !== f.desired.spec.clusterName) return clusterNameChanged(f, mirror);
  return (
    f.companion(mirror) ??
    updateMirror(f, mirror) ??
    (hasFinalizer(mirror)
      ? undefined
      : addFinalizer(mirror, `adding finalizer to ${f.capiNoun}`)) ??
    f.after(mirror) ??
    reportSynchronized(f, mirror)
  );
}

function createMirror<C extends CapiMirror>(f: Forward<C>): Step {
  const { metadata } = f.desired;
  return createWithOwnedMetadata(
    f.desired,
    {
      labels: metadata.labels,
      annotations: { ...metadata.annotations, [PAUSED_ANNOTATION]: PAUSED_VALUE },
      ownerReferences: f.ownerReferences(),
      finalizers: [FINALIZER],
    },
    {
      note: f.paused
        ? `creating paused ${f.capiNoun}`
        : `creating ${f.capiNoun} (paused until complete)`,
      failure: f.reasons.create,
      events: f.events,
    },
  );
}

/** Cluster API forbids changing spec.clusterName: reported, never written. */
function clusterNameChanged<C extends CapiMirror>(f: Forward<C>, mirror: C): Step {
  return reportFailure(
    f.mapi,
    f.now,
    f.reasons.update,
    `${f.capiName} belongs to the Cluster API cluster "${mirror.spec.clusterName}", but the Infrastructure now names the cluster "${f.desired.spec.clusterName}"; Cluster API forbids changing spec.clusterName. Delete ${f.capiName} to have it created again for the new cluster, or restore status.infrastructureName.`,
    'cluster name changed',
  );
}

/** The CAPI object's spec and metadata; unpaused last in the initial sync under ClusterAPI. */
function updateMirror<C extends CapiMirror>(f: Forward<C>, mirror: C): Step | undefined {
  const desired = f.desired.metadata;
  const annotations = f.paused
    ? (desired.annotations ?? {})
    : withoutKey(desired.annotations ?? {}, PAUSED_ANNOTATION);
  const metadata = { labels: desired.labels, annotations };
  const spec = f.spec(mirror);
  const ownerReferences = f.ownerReferences(mirror);
  const differs =
    !isEqual(mirror.spec, spec) ||
    ownedMetadataDiffers(mirror.metadata, metadata) ||
    !isEqual(mirror.metadata.ownerReferences ?? [], ownerReferences);
  if (!differs) return undefined;
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
    },
    note: isPaused(mirror) && !f.paused ? `unpausing ${f.capiNoun}` : `updating ${f.capiNoun}`,
    failure: f.reasons.update,
    events: f.events,
  };
}

function reportSynchronized<C extends CapiMirror>(f: Forward<C>, mirror: C): Step {
  // Synchronized at the generation of the authoritative side.
  const generation = f.paused ? f.mapi.metadata.generation : mirror.metadata.generation;
  return (
    reportState(
      f.mapi,
      f.now,
      { status: 'True', reason: f.reasons.synchronized, message: f.synchronized(mirror) },
      generation,
    ) ?? done('in sync')
  );
}

function withoutKey(map: Record<string, string>, key: string): Record<string, string> {
  const { [key]: _dropped, ...rest } = map;
  return rest;
}

/** The converted CAPI object, marked with the authority it was written under. */
export function withAuthority<C extends KubeObject>(converted: C, authority: string): C {
  const annotations = { ...converted.metadata.annotations, [AUTHORITY_ANNOTATION]: authority };
  return { ...converted, metadata: { ...converted.metadata, annotations } };
}

/** A mirrored-status write, reported under the kind's update reason when it fails. */
export function statusWrite(step: WriteStep | undefined, failure: SyncReason): Step | undefined {
  return step ? { ...step, failure } : undefined;
}
