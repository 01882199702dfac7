// What the bench sees of the MachineSets, through watches (list + watch, the project's own
// informer), so that observing costs the API server little even at thousands of objects.
import type { KubeConfig } from '@kubernetes/client-node';
import type { CapiMachineSet, MapiMachineSet } from '../../src/api/types.js';
import { createInformer, type Informer } from '../../src/kube/informer.js';
import { clientFor } from '../../test/support/kube-client.js';
import { silentLogger } from '../../src/logging.js';
import { synchronizedAtGeneration } from '../../src/sync/report.js';

export class MachineSetObserver {
  readonly mapi: Informer<MapiMachineSet>;
  readonly capi: Informer<CapiMachineSet>;

  constructor(kubeConfig: KubeConfig, mapiNamespace: string, capiNamespace: string) {
    const options = { logger: silentLogger };
    const client = clientFor(kubeConfig);
    this.mapi = createInformer<MapiMachineSet>(
      client,
      {
        group: 'machine.openshift.io',
        version: 'v1beta1',
        plural: 'machinesets',
        namespace: mapiNamespace,
      },
      options,
    );
    this.capi = createInformer<CapiMachineSet>(
      client,
      {
        group: 'cluster.x-k8s.io',
        version: 'v1beta2',
        plural: 'machinesets',
        namespace: capiNamespace,
      },
      options,
    );
  }

  async start(): Promise<void> {
    this.mapi.start();
    this.capi.start();
    await Promise.all([this.mapi.waitForSync(), this.capi.waitForSync()]);
  }

  async stop(): Promise<void> {
    await Promise.all([this.mapi.stop(), this.capi.stop()]);
  }

  /** The template each mirror points at, by MachineSet name. */
  templates(): Map<string, string> {
    return new Map(
      this.capi.list().map((m) => [m.metadata.name, m.spec.template.spec.infrastructureRef.name]),
    );
  }

  /** See allSynchronized below. */
  allSynchronized(count: number, change?: Change): boolean {
    return allSynchronized(this.mapi.list(), this.templates(), count, change);
  }
}

/** A change the bench made: the generation each MachineSet got, the template its mirror had. */
export interface Change {
  generations: Map<string, number>;
  oldTemplates: Map<string, string>;
}

/**
 * True when all `count` MachineSets are Synchronized=True at their generation and, after a
 * change, each is at least at the generation the change gave it and its mirror points at a
 * template other than the one it pointed at before. `templates`: each mirror's template by name.
 */
export function allSynchronized(
  machineSets: MapiMachineSet[],
  templates: Map<string, string>,
  count: number,
  change?: Change,
): boolean {
  if (machineSets.length < count || !machineSets.every(synchronizedAtGeneration)) return false;
  if (!change) return true;
  const { generations, oldTemplates } = change;
  return machineSets.every((m) => {
    const name = m.metadata.name;
    const template = templates.get(name);
    return (
      (m.metadata.generation ?? 0) >= (generations.get(name) ?? 0) &&
      template !== undefined &&
      template !== oldTemplates.get(name)
    );
  });
}
