// Our own writes to Machines go into the informer's store without an event: the cache the
// reconcilers write through wakes the owning MachineSet when its plan's view of the Machine
// changes (a Machine mirrored, handed over, deleted), and not otherwise.
import { expect } from 'chai';
import type { KubeObject, MapiMachine } from '../../../src/api/types.js';
import { machineCache } from '../../../src/controller/caches.js';
import type { Informer } from '../../../src/kube/informer.js';

function storeInformer(): Informer<MapiMachine> {
  const store = new Map<string, MapiMachine>();
  const key = (o: KubeObject) => `${o.metadata.namespace}/${o.metadata.name}`;
  const informer = {
    get: (k: string) => store.get(k),
    list: () => [...store.values()],
    hasSynced: () => true,
    upsert: (o: MapiMachine) => void store.set(key(o), o),
    remove: (k: string) => void store.delete(k),
  };
  return informer as unknown as Informer<MapiMachine>;
}

function machine(synchronized: 'True' | 'Unknown', resourceVersion: string): MapiMachine {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name: 'fleet-x1',
      namespace: 'openshift-machine-api',
      resourceVersion,
      generation: 1,
      ownerReferences: [
        {
          apiVersion: 'machine.openshift.io/v1beta1',
          kind: 'MachineSet',
          name: 'fleet',
          uid: 'u',
          controller: true,
        },
      ],
    },
    spec: {},
    status: {
      authoritativeAPI: 'MachineAPI',
      conditions: [{ type: 'Synchronized', status: synchronized, lastTransitionTime: 'x' }],
      ...(synchronized === 'True' ? { synchronizedGeneration: 1 } : {}),
    },
  };
}

describe('machineCache', () => {
  it('wakes the owning MachineSet when our write changes what its plan reads', () => {
    const woken: string[] = [];
    const cache = machineCache(storeInformer(), 'machine.openshift.io/', (s) => woken.push(s));
    cache.upsert(machine('Unknown', '1'));
    expect(woken, 'a new Machine').to.deep.equal(['fleet']);
    cache.upsert(machine('True', '2'));
    expect(woken, 'mirrored: Synchronized=True').to.deep.equal(['fleet', 'fleet']);
    const same = machine('True', '3');
    same.metadata.annotations = { unrelated: 'yes' };
    cache.upsert(same);
    expect(woken, 'nothing the MachineSet reads changed').to.have.length(2);
    cache.remove('openshift-machine-api/fleet-x1');
    expect(woken, 'gone').to.have.length(3);
  });
});
