// MAPI → CAPI for one Machine under Machine API: the order of writes, what each writes, and
// what must not cause a write.
import { expect } from 'chai';
import type { MapiMachine } from '../../../../src/api/types.js';
import {
  AUTHORITY_ANNOTATION,
  CLUSTER_NAME_LABEL,
  FINALIZER,
  OWNED_METADATA_ANNOTATION,
  PAUSED_ANNOTATION,
  SPEC_HASH_ANNOTATION,
  MIRROR_UID_ANNOTATION,
} from '../../../../src/model/markers.js';
import type { Step } from '../../../../src/sync/steps.js';
import { CAPI_NAMESPACE } from '../../conversion/machine/support.js';
import { MachineWorld, storedMachine } from './world.js';

function synchronized(mapi: MapiMachine | undefined) {
  return mapi?.status?.conditions?.find((c) => c.type === 'Synchronized');
}

/** Plans one step, checks it, applies it. */
function next(world: MachineWorld, check: (step: Step) => void): Step {
  const step = world.plan();
  check(step);
  world.apply(step);
  return step;
}

describe('planMachineSync: MAPI → CAPI under MachineAPI', () => {
  it("leaves another writer's labels and annotations on the CAPI Machine; ours follow MAPI", () => {
    const world = new MachineWorld(storedMachine());
    world.mapi!.metadata.labels = { ...world.mapi!.metadata.labels, 'team.example.com/owner': 'a' };
    world.converge();
    expect(world.mirror?.metadata.labels).to.include({ 'team.example.com/owner': 'a' });
    world.mirror!.metadata.labels!['gitops.example.com/app'] = 'fleet';
    world.mirror!.metadata.annotations!['cost.example.com/center'] = '42';
    expect(world.converge(), 'nothing to write for their keys').to.have.length(0);

    delete world.mapi!.metadata.labels['team.example.com/owner'];
    world.mapi!.metadata.generation! += 1;
    world.converge();
    expect(world.mirror?.metadata.labels).to.not.have.property('team.example.com/owner');
    expect(world.mirror?.metadata.labels).to.include({ 'gitops.example.com/app': 'fleet' });
    expect(world.mirror?.metadata.annotations).to.include({ 'cost.example.com/center': '42' });
  });

  it('writes finalizer, CAPI Machine, infrastructure machine, status, then Synchronized=True: the outcome is the first status write', () => {
    const world = new MachineWorld(storedMachine());

    next(world, (step) =>
      expect(step).to.include({ kind: 'patch' }).and.not.have.property('subresource'),
    );
    expect(world.mapi?.metadata.finalizers).to.deep.equal([FINALIZER]);

    next(world, (step) => expect(step).to.include({ kind: 'create' }));
    const mirror = world.mirror!;
    expect(mirror.kind).to.equal('Machine');
    expect(mirror.metadata.namespace).to.equal(CAPI_NAMESPACE);
    expect(mirror.metadata.annotations).to.include({
      [PAUSED_ANNOTATION]: 'true',
      [AUTHORITY_ANNOTATION]: 'MachineAPI',
    });
    expect(mirror.metadata.finalizers).to.deep.equal([FINALIZER]);
    expect(mirror.metadata.ownerReferences).to.deep.equal([
      {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'MachineSet',
        name: 'worker-a',
        uid: 'capi-set-uid',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(world.infra).to.equal(undefined);

    next(world, (step) => expect(step).to.include({ kind: 'create' }));
    const infra = world.infra!;
    expect(infra.kind).to.equal('AWSMachine');
    expect(infra.metadata.name).to.equal(mirror.metadata.name);
    expect(infra.metadata.ownerReferences).to.deep.equal([
      {
        apiVersion: mirror.apiVersion,
        kind: 'Machine',
        name: mirror.metadata.name,
        uid: mirror.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(infra.metadata.annotations).to.have.property(PAUSED_ANNOTATION);
    expect(infra.metadata.annotations?.[SPEC_HASH_ANNOTATION]).to.match(/\S/);

    next(world, (step) => expect(step).to.include({ kind: 'patch', subresource: 'status' }));
    // The mirror's own uid is recorded only when the uninstall lets it go.
    expect(world.mirror?.metadata.annotations).to.not.have.property(MIRROR_UID_ANNOTATION);
    expect(world.mirror?.status).to.deep.include({
      phase: 'Running',
      nodeRef: { name: 'ip-10-0-1-7.ec2.internal' },
      addresses: [{ type: 'InternalIP', address: '10.0.1.7' }],
      initialization: { infrastructureProvisioned: true, bootstrapDataSecretCreated: true },
    });
    expect(synchronized(world.mapi)).to.equal(undefined);

    next(world, (step) => expect(step).to.include({ kind: 'patch', subresource: 'status' }));
    expect(synchronized(world.mapi)).to.include({ status: 'True', reason: 'ResourceSynchronized' });
    expect(world.mapi?.status?.synchronizedGeneration).to.equal(world.mapi?.metadata.generation);

    expect(world.plan().kind).to.equal('done');
  });

  it('sets no initialization on the mirror before the instance has a providerID', () => {
    const mapi = storedMachine();
    delete mapi.spec.providerID;
    const world = new MachineWorld(mapi);
    world.converge();
    expect(world.mirror?.status).to.not.have.property('initialization');
    expect(world.mirror?.status?.phase).to.equal('Running');
  });

  it('does not update the CAPI Machine for a spec.deletion Cluster API defaulted', () => {
    const world = new MachineWorld(storedMachine());
    world.converge();
    const spec = world.mirror!.spec as Record<string, unknown>;
    spec.deletion = { nodeDrainTimeoutSeconds: 0, nodeVolumeDetachTimeoutSeconds: 0 };
    expect(world.converge()).to.have.length(0);
    expect(world.mirror?.spec).to.have.property('deletion');
  });

  it('does not update an infrastructure machine the provider defaulted (same spec-hash)', () => {
    const world = new MachineWorld(storedMachine());
    world.converge();
    world.infra!.spec.instanceMetadataOptions = {
      httpTokens: 'required',
    };
    expect(world.converge()).to.have.length(0);
  });

  it('updates the infrastructure machine when the providerSpec changes', () => {
    const world = new MachineWorld(storedMachine());
    world.converge();
    const hash = world.infra!.metadata.annotations?.[SPEC_HASH_ANNOTATION];
    // A changed object is a new object, as the informer hands it out.
    world.mapi = structuredClone(world.mapi!);
    const value = world.mapi.spec.providerSpec!.value as { instanceType: string };
    value.instanceType = 'm6i.2xlarge';
    world.mapi.metadata.generation = 2;
    const steps = world.converge();
    expect(steps[0]).to.include({ kind: 'update', note: 'updating AWSMachine' });
    expect(world.infra?.spec).to.include({ instanceType: 'm6i.2xlarge' });
    expect(world.infra?.metadata.annotations?.[SPEC_HASH_ANNOTATION]).to.not.equal(hash);
    expect(world.mapi?.status?.synchronizedGeneration).to.equal(2);
  });

  it('reports a control-plane Machine as FailedToConvertMAPIMachineToCAPI and creates nothing', () => {
    const mapi = storedMachine();
    mapi.metadata.labels!['machine.openshift.io/cluster-api-machine-role'] = 'master';
    const world = new MachineWorld(mapi);
    world.converge();
    expect(synchronized(world.mapi)).to.include({
      status: 'False',
      reason: 'FailedToConvertMAPIMachineToCAPI',
    });
    expect(world.mirror).to.equal(undefined);
    expect(world.infra).to.equal(undefined);
  });
});

describe("planMachineSync: the infrastructure machine's labels and annotations", () => {
  it("are recorded as ours from its create; another writer's stay, ours follow MAPI", () => {
    const world = new MachineWorld(storedMachine());
    world.converge();
    const infra = world.infra!;
    expect(JSON.parse(infra.metadata.annotations![OWNED_METADATA_ANNOTATION]!)).to.deep.equal({
      labels: [CLUSTER_NAME_LABEL],
      annotations: [PAUSED_ANNOTATION, SPEC_HASH_ANNOTATION].sort(),
    });
    const clusterName = infra.metadata.labels![CLUSTER_NAME_LABEL];

    // Another writer adds keys of its own, and changes one of ours.
    infra.metadata.labels = {
      ...infra.metadata.labels,
      [CLUSTER_NAME_LABEL]: 'changed-by-hand',
      'gitops.example.com/app': 'fleet',
    };
    infra.metadata.annotations = { ...infra.metadata.annotations, 'cost.example.com/center': '42' };
    expect(world.converge().map((s) => s.note)).to.deep.equal([
      'updating the labels and annotations of AWSMachine',
    ]);
    expect(world.infra?.metadata.labels).to.deep.equal({
      [CLUSTER_NAME_LABEL]: clusterName,
      'gitops.example.com/app': 'fleet',
    });
    expect(world.infra?.metadata.annotations).to.include({ 'cost.example.com/center': '42' });
    expect(world.converge(), 'and then nothing more').to.deep.equal([]);
  });

  it('without a record (an earlier version wrote it), only what we always wrote there is ours', () => {
    const world = new MachineWorld(storedMachine());
    world.converge();
    const infra = world.infra!;
    const { [OWNED_METADATA_ANNOTATION]: _record, ...annotations } = infra.metadata.annotations!;
    infra.metadata.annotations = {
      ...annotations,
      'sigs.k8s.io/cluster-api-provider-aws-last-applied-tags': '{}',
    };
    infra.metadata.labels = { ...infra.metadata.labels, 'team.example.com/owner': 'a' };
    const value = world.mapi!.spec.providerSpec!.value as { instanceType: string };
    value.instanceType = 'm6i.2xlarge';
    world.mapi!.metadata.generation = 2;
    world.converge();
    expect(world.infra?.spec).to.include({ instanceType: 'm6i.2xlarge' });
    expect(world.infra?.metadata.labels).to.include({ 'team.example.com/owner': 'a' });
    expect(world.infra?.metadata.annotations)
      .to.include({ 'sigs.k8s.io/cluster-api-provider-aws-last-applied-tags': '{}' })
      .and.have.property(OWNED_METADATA_ANNOTATION);
  });

  it('without a record, a paused one is still unpaused by the initial sync under ClusterAPI', () => {
    const world = new MachineWorld(storedMachine('ClusterAPI'));
    for (let i = 0; i < 5 && !world.infra; i++) world.apply(world.plan());
    expect(world.infra?.metadata.annotations).to.have.property(PAUSED_ANNOTATION);
    delete world.infra!.metadata.annotations![OWNED_METADATA_ANNOTATION];
    world.converge();
    expect(world.infra?.metadata.annotations).to.not.have.property(PAUSED_ANNOTATION);
    expect(world.mirror?.metadata.annotations).to.not.have.property(PAUSED_ANNOTATION);
  });
});

describe('planMachineSync: Migrating or no authority', () => {
  for (const authority of ['Migrating', null] as const) {
    it(`writes nothing when status.authoritativeAPI is ${authority ?? 'empty'}`, () => {
      const world = new MachineWorld(storedMachine(authority));
      const step = world.plan();
      expect(step.kind).to.equal('done');
      expect(world.converge()).to.have.length(0);
    });
  }
});
