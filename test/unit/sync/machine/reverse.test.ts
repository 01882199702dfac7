// CAPI → MAPI for one Machine: the MAPI mirror of a CAPI Machine that an authoritative CAPI
// MachineSet created, and only then.
import { expect } from 'chai';
import type { MapiMachine } from '../../../../src/api/types.js';
import {
  CLUSTER_API_UID_ANNOTATION,
  FINALIZER,
  PAUSED_ANNOTATION,
} from '../../../../src/model/markers.js';
import {
  capiCreatedMachine,
  MachineWorld,
  MAPI_NAMESPACE,
  NAME,
  owningMachineSet,
} from './world.js';
import { onlyStatusWrite } from '../status-writes.js';

/** A CAPI Machine without a MAPI Machine, its MachineSet under the given authority. */
function scaledUpWorld(authority: 'MachineAPI' | 'ClusterAPI' = 'ClusterAPI'): MachineWorld {
  const { machine, infra } = capiCreatedMachine();
  const world = new MachineWorld();
  world.mapiMachineSet = owningMachineSet(authority);
  world.mirror = machine;
  world.infra = infra;
  return world;
}

describe('planMachineSync: CAPI → MAPI', () => {
  it('creates the MAPI mirror of a Machine an authoritative CAPI MachineSet created', () => {
    const world = scaledUpWorld();
    const step = world.plan();
    expect(step.kind).to.equal('create');
    world.apply(step);
    const mapi = world.mapi!;
    expect(mapi.metadata).to.include({ name: NAME, namespace: MAPI_NAMESPACE });
    expect(mapi.metadata.ownerReferences).to.deep.equal([
      {
        apiVersion: 'machine.openshift.io/v1beta1',
        kind: 'MachineSet',
        name: 'worker-a',
        uid: 'mapi-uid',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(mapi.spec.authoritativeAPI).to.equal('ClusterAPI');
    expect(mapi.metadata.annotations?.[CLUSTER_API_UID_ANNOTATION]).to.equal('capi-machine-uid');
    expect(mapi.metadata.finalizers).to.deep.equal([FINALIZER]);
    expect(mapi.spec.providerID).to.equal(world.mirror?.spec.providerID);
  });

  it('then mirrors the CAPI Machine status and reports Synchronized=True at its generation', () => {
    const world = scaledUpWorld();
    world.mirror!.status = { phase: 'Running', nodeRef: { name: 'ip-10-0-1-7.ec2.internal' } };
    world.apply(world.plan());
    // machine-api-operator copies spec.authoritativeAPI into the status of a new Machine.
    world.mapi!.status = { authoritativeAPI: 'ClusterAPI' };
    world.converge();
    const mapi: MapiMachine = world.mapi!;
    expect(mapi.status?.phase).to.equal('Running');
    expect(mapi.status?.nodeRef).to.deep.equal({ kind: 'Node', name: 'ip-10-0-1-7.ec2.internal' });
    expect(mapi.status?.synchronizedGeneration).to.equal(world.mirror?.metadata.generation);
    expect(mapi.status?.conditions?.find((c) => c.type === 'Synchronized')).to.include({
      status: 'True',
      reason: 'ResourceSynchronized',
    });
    expect(world.mirror?.metadata.annotations).to.not.have.property(PAUSED_ANNOTATION);
  });

  it('writes the mirrored status and Synchronized at the CAPI generation in one patch', () => {
    const world = scaledUpWorld();
    world.mirror!.status = { phase: 'Running', nodeRef: { name: 'ip-10-0-1-7.ec2.internal' } };
    world.apply(world.plan());
    world.mapi!.status = { authoritativeAPI: 'ClusterAPI' };
    const steps = world.converge();
    const body = onlyStatusWrite(steps);
    expect(body).to.include({
      phase: 'Running',
      synchronizedGeneration: world.mirror?.metadata.generation,
    });
    expect(body.conditions).to.be.an('array');
  });

  it('creates no MAPI mirror when the MAPI MachineSet is under MachineAPI', () => {
    const world = scaledUpWorld('MachineAPI');
    expect(world.converge()).to.deep.equal([]);
    expect(world.mapi).to.equal(undefined);
  });

  it('creates no MAPI mirror of a paused CAPI Machine', () => {
    const world = scaledUpWorld();
    world.mirror!.metadata.annotations = {
      ...world.mirror!.metadata.annotations,
      [PAUSED_ANNOTATION]: 'true',
    };
    expect(world.converge()).to.deep.equal([]);
    expect(world.mapi).to.equal(undefined);
  });

  it('creates no MAPI mirror of a CAPI Machine no MachineSet controls', () => {
    const world = scaledUpWorld();
    world.mirror!.metadata.ownerReferences = world.mirror!.metadata.ownerReferences!.map((r) => ({
      ...r,
      controller: false,
    }));
    expect(world.converge()).to.deep.equal([]);
    expect(world.mapi).to.equal(undefined);
  });
});
