// Reading both sides of a MachineSet in the integration tests: undefined when it does not exist.
import type { CapiMachineSet, MachineTemplate, MapiMachineSet } from '../../src/api/types.js';
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

/** The template the CAPI mirror of `name` points at (`templates`: its kind's resource). */
export async function mirrorTemplate(
  c: Namespaces,
  name: string,
  templates: { group: string; version: string; plural: string },
): Promise<MachineTemplate> {
  const mirror = await getCapi(c, name);
  if (!mirror) throw new Error(`no Cluster API MachineSet ${c.capiNamespace}/${name}`);
  return adminObjects().get<MachineTemplate>({
    ...templates,
    namespace: c.capiNamespace,
    name: mirror.spec.template.spec.infrastructureRef.name,
  });
}
