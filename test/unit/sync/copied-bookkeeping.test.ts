// A MAPI object copied with `oc get -o yaml` (renamed and created, or restored from a backup)
// carries the record of another object's authoritative CAPI uid. Under ClusterAPI that record
// would read as "the CAPI side is gone": the copy is a new object, and the deletion table
// applies to it as to any other. The same rule for MachineSets and Machines.
import { expect } from 'chai';
import type { CapiMachine, CapiMachineSet, KubeObject } from '../../../src/api/types.js';
import {
  CLUSTER_API_UID_ANNOTATION,
  FINALIZER,
  MIRROR_UID_ANNOTATION,
} from '../../../src/model/markers.js';
import type { Step } from '../../../src/sync/steps.js';
import { mapiMachineSet, World } from './machine-set/world.js';
import { recordingOwnUid } from './uninstall-record.js';
import { MachineWorld, storedMachine } from './machine/world.js';
import { CLUSTER } from '../conversion/machine/support.js';

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

// The other side: a paused CAPI mirror marked MachineAPI whose MAPI side is gone is deleted only
// if it records its own uid. An uninstall removes our finalizer, so the record is the proof; a
// copy carries the original's record, and our finalizer, and is someone else's.
const mirrors = [
  {
    kind: 'MachineSet',
    synced() {
      const world = new World(mapiMachineSet());
      world.cluster = CLUSTER;
      world.converge();
      return {
        mirror: () => world.mirror,
        setMirror: (mirror: KubeObject) => (world.mirror = mirror as CapiMachineSet),
        dropMapi: () => (world.mapi = undefined),
        converge: () => world.converge(),
      };
    },
  },
  {
    kind: 'Machine',
    synced() {
      const world = new MachineWorld(storedMachine('MachineAPI'));
      world.converge();
      return {
        mirror: () => world.mirror,
        setMirror: (mirror: KubeObject) => (world.mirror = mirror as CapiMachine),
        dropMapi: () => (world.mapi = undefined),
        converge: () => world.converge(),
      };
    },
  },
];

for (const k of mirrors) {
  describe(`a paused CAPI ${k.kind} whose MAPI side went while nothing held it`, () => {
    it('is our mirror when it records its own uid (released by the uninstall): deleted', () => {
      const world = k.synced();
      const mirror = world.mirror()!;
      // hack/release-finalizers.sh: our finalizer removed, the mirror's own uid recorded.
      const recorded = recordingOwnUid(mirror);
      world.setMirror({
        ...recorded,
        metadata: {
          ...recorded.metadata,
          finalizers: without(mirror.metadata.finalizers, FINALIZER),
        },
      });
      world.dropMapi();
      const steps = world.converge();
      expect(steps.filter(deletes).map((s) => s.note)).to.deep.equal([
        `deleting the mirror of a MAPI ${k.kind === 'Machine' ? 'Machine' : 'machine set'} that is gone`,
      ]);
    });

    it("is someone else's when it records another uid (a copy): only our finalizer is removed", () => {
      const world = k.synced();
      const mirror = world.mirror()!;
      const recorded = recordingOwnUid(mirror);
      world.setMirror({ ...recorded, metadata: { ...recorded.metadata, uid: 'uid-of-the-copy' } });
      world.dropMapi();
      const steps = world.converge();
      expect(steps.filter(deletes)).to.deep.equal([]);
      expect(world.mirror()?.metadata.finalizers ?? []).to.not.include(FINALIZER);
      expect(world.mirror()?.metadata.deletionTimestamp).to.equal(undefined);
    });

    it('records nothing while it syncs, and without a record is left alone: only our finalizer goes', () => {
      const world = k.synced();
      const mirror = world.mirror()!;
      // The record costs a write per mirror; the uninstall makes it when it lets the mirror go.
      expect(mirror.metadata.annotations).to.not.have.property(MIRROR_UID_ANNOTATION);
      world.dropMapi();
      const steps = world.converge();
      expect(steps.filter(deletes)).to.deep.equal([]);
      expect(world.mirror()?.metadata.finalizers ?? []).to.not.include(FINALIZER);
    });
  });
}

function without(list: string[] | undefined, item: string): string[] {
  return (list ?? []).filter((x) => x !== item);
}
