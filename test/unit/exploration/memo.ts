// Remembers what the planners decided, so that the exploration asks them once per distinct
// thing they read. Objects are never changed in place (cluster.ts), so an object's identity
// stands for its content. A planner reads through the caches it is given; its decision is a
// function of the answers, so the remembered reads form a tree: replaying the reads on another
// state leads to the same decision, or to a branch not taken yet (then the planner runs).
import type { KubeObject } from '../../../src/api/types.js';
import type { ObjectCache } from '../../../src/runtime/step-reconciler.js';

const ids = new WeakMap<object, number>();
let nextId = 0;

/** A number that stands for this object (or list of objects) while it lives. */
export function identity(object: object | undefined): number {
  if (!object) return -1;
  let id = ids.get(object);
  if (id === undefined) {
    id = ++nextId;
    ids.set(object, id);
  }
  return id;
}

/** One read through a cache: which cache, and the key (undefined for a list). */
interface Read {
  cache: string;
  key?: string;
}

/** The answer to a read, as identities. */
type Answer = string;

interface Node<T> {
  read?: Read;
  branches?: Map<Answer, Node<T>>;
  /** Set at a leaf: what the planner decided after the reads on the way here. */
  decided?: { value: T };
}

/** The caches of one state, by name. */
export type NamedCaches = Record<string, ObjectCache<KubeObject>>;

function answer(caches: NamedCaches, read: Read): Answer {
  const cache = caches[read.cache];
  if (!cache) return 'none';
  if (read.key === undefined) {
    return cache
      .list()
      .map((o) => identity(o))
      .join(',');
  }
  return String(identity(cache.get(read.key)));
}

export class PlannerMemo<T> {
  private readonly roots = new Map<string, Node<T>>();
  hits = 0;
  misses = 0;

  /** What `plan` decides on `caches`, remembered under `subject`. */
  decide(subject: string, caches: NamedCaches, plan: (caches: NamedCaches) => T): T {
    let node = this.roots.get(subject);
    while (node?.read) {
      node = node.branches?.get(answer(caches, node.read));
    }
    if (node?.decided) {
      this.hits++;
      return node.decided.value;
    }
    this.misses++;
    const reads: { read: Read; answer: Answer }[] = [];
    const value = plan(recording(caches, reads));
    this.remember(subject, reads, value);
    return value;
  }

  private remember(subject: string, reads: { read: Read; answer: Answer }[], value: T): void {
    let node = this.roots.get(subject);
    if (!node) {
      node = {};
      this.roots.set(subject, node);
    }
    for (const { read, answer: given } of reads) {
      if (!node.read) {
        node.read = read;
        node.branches = new Map();
      }
      let next = node.branches!.get(given);
      if (!next) {
        next = {};
        node.branches!.set(given, next);
      }
      node = next;
    }
    node.decided = { value };
  }
}

/** The caches, recording every read and its answer. */
function recording(caches: NamedCaches, reads: { read: Read; answer: Answer }[]): NamedCaches {
  return Object.fromEntries(
    Object.entries(caches).map(([name, cache]) => [
      name,
      {
        ...cache,
        get: (key: string) => {
          const object = cache.get(key);
          reads.push({ read: { cache: name, key }, answer: String(identity(object)) });
          return object;
        },
        list: () => {
          const objects = cache.list();
          reads.push({ read: { cache: name }, answer: objects.map((o) => identity(o)).join(',') });
          return objects;
        },
      },
    ]),
  );
}
