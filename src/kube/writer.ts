// Writes objects through the API server. Every write is conditional on the
// resourceVersion (updates) or uid (deletes) the caller observed.
import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '../api/types.js';
import { isNotFound } from './errors.js';
import type { Resource } from './resources.js';

export interface ObjectWriter {
  create<T extends KubeObject>(resource: Resource, object: T): Promise<T>;
  update<T extends KubeObject>(resource: Resource, object: T): Promise<T>;
  updateStatus<T extends KubeObject>(resource: Resource, object: T): Promise<T>;
  /** Resolves when deleted or already gone. */
  delete(resource: Resource, object: KubeObject): Promise<void>;
}

export function createObjectWriter(kubeConfig: KubeConfig): ObjectWriter {
  const api = kubeConfig.makeApiClient(CustomObjectsApi);
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
    async updateStatus<T extends KubeObject>(resource: Resource, object: T): Promise<T> {
      const where = target(resource, object);
      const body = withoutManagedFields(object);
      return (
        resource.namespaced
          ? await api.replaceNamespacedCustomObjectStatus({ ...where, body })
          : await api.replaceClusterCustomObjectStatus({ ...where, body })
      ) as T;
    },
    async delete(resource: Resource, object: KubeObject): Promise<void> {
      const where = target(resource, object);
      const body = { preconditions: { uid: object.metadata.uid } };
      try {
        if (resource.namespaced) await api.deleteNamespacedCustomObject({ ...where, body });
        else await api.deleteClusterCustomObject({ ...where, body });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
  };
}
