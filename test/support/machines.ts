// Reading the Machines of both sides in the integration tests.
import type { CapiMachine, InfrastructureMachine, MapiMachine } from '../../src/api/types.js';
import { adminObjects } from './cluster.js';

export const MAPI_MACHINES = {
  group: 'machine.openshift.io',
  version: 'v1beta1',
  plural: 'machines',
};
export const CAPI_MACHINES = { group: 'cluster.x-k8s.io', version: 'v1beta2', plural: 'machines' };
export const AWS_MACHINES = {
  group: 'infrastructure.cluster.x-k8s.io',
  version: 'v1beta2',
  plural: 'awsmachines',
};

interface Namespaces {
  mapiNamespace: string;
  capiNamespace: string;
}

async function list<T>(where: typeof MAPI_MACHINES, namespace: string): Promise<T[]> {
  const answer = await adminObjects().list<T>({ ...where, namespace });
  return answer.items;
}

export const mapiMachines = (c: Namespaces) => list<MapiMachine>(MAPI_MACHINES, c.mapiNamespace);
export const capiMachines = (c: Namespaces) => list<CapiMachine>(CAPI_MACHINES, c.capiNamespace);
export const awsMachines = (c: Namespaces) =>
  list<InfrastructureMachine>(AWS_MACHINES, c.capiNamespace);

/** Names, sorted: what a count before and after compares. */
export const names = (objects: { metadata: { name: string } }[]) =>
  objects.map((o) => o.metadata.name).sort();
