// The objects of one small cluster and the API server's rules for writing them, for the
// exploration of every order (explore.ts). A state is plain data, so that it can be copied,
// hashed and compared; every write goes through `Cluster`, which applies it the way
// kube-apiserver does for custom resources (uids, generations, finalizers, deletion).
import { createHash } from 'node:crypto';
import isEqual from 'lodash/isEqual.js';
import type { KubeObject, Patch } from '../../../src/api/types.js';
import { applyPatch } from '../../support/patch.js';
import { identity } from './memo.js';

export type Authority = 'MachineAPI' | 'ClusterAPI';

/** Which API a deletion was asked of while it was authoritative (both while Migrating). */
export type AskedOf = Authority | 'Migrating';

export interface State {
  /** Every object, by `keyOf`. */
  objects: Record<string, KubeObject>;
  /** The cloud's instances, by machine name, with the API that created them. */
  instances: Record<string, Authority>;
  /** Machines a replica change or a deletion of the authoritative side asked for or asked to go. */
  wanted: Record<string, true>;
  goneAskedOf: Record<string, AskedOf>;
  /** Whether the controller runs (false between an uninstall and the reinstall). */
  installed: boolean;
  /** How many of the scenario's person actions have happened, in order. */
  acted: number;
  /** How many objects of each key have been created, so that a re-creation gets a new uid. */
  created: Record<string, number>;
}

export const MAPI_GROUP = 'machine.openshift.io';
export const CAPI_GROUP = 'cluster.x-k8s.io';
export const INFRA_GROUP = 'infrastructure.cluster.x-k8s.io';
export const NOW = '2026-01-01T00:00:00.000Z';

const groupOf = (object: KubeObject) => object.apiVersion.split('/')[0] ?? '';

const keyOf = (object: KubeObject) => `${groupOf(object)}/${object.kind}/${object.metadata.name}`;

export const isMapi = (object: KubeObject) => groupOf(object) === MAPI_GROUP;

/** What went wrong with a write, as the server would answer it; the state is left unchanged. */
export class Refused extends Error {}

/** What happened to the objects in one write, for the checks that follow. */
export interface Deletion {
  object: KubeObject;
  /** True when the object went at once (no finalizers), false when it became Terminating. */
  removed: boolean;
}

/**
 * One copy of a state being changed by one step. Writes apply at once; `deletions` lists every
 * object whose deletion was asked in this step (for the checks). Objects are never changed in
 * place: a write stores a new object, so that states share the objects they have in common.
 */
export class Cluster {
  readonly state: State;
  readonly deletions: Deletion[] = [];

  constructor(from: State) {
    this.state = {
      ...from,
      objects: { ...from.objects },
      instances: { ...from.instances },
      wanted: { ...from.wanted },
      goneAskedOf: { ...from.goneAskedOf },
      created: { ...from.created },
    };
  }

  get(key: string): KubeObject | undefined {
    return this.state.objects[key];
  }

  list(group: string, kind: string): KubeObject[] {
    return Object.values(this.state.objects).filter((o) => groupOf(o) === group && o.kind === kind);
  }

  byUid(uid: string | undefined): KubeObject | undefined {
    return Object.values(this.state.objects).find((o) => o.metadata.uid === uid);
  }

  create(object: KubeObject): KubeObject {
    const key = keyOf(object);
    if (this.state.objects[key]) throw new Refused(`409: ${key} exists`);
    const n = (this.state.created[key] = (this.state.created[key] ?? 0) + 1);
    const stored = structuredClone(object);
    stored.metadata = {
      ...stored.metadata,
      uid: `${key}#${n}`,
      generation: 1,
      resourceVersion: '1',
    };
    delete stored.metadata.deletionTimestamp;
    this.state.objects[key] = stored;
    return stored;
  }

  /** A patch or an update of spec and metadata (or of status alone). */
  write(object: KubeObject, change: Patch | 'update', subresource?: 'status'): void {
    const key = keyOf(object);
    const existing = this.state.objects[key];
    if (!existing) throw new Refused(`404: ${key}`);
    if (object.metadata.uid && object.metadata.uid !== existing.metadata.uid) {
      throw new Refused(`409: ${key} has another uid`);
    }
    // The same write of the same object, met again in another order, gives the same object.
    const memo = `${identity(existing)}|${subresource ?? ''}|${JSON.stringify(change === 'update' ? object : change)}`;
    let next = written.get(memo);
    if (!next) {
      next = applied(existing, object, change, subresource);
      written.set(memo, next);
    }
    if (next instanceof Refused) throw next;
    this.state.objects[key] = next;
    if (next.metadata.deletionTimestamp && !next.metadata.finalizers?.length) {
      delete this.state.objects[key];
    }
  }

  /**
   * Deletes as the server does: with finalizers the object is Terminating (its generation
   * bumped, k8s.io/apiserver pkg/registry/generic/registry/store.go markAsDeleting), else gone.
   */
  delete(object: KubeObject): void {
    const key = keyOf(object);
    const existing = this.state.objects[key];
    if (!existing) throw new Refused(`404: ${key}`);
    if (object.metadata.uid && object.metadata.uid !== existing.metadata.uid) {
      throw new Refused(`409: ${key} has another uid`);
    }
    if (existing.metadata.deletionTimestamp) return;
    const removed = !existing.metadata.finalizers?.length;
    this.deletions.push({ object: existing, removed });
    if (removed) {
      delete this.state.objects[key];
      return;
    }
    let terminating = deleted.get(existing);
    if (!terminating) {
      const generation = (existing.metadata.generation ?? 0) + 1;
      terminating = {
        ...existing,
        metadata: { ...existing.metadata, deletionTimestamp: NOW, generation },
      };
      deleted.set(existing, terminating);
    }
    this.state.objects[key] = terminating;
  }

  /** Removes a finalizer (a controller done with its cleanup); no-op if absent. */
  removeFinalizer(object: KubeObject, finalizer: string): void {
    const finalizers = object.metadata.finalizers ?? [];
    if (!finalizers.includes(finalizer)) return;
    this.write(object, {
      type: 'merge',
      body: { metadata: { finalizers: finalizers.filter((f) => f !== finalizer) } },
    });
  }

  addFinalizer(object: KubeObject, finalizer: string): void {
    this.write(object, {
      type: 'merge',
      body: { metadata: { finalizers: [...(object.metadata.finalizers ?? []), finalizer] } },
    });
  }

  annotate(object: KubeObject, annotations: Record<string, string | null>): void {
    this.write(object, { type: 'merge', body: { metadata: { annotations } } });
  }

  patchSpec(object: KubeObject, spec: Record<string, unknown>): void {
    this.write(object, { type: 'merge', body: { spec } });
  }

  patchStatus(object: KubeObject, status: Record<string, unknown>): void {
    this.write(object, { type: 'merge', body: { status } }, 'status');
  }
}

/** What writes made of objects, so that a write met again stores the same object. */
const written = new Map<string, KubeObject | Refused>();
const deleted = new WeakMap<KubeObject, KubeObject>();

/** The object a write makes of `existing`, or why the server refuses it. */
function applied(
  existing: KubeObject,
  object: KubeObject,
  change: Patch | 'update',
  subresource: 'status' | undefined,
): KubeObject | Refused {
  type Full = KubeObject & { spec?: unknown; status?: unknown };
  let incoming: Full;
  try {
    incoming = change === 'update' ? object : applyPatch(existing, change);
  } catch (error) {
    return new Refused(`422: ${keyOf(existing)}: ${(error as Error).message}`);
  }
  const next = structuredClone(existing) as Full;
  if (subresource === 'status') {
    next.status = incoming.status;
    return next;
  }
  if (!isEqual(next.spec, incoming.spec)) {
    next.metadata.generation = (next.metadata.generation ?? 0) + 1;
  }
  next.spec = incoming.spec;
  next.metadata = {
    ...incoming.metadata,
    uid: existing.metadata.uid,
    generation: next.metadata.generation,
    resourceVersion: '1',
  };
  if (existing.metadata.deletionTimestamp) {
    next.metadata.deletionTimestamp = existing.metadata.deletionTimestamp;
  } else {
    delete next.metadata.deletionTimestamp;
  }
  return next;
}

/** Canonical JSON: the keys of every object sorted, so that equal data reads the same. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : v,
  );
}

/** Objects are shared between states and never changed: each is digested once. */
const digests = new WeakMap<KubeObject, string>();

function digestOf(object: KubeObject): string {
  let digest = digests.get(object);
  if (digest === undefined) {
    digest = createHash('sha1').update(canonical(object)).digest('base64');
    digests.set(object, digest);
  }
  return digest;
}

/** A digest of a state that equal states share. */
export function fingerprint(state: State): string {
  const { objects, ...rest } = state;
  const hash = createHash('sha1').update(canonical(rest));
  for (const key of Object.keys(objects).sort()) hash.update(key).update(digestOf(objects[key]!));
  return hash.digest('base64');
}
