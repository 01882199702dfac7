// The labels and annotations of a mirror or template are shared: the keys we write follow MAPI,
// the keys another writer adds (an operator, GitOps, a cost tool) stay. Which keys are ours is
// recorded on the object itself. Pure.
import { OWNED_METADATA_ANNOTATION } from '../model/markers.js';

type Labels = Record<string, string>;

export interface SharedMetadata {
  labels?: Labels;
  annotations?: Labels;
}

interface OwnedKeys {
  labels: string[];
  annotations: string[];
}

/**
 * What to write: `current` without the keys we wrote before and no longer want, with `desired`
 * over it, and the record of our keys. An object without a record (written before records
 * existed) counts all its keys as ours, as they were.
 */
export function mergeOwnedMetadata(
  current: SharedMetadata,
  desired: SharedMetadata,
): Required<SharedMetadata> {
  const previous = ownedKeys(current);
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
export function ownedMetadataDiffers(current: SharedMetadata, desired: SharedMetadata): boolean {
  const merged = mergeOwnedMetadata(current, desired);
  return (
    !sameEntries(current.labels ?? {}, merged.labels) ||
    !sameEntries(current.annotations ?? {}, merged.annotations)
  );
}

function merge(current: Labels | undefined, previous: Set<string>, desired: Labels = {}): Labels {
  const kept = Object.entries(current ?? {}).filter(
    ([key]) =>
      key !== OWNED_METADATA_ANNOTATION && !(previous.has(key) && !Object.hasOwn(desired, key)),
  );
  return { ...Object.fromEntries(kept), ...desired };
}

function ownedKeys(current: SharedMetadata): { labels: Set<string>; annotations: Set<string> } {
  const record = parse(current.annotations?.[OWNED_METADATA_ANNOTATION]);
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
