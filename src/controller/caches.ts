// Informers as the reconcilers' caches: an informer's store, plus our own writes fed into it.
import type { KubeObject } from '../api/types.js';
import type { Informer } from '../kube/informer.js';
import { objectKey } from '../kube/resources.js';
import type { ObjectCache } from './step-reconciler.js';
import { machineSetToWake } from './watches.js';

/** An informer doubles as the reconciler's cache: its store, plus our own writes. */
export function asCache<T extends KubeObject>(informer: Informer<T>): ObjectCache<T> {
  return {
    get: (key) => informer.get(key),
    list: () => informer.list(),
    byIndex: (name, value) => informer.byIndex(name, value),
    hasSynced: () => informer.hasSynced(),
    upsert: (object) => informer.upsert(object),
    remove: (key) => informer.remove(key),
  };
}

/**
 * A Machine informer as a cache: our own writes go into the store without an event, so they
 * wake the owning MachineSet here, as the informer's events do for everyone else's.
 */
export function machineCache<T extends KubeObject>(
  informer: Informer<T>,
  groupPrefix: string,
  wake: (machineSet: string) => void,
): ObjectCache<T> {
  const wakeOwner = (before: T | undefined, after: T | undefined) => {
    const set = machineSetToWake(before, after, groupPrefix);
    if (set) wake(set);
  };
  return {
    ...asCache(informer),
    upsert: (object) => {
      const before = informer.get(objectKey(object));
      informer.upsert(object);
      wakeOwner(before, informer.get(objectKey(object)));
    },
    remove: (key) => {
      const before = informer.get(key);
      informer.remove(key);
      wakeOwner(before, undefined);
    },
  };
}
