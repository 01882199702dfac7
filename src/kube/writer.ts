// Writes objects through the API server. Every write is conditional on what the
// caller observed: the resourceVersion (updates, merge patches), a JSON-patch
// `test` (finalizer removal) or the uid (deletes).
import {
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
} from '@kubernetes/client-node';
import type { KubeObject, Patch } from '../api/types.js';
import {
  createApiClient,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type ApiClientOptions,
} from './api-client.js';
import { isNotFound } from './errors.js';
import type { Resource } from './resources.js';

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

export function createObjectWriter(
  kubeConfig: KubeConfig,
  options: ApiClientOptions = { timeoutMs: DEFAULT_REQUEST_TIMEOUT_MS },
): ObjectWriter {
  const api = createApiClient(kubeConfig, CustomObjectsApi, options);
  const target = (resource: Resource, object: KubeObject) => ({
    group: resource.group,
    version: resource.version,
    plural: resource.plural,
    name: object.metadata.name,
    namespace: object.metadata.namespace ?? '',
  });
  const withoutManagedFields = <T extends KubeObject>(object: T): T => {
    const { managedFields: _managedFields, ...metadata } = object.metadata;
    return { ...object, metadata };
  };
  return {
    async create<T extends KubeObject>(resource: Resource, object: T): Promise<T> {
      const { name: _name, ...where } = target(resource, object);
      const body = withoutManagedFields(object);
      return (
        resource.namespaced
          ? await api.createNamespacedCustomObject({ ...where, body })
          : await api.createClusterCustomObject({ ...where, body })
      ) as T;
    },
    async update<T extends KubeObject>(resource: Resource, object: T): Promise<T> {
      const where = target(resource, object);
      const body = withoutManagedFields(object);
      return (
        resource.namespaced
          ? await api.replaceNamespacedCustomObject({ ...where, body })
          : await api.replaceClusterCustomObject({ ...where, body })
      ) as T;
    },
    async patch<T extends KubeObject>(
      resource: Resource,
      object: T,
      patch: Patch,
      subresource?: 'status',
    ): Promise<T> {
      const where = target(resource, object);
      const [body, contentType] =
        patch.type === 'json'
          ? [patch.operations, PatchStrategy.JsonPatch]
          : [patch.body, PatchStrategy.MergePatch];
      const options = setHeaderOptions('Content-Type', contentType);
      const request = { ...where, body };
      if (!resource.namespaced) {
        return (
          subresource === 'status'
            ? await api.patchClusterCustomObjectStatus(request, options)
            : await api.patchClusterCustomObject(request, options)
        ) as T;
      }
      return (
        subresource === 'status'
          ? await api.patchNamespacedCustomObjectStatus(request, options)
          : await api.patchNamespacedCustomObject(request, options)
      ) as T;
    },
    async delete<T extends KubeObject>(resource: Resource, object: T): Promise<T | undefined> {
      const where = target(resource, object);
      const body = { preconditions: { uid: object.metadata.uid } };
      let answer: unknown;
      try {
        answer = resource.namespaced
          ? await api.deleteNamespacedCustomObject({ ...where, body })
          : await api.deleteClusterCustomObject({ ...where, body });
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
