// Reading both sides of a MachineSet in the integration tests: undefined when it does not exist.
import type { CapiMachineSet, MapiMachineSet } from '../../src/api/types.js';
import { CAPI, MAPI } from './controller.js';
import { adminObjects } from './cluster.js';

interface Namespaces {
  mapiNamespace: string;
  capiNamespace: string;
}

const notFound = (err: unknown) => {
  if ((err as { code?: number }).code === 404) return undefined;
  throw err as Error;
};

export async function getMapi(c: Namespaces, name: string): Promise<MapiMachineSet | undefined> {
  return adminObjects()
    .get({ ...MAPI, namespace: c.mapiNamespace, name })
    .then((o) => o as MapiMachineSet, notFound);
}

export async function getCapi(c: Namespaces, name: string): Promise<CapiMachineSet | undefined> {
  return adminObjects()
    .get({ ...CAPI, namespace: c.capiNamespace, name })
    .then((o) => o as CapiMachineSet, notFound);
}
