// CAPI → MAPI while Cluster API is authoritative, written once for both kinds: the MAPI object
// mirrors the CAPI object and what its machines are made from (a template, an infrastructure
// machine: anyone's, read, never written). The platform and the conversion first, each failure
// reported; then the MAPI spec, labels and annotations; then its status with Synchronized. Each
// kind brings its conversion, where its providerSpec is, and the status fields it mirrors. Pure.
import isEqual from 'lodash/isEqual.js';
import type { Infrastructure, KubeObject } from '../api/types.js';
import type { Conversion, PlatformConverter } from '../conversion/types.js';
import type { SyncKind } from './kind.js';
import type { MirrorObserved } from './observed.js';
import {
  formatFieldErrors,
  reportFailure,
  reportState,
  warningEvents,
  type ReportingObject,
} from './report.js';
import { specDiffers, type MachineSpecPlace } from './same-machines.js';
import { statusChanges, type MirroredStatus } from './status-mirror.js';
import { done, type EventSpec, type Step } from './steps.js';

/** What the reverse conversion makes of the CAPI side, for the MAPI object. */
interface MapiFromClusterApi {
  spec: unknown;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/** A MAPI object as the reverse sync writes it. */
interface MapiSide extends ReportingObject {
  spec?: unknown;
}

/** What a kind brings to the reverse sync of one object. */
export interface ReverseMirror {
  /** The MAPI spec, labels and annotations that mirror the CAPI object. */
  convert(
    infrastructure: Infrastructure,
    converter: PlatformConverter,
  ): Conversion<MapiFromClusterApi>;
  /** Where the MAPI spec keeps the machine spec whose providerSpec is compared by its machines. */
  machineSpec: MachineSpecPlace;
  /** The MAPI status fields that mirror Cluster API's, or undefined while there are none yet. */
  status(): MirroredStatus | undefined;
  /** What else `Synchronized=True` says the object mirrors ("… and its <alsoMirrors>"). */
  alsoMirrors?: string;
}

/** One reverse sync of one object: its kind, both sides, and what the kind brings. */
interface Reverse extends SyncKind, ReverseMirror {
  mapi: MapiSide;
  /** The authoritative CAPI object. */
  capi: KubeObject;
  /** `namespace/name` of the CAPI object. */
  capiName: string;
  now: string;
}

/** The next write of a reverse sync, or `done` once the MAPI object mirrors the CAPI object. */
export function planReverse(
  k: SyncKind,
  o: MirrorObserved,
  mapi: MapiSide,
  capi: KubeObject,
  m: ReverseMirror,
): Step {
  const r: Reverse = {
    ...k,
    ...m,
    mapi,
    capi,
    capiName: `${o.capiNamespace}/${capi.metadata.name}`,
    now: o.now,
  };
  const { infrastructure, converter } = o;
  if (!infrastructure || !converter) {
    return reportFailure(
      mapi,
      o.now,
      r.reasons.InfraResourcesUnavailable,
      `Cluster API is authoritative, but ${infrastructure ? `the platform "${o.platform ?? 'unknown'}" has no conversion` : 'the Infrastructure "cluster" was not found'}; ${r.capiName} is mirrored here once it can be converted.`,
      'reverse sync: infrastructure unavailable',
    );
  }
  const conversion = r.convert(infrastructure, converter);
  if (!conversion.ok) {
    return reportFailure(
      mapi,
      o.now,
      r.reasons.ReverseConversionFailed,
      `Cluster API is authoritative, and ${r.capiName} cannot be expressed as this Machine API ${r.kind}: ${formatFieldErrors(conversion.errors)}. Change the Cluster API ${r.kind} or its ${r.companionNoun}; it is converted again when it changes.`,
      'reverse conversion failed; waiting for a change',
    );
  }
  const wanted = conversion.value;
  return (
    planMapiFromClusterApi(
      r,
      wanted,
      specDiffers({ infrastructure, converter }, mapi.spec, wanted.spec, r.machineSpec),
      warningEvents(conversion.warnings),
    ) ?? reportMirrored(r)
  );
}

/**
 * Synchronized at the CAPI generation, with the status Cluster API reports: one write, so that an
 * observedGeneration it carries never vouches for a status that Synchronized does not describe
 * yet, and one write fewer.
 */
function reportMirrored(r: Reverse): Step {
  const wanted = r.status();
  const status = wanted && statusChanges(r.mapi.status, wanted);
  const also = r.alsoMirrors === undefined ? '' : ` and its ${r.alsoMirrors}`;
  const message = `Cluster API is authoritative; this ${r.kind} mirrors ${r.capiName}${also}.`;
  const report = reportState(
    r.mapi,
    r.now,
    { status: 'True', reason: r.reasons.Synchronized, message },
    r.capi.metadata.generation,
    [],
    status,
  );
  if (!report) return done('Cluster API is authoritative; in sync');
  return status
    ? { ...report, note: 'mirroring Cluster API status to MAPI, Synchronized' }
    : report;
}

/**
 * The MAPI object's spec, labels and annotations, whole (under Cluster API they are ours to
 * write), in one JSON patch guarded by the resourceVersion read; undefined when they are as
 * wanted. `specChanged` is judged by the machines a providerSpec describes, not by its form.
 */
function planMapiFromClusterApi(
  r: Reverse,
  wanted: MapiFromClusterApi,
  specChanged: boolean,
  events: EventSpec[],
): Step | undefined {
  const { mapi } = r;
  const same =
    !specChanged &&
    isEqual(mapi.metadata.labels ?? {}, wanted.labels) &&
    isEqual(mapi.metadata.annotations ?? {}, wanted.annotations);
  if (same) return undefined;
  return {
    kind: 'patch',
    object: mapi,
    patch: {
      type: 'json',
      operations: [
        { op: 'test', path: '/metadata/resourceVersion', value: mapi.metadata.resourceVersion },
        { op: 'add', path: '/metadata/labels', value: wanted.labels },
        { op: 'add', path: '/metadata/annotations', value: wanted.annotations },
        // `add` replaces a spec, and sets one the object does not have (the CRDs admit none).
        { op: 'add', path: '/spec', value: wanted.spec },
      ],
    },
    note: `updating the ${r.mapiNoun} from Cluster API`,
    failure: r.reasons.MapiUpdateFailed,
    events,
  };
}
