import { expect } from 'chai';
import type { MapiMachineSet } from '../../../src/api/types.js';
import { allSynchronized } from '../../../hack/bench/observer.js';

function machineSet(name: string, generation: number, synchronized?: number): MapiMachineSet {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    metadata: { name, namespace: 'bench-mapi', generation },
    spec: {},
    status:
      synchronized === undefined
        ? {}
        : {
            synchronizedGeneration: synchronized,
            conditions: [
              { type: 'Synchronized', status: 'True', reason: 'ResourceSynchronized', message: '' },
            ],
          },
  } as MapiMachineSet;
}

describe('bench: when the MachineSets are synchronized', () => {
  const templates = new Map([
    ['a', 'a-new'],
    ['b', 'b-new'],
  ]);

  it('needs every MachineSet Synchronized at its own generation', () => {
    expect(allSynchronized([machineSet('a', 1, 1), machineSet('b', 1, 1)], templates, 2)).to.equal(
      true,
    );
    expect(allSynchronized([machineSet('a', 1, 1), machineSet('b', 2, 1)], templates, 2)).to.equal(
      false,
    );
    expect(allSynchronized([machineSet('a', 1, 1), machineSet('b', 1)], templates, 2)).to.equal(
      false,
    );
    expect(allSynchronized([machineSet('a', 1, 1)], templates, 2)).to.equal(false);
  });

  it('after a change, needs the changed generation and a new template', () => {
    const change = {
      generations: new Map([
        ['a', 2],
        ['b', 2],
      ]),
      oldTemplates: new Map([
        ['a', 'a-old'],
        ['b', 'b-old'],
      ]),
    };
    const done = [machineSet('a', 2, 2), machineSet('b', 2, 2)];
    expect(allSynchronized(done, templates, 2, change)).to.equal(true);
    // a cache that has not seen the change yet still shows the old generation, synchronized
    expect(
      allSynchronized([machineSet('a', 1, 1), machineSet('b', 2, 2)], templates, 2, change),
    ).to.equal(false);
    expect(
      allSynchronized(
        done,
        new Map([
          ['a', 'a-new'],
          ['b', 'b-old'],
        ]),
        2,
        change,
      ),
    ).to.equal(false);
    expect(allSynchronized(done, new Map([['a', 'a-new']]), 2, change)).to.equal(false);
  });
});
