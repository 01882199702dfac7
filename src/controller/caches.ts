// Informers as the reconcilers' caches: an informer's store, plus our own writes fed into it.
import type { KubeObject } from '../api/types.js';
import type { Informer } from '../kube/informer.js';
import type { ObjectCache } from './step-reconciler.js';

/**
 * An informer doubles as the reconciler's cache: its store, plus our own writes, whose changes
 * it emits at once to whatever they wake (marked with the writer, whom they do not wake).
 */
export function asCache<T extends KubeObject>(informer: Informer<T>): ObjectCache<T> {
  return {
    get: (key) => informer.get(key),
    list: () => informer.list(),
    byIndex: (name, value) => informer.byIndex(name, value),
    hasSynced: () => informer.hasSynced(),
    upsert: (object, writer) => informer.upsert(object, writer),
    remove: (key, writer) => informer.remove(key, writer),
  };
}
