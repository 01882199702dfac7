// What the bench sees of the MachineSets, through watches (list + watch, the project's own
// informer), so that observing costs the API server little even at thousands of objects.
import type { KubeConfig } from '@kubernetes/client-node';
import type { CapiMachineSet, MapiMachineSet } from '../../src/api/types.js';
import { createInformer, type Informer } from '../../src/kube/informer.js';
import { silentLogger } from '../../src/logging.js';
import { isSynchronized } from './floor.js';

export class MachineSetObserver {
  readonly mapi: Informer<MapiMachineSet>;
  readonly capi: Informer<CapiMachineSet>;

  constructor(kubeConfig: KubeConfig, mapiNamespace: string, capiNamespace: string) {
    const options = { logger: silentLogger };
    this.mapi = createInformer<MapiMachineSet>(
      kubeConfig,
      {
        group: 'machine.openshift.io',
        version: 'v1beta1',
        plural: 'machinesets',
        namespace: mapiNamespace,
      },
      options,
    );
    this.capi = createInformer<CapiMachineSet>(
      kubeConfig,
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

  /**
   * True when all `count` MachineSets are Synchronized=True at their generation and, after a
   * change, each is at least at the generation the change gave it and its mirror points at a
   * template other than the one it pointed at before.
   */
  allSynchronized(
    count: number,
    change?: { generations: Map<string, number>; oldTemplates: Map<string, string> },
  ): boolean {
    const machineSets = this.mapi.list();
    if (machineSets.length < count || !machineSets.every(isSynchronized)) return false;
    if (!change) return true;
    const { generations, oldTemplates } = change;
    if (
      machineSets.some(
        (m) => (m.metadata.generation ?? 0) < (generations.get(m.metadata.name) ?? 0),
      )
    ) {
      return false;
    }
    const templates = this.templates();
    return machineSets.every((m) => {
      const now = templates.get(m.metadata.name);
      return now !== undefined && now !== oldTemplates.get(m.metadata.name);
    });
  }
}
