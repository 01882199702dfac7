import { expect } from 'chai';
import type { MapiMachineSet } from '../../../src/api/types.js';
import { FINALIZER, PAUSED_ANNOTATION, SOURCE_ANNOTATION } from '../../../src/sync/markers.js';
import { CAPI_NS, mapiMachineSet, NOW, World } from './world.js';

function synchronized(mapi: MapiMachineSet | undefined) {
  return mapi?.status?.conditions?.find((c) => c.type === 'Synchronized');
}

function changeSize(world: World, size: string): void {
  const mapi = world.mapi!;
  (mapi.spec.template!.spec!.providerSpec!.value as { size: string }).size = size;
  mapi.metadata.generation! += 1;
  mapi.status!.observedGeneration = mapi.metadata.generation;
}

describe('plan', () => {
  describe('MachineAPI authoritative', () => {
    it('converges to a paused mirror, an owned template and Synchronized=True', () => {
      const world = new World(mapiMachineSet());
      world.converge();
      const { mapi, mirror, templates } = world;
      expect(templates).to.have.length(1);
      const template = templates[0]!;
      expect(mirror?.metadata.namespace).to.equal(CAPI_NS);
      expect(mirror?.metadata.annotations).to.have.property(PAUSED_ANNOTATION);
      expect(template.metadata.annotations).to.have.property(PAUSED_ANNOTATION);
      expect(mirror?.metadata.finalizers).to.include(FINALIZER);
      expect(mapi?.metadata.finalizers).to.include(FINALIZER);
      expect(mirror?.spec.template.spec.infrastructureRef).to.deep.equal({
        apiGroup: 'infrastructure.cluster.x-k8s.io',
        kind: 'FakeMachineTemplate',
        name: template.metadata.name,
      });
      expect(mirror?.spec.template.spec.failureDomain).to.equal('zone-a');
      expect(mirror?.spec.template.spec.bootstrap).to.deep.equal({
        dataSecretName: 'worker-user-data',
      });
      expect(template.metadata.ownerReferences).to.deep.equal([
        {
          apiVersion: 'cluster.x-k8s.io/v1beta2',
          kind: 'MachineSet',
          name: 'worker-a',
          uid: mirror?.metadata.uid,
        },
      ]);
      expect(template.metadata.annotations?.[SOURCE_ANNOTATION]).to.equal('worker-a');
      expect(mirror?.status?.observedGeneration).to.equal(mirror?.metadata.generation);
      expect(mirror?.status?.replicas).to.equal(2);
      expect(mirror?.status?.readyReplicas).to.equal(1);
      expect(synchronized(mapi)).to.include({ status: 'True', reason: 'ResourceSynchronized' });
      expect(mapi?.status?.synchronizedGeneration).to.equal(1);
    });

    it('sets a first-visit condition before any other write', () => {
      const world = new World(mapiMachineSet());
      const step = world.plan();
      expect(step.kind).to.equal('updateStatus');
      world.apply(step);
      expect(synchronized(world.mapi)).to.include({
        status: 'Unknown',
        reason: 'AuthoritativeAPIChanged',
      });
      expect(world.mirror).to.equal(undefined);
    });

    it('makes no write once converged', () => {
      const world = new World(mapiMachineSet());
      world.converge();
      expect(world.converge()).to.have.length(0);
    });

    it('updates the mirror but keeps the template on a replicas change', () => {
      const world = new World(mapiMachineSet());
      world.converge();
      const template = world.templates[0]!.metadata.name;
      world.mapi!.spec.replicas = 5;
      world.mapi!.metadata.generation = 2;
      world.mapi!.status!.observedGeneration = 2;
      const steps = world.converge();
      expect(steps.some((s) => s.kind === 'create')).to.equal(false);
      expect(world.mirror?.spec.replicas).to.equal(5);
      expect(world.templates.map((t) => t.metadata.name)).to.deep.equal([template]);
      expect(world.mapi?.status?.synchronizedGeneration).to.equal(2);
    });

    it('rotates the template on a providerSpec change and deletes the old one', () => {
      const world = new World(mapiMachineSet());
      world.converge();
      const old = world.templates[0]!.metadata.name;
      changeSize(world, 'huge');
      world.converge();
      expect(world.templates).to.have.length(1);
      const current = world.templates[0]!.metadata.name;
      expect(current).to.not.equal(old);
      expect(world.mirror?.spec.template.spec.infrastructureRef.name).to.equal(current);
    });

    it('never deletes a template it did not create', () => {
      const world = new World(mapiMachineSet());
      world.converge();
      world.templates.push({
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'FakeMachineTemplate',
        metadata: { name: 'hand-made', namespace: CAPI_NS, uid: 'foreign' },
        spec: { template: { spec: {} } },
      });
      changeSize(world, 'huge');
      world.converge();
      expect(world.templates.map((t) => t.metadata.name)).to.include('hand-made');
    });

    it('does not write mirror status while MAPI status lags its generation', () => {
      const world = new World(mapiMachineSet());
      world.mapi!.status!.observedGeneration = 0;
      world.converge();
      expect(world.mirror?.status).to.equal(undefined);
    });

    it('finishes the job after a crash between any two steps', () => {
      const reference = new World(mapiMachineSet());
      reference.converge();
      changeSize(reference, 'huge');
      const total = reference.converge().length;
      for (let crashAfter = 0; crashAfter < total; crashAfter++) {
        const world = new World(mapiMachineSet());
        world.converge();
        changeSize(world, 'huge');
        for (let i = 0; i < crashAfter; i++) world.apply(world.plan());
        // a fresh reconcile from whatever state the crash left
        world.converge();
        expect(world.templates, `crash after ${crashAfter}`).to.have.length(1);
        expect(world.mirror?.spec.template.spec.infrastructureRef.name).to.equal(
          world.templates[0]!.metadata.name,
        );
        expect(synchronized(world.mapi)?.status).to.equal('True');
      }
    });

    it('adopts a template created before a crash that left no mirror', () => {
      const world = new World(mapiMachineSet());
      while (world.templates.length === 0) world.apply(world.plan());
      expect(world.templates[0]!.metadata.ownerReferences ?? []).to.have.length(0);
      world.converge();
      expect(world.templates[0]!.metadata.ownerReferences?.[0]?.uid).to.equal(
        world.mirror?.metadata.uid,
      );
    });

    it('owns the mirror by the CAPI Cluster when it exists', () => {
      const world = new World(mapiMachineSet());
      world.cluster = {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'Cluster',
        metadata: { name: 'demo-abc12', namespace: CAPI_NS, uid: 'cluster-uid' },
      };
      world.converge();
      expect(world.mirror?.metadata.ownerReferences).to.deep.equal([
        {
          apiVersion: 'cluster.x-k8s.io/v1beta2',
          kind: 'Cluster',
          name: 'demo-abc12',
          uid: 'cluster-uid',
        },
      ]);
    });

    it('emits conversion warnings as events with the template write', () => {
      const world = new World(mapiMachineSet('worker-a', 'MachineAPI', 'lossy'));
      world.converge();
      expect(world.events).to.deep.include({
        type: 'Warning',
        reason: 'ConversionWarning',
        message: 'size "lossy" loses precision',
      });
    });
  });

  describe('errors reported on the MAPI MachineSet', () => {
    it('reports a conversion error with the field path, once, and writes nothing to CAPI', () => {
      const mapi = mapiMachineSet();
      delete (mapi.spec.template!.spec!.providerSpec!.value as { size?: string }).size;
      const world = new World(mapi);
      world.converge();
      const condition = synchronized(world.mapi);
      expect(condition).to.include({
        status: 'False',
        severity: 'Error',
        reason: 'FailedToConvertMAPIMachineSetToCAPI',
      });
      expect(condition?.message).to.contain('spec.template.spec.providerSpec.value.size');
      expect(world.mirror).to.equal(undefined);
      expect(
        world.events.filter((e) => e.reason === 'FailedToConvertMAPIMachineSetToCAPI'),
      ).to.have.length(1);
      expect(world.converge()).to.have.length(0);
    });

    it('reports a providerSpec of another platform', () => {
      const mapi = mapiMachineSet();
      (mapi.spec.template!.spec!.providerSpec!.value as { kind: string }).kind =
        'AWSMachineProviderConfig';
      const world = new World(mapi);
      world.converge();
      expect(synchronized(world.mapi)?.message).to.match(
        /providerSpec\.value\.kind: is AWSMachineProviderConfig, but this cluster's platform is Fake/,
      );
    });

    it('reports an unsupported platform', () => {
      const world = new World(mapiMachineSet());
      world.converter = undefined;
      world.converge();
      expect(synchronized(world.mapi)).to.include({
        status: 'False',
        reason: 'FailedToConvertMAPIMachineSetToCAPI',
      });
      expect(synchronized(world.mapi)?.message).to.contain('"Fake" has no Cluster API conversion');
    });

    it('reports a missing Infrastructure', () => {
      const world = new World(mapiMachineSet());
      world.infrastructure = undefined;
      world.converge();
      expect(synchronized(world.mapi)).to.include({
        status: 'False',
        reason: 'FailedToGetCAPIInfraResources',
      });
    });

    it('reports foreign owner references instead of copying them', () => {
      const mapi = mapiMachineSet();
      mapi.metadata.ownerReferences = [
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u1' },
      ];
      const world = new World(mapi);
      world.converge();
      expect(synchronized(world.mapi)?.message).to.contain('metadata.ownerReferences');
      expect(world.mirror).to.equal(undefined);
    });

    it('refuses a template name taken by a template it did not create', () => {
      const reference = new World(mapiMachineSet());
      reference.converge();
      const taken = reference.templates[0]!.metadata.name;
      const world = new World(mapiMachineSet());
      world.templates.push({
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'FakeMachineTemplate',
        metadata: { name: taken, namespace: CAPI_NS, uid: 'foreign' },
        spec: { template: { spec: {} } },
      });
      world.converge();
      expect(synchronized(world.mapi)).to.include({
        reason: 'FailedToUpdateCAPIInfraMachineTemplate',
      });
      expect(world.templates[0]!.metadata.uid).to.equal('foreign');
    });
  });

  describe('other authorities', () => {
    it('creates unpaused objects on the initial sync under ClusterAPI', () => {
      const world = new World(mapiMachineSet('worker-a', 'ClusterAPI'));
      world.converge();
      expect(world.mirror?.metadata.annotations ?? {}).to.not.have.property(PAUSED_ANNOTATION);
      expect(world.templates[0]!.metadata.annotations ?? {}).to.not.have.property(
        PAUSED_ANNOTATION,
      );
      expect(synchronized(world.mapi)?.status).to.equal('True');
    });

    it('never writes MAPI → CAPI under ClusterAPI once the mirror exists', () => {
      const world = new World(mapiMachineSet('worker-a', 'ClusterAPI'));
      world.converge();
      const mirror = structuredClone(world.mirror);
      world.mapi!.spec.replicas = 9;
      world.mapi!.metadata.generation = 2;
      world.converge();
      expect(world.mirror).to.deep.equal(mirror);
      expect(synchronized(world.mapi)).to.include({
        status: 'Unknown',
        reason: 'AuthoritativeAPIChanged',
      });
      expect(world.mapi?.status?.synchronizedGeneration).to.equal(1);
    });

    it('writes no spec while Migrating and says so', () => {
      const world = new World(mapiMachineSet('worker-a', 'Migrating'));
      const steps = world.converge();
      expect(world.mirror).to.equal(undefined);
      expect(steps.every((s) => s.kind === 'updateStatus' || s.kind === 'update')).to.equal(true);
      expect(synchronized(world.mapi)).to.include({
        status: 'Unknown',
        reason: 'AuthoritativeAPIChanged',
      });
    });

    it('waits while status.authoritativeAPI is empty', () => {
      const world = new World(mapiMachineSet('worker-a', null));
      world.converge();
      expect(world.mirror).to.equal(undefined);
      expect(synchronized(world.mapi)?.message).to.contain('status.authoritativeAPI');
    });

    it('never lowers synchronizedGeneration', () => {
      const mapi = mapiMachineSet();
      mapi.status!.synchronizedGeneration = 7;
      const world = new World(mapi);
      world.converge();
      expect(world.mapi?.status?.synchronizedGeneration).to.equal(7);
    });
  });

  describe('deletion', () => {
    it('MAPI authoritative and deleted: mirror and templates go, then every finalizer is released', () => {
      const world = new World(mapiMachineSet());
      world.converge();
      world.mapi!.metadata.deletionTimestamp = NOW;
      world.converge();
      expect(world.mirror).to.equal(undefined);
      expect(world.templates).to.have.length(0);
      expect(world.mapi).to.equal(undefined);
    });

    it('mirror deleted while MAPI is authoritative: released, then recreated', () => {
      const world = new World(mapiMachineSet());
      world.converge();
      const oldUid = world.mirror!.metadata.uid;
      world.apply({ kind: 'delete', object: world.mirror!, note: 'someone deletes the mirror' });
      expect(world.mirror?.metadata.deletionTimestamp).to.equal(NOW);
      world.converge();
      expect(world.mirror?.metadata.uid).to.not.equal(oldUid);
      expect(world.mirror?.metadata.deletionTimestamp).to.equal(undefined);
      expect(world.templates).to.have.length(1);
      expect(world.mapi).to.not.equal(undefined);
    });

    it('an unpaused mirror being deleted is held until Cluster API releases its own finalizer', () => {
      const world = new World(mapiMachineSet('worker-a', 'ClusterAPI'));
      world.converge();
      world.mirror!.metadata.finalizers = ['cluster.x-k8s.io/machineset', FINALIZER];
      world.mirror!.metadata.deletionTimestamp = NOW;
      expect(world.converge()).to.have.length(0);
      expect(world.mirror?.metadata.finalizers).to.include(FINALIZER);
      const uid = world.mirror!.metadata.uid;
      world.mirror!.metadata.finalizers = [FINALIZER];
      const steps = world.converge();
      expect(steps[0]).to.include({ kind: 'update', note: 'releasing deleted CAPI machine set' });
      // Gone; the table's "ClusterAPI, mirror missing" then applies: a new initial sync.
      expect(world.mirror?.metadata.uid).to.not.equal(uid);
    });

    it('ClusterAPI authoritative and MAPI deleted: MAPI released, mirror kept', () => {
      const world = new World(mapiMachineSet('worker-a', 'ClusterAPI'));
      world.converge();
      world.mapi!.metadata.deletionTimestamp = NOW;
      world.converge();
      expect(world.mapi).to.equal(undefined);
      expect(world.mirror).to.not.equal(undefined);
    });

    for (const authority of ['Migrating', null] as const) {
      it(`MAPI deleted while authority is ${authority ?? 'unset'}: finishes`, () => {
        const world = new World(mapiMachineSet('worker-a', authority));
        world.converge();
        world.mapi!.metadata.deletionTimestamp = NOW;
        world.converge();
        expect(world.mapi).to.equal(undefined);
      });
    }

    it('MAPI gone: a paused mirror is deleted and released, templates follow', () => {
      const world = new World(mapiMachineSet());
      world.converge();
      world.mapi = undefined;
      world.converge();
      expect(world.mirror).to.equal(undefined);
      expect(world.templates).to.have.length(0);
    });

    it('MAPI gone: an unpaused mirror is only released', () => {
      const world = new World(mapiMachineSet('worker-a', 'ClusterAPI'));
      world.converge();
      world.mapi = undefined;
      world.converge();
      expect(world.mirror?.metadata.finalizers ?? []).to.not.include(FINALIZER);
      expect(world.mirror?.metadata.deletionTimestamp).to.equal(undefined);
    });
  });
});
