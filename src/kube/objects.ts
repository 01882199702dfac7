// Objects of any resource over our transport (http-client.ts): read, list (page by page), create,
// replace, patch (JSON, merge, strategic merge, server-side apply; the object or a subresource),
// delete and watch, for custom resources and Kubernetes' own alike (group '' is the core API).
// What the CLIs, the tests, the demo and the bench use in place of client-node's generated
// clients, so that every request goes through one transport with its deadlines, keep-alive pool
// and Retry-After. A failure is the transport's: an ApiError (its `code` is the HTTP status, its
// `body` the server's Status) or a RequestTimeoutError.
import type { Patch } from '../api/types.js';
import type { KubeClient } from './http-client.js';
import { resourcePath, type Resource, type ResourceDescriptor } from './resources.js';

/** One object of a resource: the resource, its namespace (none when cluster-scoped) and name. */
export interface ObjectLocation extends ResourceDescriptor {
  name: string;
}

/** A list as the server answers it, every page's items in one. */
export interface ObjectList<T> {
  apiVersion?: string;
  kind?: string;
  /** The first page's resourceVersion: every page is a view of that snapshot. */
  metadata: { resourceVersion?: string };
  items: T[];
}

/** What names an object of any kind: a manifest's apiVersion, kind, name and namespace. */
export interface ObjectIdentity {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
}

export interface CallOptions {
  signal?: AbortSignal;
  /** This request's time budget, instead of the client's. */
  timeoutMs?: number;
}

export interface ListOptions extends CallOptions {
  labelSelector?: string;
  fieldSelector?: string;
  /** Items per request (default 500); the list returned holds them all. */
  pageSize?: number;
}

export interface WriteOptions extends CallOptions {
  /** Validated and admitted, not stored. */
  dryRun?: boolean;
  fieldManager?: string;
  /** What the server does with fields its schema does not know. */
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
  /** Writes this subresource of the object (e.g. 'status'); a create names the object in `at`. */
  subresource?: string;
}

/** A JSON or merge patch (as the controller writes them), a strategic merge patch or an apply. */
export type ObjectPatch =
  Patch | { type: 'strategic'; body: Record<string, unknown> } | { type: 'apply'; body: object };

export interface PatchOptions extends WriteOptions {
  /** Server-side apply: take over fields another manager owns. */
  force?: boolean;
}

export interface DeleteOptions extends CallOptions {
  dryRun?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  gracePeriodSeconds?: number;
}

export interface WatchOptions {
  resourceVersion?: string;
  allowWatchBookmarks?: boolean;
  timeoutSeconds?: number;
  labelSelector?: string;
  fieldSelector?: string;
}

export interface ObjectWatch {
  abort(): void;
}

const PAGE_SIZE = 500;

const PATCH_CONTENT_TYPES: Record<ObjectPatch['type'], string> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

/** An answer of the server's discovery: the resources of one group version. */
interface ApiResourceList {
  resources?: { name: string; kind: string; namespaced: boolean }[];
}

export class ObjectClient {
  private readonly discovered = new Map<string, Promise<ApiResourceList>>();

  constructor(readonly client: KubeClient) {}

  async get<T = unknown>(at: ObjectLocation, options: CallOptions = {}): Promise<T> {
    return await this.client.request<T>('GET', itemPath(at), callOptions(options));
  }

  /** Every object of the collection (of `at.namespace`, or of all), requested page by page. */
  async list<T = unknown>(
    at: ResourceDescriptor,
    options: ListOptions = {},
  ): Promise<ObjectList<T>> {
    const path = resourcePath(at);
    const selectors = definedOnly({
      labelSelector: options.labelSelector,
      fieldSelector: options.fieldSelector,
    });
    let list: ObjectList<T> | undefined;
    let next: string | undefined;
    do {
      const page = await this.client.request<Page<T>>('GET', path, {
        ...callOptions(options),
        query: {
          ...selectors,
          limit: String(options.pageSize ?? PAGE_SIZE),
          ...(next ? { continue: next } : {}),
        },
      });
      if (!list) {
        list = {
          ...(page.apiVersion ? { apiVersion: page.apiVersion } : {}),
          ...(page.kind ? { kind: page.kind } : {}),
          metadata: definedOnly({ resourceVersion: page.metadata?.resourceVersion }),
          items: [],
        };
      }
      list.items.push(...(page.items ?? []));
      next = page.metadata?.continue || undefined;
    } while (next);
    return list;
  }

  /**
   * Creates `body` in the collection `at`; with `subresource`, posts it to that subresource of
   * the object `at` names (e.g. a ServiceAccount's token request).
   */
  async create<T = unknown>(
    at: ResourceDescriptor & { name?: string },
    body: object,
    options: WriteOptions = {},
  ): Promise<T> {
    let path = resourcePath(at);
    if (options.subresource) {
      if (at.name === undefined) throw new Error(`POST ${path}: a subresource needs a name`);
      path = itemPath({ ...at, name: at.name }, options.subresource);
    }
    return await this.client.request<T>('POST', path, {
      ...callOptions(options),
      query: writeQuery(options),
      body,
    });
  }

  /** Replaces the object (or its subresource) with `body`; conditional on its resourceVersion. */
  async replace<T = unknown>(
    at: ObjectLocation,
    body: object,
    options: WriteOptions = {},
  ): Promise<T> {
    return await this.client.request<T>('PUT', itemPath(at, options.subresource), {
      ...callOptions(options),
      query: writeQuery(options),
      body,
    });
  }

  async patch<T = unknown>(
    at: ObjectLocation,
    patch: ObjectPatch,
    options: PatchOptions = {},
  ): Promise<T> {
    const body = patch.type === 'json' ? patch.operations : patch.body;
    return await this.client.request<T>('PATCH', itemPath(at, options.subresource), {
      ...callOptions(options),
      query: { ...writeQuery(options), ...(options.force ? { force: 'true' } : {}) },
      body,
      contentType: PATCH_CONTENT_TYPES[patch.type],
    });
  }

  /**
   * Deletes the object; resolves to the server's answer: the object (custom resources; it still
   * exists while finalizers hold it) or a Status.
   */
  async delete<T = unknown>(at: ObjectLocation, options: DeleteOptions = {}): Promise<T> {
    const deleteOptions = definedOnly({
      preconditions: options.preconditions,
      propagationPolicy: options.propagationPolicy,
      gracePeriodSeconds: options.gracePeriodSeconds,
    });
    return await this.client.request<T>('DELETE', itemPath(at), {
      ...callOptions(options),
      query: options.dryRun ? { dryRun: 'All' } : {},
      ...(Object.keys(deleteOptions).length > 0
        ? { body: { apiVersion: 'v1', kind: 'DeleteOptions', ...deleteOptions } }
        : {}),
    });
  }

  /**
   * Watches the collection: `onEvent` hears each event (ADDED, MODIFIED, DELETED, BOOKMARK,
   * ERROR) until the server ends the watch or `abort` is called, then `onDone` hears how it
   * ended (an error, or nothing when the server or `abort` ended it). Resolves once the server
   * accepted the watch; rejects when it refused it.
   */
  watch<T = unknown>(
    at: ResourceDescriptor,
    options: WatchOptions,
    onEvent: (type: string, object: T) => void,
    onDone: (err?: unknown) => void,
  ): Promise<ObjectWatch> {
    const path = resourcePath(at);
    const controller = new AbortController();
    const query = definedOnly({
      watch: 'true',
      resourceVersion: options.resourceVersion,
      allowWatchBookmarks: options.allowWatchBookmarks ? 'true' : undefined,
      timeoutSeconds:
        options.timeoutSeconds === undefined ? undefined : String(options.timeoutSeconds),
      labelSelector: options.labelSelector,
      fieldSelector: options.fieldSelector,
    });
    return new Promise<ObjectWatch>((resolve, reject) => {
      let opened = false;
      let done = false;
      const finish = (err?: unknown): void => {
        if (done) return;
        done = true;
        controller.abort();
        if (opened) onDone(err);
        else if (err instanceof Error) reject(err);
        else reject(new Error(`GET ${path}: the watch ended before it started`, { cause: err }));
      };
      const onLine = (line: string): void => {
        if (done) return;
        let event: { type?: unknown; object?: unknown };
        try {
          event = JSON.parse(line) as typeof event;
        } catch (err) {
          finish(new Error(`GET ${path}: watch sent a line that is not JSON`, { cause: err }));
          return;
        }
        onEvent(String(event.type), event.object as T);
      };
      const onOpen = (): void => {
        opened = true;
        resolve({ abort: () => finish() });
      };
      this.client.stream(path, query, controller.signal, onLine, onOpen).then(
        () => finish(),
        // An abort of ours ends the stream with an error: that is no failure.
        (err: unknown) => finish(controller.signal.aborted ? undefined : err),
      );
    });
  }

  /**
   * The resource that serves objects of `apiVersion` and `kind`, from the server's discovery
   * (asked once per group version).
   */
  async resourceFor(apiVersion: string, kind: string): Promise<Resource> {
    let answer = this.discovered.get(apiVersion);
    if (!answer) {
      const path = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
      answer = this.client.request<ApiResourceList>('GET', path);
      this.discovered.set(apiVersion, answer);
      answer.catch(() => this.discovered.delete(apiVersion));
    }
    const served = (await answer).resources?.find((r) => r.kind === kind && !r.name.includes('/'));
    if (!served) throw new Error(`the server serves no ${kind} in ${apiVersion}`);
    const [group, version] = apiVersion.includes('/')
      ? (apiVersion.split('/') as [string, string])
      : ['', apiVersion];
    return { group, version, plural: served.name, kind, namespaced: served.namespaced };
  }

  /**
   * Where an object of any kind lives (its resource from discovery), as a manifest names it: a
   * namespaced object without a namespace is in `default`, as kubectl puts it.
   */
  async locate(object: ObjectIdentity): Promise<ObjectLocation> {
    const resource = await this.resourceFor(object.apiVersion, object.kind);
    const { group, version, plural } = resource;
    return {
      group,
      version,
      plural,
      name: object.metadata.name,
      ...(resource.namespaced ? { namespace: object.metadata.namespace ?? 'default' } : {}),
    };
  }

  /** Closes the kept-alive connections; requests still running finish. */
  close(): void {
    this.client.close();
  }
}

interface Page<T> {
  apiVersion?: string;
  kind?: string;
  metadata?: { resourceVersion?: string; continue?: string };
  items?: T[];
}

function itemPath(at: ObjectLocation, subresource?: string): string {
  if (!at.name) throw new Error(`${resourcePath(at)}: no object name`);
  return (
    `${resourcePath(at)}/${encodeURIComponent(at.name)}` +
    (subresource ? `/${encodeURIComponent(subresource)}` : '')
  );
}

function callOptions({ signal, timeoutMs }: CallOptions): CallOptions {
  return definedOnly({ signal, timeoutMs });
}

function writeQuery(options: WriteOptions): Record<string, string> {
  return definedOnly({
    dryRun: options.dryRun ? 'All' : undefined,
    fieldManager: options.fieldManager,
    fieldValidation: options.fieldValidation,
  });
}

/** The object without its undefined members (exactOptionalPropertyTypes). */
function definedOnly<T extends Record<string, unknown>>(
  object: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
