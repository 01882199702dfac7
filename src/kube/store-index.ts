// An index over an informer's store, like client-go's Indexer: which stored keys have a given
// value (say, the template a MachineSet points at), so that an event handler finds the objects
// an event concerns without scanning the whole store for each event.

/**
 * The values an object is found under; none keeps it out of the index. Called on every change of
 * the store, it must not throw.
 */
export type IndexFunc<T> = (object: T) => string[];

export class StoreIndex<T> {
  private readonly keysByValue = new Map<string, Set<string>>();
  private readonly valuesByKey = new Map<string, string[]>();

  constructor(private readonly valuesOf: IndexFunc<T>) {}

  /** Records (or re-records) the object stored under `key`. */
  set(key: string, object: T): void {
    const values = [...new Set(this.valuesOf(object))];
    const previous = this.valuesByKey.get(key) ?? [];
    // Unchanged values keep the key where it was, so lookups keep the store's order.
    if (sameValues(previous, values)) return;
    this.delete(key);
    if (values.length === 0) return;
    this.valuesByKey.set(key, values);
    for (const value of values) {
      let keys = this.keysByValue.get(value);
      if (!keys) this.keysByValue.set(value, (keys = new Set()));
      keys.add(key);
    }
  }

  /** Forgets the object stored under `key`. */
  delete(key: string): void {
    const values = this.valuesByKey.get(key);
    if (!values) return;
    this.valuesByKey.delete(key);
    for (const value of values) {
      const keys = this.keysByValue.get(value);
      keys?.delete(key);
      if (keys?.size === 0) this.keysByValue.delete(value);
    }
  }

  /** The keys of the objects found under `value`. */
  keys(value: string): string[] {
    return [...(this.keysByValue.get(value) ?? [])];
  }

  clear(): void {
    this.keysByValue.clear();
    this.valuesByKey.clear();
  }
}

function sameValues(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
