// The labels and annotations of what we write on the CAPI side (a mirror, a template, an
// infrastructure machine) are shared: the keys we write follow MAPI, the keys another writer adds
// (an operator, GitOps, a cost tool, the provider) stay. Which keys are ours is recorded on the
// object itself, from its create on. Pure.
import type { KubeObject, OwnerReference } from '../api/types.js';
import { OWNED_METADATA_ANNOTATION } from '../model/markers.js';
import type { SyncReason } from './conditions.js';
import type { EventSpec, WriteStep } from './steps.js';

type Labels = Record<string, string>;

export interface SharedMetadata {
  labels?: Labels;
  annotations?: Labels;
}

/** Which label and annotation keys are ours. */
export interface OwnedKeys {
  labels: string[];
  annotations: string[];
}

/**
 * What to write: `current` without the keys we wrote before and no longer want, with `desired`
 * over it, and the record of our keys. An object without a record (written before records
 * existed) counts as ours the keys `unrecorded` names, by default all it has, as they were.
 */
export function mergeOwnedMetadata(
  current: SharedMetadata,
  desired: SharedMetadata,
  unrecorded?: OwnedKeys,
): Required<SharedMetadata> {
  const previous = ownedKeys(current, unrecorded);
  const owned: OwnedKeys = {
    labels: Object.keys(desired.labels ?? {}).sort(),
    annotations: Object.keys(desired.annotations ?? {})
      .filter((key) => key !== OWNED_METADATA_ANNOTATION)
      .sort(),
  };
  return {
    labels: merge(current.labels, previous.labels, desired.labels),
    annotations: {
      ...merge(current.annotations, previous.annotations, desired.annotations),
      [OWNED_METADATA_ANNOTATION]: JSON.stringify(owned),
    },
  };
}

/** True when writing `desired` over `current` would change its labels or annotations. */
export function ownedMetadataDiffers(
  current: SharedMetadata,
  desired: SharedMetadata,
  unrecorded?: OwnedKeys,
): boolean {
  const merged = mergeOwnedMetadata(current, desired, unrecorded);
  return (
    !sameEntries(current.labels ?? {}, merged.labels) ||
    !sameEntries(current.annotations ?? {}, merged.annotations)
  );
}

/**
 * The create of `desired` with `metadata`'s labels and annotations recorded as ours from its first
 * moment, so that later writes know which keys follow MAPI and which are someone else's.
 */
export function createWithOwnedMetadata(
  desired: KubeObject,
  metadata: SharedMetadata & { ownerReferences: OwnerReference[]; finalizers?: string[] },
  write: { note: string; failure: SyncReason; events?: EventSpec[] },
): WriteStep {
  const { labels, annotations, ...rest } = metadata;
  return {
    kind: 'create',
    object: {
      ...desired,
      metadata: {
        ...desired.metadata,
        ...mergeOwnedMetadata({}, { labels, annotations }),
        ...rest,
      },
    },
    ...write,
  };
}

/**
 * `current` with our labels and annotations brought up to date and `owner` among its owners,
 * once: the object as an update adopting it (or keeping it ours) writes it.
 */
export function adoptWithOwnedMetadata<T extends KubeObject>(
  current: T,
  metadata: SharedMetadata,
  owner: OwnerReference,
  unrecorded?: OwnedKeys,
): T {
  const others = (current.metadata.ownerReferences ?? []).filter((r) => r.uid !== owner.uid);
  return {
    ...current,
    metadata: {
      ...current.metadata,
      ...mergeOwnedMetadata(current.metadata, metadata, unrecorded),
      ownerReferences: [...others, owner],
    },
  };
}

function merge(current: Labels | undefined, previous: Set<string>, desired: Labels = {}): Labels {
  const kept = Object.entries(current ?? {}).filter(
    ([key]) =>
      key !== OWNED_METADATA_ANNOTATION && !(previous.has(key) && !Object.hasOwn(desired, key)),
  );
  return { ...Object.fromEntries(kept), ...desired };
}

function ownedKeys(
  current: SharedMetadata,
  unrecorded?: OwnedKeys,
): { labels: Set<string>; annotations: Set<string> } {
  const record = parse(current.annotations?.[OWNED_METADATA_ANNOTATION]) ?? unrecorded;
  return {
    labels: new Set(record?.labels ?? Object.keys(current.labels ?? {})),
    annotations: new Set(record?.annotations ?? Object.keys(current.annotations ?? {})),
  };
}

/** The record, or undefined when absent or not ours to read (then every key counts as ours). */
function parse(value: string | undefined): OwnedKeys | undefined {
  if (value === undefined) return undefined;
  try {
    const parsed = JSON.parse(value) as { labels?: unknown; annotations?: unknown } | null;
    const strings = (list: unknown): string[] =>
      Array.isArray(list) ? list.filter((k): k is string => typeof k === 'string') : [];
    return { labels: strings(parsed?.labels), annotations: strings(parsed?.annotations) };
  } catch {
    return undefined;
  }
}

function sameEntries(a: Labels, b: Labels): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
}
