// MAPI → CAPI, written once for both kinds of mirror: the CAPI object created paused (so that
// its companion, a template or an infrastructure machine, is owned by it from its first
// moment), its companion, its spec and metadata, our finalizer, its status, then
// `Synchronized=True`. Each kind brings its conversion, its companion and its status fields; what
// keeps a conversion from being made is reported here, and so is the order, which a crash between
// any two writes can resume from. Pure.
import isEqual from 'lodash/isEqual.js';
import type { Infrastructure, KubeObject, OwnerReference } from '../api/types.js';
import { SUPPORTED_PLATFORMS } from '../conversion/platforms.js';
import type { Conversion, PlatformConverter } from '../conversion/types.js';
import {
  AUTHORITY_ANNOTATION,
  FINALIZER,
  PAUSED_ANNOTATION,
  PAUSED_VALUE,
} from '../model/markers.js';
import type { SyncReason } from './conditions.js';
import type { SyncKind } from './kind.js';
import type { MirrorObserved } from './observed.js';
import {
  createWithOwnedMetadata,
  mergeOwnedMetadata,
  ownedMetadataDiffers,
} from './owned-metadata.js';
import { formatFieldErrors, reportFailure, reportState, type ReportingObject } from './report.js';
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

/** How a kind words what keeps its forward sync from converting. */
interface ForwardMessages {
  /** The Infrastructure, or its status.infrastructureName, is missing. */
  infrastructureUnavailable(infrastructure: Infrastructure | undefined): string;
  /** What follows the supported platforms when the platform has no conversion. */
  unsupportedPlatformAdvice: string;
  /** The conversion failed with these field errors. */
  conversionFailed(fieldErrors: string): string;
}

/** What the forward planner knows of a kind before it converts anything. */
export interface ForwardKind extends SyncKind {
  messages: ForwardMessages;
}

/** The CAPI object the kind's conversion made, and what the kind brings around it. */
export interface ForwardMirror<C extends CapiMirror> {
  /** The CAPI object as converted; marked here with the authority it is written under. */
  desired: C;
  /** Warning events of the conversion, told with the writes of the CAPI object. */
  events: EventSpec[];
  /** The owner references the CAPI object should have (from what it has now, if it exists). */
  ownerReferences(mirror?: C): OwnerReference[];
  /** The spec to write, from the desired one and the current object (what webhooks defaulted). */
  spec(mirror: C): C['spec'];
  /** The companion's next write, once the CAPI object exists. */
  companion(mirror: C): Step | undefined;
  /** The write of the paused CAPI object's status, mirrored from the MAPI object's. */
  status(mirror: C): WriteStep | undefined;
  /** Writes after the mirrored status: leftovers to let go. */
  after?(mirror: C): Step | undefined;
  /** What `Synchronized=True` says. */
  synchronized(mirror: C): string;
}

/** One forward sync of one object: its kind, what was observed, and what the kind brings. */
interface Forward<C extends CapiMirror> extends SyncKind, ForwardMirror<C> {
  /** `namespace/name` of the CAPI object. */
  capiName: string;
  mapi: ReportingObject;
  mirror?: C;
  /** True while Machine API is authoritative; false for the initial sync under Cluster API. */
  paused: boolean;
  now: string;
}

/**
 * The kind's conversion of the MAPI object with its warnings, or the report of what keeps it from
 * one: no Infrastructure naming the cluster, no conversion for the platform, field errors.
 */
export function convertForward<V>(
  k: ForwardKind,
  o: MirrorObserved,
  mapi: ReportingObject,
  convert: (infrastructure: Infrastructure, converter: PlatformConverter) => Conversion<V>,
): { step: Step } | { value: V; warnings: string[] } {
  const { infrastructure, converter } = o;
  const fail = (reason: SyncReason, message: string, note: string) => ({
    step: reportFailure(mapi, o.now, reason, message, note),
  });
  if (!infrastructure?.status?.infrastructureName) {
    return fail(
      k.reasons.InfraResourcesUnavailable,
      k.messages.infrastructureUnavailable(infrastructure),
      'infrastructure unavailable',
    );
  }
  if (!converter) {
    return fail(
      k.reasons.ConversionFailed,
      `The platform "${o.platform ?? 'unknown'}" has no Cluster API conversion; supported platforms: ${SUPPORTED_PLATFORMS.join(', ')}.${k.messages.unsupportedPlatformAdvice}`,
      'unsupported platform',
    );
  }
  const conversion = convert(infrastructure, converter);
  if (!conversion.ok) {
    return fail(
      k.reasons.ConversionFailed,
      k.messages.conversionFailed(formatFieldErrors(conversion.errors)),
      'conversion failed; waiting for a change',
    );
  }
  return { value: conversion.value, warnings: conversion.warnings };
}

/** The next write of a forward sync, or `done` once it is synchronized. */
export function planForward<C extends CapiMirror>(
  k: SyncKind,
  o: MirrorObserved & { mirror?: C },
  mapi: ReportingObject,
  authority: 'MachineAPI' | 'ClusterAPI',
  m: ForwardMirror<C>,
): Step {
  const f: Forward<C> = {
    ...k,
    ...m,
    desired: withAuthority(m.desired, authority),
    capiName: `${o.capiNamespace}/${o.name}`,
    mapi,
    ...(o.mirror ? { mirror: o.mirror } : {}),
    paused: authority === 'MachineAPI',
    now: o.now,
  };
  const { mirror } = f;
  if (!mirror) return createMirror(f);
  if (mirror.spec.clusterName !== f.desired.spec.clusterName) return clusterNameChanged(f, mirror);
  return (
    f.companion(mirror) ??
    updateMirror(f, mirror) ??
    (hasFinalizer(mirror)
      ? undefined
      : addFinalizer(mirror, `adding finalizer to ${f.capiNoun}`)) ??
    mirrorStatus(f, mirror) ??
    f.after?.(mirror) ??
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
      failure: f.reasons.CreateFailed,
      events: f.events,
    },
  );
}

/** Cluster API forbids changing spec.clusterName: reported, never written. */
function clusterNameChanged<C extends CapiMirror>(f: Forward<C>, mirror: C): Step {
  return reportFailure(
    f.mapi,
    f.now,
    f.reasons.UpdateFailed,
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
    failure: f.reasons.UpdateFailed,
    events: f.events,
  };
}

/** The paused CAPI object's status, from the MAPI object's; an unpaused one's is Cluster API's. */
function mirrorStatus<C extends CapiMirror>(f: Forward<C>, mirror: C): Step | undefined {
  const step = f.paused ? f.status(mirror) : undefined;
  return step && { ...step, failure: f.reasons.UpdateFailed };
}

function reportSynchronized<C extends CapiMirror>(f: Forward<C>, mirror: C): Step {
  // Synchronized at the generation of the authoritative side.
  const generation = f.paused ? f.mapi.metadata.generation : mirror.metadata.generation;
  return (
    reportState(
      f.mapi,
      f.now,
      { status: 'True', reason: f.reasons.Synchronized, message: f.synchronized(mirror) },
      generation,
    ) ?? done('in sync')
  );
}

function withoutKey(map: Record<string, string>, key: string): Record<string, string> {
  const { [key]: _dropped, ...rest } = map;
  return rest;
}

/** The converted CAPI object, marked with the authority it was written under. */
function withAuthority<C extends KubeObject>(converted: C, authority: string): C {
  const annotations = { ...converted.metadata.annotations, [AUTHORITY_ANNOTATION]: authority };
  return { ...converted, metadata: { ...converted.metadata, annotations } };
}
