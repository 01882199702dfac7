// Reading the Machines of both sides in the integration tests.
import { createHash } from 'node:crypto';
import type { CapiMachine, InfrastructureMachine, MapiMachine } from '../../src/api/types.js';
import type { ObjectClient } from '../../src/kube/objects.js';
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

/**
 * What CAPA's AWSMachine controller writes once an instance runs: its identity, and the
 * infrastructure provisioned (status.ready for the v1beta1 contract, initialization for v1beta2).
 * Its controllers need AWS and do not run next to the local API server.
 */
export async function provisionInfrastructure(
  namespace: string,
  machineNames: string[],
  api: ObjectClient = adminObjects(),
): Promise<void> {
  for (const name of machineNames) {
    const where = { ...AWS_MACHINES, namespace, name };
    const machine = await api.get<{ spec: { providerID?: string } }>(where);
    if (!machine.spec.providerID) {
      const instanceID = `i-${createHash('sha256').update(name).digest('hex').slice(0, 17)}`;
      await api.patch(where, {
        type: 'merge',
        body: { spec: { providerID: `aws:///us-east-1a/${instanceID}`, instanceID } },
      });
    }
    await api.patch(
      where,
      { type: 'merge', body: { status: { ready: true, initialization: { provisioned: true } } } },
      { subresource: 'status' },
    );
  }
}

/** Samples the Machine names on both sides until stopped: what was ever seen, and what went. */
export function watchNames(c: Namespaces) {
  const seen = { mapi: new Set<string>(), capi: new Set<string>() };
  let running = true;
  const look = async () => {
    for (const m of await mapiMachines(c)) seen.mapi.add(m.metadata.name);
    for (const m of await capiMachines(c)) seen.capi.add(m.metadata.name);
  };
  const loop = (async () => {
    while (running) {
      await look();
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  })();
  return {
    /** Stops watching, after one last look taken from now. */
    async stop() {
      running = false;
      await loop;
      await look();
      return { mapi: [...seen.mapi].sort(), capi: [...seen.capi].sort() };
    },
  };
}
