import { expect } from 'chai';
import type { CapiMachineSet, MapiMachineSet } from '../../../../src/api/types.js';
import {
  AUTHORITY_ANNOTATION,
  CAPI_MACHINE_SET_FINALIZER,
  CLUSTER_API_UID_ANNOTATION,
  FINALIZER,
  PAUSED_ANNOTATION,
  SOURCE_ANNOTATION,
  MIRROR_UID_ANNOTATION,
} from '../../../../src/model/markers.js';
import { ADMITTED_SHAPES, CAPI_NS, mapiMachineSet, NOW, World } from './world.js';
import { recordingOwnUid } from '../uninstall-record.js';

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
    it("leaves another writer's labels and annotations on the mirror and its template; ours follow MAPI", () => {
      const world = new World(mapiMachineSet());
      world.mapi!.metadata.labels!['team.example.com/owner'] = 'a';
      world.converge();
      const mirror = world.mirror!;
      expect(mirror.metadata.labels).to.include({ 'team.example.com/owner': 'a' });
      mirror.metadata.labels!['gitops.example.com/app'] = 'fleet';
      mirror.metadata.annotations!['cost.example.com/center'] = '42';
      world.templates[0]!.metadata.labels = {
        ...world.templates[0]!.metadata.labels,
        'backup.example.com/skip': 'true',
      };
      expect(world.converge(), 'nothing to write for their keys').to.have.length(0);

      delete world.mapi!.metadata.labels!['team.example.com/owner'];
      world.mapi!.metadata.generation! += 1;
      world.converge();
      expect(world.mirror?.metadata.labels).to.not.have.property('team.example.com/owner');
      expect(world.mirror?.metadata.labels).to.include({ 'gitops.example.com/app': 'fleet' });
      expect(world.mirror?.metadata.annotations).to.include({ 'cost.example.com/center': '42' });
      expect(world.templates[0]?.metadata.labels).to.include({ 'backup.example.com/skip': 'true' });
    });

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

    it('reaches the write floor: finalizer, mirror, template, mirror status, then the outcome as the first status write', () => {
      const world = new World(mapiMachineSet());
      const steps = world.converge();
      expect(
        steps.map((s) => `${s.kind}${'subresource' in s && s.subresource ? '/status' : ''}`),
      ).to.deep.equal(['patch', 'create', 'create', 'patch/status', 'patch/status']);
      expect(steps.map((s) => ('object' in s ? s.object.kind : ''))).to.deep.equal([
        'MachineSet',
        'MachineSet',
        'FakeMachineTemplate',
        'MachineSet',
        'MachineSet',
      ]);
      // The mirror's own uid is recorded only when the uninstall lets it go.
      expect(world.mirror?.metadata.annotations).to.not.have.property(MIRROR_UID_ANNOTATION);
      expect(steps[0])
        .to.have.nested.property('object.apiVersion')
        .that.matches(/^machine\./);
      expect(synchronized(world.mapi)).to.include({ status: 'True' });
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

    it('never deletes a copy of a template of ours: it carries our labels and annotations, not a name we generate', () => {
      const world = new World(mapiMachineSet());
      world.converge();
      const ours = world.templates[0]!;
      // oc get -o yaml, renamed, edited, created: everything but the server's fields
      const copy = structuredClone(ours);
      copy.metadata = { ...copy.metadata, name: 'worker-a-gpu', uid: 'copy-uid' };
      world.templates.push(copy);
      changeSize(world, 'huge');
      world.converge();
      const names = world.templates.map((t) => t.metadata.name);
      expect(names, 'our old template goes').to.not.include(ours.metadata.name);
      expect(names, 'the copy stays').to.include('worker-a-gpu');
    });

    it('deletes an old template of ours that Cluster API made its Cluster an owner of, after a round trip', () => {
      const world = new World(mapiMachineSet());
      world.mapi!.spec.authoritativeAPI = 'MachineAPI';
      world.cluster = {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'Cluster',
        metadata: { name: 'demo-abc12', namespace: CAPI_NS, uid: 'cluster-uid' },
      };
      world.migration = true;
      world.converge();
      const old = world.templates[0]!.metadata.name;
      const wish = (authority: 'MachineAPI' | 'ClusterAPI') => {
        world.mapi!.spec.authoritativeAPI = authority;
        world.mapi!.metadata.generation! += 1;
        world.othersAct();
        world.converge();
        expect(world.mapi?.status?.authoritativeAPI).to.equal(authority);
      };
      wish('ClusterAPI');
      // While it is authoritative, Cluster API makes its Cluster an owner of the template.
      world.templates[0]!.metadata.ownerReferences!.push({
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'Cluster',
        name: 'demo-abc12',
        uid: 'cluster-uid',
      });
      wish('MachineAPI');
      expect(world.templates.map((t) => t.metadata.name)).to.deep.equal([old]);
      changeSize(world, 'huge');
      world.converge();
      const current = world.mirror?.spec.template.spec.infrastructureRef.name;
      expect(current).to.not.equal(old);
      expect(world.templates.map((t) => t.metadata.name)).to.deep.equal([current]);
    });

    it('keeps an old template of ours while another live CAPI MachineSet points at it, then deletes it', () => {
      const world = new World(mapiMachineSet());
      world.converge();
      const old = world.templates[0]!;
      const borrower = {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'MachineSet',
        metadata: { name: 'hand-made-set', namespace: CAPI_NS, uid: 'borrower-uid' },
        spec: structuredClone(world.mirror!.spec),
      } as CapiMachineSet;
      world.otherMachineSets.push(borrower);
      changeSize(world, 'huge');
      world.converge();
      const current = world.mirror?.spec.template.spec.infrastructureRef.name;
      expect(world.templates.map((t) => t.metadata.name).sort()).to.deep.equal(
        [old.metadata.name, current].sort(),
      );
      const kept = world.templates.find((t) => t.metadata.name === old.metadata.name)!;
      expect(kept.metadata.ownerReferences ?? [], 'released by our mirror').to.deep.equal([]);
      expect(world.converge(), 'settled while it is in use').to.have.length(0);
      // Being deleted, that MachineSet no longer holds the template.
      borrower.metadata.deletionTimestamp = NOW;
      world.converge();
      expect(world.templates.map((t) => t.metadata.name)).to.deep.equal([current]);
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

    it('creates the mirror before its template, so the template is never ownerless', () => {
      const world = new World(mapiMachineSet());
      while (world.templates.length === 0) {
        world.apply(world.plan());
        expect(world.templates).to.have.length.lessThan(2);
      }
      expect(world.mirror).to.not.equal(undefined);
      expect(world.templates[0]!.metadata.ownerReferences?.[0]?.uid).to.equal(
        world.mirror?.metadata.uid,
      );
    });

    it('adopts an ownerless template of ours left by an earlier version', () => {
      const reference = new World(mapiMachineSet());
      reference.converge();
      const world = new World(mapiMachineSet());
      const template = structuredClone(reference.templates[0]!);
      template.metadata.ownerReferences = [];
      world.templates.push(template);
      world.converge();
      expect(world.templates).to.have.length(1);
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

    it('never writes MAPI → CAPI under ClusterAPI once the mirror exists: an edit of MAPI is undone from CAPI', () => {
      const world = new World(mapiMachineSet('worker-a', 'ClusterAPI'));
      world.converge();
      const mirror = structuredClone(world.mirror);
      world.mapi!.spec.replicas = 9;
      world.mapi!.metadata.generation = 2;
      world.converge();
      expect(world.mirror).to.deep.equal(mirror);
      expect(world.mapi?.spec.replicas).to.equal(2);
      expect(synchronized(world.mapi)).to.include({ status: 'True' });
      expect(world.mapi?.status?.synchronizedGeneration).to.equal(
        world.mirror?.metadata.generation,
      );
    });

    it('writes nothing at all while Migrating, not even its condition or finalizer', () => {
      const world = new World(mapiMachineSet('worker-a', 'Migrating'));
      const before = structuredClone(world.mapi);
      expect(world.converge()).to.have.length(0);
      expect(world.mapi).to.deep.equal(before);
      expect(world.mirror).to.equal(undefined);
    });

    it('leaves a synchronized MachineSet untouched once it enters Migrating', () => {
      const world = new World(mapiMachineSet());
      world.converge();
      world.mapi!.status!.authoritativeAPI = 'Migrating';
      world.mapi!.spec.replicas = 7;
      world.mapi!.metadata.generation = 2;
      expect(world.converge()).to.have.length(0);
      expect(synchronized(world.mapi)).to.include({ status: 'True' });
    });

    it('writes nothing while status.authoritativeAPI is empty', () => {
      const world = new World(mapiMachineSet('worker-a', null));
      expect(world.converge()).to.have.length(0);
      expect(world.mirror).to.equal(undefined);
    });

    it('records the initial ClusterAPI sync on the MAPI side', () => {
      const world = new World(mapiMachineSet('worker-a', 'ClusterAPI'));
      world.converge();
      expect(world.mapi?.metadata.annotations?.[CLUSTER_API_UID_ANNOTATION]).to.equal(
        `${world.mapi?.metadata.uid}/${world.mirror?.metadata.uid}`,
      );
      expect(world.mirror?.metadata.annotations?.[AUTHORITY_ANNOTATION]).to.equal('ClusterAPI');
    });

    it('never recreates a deleted authoritative CAPI MachineSet, even at generation 1', () => {
      const world = new World(mapiMachineSet('worker-a', 'ClusterAPI'));
      world.converge();
      world.mirror = undefined; // gone without us
      world.converge();
      expect(world.mirror).to.equal(undefined);
      expect(world.mapi).to.equal(undefined);
    });

    it('never lowers synchronizedGeneration', () => {
      const mapi = mapiMachineSet();
      mapi.status!.synchronizedGeneration = 7;
      const world = new World(mapi);
      world.converge();
      expect(world.mapi?.status?.synchronizedGeneration).to.equal(7);
    });
  });

  describe('every shape the CRD admits', () => {
    const authorities = [null, 'MachineAPI', 'ClusterAPI', 'Migrating'] as const;
    for (const [shape, change] of ADMITTED_SHAPES) {
      for (const authority of authorities) {
        it(`settles for a MachineSet ${shape} (status.authoritativeAPI ${authority ?? 'empty'}), without a mirror and with one`, () => {
          const fresh = new World(mapiMachineSet('worker-a', authority));
          change(fresh.mapi!);
          fresh.converge();

          const mirrored = new World(mapiMachineSet());
          mirrored.converge();
          if (authority === null) delete mirrored.mapi!.status!.authoritativeAPI;
          else mirrored.mapi!.status!.authoritativeAPI = authority;
          change(mirrored.mapi!);
          mirrored.converge();
          const state = mirrored.mapi?.status?.authoritativeAPI;
          if (state === 'MachineAPI' || state === 'ClusterAPI') {
            expect(synchronized(mirrored.mapi)?.reason).to.be.a('string').and.not.equal('');
          }
        });
      }
    }

    it('a MachineSet without spec under MachineAPI: Synchronized=False naming what is missing', () => {
      const world = new World(mapiMachineSet());
      delete (world.mapi as { spec?: unknown }).spec;
      world.converge();
      expect(synchronized(world.mapi)).to.include({
        status: 'False',
        reason: 'FailedToConvertMAPIMachineSetToCAPI',
      });
      expect(synchronized(world.mapi)?.message).to.contain('spec.selector');
    });

    it('a MachineSet without spec under ClusterAPI: Synchronized=False, its selector is missing', () => {
      const world = new World(mapiMachineSet('worker-a', 'ClusterAPI'));
      world.converge();
      delete (world.mapi as { spec?: unknown }).spec;
      world.converge();
      expect(synchronized(world.mapi)).to.include({
        status: 'False',
        reason: 'FailedToConvertCAPIMachineSetToMAPI',
      });
      expect(synchronized(world.mapi)?.message).to.contain('spec.selector');
    });
  });

  describe('deletion, with Cluster API acting on the mirror', () => {
    function withCluster(authority: 'MachineAPI' | 'ClusterAPI' | 'Migrating' | null) {
      const world = new World(mapiMachineSet('worker-a', authority));
      world.cluster = {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'Cluster',
        metadata: { name: 'demo-abc12', namespace: CAPI_NS, uid: 'cluster-uid' },
      };
      return world;
    }

    it('Cluster API adds its finalizer and Paused condition; we never write Paused', () => {
      const world = withCluster('MachineAPI');
      world.converge();
      expect(world.mirror?.metadata.finalizers).to.include(CAPI_MACHINE_SET_FINALIZER);
      const paused = world.mirror?.status?.conditions?.find((c) => c.type === 'Paused');
      expect(paused?.message).to.equal('MachineSet has the cluster.x-k8s.io/paused annotation');
      expect(world.converge(), 'no ping-pong once converged').to.have.length(0);
    });

    it('MachineAPI, MAPI deleted: mirror (with CAPI finalizer) and templates go, MAPI released', () => {
      const world = withCluster('MachineAPI');
      world.converge();
      world.mapi!.metadata.deletionTimestamp = NOW;
      world.converge();
      expect(world.mirror).to.equal(undefined);
      expect(world.templates).to.have.length(0);
      expect(world.mapi).to.equal(undefined);
    });

    it('MachineAPI, mirror deleted: reported False meanwhile, released with CAPI finalizer, recreated', () => {
      const world = withCluster('MachineAPI');
      world.converge();
      const oldUid = world.mirror!.metadata.uid;
      world.apply({ kind: 'delete', object: world.mirror!, note: 'someone deletes the mirror' });
      const report = world.plan();
      world.apply(report);
      expect(synchronized(world.mapi)).to.include({
        status: 'False',
        reason: 'FailedToUpdateCAPIMachineSet',
      });
      world.converge();
      expect(world.mirror?.metadata.uid).to.not.equal(oldUid);
      expect(world.mirror?.metadata.deletionTimestamp).to.equal(undefined);
      expect(world.templates).to.have.length(1);
      expect(synchronized(world.mapi)?.status).to.equal('True');
    });

    it('ClusterAPI, CAPI MachineSet deleted: the MAPI mirror follows, nothing is recreated', () => {
      const world = withCluster('ClusterAPI');
      world.converge();
      world.apply({ kind: 'delete', object: world.mirror!, note: 'administrator deletes it' });
      world.converge();
      expect(world.mapi).to.equal(undefined);
      expect(world.mirror).to.equal(undefined);
    });

    it('ClusterAPI, MAPI deleted: MAPI released, the CAPI MachineSet stays untouched but for our finalizer', () => {
      const world = withCluster('ClusterAPI');
      world.converge();
      const spec = structuredClone(world.mirror!.spec);
      world.mapi!.metadata.deletionTimestamp = NOW;
      world.converge();
      expect(world.mapi).to.equal(undefined);
      expect(world.mirror?.spec).to.deep.equal(spec);
      expect(world.mirror?.metadata.deletionTimestamp).to.equal(undefined);
      expect(world.mirror?.metadata.finalizers).to.deep.equal([CAPI_MACHINE_SET_FINALIZER]);
    });

    it('Migrating, MAPI deleted: the paused CAPI side is never deleted', () => {
      const world = withCluster('MachineAPI');
      world.converge();
      world.mapi!.status!.authoritativeAPI = 'Migrating';
      world.mapi!.metadata.deletionTimestamp = NOW;
      world.converge();
      expect(world.mapi).to.equal(undefined);
      expect(world.mirror?.metadata.deletionTimestamp).to.equal(undefined);
      expect(world.mirror?.metadata.finalizers).to.deep.equal([CAPI_MACHINE_SET_FINALIZER]);
    });

    it('Migrating, CAPI side deleted: released (paused: with CAPI finalizer), MAPI kept', () => {
      const world = withCluster('MachineAPI');
      world.converge();
      world.mapi!.status!.authoritativeAPI = 'Migrating';
      world.apply({ kind: 'delete', object: world.mirror!, note: 'deleted while migrating' });
      world.converge();
      expect(world.mirror).to.equal(undefined);
      expect(world.mapi?.metadata.deletionTimestamp).to.equal(undefined);
    });

    for (const authority of ['Migrating', null] as const) {
      it(`MAPI deleted while authority is ${authority ?? 'unset'}: finishes`, () => {
        const world = withCluster(authority);
        world.mapi!.metadata.finalizers = [FINALIZER];
        world.mapi!.metadata.deletionTimestamp = NOW;
        world.converge();
        expect(world.mapi).to.equal(undefined);
      });
    }

    it('MAPI gone without us: our paused mirror is deleted and released, templates follow', () => {
      const world = withCluster('MachineAPI');
      world.converge();
      // As hack/release-finalizers.sh lets it go: its own uid recorded.
      world.mirror = recordingOwnUid(world.mirror!);
      world.mapi = undefined;
      world.converge();
      expect(world.mirror).to.equal(undefined);
      expect(world.templates).to.have.length(0);
    });

    it('MAPI gone without us: a CAPI MachineSet created under ClusterAPI is only released', () => {
      const world = withCluster('ClusterAPI');
      world.converge();
      world.mapi = undefined;
      world.converge();
      expect(world.mirror?.metadata.finalizers).to.deep.equal([CAPI_MACHINE_SET_FINALIZER]);
      expect(world.mirror?.metadata.deletionTimestamp).to.equal(undefined);
    });

    it('a changed cluster name is reported, never written to the immutable spec.clusterName', () => {
      const world = withCluster('MachineAPI');
      world.converge();
      world.infrastructure = {
        ...world.infrastructure!,
        status: { ...world.infrastructure!.status, infrastructureName: 'renamed-xyz' },
      };
      const before = structuredClone(world.mirror);
      world.converge();
      expect(world.mirror?.spec).to.deep.equal(before?.spec);
      expect(synchronized(world.mapi)).to.include({
        status: 'False',
        reason: 'FailedToUpdateCAPIMachineSet',
      });
      expect(synchronized(world.mapi)?.message).to.contain('spec.clusterName');
    });

    // A crash between two steps, then the world changes before the next reconcile.
    const changes: Record<string, (world: World) => void> = {
      'a providerSpec edit': (world) => changeSize(world, 'tiny'),
      'the MAPI MachineSet deleted': (world) => {
        if (world.mapi!.metadata.finalizers?.length) world.mapi!.metadata.deletionTimestamp = NOW;
        else world.mapi = undefined;
      },
      'the mirror deleted': (world) => {
        if (world.mirror) world.apply({ kind: 'delete', object: world.mirror, note: 'deleted' });
      },
    };
    for (const [what, change] of Object.entries(changes)) {
      it(`finishes after a crash between any two steps followed by ${what}`, () => {
        const reference = withCluster('MachineAPI');
        reference.converge();
        changeSize(reference, 'huge');
        const total = reference.converge().length;
        for (let crashAfter = 0; crashAfter <= total; crashAfter++) {
          const world = withCluster('MachineAPI');
          world.converge();
          changeSize(world, 'huge');
          for (let i = 0; i < crashAfter; i++) world.apply(world.plan());
          change(world);
          world.converge();
          const label = `crash after ${crashAfter}, then ${what}`;
          for (const template of world.templates) {
            expect(template.metadata.ownerReferences ?? [], label).to.have.length(1);
            expect(template.metadata.ownerReferences?.[0]?.uid, label).to.equal(
              world.mirror?.metadata.uid,
            );
          }
          if (world.mapi) {
            expect(world.templates, label).to.have.length(1);
            expect(world.mirror?.spec.template.spec.infrastructureRef.name, label).to.equal(
              world.templates[0]!.metadata.name,
            );
            expect(synchronized(world.mapi)?.status, label).to.equal('True');
          } else {
            expect(world.mirror, label).to.equal(undefined);
            expect(world.templates, label).to.have.length(0);
          }
        }
      });
    }
  });
});
