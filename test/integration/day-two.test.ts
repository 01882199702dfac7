// What administrators do every day, next to the real neighbours, with the controller as its
// ServiceAccount: each operation ends with nothing lost and nothing stuck.
import { expect } from 'chai';
import type { MachineTemplate, MapiMachineSet } from '../../src/api/types.js';
import { SOURCE_ANNOTATION } from '../../src/model/markers.js';
import { adminObjects } from '../support/cluster.js';
import {
  AWS_TEMPLATES,
  awsMachineSet,
  CAPI,
  createMachineSet,
  DEFAULT_INFRASTRUCTURE,
  MAPI,
  setInfrastructure,
  startTestController,
} from '../support/controller.js';
import { eventually } from '../support/eventually.js';
import { createCapiCluster } from '../support/capi-cluster.js';
import { AWS_MACHINES } from '../support/machines.js';
import { mirrorTemplate } from '../support/machine-sets.js';
import { gcpFixture } from '../support/fixtures/gcp.js';

/** What `oc get -o yaml` of an object keeps once the server-set fields are dropped, renamed. */
function copyOf(object: MapiMachineSet, name: string): MapiMachineSet {
  const { uid, resourceVersion, creationTimestamp, generation, managedFields, ...metadata } =
    object.metadata as MapiMachineSet['metadata'] & Record<string, unknown>;
  void [uid, resourceVersion, creationTimestamp, generation, managedFields];
  const spec = structuredClone(object.spec);
  spec.selector = { matchLabels: { 'machine.openshift.io/cluster-api-machineset': name } };
  spec.template!.metadata = {
    labels: {
      ...spec.template!.metadata?.labels,
      'machine.openshift.io/cluster-api-machineset': name,
    },
  };
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    metadata: { ...metadata, name },
    spec,
  };
}

describe('day-2 operations', function () {
  this.timeout(180_000);

  before(async () => {
    await setInfrastructure(DEFAULT_INFRASTRUCTURE);
  });

  it('a MachineSet on ClusterAPI copied with oc get -o yaml and created under a new name is a new MachineSet, never deleted', async () => {
    const c = await startTestController();
    const api = adminObjects();
    const at = (name: string) => ({ ...MAPI, namespace: c.mapiNamespace, name });
    await createMachineSet(
      c.mapiNamespace,
      awsMachineSet('original', c.mapiNamespace, { replicas: 0 }),
      'ClusterAPI',
    );
    const original = await eventually(async () => {
      const mapi = await api.get<MapiMachineSet>(at('original'));
      expect(mapi.metadata.annotations).to.have.property(
        'sync.machine.openshift.io/cluster-api-uid',
      );
      return mapi;
    });

    // the copy carries the original's bookkeeping and finalizer
    const copy = copyOf(original, 'copy');
    expect(copy.metadata.annotations).to.have.property('sync.machine.openshift.io/cluster-api-uid');
    await createMachineSet(c.mapiNamespace, copy, 'ClusterAPI');
    const synchronized = await eventually(async () => {
      const mapi = await api.get<MapiMachineSet>(at('copy'));
      const condition = mapi.status?.conditions?.find((x) => x.type === 'Synchronized');
      expect(condition?.status, condition?.message).to.equal('True');
      return mapi;
    });
    expect(synchronized.metadata.deletionTimestamp).to.equal(undefined);
    const capi = await api.get<{ metadata: { uid: string } }>({
      ...CAPI,
      namespace: c.capiNamespace,
      name: 'copy',
    });
    expect(
      synchronized.metadata.annotations?.['sync.machine.openshift.io/cluster-api-uid'],
    ).to.equal(`${synchronized.metadata.uid}/${capi.metadata.uid}`);
    // and the original is untouched
    expect((await api.get<MapiMachineSet>(at('original'))).metadata.deletionTimestamp).to.equal(
      undefined,
    );
  });

  it('a copy of one of our templates (oc get -o yaml, renamed, created) is never deleted as ours', async () => {
    const c = await startTestController();
    const api = adminObjects();
    const templates = { ...AWS_TEMPLATES, namespace: c.capiNamespace };
    await createMachineSet(
      c.mapiNamespace,
      awsMachineSet('worker', c.mapiNamespace, { replicas: 0 }),
    );
    const ours = await eventually(async () => {
      const list = (await api.list<MachineTemplate>(templates)).items;
      expect(list).to.have.length(1);
      return list[0]!;
    });
    const { uid, resourceVersion, creationTimestamp, generation, managedFields, ...metadata } =
      ours.metadata as MachineTemplate['metadata'] & Record<string, unknown>;
    void [uid, resourceVersion, creationTimestamp, generation, managedFields];
    const copy = {
      apiVersion: ours.apiVersion,
      kind: ours.kind,
      metadata: { ...metadata, name: 'worker-gpu' },
      spec: ours.spec,
    };
    expect(copy.metadata.annotations).to.have.property(SOURCE_ANNOTATION, 'worker');
    await api.create(templates, copy);

    // a new spec: our template rotates, and the stale one of ours goes
    await api.patch(
      { ...MAPI, namespace: c.mapiNamespace, name: 'worker' },
      {
        type: 'json',
        operations: [
          {
            op: 'replace',
            path: '/spec/template/spec/providerSpec/value/instanceType',
            value: 'm6i.2xlarge',
          },
        ],
      },
    );
    await eventually(async () => {
      const names = (await api.list<MachineTemplate>(templates)).items.map((t) => t.metadata.name);
      expect(names, 'our old template is deleted').to.not.include(ours.metadata.name);
      expect(names).to.have.length(2);
    });
    const names = (await api.list<MachineTemplate>(templates)).items.map((t) => t.metadata.name);
    expect(names, 'the copy stays').to.include('worker-gpu');
  });
});

describe('scale from zero, next to Cluster API’s webhooks', function () {
  this.timeout(180_000);
  const CAPACITY = 'capacity.cluster-autoscaler.kubernetes.io/';

  before(async () => {
    await setInfrastructure(DEFAULT_INFRASTRUCTURE);
  });

  it('the autoscaler’s capacity annotations reach the other API in its spelling, both ways', async () => {
    const c = await startTestController();
    const api = adminObjects();
    const annotationsOf = async (where: typeof MAPI, namespace: string, name: string) =>
      (await api.get<MapiMachineSet>({ ...where, namespace, name })).metadata.annotations ?? {};

    // Machine API's provider wrote OpenShift's spelling: the mirror gets upstream's too
    const autoscaled = awsMachineSet('autoscaled', c.mapiNamespace, { replicas: 0 });
    autoscaled.metadata.annotations = {
      'machine.openshift.io/vCPU': '4',
      'machine.openshift.io/memoryMb': '16384',
      'machine.openshift.io/GPU': '0',
    };
    await createMachineSet(c.mapiNamespace, autoscaled);
    await eventually(async () => {
      expect(await annotationsOf(CAPI, c.capiNamespace, 'autoscaled')).to.include({
        'machine.openshift.io/vCPU': '4',
        [`${CAPACITY}cpu`]: '4',
        [`${CAPACITY}memory`]: '16384Mi',
        [`${CAPACITY}gpu-count`]: '0',
      });
    });
    expect(await annotationsOf(MAPI, c.mapiNamespace, 'autoscaled')).to.not.have.property(
      `${CAPACITY}cpu`,
    );

    // Cluster API authoritative, given upstream's spelling: the MAPI MachineSet gets OpenShift's
    await createMachineSet(
      c.mapiNamespace,
      awsMachineSet('capi-autoscaled', c.mapiNamespace, { replicas: 0 }),
      'ClusterAPI',
    );
    const capiAt = { ...CAPI, namespace: c.capiNamespace, name: 'capi-autoscaled' };
    await eventually(async () => expect(await api.get<object>(capiAt)).to.be.an('object'));
    await api.patch(capiAt, {
      type: 'merge',
      body: {
        metadata: { annotations: { [`${CAPACITY}memory`]: '8Gi', [`${CAPACITY}cpu`]: '2' } },
      },
    });
    await eventually(async () => {
      expect(await annotationsOf(MAPI, c.mapiNamespace, 'capi-autoscaled')).to.include({
        [`${CAPACITY}memory`]: '8Gi',
        'machine.openshift.io/memoryMb': '8192',
        [`${CAPACITY}cpu`]: '2',
        'machine.openshift.io/vCPU': '2',
      });
    });
  });
});

describe('the cluster’s tags on what Cluster API creates, next to Cluster API and CAPA’s webhooks', function () {
  this.timeout(180_000);
  const RESOURCE_TAGS = [
    { key: 'cost-center', value: '4242' },
    { key: 'team', value: 'everyone' },
  ];

  before(() =>
    setInfrastructure({
      ...DEFAULT_INFRASTRUCTURE,
      platformStatus: { type: 'AWS', aws: { region: 'us-east-1', resourceTags: RESOURCE_TAGS } },
    }),
  );
  after(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('an instance Cluster API creates after a migration is tagged as Machine API tags one; the MAPI side never shows the tags', async () => {
    const c = await startTestController();
    await createCapiCluster(c.capiNamespace);
    const api = adminObjects();
    const set = awsMachineSet('tagged', c.mapiNamespace, { replicas: 0 });
    const providerSpec = set.spec.template!.spec!.providerSpec!.value as Record<string, unknown>;
    providerSpec.tags = [{ name: 'team', value: 'ops' }];
    await createMachineSet(c.mapiNamespace, set);
    const wanted = { 'cost-center': '4242', team: 'ops' };
    await eventually(async () => {
      const template = await mirrorTemplate(c, 'tagged', AWS_TEMPLATES);
      expect(template.spec.template.spec.additionalTags).to.deep.equal(wanted);
    });

    await api.patch(
      { ...MAPI, namespace: c.mapiNamespace, name: 'tagged' },
      { type: 'merge', body: { spec: { authoritativeAPI: 'ClusterAPI' } } },
    );
    await eventually(async () => {
      const mapi = await api.get<MapiMachineSet>({
        ...MAPI,
        namespace: c.mapiNamespace,
        name: 'tagged',
      });
      expect(mapi.status?.authoritativeAPI).to.equal('ClusterAPI');
    });
    await api.patch(
      { ...CAPI, namespace: c.capiNamespace, name: 'tagged' },
      { type: 'merge', body: { spec: { replicas: 1 } } },
      { subresource: 'scale' },
    );
    // Cluster API makes the AWSMachine from the template: CAPA launches the instance with its
    // additionalTags (and the AWSCluster's, which OpenShift's has none of).
    await eventually(async () => {
      const machines = await api.list<{ spec: { additionalTags?: Record<string, string> } }>({
        ...AWS_MACHINES,
        namespace: c.capiNamespace,
      });
      expect(machines.items).to.have.length(1);
      expect(machines.items[0]!.spec.additionalTags).to.deep.equal(wanted);
    });
    await eventually(async () => {
      const mapi = await api.get<MapiMachineSet>({
        ...MAPI,
        namespace: c.mapiNamespace,
        name: 'tagged',
      });
      expect(mapi.spec.replicas, 'mirrored').to.equal(1);
      const value = mapi.spec.template!.spec!.providerSpec!.value as { tags?: unknown };
      expect(value.tags).to.deep.equal([{ name: 'team', value: 'ops' }]);
    });
  });
});

describe('the cluster’s labels and tags on GCP, next to Cluster API and CAPG’s webhooks', function () {
  this.timeout(180_000);
  const LABELS = [{ key: 'cost-center', value: 'c42' }];
  const TAGS = [{ parentID: '123456789012', key: 'env', value: 'prod' }];

  before(() =>
    setInfrastructure({
      ...gcpFixture.infrastructure,
      platformStatus: {
        type: 'GCP',
        gcp: {
          ...gcpFixture.infrastructure.platformStatus!.gcp,
          resourceLabels: LABELS,
          resourceTags: TAGS,
        },
      },
    }),
  );
  after(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('the template carries the labels; the migration waits until the MachineSet lists the resource tags', async () => {
    const c = await startTestController();
    await createCapiCluster(c.capiNamespace);
    const api = adminObjects();
    const at = { ...MAPI, namespace: c.mapiNamespace, name: 'gcp-worker' };
    await createMachineSet(c.mapiNamespace, gcpFixture.machineSet('gcp-worker', c.mapiNamespace));
    await eventually(async () => {
      const template = await mirrorTemplate(c, 'gcp-worker', gcpFixture.templates);
      expect(template.spec.template.spec.additionalLabels).to.deep.equal({
        'cost-center': 'c42',
        [`kubernetes-io-cluster-${gcpFixture.infrastructure.infrastructureName}`]: 'owned',
      });
    });

    await api.patch(at, { type: 'merge', body: { spec: { authoritativeAPI: 'ClusterAPI' } } });
    await eventually(async () => {
      const mapi = await api.get<MapiMachineSet>(at);
      const migration = mapi.status?.conditions?.find((c) => c.type === 'MigrationProgressing');
      expect(mapi.status?.authoritativeAPI).to.equal('MachineAPI');
      expect(migration).to.include({ status: 'True', reason: 'ProviderSpecIncomplete' });
      expect(migration?.message).to.include(
        'spec.template.spec.providerSpec.value.resourceManagerTags: lacks the Infrastructure',
      );
    });

    await api.patch(at, {
      type: 'json',
      operations: [
        {
          op: 'add',
          path: '/spec/template/spec/providerSpec/value/resourceManagerTags',
          value: TAGS,
        },
      ],
    });
    await eventually(async () => {
      const mapi = await api.get<MapiMachineSet>(at);
      expect(mapi.status?.authoritativeAPI, JSON.stringify(mapi.status)).to.equal('ClusterAPI');
    });
  });
});
