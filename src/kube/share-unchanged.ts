// A new version of a cached object keeps the old version's parts that did not change.
import isEqual from 'lodash/isEqual.js';
import type { KubeObject } from '../api/types.js';

/** The metadata fields worth sharing: objects that rarely change while the rest does. */
const SHARED_METADATA = ['labels', 'annotations', 'ownerReferences', 'finalizers'] as const;

/**
 * `next` (a fresh copy, changed in place) with every top-level field (spec, status, …) and the
 * metadata maps equal to `old`'s replaced by `old`'s own objects. A status update then leaves the
 * spec the same object, so what is computed from a spec (conversions) is recognised by identity,
 * and the cache holds one copy of what did not change.
 */
export function shareUnchanged<T extends KubeObject>(old: T, next: T): T {
  const from = old as unknown as Record<string, unknown>;
  const to = next as unknown as Record<string, unknown>;
  for (const key of Object.keys(to)) {
    if (key !== 'metadata' && typeof to[key] === 'object' && isEqual(from[key], to[key])) {
      to[key] = from[key];
    }
  }
  const metadata = next.metadata as unknown as Record<string, unknown>;
  const oldMetadata = old.metadata as unknown as Record<string, unknown>;
  for (const key of SHARED_METADATA) {
    if (metadata[key] !== undefined && isEqual(oldMetadata[key], metadata[key])) {
      metadata[key] = oldMetadata[key];
    }
  }
  return next;
}
