// Samples every version of the objects of some kinds in some namespaces, by watching them: each
// watch event is one sample, so no state an observer could have read is missed (a poll every
// 100-200 ms would see a subset of these). Also lists them as they are now.
import { adminObjects } from './cluster.js';

export interface Resource {
  group: string;
  version: string;
  plural: string;
}

/** An object as the API server sent it, with the fields the samples are judged by. */
export interface SampledObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; generation?: number; resourceVersion?: string };
  status?: Record<string, unknown>;
}

export interface Sample {
  /** Milliseconds since the sampler started. */
  at: number;
  event: string;
  object: SampledObject;
}

export interface Sampler {
  /** Every sample so far, in the order the watches delivered them. */
  readonly samples: Sample[];
  /** Ends the watches; throws when one of them ended early (samples would be missing). */
  stop(): Sample[];
}

/**
 * Starts one watch per resource and namespace; resolves once every watch is established, so
 * that what is done next is seen from its first write (objects that already exist arrive first,
 * as ADDED).
 */
export async function sampleObjects(
  watched: { resource: Resource; namespace: string }[],
): Promise<Sampler> {
  const started = Date.now();
  const samples: Sample[] = [];
  const failures: string[] = [];
  let stopping = false;
  const objects = adminObjects();
  const aborts = await Promise.all(
    watched.map(({ resource, namespace }) => {
      const path = `/apis/${resource.group}/${resource.version}/namespaces/${namespace}/${resource.plural}`;
      return objects.watch(
        { ...resource, namespace },
        {},
        (event: string, object: SampledObject) => {
          if (event === 'BOOKMARK' || event === 'ERROR') {
            if (event === 'ERROR') failures.push(`${path}: ${JSON.stringify(object)}`);
            return;
          }
          samples.push({ at: Date.now() - started, event, object });
        },
        (err: unknown) => {
          if (!stopping) failures.push(`${path} ended early: ${String(err)}`);
        },
      );
    }),
  );
  return {
    samples,
    stop() {
      stopping = true;
      for (const abort of aborts) abort.abort();
      if (failures.length > 0) throw new Error(`watches failed: ${failures.join('; ')}`);
      return samples;
    },
  };
}

/** The objects as they are now, each with its apiVersion and kind (list items lack them). */
export async function currentObjects(
  watched: { resource: Resource; namespace: string }[],
): Promise<SampledObject[]> {
  const api = adminObjects();
  const lists = await Promise.all(
    watched.map(async ({ resource, namespace }) => {
      const list = await api.list<SampledObject>({ ...resource, namespace });
      const kind = (list.kind ?? '').replace(/List$/, '');
      return list.items.map((o) => ({ ...o, apiVersion: list.apiVersion ?? '', kind }));
    }),
  );
  return lists.flat();
}
