// The Machine plan applied step by step to an in-memory world settles, and a second run from
// where it settled writes nothing.
import { expect } from 'chai';
import {
  AUTHORITY_ANNOTATION,
  CLUSTER_API_UID_ANNOTATION,
  FINALIZER,
  PAUSED_ANNOTATION,
  SPEC_HASH_ANNOTATION,
} from '../../../../src/model/markers.js';
import { ADMITTED_SHAPES } from '../machine-set/world.js';
import { MachineWorld, storedMachine } from './world.js';

describe('planMachineSync: convergence', () => {
  it('settles under MachineAPI from no mirror, then writes nothing', () => {
    const world = new MachineWorld(storedMachine('MachineAPI'));
    const steps = world.converge();
    expect(steps.map((s) => s.kind)).to.deep.equal([
      'patch', // our finalizer
      'create', // CAPI Machine
      'create', // AWSMachine
      'patch', // mirror status
      'patch', // Synchronized=True
    ]);
    const { mapi, mirror, infra } = world;
    expect(mapi?.metadata.finalizers).to.deep.equal([FINALIZER]);
    expect(mirror?.metadata.annotations).to.include({
      [PAUSED_ANNOTATION]: 'true',
      [AUTHORITY_ANNOTATION]: 'MachineAPI',
    });
    expect(mirror?.spec.infrastructureRef).to.deep.equal({
      apiGroup: 'infrastructure.cluster.x-k8s.io',
      kind: 'AWSMachine',
      name: infra?.metadata.name,
    });
    expect(mirror?.spec.providerID).to.equal(mapi?.spec.providerID);
    expect(infra?.metadata.ownerReferences?.[0]?.uid).to.equal(mirror?.metadata.uid);
    expect(infra?.metadata.annotations).to.have.property(SPEC_HASH_ANNOTATION);
    expect(mapi?.status?.synchronizedGeneration).to.equal(1);

    const writes = world.writes;
    expect(world.plan().kind).to.equal('done');
    expect(world.converge()).to.deep.equal([]);
    expect(world.writes).to.equal(writes);
  });

  it('settles the initial sync of a Machine born under ClusterAPI: unpaused, its uid recorded', () => {
    const world = new MachineWorld(storedMachine('ClusterAPI'));
    world.converge();
    const { mapi, mirror, infra } = world;
    expect(mirror?.metadata.annotations).to.not.have.property(PAUSED_ANNOTATION);
    expect(infra?.metadata.annotations).to.not.have.property(PAUSED_ANNOTATION);
    expect(mapi?.metadata.annotations?.[CLUSTER_API_UID_ANNOTATION]).to.equal(
      `${mapi?.metadata.uid}/${mirror?.metadata.uid}`,
    );
    expect(mapi?.status?.conditions?.find((c) => c.type === 'Synchronized')).to.include({
      status: 'True',
    });
    expect(world.converge()).to.deep.equal([]);
  });

  describe('every shape the CRD admits', () => {
    const authorities = [null, 'MachineAPI', 'ClusterAPI', 'Migrating'] as const;
    for (const [shape, change] of ADMITTED_SHAPES) {
      for (const authority of authorities) {
        it(`settles for a Machine ${shape} (status.authoritativeAPI ${authority ?? 'empty'}), without a mirror and with one`, () => {
          const fresh = new MachineWorld(storedMachine(authority));
          change(fresh.mapi!);
          fresh.converge();

          const mirrored = new MachineWorld(storedMachine('MachineAPI'));
          mirrored.converge();
          const status = mirrored.mapi!.status!;
          if (authority === null) delete status.authoritativeAPI;
          else status.authoritativeAPI = authority;
          change(mirrored.mapi!);
          mirrored.converge();
          const state = mirrored.mapi?.status?.authoritativeAPI;
          if (state === 'MachineAPI' || state === 'ClusterAPI') {
            const synchronized = mirrored.mapi?.status?.conditions?.find(
              (c) => c.type === 'Synchronized',
            );
            expect(synchronized?.reason).to.be.a('string').and.not.equal('');
          }
        });
      }
    }
  });
});
