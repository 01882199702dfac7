// Writes objects through the API server. Every write is conditional on what the
// caller observed: the resourceVersion (updates, merge patches), a JSON-patch
// `test` (finalizer removal) or the uid (deletes).
import type { KubeObject, Patch } from '../api/types.js';
import { isNotFound } from './errors.js';
import type { KubeClient } from './http-client.js';
import { resourcePath, type Resource } from './resources.js';

export interface ObjectWriter {
  create<T extends KubeObject>(resource: Resource, object: T): Promise<T>;
  /** Replaces the object (not its status), conditional on its resourceVersion. */
  update<T extends KubeObject>(resource: Resource, object: T): Promise<T>;
  /** Patches the object, or its status subresource. */
  patch<T extends KubeObject>(
    resource: Resource,
    object: T,
    patch: Patch,
    subresource?: 'status',
  ): Promise<T>;
  /**
   * Deletes the object with the uid observed. Resolves to the server's answer
   * while finalizers keep it (it now carries a deletionTimestamp), undefined
   * once it is gone or was already gone.
   */
  delete<T extends KubeObject>(resource: Resource, object: T): Promise<T | undefined>;
}

const PATCH_CONTENT_TYPES = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
} as const;

export function createObjectWriter(client: KubeClient): ObjectWriter {
  const collection = (resource: Resource, object: KubeObject): string =>
    resourcePath({
      ...resource,
      ...(resource.namespaced ? { namespace: object.metadata.namespace ?? '' } : {}),
    });
  const path = (resource: Resource, object: KubeObject, subresource?: 'status'): string =>
    `${collection(resource, object)}/${encodeURIComponent(object.metadata.name)}` +
    (subresource ? `/${subresource}` : '');
  const withoutManagedFields = <T extends KubeObject>(object: T): T => {
    const { managedFields: _managedFields, ...metadata } = object.metadata;
    return { ...object, metadata };
  };
  return {
    create<T extends KubeObject>(resource: Resource, object: T): Promise<T> {
      const body = withoutManagedFields(object);
      return client.request<T>('POST', collection(resource, object), { body });
    },
    update<T extends KubeObject>(resource: Resource, object: T): Promise<T> {
      const body = withoutManagedFields(object);
      return client.request<T>('PUT', path(resource, object), { body });
    },
    patch<T extends KubeObject>(
      resource: Resource,
      object: T,
      patch: Patch,
      subresource?: 'status',
    ): Promise<T> {
      const body = patch.type === 'json' ? patch.operations : patch.body;
      const contentType = PATCH_CONTENT_TYPES[patch.type];
      return client.request<T>('PATCH', path(resource, object, subresource), { body, contentType });
    },
    async delete<T extends KubeObject>(resource: Resource, object: T): Promise<T | undefined> {
      const body = { preconditions: { uid: object.metadata.uid } };
      let answer: unknown;
      try {
        answer = await client.request('DELETE', path(resource, object), { body });
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
      // Custom resources answer with the object; still there only while finalizers hold it.
      const remaining = answer as Partial<T> | undefined;
      return remaining?.metadata?.deletionTimestamp && remaining.metadata.finalizers?.length
        ? (remaining as T)
        : undefined;
    },
  };
}
