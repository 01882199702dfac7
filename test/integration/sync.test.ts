// The controller end to end against the real API server and CRDs.
import { expect } from 'chai';
import type {
  CapiMachineSet,
  JsonPatchOperation,
  KubeObject,
  MachineTemplate,
  MapiMachineSet,
} from '../../src/api/types.js';
import {
  CLUSTER_API_UID_ANNOTATION,
  FINALIZER,
  PAUSED_ANNOTATION,
  SOURCE_ANNOTATION,
} from '../../src/model/markers.js';
import { CONFIG_MAP } from '../../src/kube/builtin-resources.js';
import type { ObjectClient } from '../../src/kube/objects.js';
import { adminObjects, identityConfig } from '../support/cluster.js';
import { eventually } from '../support/eventually.js';
import {
  AWS_TEMPLATES,
  awsMachineSet,
  CAPI,
  createMachineSet,
  DEFAULT_INFRASTRUCTURE,
  MAPI,
  setAuthority,
  setInfrastructure,
  startTestController,
  type TestController,
  unadmitted,
} from '../support/controller.js';
import { objectsFor } from '../support/kube-client.js';
import { namespaceEvents } from '../support/events.js';

const api = adminObjects;

async function getMapi(c: TestController, name: string): Promise<MapiMachineSet> {
  return await api().get<MapiMachineSet>({ ...MAPI, namespace: c.mapiNamespace, name });
}

async function getMirror(c: TestController, name: string): Promise<CapiMachineSet | undefined> {
  try {
    return await api().get<CapiMachineSet>({ ...CAPI, namespace: c.capiNamespace, name });
  } catch (err) {
    if ((err as { code?: number }).code === 404) return undefined;
    throw err;
  }
}

async function listTemplates(c: TestController): Promise<MachineTemplate[]> {
  const list = await api().list<MachineTemplate>({ ...AWS_TEMPLATES, namespace: c.capiNamespace });
  return list.items;
}

function synchronized(mapi: MapiMachineSet) {
  return mapi.status?.conditions?.find((c) => c.type === 'Synchronized');
}

async function createMapi(
  c: TestController,
  body: MapiMachineSet,
  authority: 'MachineAPI' | 'ClusterAPI' = 'MachineAPI',
) {
  await createMachineSet(c.mapiNamespace, body, authority);
}

async function patchMapi(
  c: TestController,
  name: string,
  ops: JsonPatchOperation[],
  client: ObjectClient = api(),
  dryRun = false,
) {
  await client.patch(
    { ...MAPI, namespace: c.mapiNamespace, name },
    { type: 'json', operations: ops },
    { dryRun },
  );
}

/** Waits until the MachineSet is synchronized at its current generation. */
async function waitSynchronized(c: TestController, name: string): Promise<MapiMachineSet> {
  return eventually(async () => {
    const mapi = await getMapi(c, name);
    expect(synchronized(mapi), JSON.stringify(mapi.status)).to.include({
      status: 'True',
      reason: 'ResourceSynchronized',
    });
    expect(mapi.status?.synchronizedGeneration).to.equal(mapi.metadata.generation);
    return mapi;
  });
}

async function waitCondition(c: TestController, name: string, status: string, reason: string) {
  return eventually(async () => {
    const mapi = await getMapi(c, name);
    expect(synchronized(mapi), JSON.stringify(mapi.status)).to.include({ status, reason });
    return mapi;
  });
}

describe('sync controller (AWS)', function () {
  this.timeout(120_000);

  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('mirrors a new MachineSet into a paused CAPI MachineSet with an owned template', async () => {
    const c = await startTestController();
    await createMapi(c, awsMachineSet('worker-a', c.mapiNamespace));
    const mapi = await waitSynchronized(c, 'worker-a');
    expect(mapi.status?.synchronizedGeneration).to.equal(1);
    expect(mapi.metadata.finalizers).to.include(FINALIZER);
    expect(synchronized(mapi)?.severity ?? '').to.equal('');

    const mirror = (await getMirror(c, 'worker-a'))!;
    expect(mirror.metadata.annotations).to.have.property(PAUSED_ANNOTATION);
    expect(mirror.metadata.finalizers).to.include(FINALIZER);
    expect(mirror.spec.clusterName).to.equal('demo-abc12');
    expect(mirror.spec.replicas).to.equal(2);
    expect(mirror.spec.selector.matchLabels).to.include({
      'cluster.x-k8s.io/cluster-name': 'demo-abc12',
    });
    expect(mirror.spec.template.metadata?.labels).to.include({
      'node-role.kubernetes.io/worker': '',
      'cluster.x-k8s.io/cluster-name': 'demo-abc12',
    });
    expect(mirror.spec.template.spec.failureDomain).to.equal('us-east-1a');
    expect(mirror.spec.template.spec.bootstrap.dataSecretName).to.equal('worker-user-data');

    const templates = await listTemplates(c);
    expect(templates).to.have.length(1);
    const template = templates[0]!;
    expect(mirror.spec.template.spec.infrastructureRef).to.deep.equal({
      apiGroup: 'infrastructure.cluster.x-k8s.io',
      kind: 'AWSMachineTemplate',
      name: template.metadata.name,
    });
    expect(template.metadata.name).to.match(/^worker-a-[0-9a-f]{10}$/);
    expect(template.metadata.annotations?.[SOURCE_ANNOTATION]).to.equal('worker-a');
    expect(template.metadata.ownerReferences?.map((r) => r.uid)).to.deep.equal([
      mirror.metadata.uid,
    ]);
    expect(template.spec.template.spec).to.include({ instanceType: 'm6i.xlarge' });
    // Our writes are recorded under our own name, so that an SRE reading managedFields sees who.
    const managers = (object: { metadata: { managedFields?: unknown[] } }) =>
      (object.metadata.managedFields as { manager?: string }[] | undefined)?.map((f) => f.manager);
    expect(managers(mirror)).to.include('mapi-capi-sync');
    expect(managers(template)).to.include('mapi-capi-sync');
    expect(managers(mapi)).to.include('mapi-capi-sync');
  });

  it('follows replicas, providerSpec, metadata and status changes', async () => {
    const c = await startTestController();
    await createMapi(c, awsMachineSet('worker-b', c.mapiNamespace));
    await waitSynchronized(c, 'worker-b');
    const [first] = await listTemplates(c);

    // replicas: the mirror follows, the template stays
    await patchMapi(c, 'worker-b', [{ op: 'replace', path: '/spec/replicas', value: 4 }]);
    await eventually(async () =>
      expect((await getMirror(c, 'worker-b'))?.spec.replicas).to.equal(4),
    );
    await waitSynchronized(c, 'worker-b');
    expect((await listTemplates(c)).map((t) => t.metadata.name)).to.deep.equal([
      first!.metadata.name,
    ]);

    // metadata only: labels follow, no new template
    await patchMapi(c, 'worker-b', [{ op: 'add', path: '/metadata/labels/team', value: 'blue' }]);
    await eventually(async () =>
      expect((await getMirror(c, 'worker-b'))?.metadata.labels).to.include({ team: 'blue' }),
    );
    expect((await listTemplates(c)).map((t) => t.metadata.name)).to.deep.equal([
      first!.metadata.name,
    ]);

    // instanceType: a new template, the mirror repointed, the old template gone
    await patchMapi(c, 'worker-b', [
      {
        op: 'replace',
        path: '/spec/template/spec/providerSpec/value/instanceType',
        value: 'm6i.2xlarge',
      },
    ]);
    await eventually(async () => {
      const templates = await listTemplates(c);
      expect(templates).to.have.length(1);
      expect(templates[0]!.metadata.name).to.not.equal(first!.metadata.name);
      expect(templates[0]!.spec.template.spec).to.include({ instanceType: 'm6i.2xlarge' });
      const mirror = await getMirror(c, 'worker-b');
      expect(mirror?.spec.template.spec.infrastructureRef.name).to.equal(
        templates[0]!.metadata.name,
      );
    });
    await waitSynchronized(c, 'worker-b');

    // MAPI status, written by machine-api-operator from the 4 Machines it created (none has a
    // node here): copied to the mirror once it describes the current generation
    await eventually(async () => {
      const mapi = await getMapi(c, 'worker-b');
      expect(mapi.status?.observedGeneration).to.equal(mapi.metadata.generation);
      const mirror = await getMirror(c, 'worker-b');
      expect(mirror?.status).to.include({
        replicas: mapi.status?.replicas,
        readyReplicas: mapi.status?.readyReplicas ?? 0,
        availableReplicas: mapi.status?.availableReplicas ?? 0,
      });
      expect(mirror?.status?.replicas).to.equal(4);
      expect(mirror?.status?.observedGeneration).to.equal(mirror?.metadata.generation);
      expect(mirror?.status?.conditions?.every((cond) => cond.reason.length > 0)).to.equal(true);
    });
  });

  it('leaves labels and annotations another writer puts on the paused mirror; ours follow MAPI', async () => {
    const c = await startTestController();
    const body = awsMachineSet('shared', c.mapiNamespace);
    body.metadata.labels = { ...body.metadata.labels, team: 'blue' };
    await createMapi(c, body);
    await waitSynchronized(c, 'shared');
    // What GitOps or a cost tool does: keys of its own on the CAPI MachineSet.
    await api().patch(
      { ...CAPI, namespace: c.capiNamespace, name: 'shared' },
      {
        type: 'json',
        operations: [
          { op: 'add', path: '/metadata/labels/gitops.example.com~1app', value: 'fleet' },
          { op: 'add', path: '/metadata/annotations/cost.example.com~1center', value: '42' },
        ],
      },
    );
    // A MAPI change that makes the controller write the mirror's metadata again.
    await patchMapi(c, 'shared', [
      { op: 'remove', path: '/metadata/labels/team' },
      { op: 'add', path: '/metadata/labels/tier', value: 'gold' },
    ]);
    await eventually(async () => {
      const mirror = await getMirror(c, 'shared');
      expect(mirror?.metadata.labels).to.include({
        tier: 'gold',
        'gitops.example.com/app': 'fleet',
      });
      expect(mirror?.metadata.labels).to.not.have.property('team');
      expect(mirror?.metadata.annotations).to.include({ 'cost.example.com/center': '42' });
    });
    await waitSynchronized(c, 'shared');
  });

  it('mirrors node taints as Cluster API machine taints (propagation Always), accepted by its webhook', async () => {
    const c = await startTestController();
    const body = awsMachineSet('tainted', c.mapiNamespace);
    body.spec.template!.spec!.taints = [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }];
    await createMapi(c, body);
    await waitSynchronized(c, 'tainted');
    const mirror = (await getMirror(c, 'tainted')) as CapiMachineSet & {
      spec: { template: { spec: { taints?: unknown[] } } };
    };
    expect(mirror.spec.template.spec.taints).to.deep.equal([
      { key: 'dedicated', value: 'infra', effect: 'NoSchedule', propagation: 'Always' },
    ]);
  });

  it('makes zero writes when nothing changed', async () => {
    const c = await startTestController();
    const names = ['noop-a', 'noop-b', 'noop-c'];
    for (const name of names) await createMapi(c, awsMachineSet(name, c.mapiNamespace));
    for (const name of names) await waitSynchronized(c, name);
    // machine-api-operator has counted the Machines it created, and the mirror says so
    for (const name of names) {
      await eventually(async () =>
        expect((await getMirror(c, name))?.status?.replicas).to.equal(2),
      );
    }

    const snapshot = async () => {
      const versions = new Map<string, string>();
      const lists = await Promise.all([
        api().list({ ...MAPI, namespace: c.mapiNamespace }),
        api().list({ ...CAPI, namespace: c.capiNamespace }),
        api().list({ ...AWS_TEMPLATES, namespace: c.capiNamespace }),
        namespaceEvents(c.mapiNamespace),
      ]);
      for (const list of lists) {
        for (const item of (list as { items: KubeObject[] }).items) {
          versions.set(`${item.kind}/${item.metadata.name}`, item.metadata.resourceVersion ?? '');
        }
      }
      return versions;
    };
    const before = await snapshot();
    const reconciled = c.machineSetReconciler.completed;
    c.resyncAll();
    await eventually(() =>
      expect(c.machineSetReconciler.completed).to.be.at.least(reconciled + names.length),
    );
    const after = await snapshot();
    const changed = [...after].filter(([key, rv]) => before.get(key) !== rv);
    expect(changed, 'objects written by a no-op resync').to.have.length(0);
    expect(after.size).to.equal(before.size);
  });

  it('acts on each authority: ClusterAPI initial sync unpaused and recorded, Migrating writes nothing', async () => {
    // Status is moved by hand here, as OpenShift's own migration controller would.
    const c = await startTestController({ migration: false });
    await createMapi(c, awsMachineSet('capi-first', c.mapiNamespace), 'ClusterAPI');
    await createMapi(c, awsMachineSet('migrating', c.mapiNamespace), 'MachineAPI');

    await waitSynchronized(c, 'migrating');
    await setAuthority(c.mapiNamespace, 'migrating', 'Migrating');
    const mirrorBefore = await getMirror(c, 'migrating');
    const conditionBefore = synchronized(await getMapi(c, 'migrating'));
    await patchMapi(c, 'migrating', [{ op: 'replace', path: '/spec/replicas', value: 7 }]);

    await waitCondition(c, 'capi-first', 'True', 'ResourceSynchronized');
    const capiFirst = await getMirror(c, 'capi-first');
    expect(capiFirst?.metadata.annotations ?? {}).to.not.have.property(PAUSED_ANNOTATION);
    const capiFirstMapi = await getMapi(c, 'capi-first');
    expect(capiFirstMapi.metadata.annotations?.[CLUSTER_API_UID_ANNOTATION]).to.equal(
      `${capiFirstMapi.metadata.uid}/${capiFirst?.metadata.uid}`,
    );

    // ClusterAPI with a mirror: a person's MAPI change is refused at admission, once the
    // policies created with the controller are in effect (a moment later; tried without being
    // stored until then) ...
    const scale: JsonPatchOperation[] = [{ op: 'replace', path: '/spec/replicas', value: 9 }];
    await eventually(async () => {
      const refused = await patchMapi(c, 'capi-first', scale, api(), true).then(
        () => 'admitted',
        (err: { body?: string }) => err.body,
      );
      // ours or OpenShift's, whichever the API server evaluates first
      expect(refused).to.match(
        /ValidatingAdmissionPolicy '(mapi-capi-sync-machine-api-mirror|machine-api-machine-set-vap)/,
      );
    });
    // ... and one that gets through (an exempt writer, or no policies) is not written to CAPI,
    // but undone from it
    await patchMapi(c, 'capi-first', scale, objectsFor(identityConfig('machine-api-operator')));
    await eventually(async () =>
      expect((await getMapi(c, 'capi-first')).spec.replicas).to.equal(2),
    );
    await waitCondition(c, 'capi-first', 'True', 'ResourceSynchronized');
    expect((await getMirror(c, 'capi-first'))?.spec.replicas).to.equal(2);

    // By now every key has been reconciled after its last change: Migrating wrote nothing.
    const resync = c.machineSetReconciler.completed;
    c.resyncAll();
    await eventually(() => {
      expect(c.machineSetReconciler.completed).to.be.at.least(resync + 2);
    });
    expect((await getMirror(c, 'migrating'))?.spec).to.deep.equal(mirrorBefore?.spec);
    // machine-api-operator rewrites the conditions list in its own form (an empty severity
    // omitted): the same condition, not a write of ours
    const normalized = (c: ReturnType<typeof synchronized>) =>
      c && { ...c, severity: c.severity ?? '' };
    expect(normalized(synchronized(await getMapi(c, 'migrating')))).to.deep.equal(
      normalized(conditionBefore),
    );
  });

  it('never recreates a deleted authoritative CAPI MachineSet; its MAPI mirror follows it', async () => {
    const c = await startTestController();
    await createMapi(c, awsMachineSet('capi-owned', c.mapiNamespace), 'ClusterAPI');
    await waitCondition(c, 'capi-owned', 'True', 'ResourceSynchronized');
    await api().delete({ ...CAPI, namespace: c.capiNamespace, name: 'capi-owned' });
    await eventually(async () => {
      expect(await getMirror(c, 'capi-owned')).to.equal(undefined);
      const gone = await getMapi(c, 'capi-owned').then(
        () => false,
        (err: { code?: number }) => err.code === 404,
      );
      expect(gone, 'MAPI mirror deleted').to.equal(true);
    });
  });

  it('deletes the mirror and our templates with the MAPI MachineSet, releasing every finalizer', async () => {
    const c = await startTestController();
    await createMapi(c, awsMachineSet('doomed', c.mapiNamespace));
    await waitSynchronized(c, 'doomed');
    await api().delete({ ...MAPI, namespace: c.mapiNamespace, name: 'doomed' });
    await eventually(async () => {
      const gone = await api()
        .get({ ...MAPI, namespace: c.mapiNamespace, name: 'doomed' })
        .then(
          () => false,
          (err: { code?: number }) => err.code === 404,
        );
      expect(gone, 'MAPI MachineSet released').to.equal(true);
      expect(await getMirror(c, 'doomed')).to.equal(undefined);
      expect(await listTemplates(c)).to.have.length(0);
    });
  });

  it('recreates a mirror deleted by someone while MAPI is authoritative, keeping MAPI', async () => {
    const c = await startTestController();
    await createMapi(c, awsMachineSet('resilient', c.mapiNamespace));
    await waitSynchronized(c, 'resilient');
    const before = (await getMirror(c, 'resilient'))!;
    await api().delete({ ...CAPI, namespace: c.capiNamespace, name: 'resilient' });
    await eventually(async () => {
      const mirror = await getMirror(c, 'resilient');
      expect(mirror?.metadata.uid).to.be.a('string').and.not.equal(before.metadata.uid);
      expect(mirror?.metadata.deletionTimestamp).to.equal(undefined);
      const templates = await listTemplates(c);
      expect(templates).to.have.length(1);
      expect(templates[0]!.metadata.ownerReferences?.[0]?.uid).to.equal(mirror?.metadata.uid);
    });
    expect((await getMapi(c, 'resilient')).metadata.deletionTimestamp).to.equal(undefined);
  });

  it('never deletes a template it did not create', async () => {
    const c = await startTestController();
    await api().create(
      { ...AWS_TEMPLATES, namespace: c.capiNamespace },
      {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'AWSMachineTemplate',
        metadata: {
          name: 'hand-made',
          labels: { 'sync.machine.openshift.io/machine-set': 'keep' },
        },
        // with an AMI: OpenShift's AWS policy cannot evaluate a spec without one, and refuses it
        // once it is in effect (a moment after the controller's namespaces get it)
        spec: {
          template: { spec: { instanceType: 'm6i.large', ami: { id: 'ami-0123456789abcdef0' } } },
        },
      },
    );
    await createMapi(c, awsMachineSet('keep', c.mapiNamespace));
    await waitSynchronized(c, 'keep');
    await patchMapi(c, 'keep', [
      {
        op: 'replace',
        path: '/spec/template/spec/providerSpec/value/instanceType',
        value: 'c6i.large',
      },
    ]);
    await eventually(async () => {
      const names = (await listTemplates(c)).map((t) => t.metadata.name);
      expect(names).to.have.length(2);
      expect(names).to.include('hand-made');
    });
    await waitSynchronized(c, 'keep');
    expect((await listTemplates(c)).map((t) => t.metadata.name)).to.include('hand-made');
  });

  it('reports a change of the Infrastructure name (spec.clusterName is immutable) and recreates a deleted mirror for the new one', async () => {
    const c = await startTestController();
    try {
      await createMapi(c, awsMachineSet('renamed', c.mapiNamespace));
      await waitSynchronized(c, 'renamed');
      const before = (await getMirror(c, 'renamed'))!;
      await setInfrastructure({ ...DEFAULT_INFRASTRUCTURE, infrastructureName: 'demo-xyz99' });
      const reported = await waitCondition(c, 'renamed', 'False', 'FailedToUpdateCAPIMachineSet');
      expect(synchronized(reported)?.message).to.contain('spec.clusterName');
      expect((await getMirror(c, 'renamed'))?.spec.clusterName).to.equal('demo-abc12');
      expect((await getMirror(c, 'renamed'))?.metadata.generation).to.equal(
        before.metadata.generation,
      );
      // The way out the message names: delete the mirror; it comes back for the new cluster.
      await api().delete({ ...CAPI, namespace: c.capiNamespace, name: 'renamed' });
      await eventually(async () => {
        const mirror = await getMirror(c, 'renamed');
        expect(mirror?.spec.clusterName).to.equal('demo-xyz99');
        expect(mirror?.spec.template.spec.clusterName).to.equal('demo-xyz99');
      });
      await waitSynchronized(c, 'renamed');
    } finally {
      await setInfrastructure(DEFAULT_INFRASTRUCTURE);
    }
  });

  describe('bad input', () => {
    it('reports each bad MachineSet on its own condition and event, and keeps a healthy one in sync', async () => {
      const c = await startTestController();
      const ns = c.mapiNamespace;
      await createMapi(c, awsMachineSet('healthy', ns));

      // The MAPI CRD only checks that providerSpec.value is an object; its content is ours to judge.
      const malformed = awsMachineSet('malformed', ns);
      Object.assign(malformed.spec.template!.spec!.providerSpec!.value as object, {
        instanceType: 12345,
        blockDevices: 'not-a-list',
      });
      const otherPlatform = awsMachineSet('other-platform', ns);
      otherPlatform.spec.template!.spec!.providerSpec!.value = {
        apiVersion: 'machine.openshift.io/v1beta1',
        kind: 'GCPMachineProviderSpec',
        machineType: 'n2-standard-4',
      };
      const amiArn = awsMachineSet('ami-arn', ns);
      (amiArn.spec.template!.spec!.providerSpec!.value as { ami: object }).ami = {
        arn: 'arn:aws:ec2:us-east-1::image/ami-0abcdef1234567890',
      };
      // A real owner: the garbage collector deletes objects whose owner does not exist.
      const owner = await api().create<KubeObject>(
        { ...CONFIG_MAP, namespace: ns },
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'machine-set-owner' } },
      );
      const owned = awsMachineSet('foreign-owner', ns);
      owned.metadata.ownerReferences = [
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          name: 'machine-set-owner',
          uid: owner.metadata.uid!,
        },
      ];
      const noSelector = awsMachineSet('no-selector', ns);
      delete (noSelector.spec as { selector?: unknown }).selector;
      const noSpec = awsMachineSet('no-spec', ns);
      delete (noSpec as { spec?: unknown }).spec;
      const badOperator = awsMachineSet('bad-operator', ns);
      badOperator.spec.selector.matchExpressions = [
        { key: 'machine.openshift.io/cluster-api-machineset', operator: 'Near', values: ['x'] },
      ];
      const huge = awsMachineSet('huge-value', ns);
      (
        huge.spec.template!.spec!.providerSpec!.value as {
          blockDevices: { ebs: { volumeType: string } }[];
        }
      ).blockDevices[0]!.ebs.volumeType = 'gp3-'.repeat(100_000);
      // machine-api-operator's webhooks refuse most of these today (and default some of the
      // rest away): ones they never saw, as a cluster may hold.
      for (const bad of [
        malformed,
        otherPlatform,
        amiArn,
        owned,
        noSelector,
        noSpec,
        badOperator,
        huge,
      ]) {
        await createMapi(c, unadmitted(bad));
      }

      const expectations: [string, RegExp][] = [
        [
          'malformed',
          /providerSpec\.value\.instanceType.*providerSpec\.value\.blockDevices|providerSpec\.value\.blockDevices.*providerSpec\.value\.instanceType/,
        ],
        [
          'other-platform',
          /providerSpec\.value\.kind: is GCPMachineProviderSpec.*AWSMachineProviderConfig/,
        ],
        ['ami-arn', /providerSpec\.value\.ami/],
        ['foreign-owner', /metadata\.ownerReferences/],
        ['no-selector', /spec\.selector/],
        ['no-spec', /spec/],
        ['bad-operator', /spec\.selector\.matchExpressions\[0\]\.operator/],
        ['huge-value', /providerSpec\.value\.blockDevices\[0\]\.ebs\.volumeType/],
      ];
      for (const [name, pattern] of expectations) {
        const mapi = await waitCondition(c, name, 'False', 'FailedToConvertMAPIMachineSetToCAPI');
        expect(synchronized(mapi)?.severity).to.equal('Error');
        expect(synchronized(mapi)?.message).to.match(pattern);
        expect(synchronized(mapi)?.message?.length, `${name}: a bounded message`).to.be.below(2100);
        expect(await getMirror(c, name)).to.equal(undefined);
      }
      await eventually(async () => {
        const events = await namespaceEvents(ns);
        const failed = events.items.filter(
          (e) => e.reason === 'FailedToConvertMAPIMachineSetToCAPI',
        );
        expect(failed.map((e) => e.involvedObject.name).sort()).to.deep.equal(
          expectations.map(([name]) => name).sort(),
        );
      });
      await waitSynchronized(c, 'healthy');
    });

    it('mirrors a MachineSet whose name is 253 characters long', async () => {
      const c = await startTestController();
      const name = `${'a'.repeat(120)}.${'b'.repeat(132)}`;
      expect(name).to.have.length(253);
      await createMapi(c, awsMachineSet(name, c.mapiNamespace));
      await waitSynchronized(c, name);
      const [template] = await listTemplates(c);
      expect(template!.metadata.name.length).to.be.at.most(253);
      expect(template!.metadata.annotations?.[SOURCE_ANNOTATION]).to.equal(name);
      expect((await getMirror(c, name))?.spec.template.spec.infrastructureRef.name).to.equal(
        template!.metadata.name,
      );
    });

    it('reports an unsupported platform from the Infrastructure', async () => {
      try {
        await setInfrastructure({
          infrastructureName: 'demo-abc12',
          platform: 'BareMetal',
          platformStatus: { type: 'BareMetal' },
        });
        const c = await startTestController();
        await createMapi(c, awsMachineSet('on-metal', c.mapiNamespace));
        const mapi = await waitCondition(
          c,
          'on-metal',
          'False',
          'FailedToConvertMAPIMachineSetToCAPI',
        );
        expect(synchronized(mapi)?.message).to.contain('"BareMetal" has no Cluster API conversion');
      } finally {
        await setInfrastructure(DEFAULT_INFRASTRUCTURE);
      }
    });
  });
});
