// The API resources this controller reads and writes.
import type { KubeObject } from '../api/types.js';

export interface Resource {
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
}

export const MAPI_MACHINE_SET: Resource = {
  group: 'machine.openshift.io',
  version: 'v1beta1',
  plural: 'machinesets',
  kind: 'MachineSet',
  namespaced: true,
};

/** cluster-autoscaler-operator's; read by `check` and `migrate`, absent from some clusters. */
export const MACHINE_AUTOSCALER: Resource = {
  group: 'autoscaling.openshift.io',
  version: 'v1beta1',
  plural: 'machineautoscalers',
  kind: 'MachineAutoscaler',
  namespaced: true,
};

export const CAPI_MACHINE_SET: Resource = {
  group: 'cluster.x-k8s.io',
  version: 'v1beta2',
  plural: 'machinesets',
  kind: 'MachineSet',
  namespaced: true,
};

export const MAPI_MACHINE: Resource = {
  group: 'machine.openshift.io',
  version: 'v1beta1',
  plural: 'machines',
  kind: 'Machine',
  namespaced: true,
};

export const CAPI_MACHINE: Resource = {
  group: 'cluster.x-k8s.io',
  version: 'v1beta2',
  plural: 'machines',
  kind: 'Machine',
  namespaced: true,
};

export const CAPI_CLUSTER: Resource = {
  group: 'cluster.x-k8s.io',
  version: 'v1beta2',
  plural: 'clusters',
  kind: 'Cluster',
  namespaced: true,
};

export const INFRASTRUCTURE: Resource = {
  group: 'config.openshift.io',
  version: 'v1',
  plural: 'infrastructures',
  kind: 'Infrastructure',
  namespaced: false,
};

/** The Infrastructure singleton's name. */
export const INFRASTRUCTURE_NAME = 'cluster';

/** A kind of infrastructure object, as a platform's converter names it. */
export interface InfrastructureType {
  apiVersion: string;
  kind: string;
  plural: string;
}

/** The resource of a platform's infrastructure kind (template or machine). */
export function infrastructureResource(type: InfrastructureType): Resource {
  const [group = '', version = ''] = type.apiVersion.split('/');
  return { group, version, plural: type.plural, kind: type.kind, namespaced: true };
}

function apiVersionOf(resource: Resource): string {
  return resource.group ? `${resource.group}/${resource.version}` : resource.version;
}

/** The resource an object belongs to, among the given ones (matched by apiVersion and kind). */
export function resourceOf(object: KubeObject, candidates: Resource[]): Resource {
  const match = candidates.find(
    (r) => apiVersionOf(r) === object.apiVersion && r.kind === object.kind,
  );
  if (!match) throw new Error(`no known resource for ${object.apiVersion} ${object.kind}`);
  return match;
}

export function objectKey(object: KubeObject): string {
  const { namespace, name } = object.metadata;
  return namespace ? `${namespace}/${name}` : name;
}

/** What to list and watch. group '' is the core API; no namespace means all namespaces / cluster-scoped. */
export interface ResourceDescriptor {
  group: string;
  version: string;
  plural: string;
  namespace?: string;
}

/** The collection's URL path, e.g. /apis/machine.openshift.io/v1beta1/namespaces/ns/machinesets. */
export function resourcePath(resource: ResourceDescriptor): string {
  const { group, version, plural, namespace } = resource;
  const base = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  const scope = namespace !== undefined ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${scope}/${plural}`;
}
