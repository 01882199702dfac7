// The Machine deletion table (docs/machines.md, "Deletion"): what goes, what is released, and the
// paused owners' finalizers (Cluster API's, machine-api-operator's) that only we can remove.
import { expect } from 'chai';
import type { KubeObject } from '../../../../src/api/types.js';
import {
  AUTHORITY_ANNOTATION,
  PAUSED_ANNOTATION,
  CAPI_MACHINE_FINALIZER,
  CLUSTER_API_UID_ANNOTATION,
  FINALIZER,
  MAPI_MACHINE_FINALIZER,
} from '../../../../src/model/markers.js';
import { recordingOwnUid } from '../uninstall-record.js';
import {
  capiCreatedMachine,
  MachineWorld,
  NAME,
  NOW,
  owningMachineSet,
  storedMachine,
} from './world.js';
import { CAPI_MACHINE_SET, CLUSTER } from '../../conversion/machine/support.js';

/** What the other controllers add: Cluster API's finalizer, machine-api-operator's. */
function addForeignFinalizers(world: MachineWorld): void {
  world.mapi!.metadata.finalizers = [MAPI_MACHINE_FINALIZER, ...world.mapi!.metadata.finalizers!];
  const mirror = world.mirror!;
  mirror.metadata.finalizers = [CAPI_MACHINE_FINALIZER, ...(mirror.metadata.finalizers ?? [])];
}

/** A converged paused mirror of a MachineAPI Machine, with everyone's finalizers. */
function machineApiWorld(): MachineWorld {
  const world = new MachineWorld(storedMachine('MachineAPI'));
  world.converge();
  addForeignFinalizers(world);
  return world;
}

/** A converged MAPI mirror of an authoritative CAPI Machine, with everyone's finalizers. */
function clusterApiWorld(): MachineWorld {
  const mapi = storedMachine('ClusterAPI');
  mapi.metadata.annotations![CLUSTER_API_UID_ANNOTATION] = 'capi-machine-uid';
  const { machine, infra } = capiCreatedMachine();
  const world = new MachineWorld(mapi);
  world.mapiMachineSet = owningMachineSet('ClusterAPI');
  world.mirror = machine;
  world.infra = infra;
  world.converge();
  addForeignFinalizers(world);
  return world;
}

function markDeleted(object: KubeObject | undefined): void {
  object!.metadata.deletionTimestamp = NOW;
}

/** machine-api-operator has drained the node and deleted the instance: its finalizer goes. */
function machineApiOperatorFinishes(world: MachineWorld): void {
  const machine = world.mapi!;
  machine.metadata.finalizers = machine.metadata.finalizers!.filter(
    (f) => f !== MAPI_MACHINE_FINALIZER,
  );
}

describe('planMachineSync: deletion', () => {
  describe('MachineAPI', () => {
    it("deletes the paused mirror of a deleted MAPI Machine once machine-api-operator has finished, removing Cluster API's finalizer", () => {
      const world = machineApiWorld();
      markDeleted(world.mapi);
      // draining the node, deleting the instance: the mirror and what is under it stay as they are
      expect(world.converge()).to.deep.equal([]);
      expect(world.mirror?.metadata.deletionTimestamp).to.equal(undefined);
      machineApiOperatorFinishes(world);
      expect(world.plan()).to.include({ kind: 'delete' }).and.nested.include({
        'object.kind': 'Machine',
        'object.apiVersion': 'cluster.x-k8s.io/v1beta2',
      });
      world.apply(world.plan());
      expect(world.mirror?.metadata.deletionTimestamp).to.equal(NOW);
      world.apply(world.plan());
      expect(world.mirror).to.equal(undefined);
      world.converge();
      expect(world.mapi).to.equal(undefined);
    });

    it('a mirror deleted on its own (a person, a remediation): the machine goes, Machine API deleting it first', () => {
      const world = machineApiWorld();
      markDeleted(world.mirror);
      expect(world.plan()).to.include({ kind: 'delete' }).and.nested.include({
        'object.apiVersion': 'machine.openshift.io/v1beta1',
      });
      world.apply(world.plan());
      expect(world.mapi?.metadata.deletionTimestamp).to.equal(NOW);
      // draining the node, deleting the instance: the mirror stays as it is meanwhile
      expect(world.converge()).to.deep.equal([]);
      expect(world.mirror?.metadata.finalizers).to.include(CAPI_MACHINE_FINALIZER);
      machineApiOperatorFinishes(world);
      world.converge();
      expect(world.mirror).to.equal(undefined);
      expect(world.mapi).to.equal(undefined);
    });

    for (const [cascade, cut] of [
      ['its CAPI MachineSet gone', (w: MachineWorld) => (w.capiMachineSet = undefined)],
      [
        'its Cluster being deleted',
        (w: MachineWorld) =>
          (w.cluster = {
            ...w.cluster!,
            metadata: { ...w.cluster!.metadata, deletionTimestamp: NOW },
          }),
      ],
    ] as const) {
      it(`a mirror deleted with ${cascade} (a cascade): reported, released and created again; the MAPI Machine stays`, () => {
        const world = machineApiWorld();
        const uid = world.mirror!.metadata.uid;
        cut(world);
        markDeleted(world.mirror);
        const report = world.plan();
        expect(report).to.include({ kind: 'patch', subresource: 'status' });
        world.apply(report);
        expect(world.mapi?.status?.conditions?.find((c) => c.type === 'Synchronized')).to.include({
          status: 'False',
          reason: 'FailedToUpdateCAPIMachine',
        });
        world.apply(world.plan());
        expect(world.mirror).to.equal(undefined);
        world.capiMachineSet = CAPI_MACHINE_SET;
        world.cluster = CLUSTER;
        const steps = world.converge();
        expect(steps.some((s) => s.kind === 'delete')).to.equal(false);
        expect(world.mapi?.metadata.deletionTimestamp).to.equal(undefined);
        expect(world.mirror?.metadata.uid).to.be.a('string').and.not.equal(uid);
      });
    }

    it('never deletes the MAPI Machine because its mirror went', () => {
      const world = machineApiWorld();
      world.mirror = undefined;
      world.infra = undefined;
      const steps = world.converge();
      expect(steps.filter((s) => s.kind === 'delete')).to.deep.equal([]);
      expect(world.mapi?.metadata.deletionTimestamp).to.equal(undefined);
      expect(world.mirror).to.not.equal(undefined);
    });
  });

  describe('ClusterAPI', () => {
    it("deletes the MAPI mirror of a deleted CAPI Machine and removes machine-api-operator's finalizer", () => {
      const world = clusterApiWorld();
      markDeleted(world.mirror);
      expect(world.plan()).to.include({ kind: 'delete' }).and.nested.include({
        'object.kind': 'Machine',
        'object.apiVersion': 'machine.openshift.io/v1beta1',
      });
      world.converge();
      expect(world.mapi).to.equal(undefined);
      // Cluster API finishes the deletion of an unpaused Machine and removes its own finalizer.
      expect(world.mirror?.metadata.finalizers).to.deep.equal([CAPI_MACHINE_FINALIZER]);
    });

    it('deletes the MAPI mirror when the recorded CAPI Machine is gone', () => {
      const world = clusterApiWorld();
      world.mirror = undefined;
      world.infra = undefined;
      world.converge();
      expect(world.mapi).to.equal(undefined);
      expect(world.mirror).to.equal(undefined);
    });

    it('a MAPI mirror deleted on its own (a person, a remediation): Cluster API deletes the machine, the mirror follows', () => {
      const world = clusterApiWorld();
      markDeleted(world.mapi);
      expect(world.plan()).to.include({ kind: 'delete' }).and.nested.include({
        'object.apiVersion': 'cluster.x-k8s.io/v1beta2',
      });
      world.converge();
      expect(world.mirror?.metadata.deletionTimestamp).to.equal(NOW);
      // Cluster API finishes the deletion of an unpaused Machine and removes its own finalizer.
      expect(world.mirror?.metadata.finalizers).to.deep.equal([CAPI_MACHINE_FINALIZER]);
      expect(world.mapi).to.equal(undefined);
    });

    it("a MAPI mirror deleted with its MachineSet (a cascade): released with machine-api-operator's finalizer; the CAPI Machine stays", () => {
      const world = clusterApiWorld();
      world.mirror!.metadata.finalizers = [CAPI_MACHINE_FINALIZER, FINALIZER];
      world.mapiMachineSet = undefined;
      markDeleted(world.mapi);
      const steps = world.converge();
      expect(steps.filter((s) => s.kind === 'delete')).to.deep.equal([]);
      expect(world.mirror?.metadata.deletionTimestamp).to.equal(undefined);
      expect(world.mirror?.metadata.finalizers).to.deep.equal([CAPI_MACHINE_FINALIZER]);
    });

    it('never deletes the CAPI Machine because its MAPI mirror went', () => {
      const world = clusterApiWorld();
      world.mapiMachineSet = undefined;
      world.mapi = undefined;
      const steps = world.converge();
      expect(steps).to.deep.equal([]);
      expect(world.mirror?.metadata.deletionTimestamp).to.equal(undefined);
    });
  });

  describe('Migrating', () => {
    it("releases a deleted MAPI Machine with machine-api-operator's finalizer and keeps the CAPI Machine", () => {
      const world = machineApiWorld();
      world.mapi!.status!.authoritativeAPI = 'Migrating';
      markDeleted(world.mapi);
      const steps = world.converge();
      expect(steps.filter((s) => s.kind === 'delete')).to.deep.equal([]);
      expect(world.mapi).to.equal(undefined);
      expect(world.mirror?.metadata.deletionTimestamp).to.equal(undefined);
      expect(world.mirror?.metadata.finalizers).to.deep.equal([CAPI_MACHINE_FINALIZER]);
    });

    it('releases a deleted CAPI Machine and keeps the MAPI Machine', () => {
      const world = machineApiWorld();
      world.mapi!.status!.authoritativeAPI = 'Migrating';
      markDeleted(world.mirror);
      const steps = world.converge();
      expect(steps.filter((s) => s.kind === 'delete')).to.deep.equal([]);
      expect(world.mirror).to.equal(undefined);
      expect(world.mapi?.metadata.deletionTimestamp).to.equal(undefined);
      expect(world.mapi?.metadata.finalizers).to.include(MAPI_MACHINE_FINALIZER);
    });
  });

  describe('its CAPI MachineSet being deleted', () => {
    it('creates no mirror under it: the MachineSet would delete it at once, over and over', () => {
      const world = machineApiWorld();
      world.mirror = undefined;
      world.infra = undefined;
      world.capiMachineSet = {
        ...world.capiMachineSet!,
        metadata: { ...world.capiMachineSet!.metadata, deletionTimestamp: NOW },
      };
      const step = world.plan();
      expect(step.kind).to.equal('done');
      expect(step.note).to.match(/waiting for the CAPI machine set .* being deleted to go/);
      // once it is gone (and created again by the MachineSet's sync), the mirror is created
      world.capiMachineSet = CAPI_MACHINE_SET;
      expect(world.plan()).to.include({ kind: 'create' });
    });
  });

  describe('its MAPI MachineSet deleted (the garbage collector deletes the Machine next)', () => {
    function withoutMirror(): MachineWorld {
      const world = machineApiWorld();
      world.mirror = undefined;
      world.infra = undefined;
      return world;
    }

    it('neither reports nor recreates the mirror while the MachineSet is being deleted', () => {
      const world = withoutMirror();
      markDeleted(world.mapiMachineSet);
      expect(world.converge()).to.deep.equal([]);
    });

    it('neither reports nor recreates the mirror once the MachineSet is gone', () => {
      const world = withoutMirror();
      world.mapiMachineSet = undefined;
      expect(world.converge()).to.deep.equal([]);
    });

    it('treats a MachineSet of the same name with another uid as gone', () => {
      const world = withoutMirror();
      world.mapiMachineSet!.metadata.uid = 'a-new-machine-set';
      expect(world.converge()).to.deep.equal([]);
    });

    it("keeps a deleted paused mirror until machine-api-operator has deleted the Machine, then releases Cluster API's finalizer", () => {
      const world = machineApiWorld();
      world.mapiMachineSet = undefined;
      markDeleted(world.mirror);
      const mapi = structuredClone(world.mapi);
      expect(world.converge()).to.deep.equal([]);
      expect(world.mirror?.metadata.finalizers).to.include(CAPI_MACHINE_FINALIZER);
      expect(world.mapi).to.deep.equal(mapi);
      // the garbage collector deletes the Machine; machine-api-operator drains and deletes it
      markDeleted(world.mapi);
      expect(world.converge()).to.deep.equal([]);
      machineApiOperatorFinishes(world);
      world.converge();
      expect(world.mirror).to.equal(undefined);
      expect(world.mapi).to.equal(undefined);
    });

    it('still mirrors a Machine that no MachineSet controls', () => {
      const world = withoutMirror();
      world.mapiMachineSet = undefined;
      world.mapi!.metadata.ownerReferences = [];
      world.converge();
      expect(world.mirror?.metadata.name).to.equal(world.mapi?.metadata.name);
    });
  });

  describe('MAPI Machine gone without us', () => {
    it("deletes a paused mirror marked MachineAPI, with Cluster API's finalizer", () => {
      const world = machineApiWorld();
      world.mirror = recordingOwnUid(world.mirror!);
      world.mapi = undefined;
      world.converge();
      expect(world.mirror).to.equal(undefined);
    });

    it('only releases a paused mirror marked ClusterAPI', () => {
      const world = machineApiWorld();
      world.mirror!.metadata.annotations![AUTHORITY_ANNOTATION] = 'ClusterAPI';
      world.mapi = undefined;
      const steps = world.converge();
      expect(steps.filter((s) => s.kind === 'delete')).to.deep.equal([]);
      expect(world.mirror?.metadata.finalizers).to.deep.equal([CAPI_MACHINE_FINALIZER]);
    });
  });

  describe('a paused infrastructure machine after a round trip through Cluster API', () => {
    const PROVIDER_FINALIZER = 'awsmachine.infrastructure.cluster.x-k8s.io';

    /** What a round trip leaves: the provider's finalizer on the paused infrastructure machine. */
    function roundTrippedWorld(): MachineWorld {
      const world = machineApiWorld();
      world.infra!.metadata.finalizers = [PROVIDER_FINALIZER];
      return world;
    }

    /** The garbage collector deletes the infrastructure machine once its CAPI Machine is gone. */
    function collectOrphanedInfrastructure(world: MachineWorld): void {
      if (!world.mirror && world.infra) markDeleted(world.infra);
    }

    it("releases the provider's finalizer once a scale-down deleted its Machine", () => {
      const world = roundTrippedWorld();
      markDeleted(world.mapi);
      machineApiOperatorFinishes(world);
      world.converge();
      expect(world.mirror).to.equal(undefined);
      collectOrphanedInfrastructure(world);
      const release = world.plan();
      expect(release).to.include({ kind: 'patch' }).and.nested.include({
        'object.kind': 'AWSMachine',
      });
      world.converge();
      expect(world.infra).to.equal(undefined);
    });

    it('releases it once the MAPI Machine is gone as well', () => {
      const world = roundTrippedWorld();
      world.mirror = recordingOwnUid(world.mirror!);
      world.mapi = undefined;
      world.converge();
      collectOrphanedInfrastructure(world);
      world.converge();
      expect(world.infra).to.equal(undefined);
    });

    it('leaves it to the provider while an unpaused CAPI Machine owns it', () => {
      const world = clusterApiWorld();
      world.infra!.metadata.annotations = {
        ...world.infra!.metadata.annotations,
        'cluster.x-k8s.io/paused': '',
      };
      world.infra!.metadata.finalizers = [PROVIDER_FINALIZER];
      markDeleted(world.infra);
      const steps = world.converge();
      expect(
        steps.filter((s) => s.kind !== 'done' && s.object.kind === 'AWSMachine'),
      ).to.deep.equal([]);
      expect(world.infra?.metadata.finalizers).to.deep.equal([PROVIDER_FINALIZER]);
    });
  });
});

describe("planMachineSync: the provider's instance object (CAPO's OpenStackServer)", () => {
  const SERVER = {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha1',
    kind: 'FakeServer',
    plural: 'fakeservers',
    finalizer: 'fakeserver.infrastructure.cluster.x-k8s.io',
  };

  /** A MachineAPI Machine after a round trip: the provider's server, unpaused, with its finalizer. */
  function withServer(world: MachineWorld, paused: boolean): MachineWorld {
    world.converter = {
      ...world.converter,
      machine: { ...world.converter.machine!, instance: SERVER },
    };
    world.instance = {
      apiVersion: SERVER.apiVersion,
      kind: SERVER.kind,
      metadata: {
        name: NAME,
        namespace: 'openshift-cluster-api',
        uid: 'server-uid',
        resourceVersion: '9',
        finalizers: [SERVER.finalizer],
        ...(paused ? { annotations: { [PAUSED_ANNOTATION]: '' } } : {}),
      },
    };
    return world;
  }

  it('under MachineAPI, an unpaused one is paused: its controller must not act on the instance', () => {
    const world = withServer(machineApiWorld(), false);
    const steps = world.converge();
    expect(steps.map((s) => s.note)).to.deep.equal([
      `pausing the FakeServer ${NAME} (Machine API is authoritative)`,
    ]);
    expect(world.instance?.metadata.annotations).to.have.property(PAUSED_ANNOTATION);
  });

  it('under MachineAPI, one being deleted unpaused is paused first, then let go: the instance stays', () => {
    const world = withServer(machineApiWorld(), false);
    markDeleted(world.instance);
    const steps = world.converge();
    expect(steps.map((s) => s.note)).to.deep.equal([
      `pausing the FakeServer ${NAME} (Machine API is authoritative)`,
      "releasing the deleted paused FakeServer (our and the provider's finalizers)",
    ]);
    expect(world.instance).to.equal(undefined);
    expect(world.mapi?.metadata.deletionTimestamp).to.equal(undefined);
  });

  it('the paused mirror deleted by someone: the paused server the garbage collector deletes is let go', () => {
    const world = withServer(machineApiWorld(), true);
    markDeleted(world.mirror);
    markDeleted(world.instance);
    world.converge();
    expect(world.instance).to.equal(undefined);
  });

  it('under ClusterAPI, it is Cluster API’s: never paused, never released by us', () => {
    const world = withServer(clusterApiWorld(), false);
    markDeleted(world.instance);
    const steps = world.converge();
    expect(steps.filter((s) => s.kind !== 'done' && s.object.kind === SERVER.kind)).to.deep.equal(
      [],
    );
    expect(world.instance?.metadata.finalizers).to.deep.equal([SERVER.finalizer]);
  });
});
