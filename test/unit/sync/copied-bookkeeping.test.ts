// A MAPI object copied with `oc get -o yaml` (renamed and created, or restored from a backup)
// carries the record of another object's authoritative CAPI uid. Under ClusterAPI that record
// would read as "the CAPI side is gone": the copy is a new object, and the deletion table
// applies to it as to any other. The same rule for MachineSets and Machines.
import { expect } from 'chai';
import { CLUSTER_API_UID_ANNOTATION, FINALIZER } from '../../../src/model/markers.js';
import type { Step } from '../../../src/sync/steps.js';
import { mapiMachineSet, World } from './machine-set/world.js';
import { MachineWorld, storedMachine } from './machine/world.js';

const kinds = [
  {
    kind: 'MachineSet',
    world(record: (uid: string) => string) {
      const mapi = mapiMachineSet('worker-copy', 'ClusterAPI');
      // a copy carries our finalizer too
      mapi.metadata.finalizers = [FINALIZER];
      mapi.metadata.annotations = { [CLUSTER_API_UID_ANNOTATION]: record(mapi.metadata.uid!) };
      const world = new World(mapi);
      return {
        plan: () => world.plan(),
        converge: () => world.converge(),
        created: () => world.mirror,
      };
    },
  },
  {
    kind: 'Machine',
    world(record: (uid: string) => string) {
      const mapi = storedMachine('ClusterAPI');
      mapi.metadata.finalizers = [...(mapi.metadata.finalizers ?? []), FINALIZER];
      mapi.metadata.annotations = {
        ...mapi.metadata.annotations,
        [CLUSTER_API_UID_ANNOTATION]: record(mapi.metadata.uid!),
      };
      const world = new MachineWorld(mapi);
      return {
        plan: () => world.plan(),
        converge: () => world.converge(),
        created: () => world.mirror,
      };
    },
  },
];

const deletes = (step: Step) => step.kind === 'delete';

for (const k of kinds) {
  describe(`a copied ${k.kind} under ClusterAPI, without a CAPI side`, () => {
    it('is a new object: its CAPI side is created, nothing is deleted', () => {
      const world = k.world(() => 'uid-of-the-original/uid-of-its-capi-side');
      expect(deletes(world.plan()), world.plan().note).to.equal(false);
      const steps = world.converge();
      expect(steps.filter(deletes)).to.deep.equal([]);
      expect(world.created(), 'its CAPI side').to.not.equal(undefined);
    });

    it('but one whose own record names a CAPI side that is gone follows it (deletion table)', () => {
      const world = k.world((uid) => `${uid}/uid-of-its-capi-side`);
      const step = world.plan();
      expect(step.kind).to.equal('delete');
      expect(step.note).to.match(/deleting the MAPI mirror of an authoritative CAPI/);
    });

    it('and one recorded at creation, before it had a uid, too', () => {
      const world = k.world(() => 'uid-of-its-capi-side');
      expect(world.plan().kind).to.equal('delete');
    });
  });
}
