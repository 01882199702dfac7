// CAPI → MAPI while Cluster API is authoritative, through the in-memory world.
import { expect } from 'chai';
import type { MachineTemplate, MapiMachineSet } from '../../../../src/api/types.js';
import { CAPI_NS, mapiMachineSet, World } from './world.js';
import { onlyStatusWrite } from '../status-writes.js';

function synchronized(mapi: MapiMachineSet | undefined) {
  return mapi?.status?.conditions?.find((c) => c.type === 'Synchronized');
}

/** A MachineSet whose CAPI side was created by the initial sync under ClusterAPI. */
function clusterApiWorld(): World {
  const world = new World(mapiMachineSet('worker-a', 'ClusterAPI'));
  world.mapi!.spec.authoritativeAPI = 'ClusterAPI';
  world.converge();
  expect(synchronized(world.mapi)?.status).to.equal('True');
  return world;
}

/** What a Cluster API user does: edit the CAPI MachineSet's spec. */
function editCapi(world: World, edit: (spec: Record<string, unknown>) => void): void {
  const mirror = world.mirror!;
  edit(mirror.spec);
  mirror.metadata.generation! += 1;
  mirror.metadata.resourceVersion = `${mirror.metadata.resourceVersion}-edited`;
}

function foreignTemplate(name: string, size: unknown): MachineTemplate {
  return {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'FakeMachineTemplate',
    metadata: { name, namespace: CAPI_NS, uid: `uid-${name}`, resourceVersion: '1' },
    spec: { template: { spec: { size } } },
  };
}

describe('CAPI → MAPI while Cluster API is authoritative', () => {
  it('replicas and deletion order changed on CAPI show up on MAPI; Synchronized at the CAPI generation', () => {
    const world = clusterApiWorld();
    editCapi(world, (spec) => {
      spec.replicas = 5;
      spec.deletion = { order: 'Oldest' };
    });
    const mirror = structuredClone(world.mirror);
    world.converge();
    expect(world.mapi?.spec.replicas).to.equal(5);
    expect(world.mapi?.spec.deletePolicy).to.equal('Oldest');
    expect(world.mapi?.spec.template?.spec?.authoritativeAPI).to.equal('ClusterAPI');
    expect(world.mirror, 'Cluster API is never written').to.deep.equal(mirror);
    expect(synchronized(world.mapi)?.status).to.equal('True');
    expect(world.mapi?.status?.synchronizedGeneration).to.equal(world.mirror?.metadata.generation);
  });

  it('a template chosen on the CAPI side (anyone’s) becomes the providerSpec, and is never written', () => {
    const world = clusterApiWorld();
    const template = foreignTemplate('someone-elses', 'huge');
    world.templates.push(template);
    editCapi(world, (spec) => {
      const machine = (spec.template as { spec: { infrastructureRef: { name: string } } }).spec;
      machine.infrastructureRef.name = 'someone-elses';
    });
    world.converge();
    const value = world.mapi?.spec.template?.spec?.providerSpec?.value as { size?: string };
    expect(value.size).to.equal('huge');
    expect(world.templates.find((t) => t.metadata.name === 'someone-elses')).to.deep.equal(
      template,
    );
  });

  it('mirrors Cluster API’s status once it describes the current generation', () => {
    const world = clusterApiWorld();
    const mirror = world.mirror!;
    mirror.status = {
      ...mirror.status,
      replicas: 3,
      readyReplicas: 2,
      availableReplicas: 1,
      selector: 'cluster.x-k8s.io/cluster-name=demo-abc12',
      observedGeneration: (mirror.metadata.generation ?? 0) - 1,
    };
    world.converge();
    expect(world.mapi?.status?.replicas, 'stale CAPI status is not mirrored').to.equal(2);
    mirror.status.observedGeneration = mirror.metadata.generation;
    mirror.metadata.resourceVersion = `${mirror.metadata.resourceVersion}-status`;
    world.converge();
    expect(world.mapi?.status).to.include({
      replicas: 3,
      readyReplicas: 2,
      availableReplicas: 1,
      labelSelector: 'cluster.x-k8s.io/cluster-name=demo-abc12',
      observedGeneration: world.mapi?.metadata.generation,
    });
  });

  it('writes the mirrored status (observedGeneration) and Synchronized at the new generation in one patch', () => {
    const world = clusterApiWorld();
    editCapi(world, (spec) => {
      spec.replicas = 4;
    });
    const mirror = world.mirror!;
    mirror.status = {
      ...mirror.status,
      replicas: 4,
      observedGeneration: mirror.metadata.generation,
    };
    const steps = world.converge();
    const body = onlyStatusWrite(steps);
    expect(body).to.include({
      replicas: 4,
      observedGeneration: world.mapi?.metadata.generation,
      synchronizedGeneration: mirror.metadata.generation,
    });
    expect(body.conditions).to.be.an('array');
  });

  it('a template with no Machine API equivalent: FailedToConvertCAPIMachineSetToMAPI naming the field', () => {
    const world = clusterApiWorld();
    world.templates.push(foreignTemplate('sizeless', 7));
    editCapi(world, (spec) => {
      const machine = (spec.template as { spec: { infrastructureRef: { name: string } } }).spec;
      machine.infrastructureRef.name = 'sizeless';
    });
    const before = structuredClone(world.mapi?.spec);
    world.converge();
    expect(synchronized(world.mapi)).to.include({
      status: 'False',
      reason: 'FailedToConvertCAPIMachineSetToMAPI',
    });
    expect(synchronized(world.mapi)?.message).to.match(
      /FakeMachineTemplate sizeless spec\.template\.spec\.size: is required/,
    );
    expect(world.mapi?.spec).to.deep.equal(before);
  });

  it('leaves a providerSpec alone that another writer stored in another form describing the same machines', () => {
    const world = clusterApiWorld();
    // As machine-api-operator's defaulting webhook stores it: re-serialised with empty fields.
    const mapi = world.mapi!;
    const value = mapi.spec.template!.spec!.providerSpec!.value as Record<string, unknown>;
    value.metadata = { creationTimestamp: null };
    mapi.metadata.generation! += 1;
    mapi.metadata.resourceVersion = `${mapi.metadata.resourceVersion}-defaulted`;
    const before = structuredClone(mapi.spec);
    world.converge();
    expect(world.mapi?.spec).to.deep.equal(before);
    // A real change on the Cluster API side is still written.
    editCapi(world, (spec) => {
      spec.replicas = 4;
    });
    world.converge();
    expect(world.mapi?.spec.replicas).to.equal(4);
  });

  it("the CAPI MachineSet's own labels and annotations show up on MAPI, ours stay", () => {
    const world = clusterApiWorld();
    const mirror = world.mirror!;
    mirror.metadata.labels = { ...mirror.metadata.labels, team: 'blue' };
    mirror.metadata.annotations = {
      ...mirror.metadata.annotations,
      'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size': '6',
    };
    mirror.metadata.resourceVersion = `${mirror.metadata.resourceVersion}-labelled`;
    const ours = world.mapi!.metadata.annotations;
    world.converge();
    expect(world.mapi?.metadata.labels).to.deep.equal({
      'machine.openshift.io/cluster-api-cluster': 'demo-abc12',
      team: 'blue',
    });
    expect(world.mapi?.metadata.annotations).to.deep.equal({
      ...ours,
      'machine.openshift.io/cluster-api-autoscaler-node-group-max-size': '6',
    });
    expect(synchronized(world.mapi)?.status).to.equal('True');
    expect(world.converge(), 'and then nothing more').to.deep.equal([]);
  });
});
