// Proves the test environment is a real API server with the real CRDs and a
// real garbage collector: every assertion here fails against a fake.
import { expect } from 'chai';
import { CustomObjectsApi, Watch } from '@kubernetes/client-node';
import {
  adminConfig,
  createLimitedIdentity,
  testNamespace,
  uniqueName,
} from '../support/cluster.js';
import { eventually } from '../support/eventually.js';

const MAPI = { group: 'machine.openshift.io', version: 'v1beta1', plural: 'machinesets' };
const CAPI = { group: 'cluster.x-k8s.io', version: 'v1beta2', plural: 'machinesets' };
const AWS_TEMPLATES = {
  group: 'infrastructure.cluster.x-k8s.io',
  version: 'v1beta2',
  plural: 'awsmachinetemplates',
};

function mapiMachineSet(name: string): object {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    metadata: { name },
    spec: {
      replicas: 1,
      selector: { matchLabels: { 'machine.openshift.io/cluster-api-machineset': name } },
      template: {
        metadata: { labels: { 'machine.openshift.io/cluster-api-machineset': name } },
        spec: { providerSpec: {} },
      },
    },
  };
}

function capiMachineSet(name: string, clusterName?: string): object {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineSet',
    metadata: { name },
    spec: {
      ...(clusterName ? { clusterName } : {}),
      selector: { matchLabels: { set: name } },
      template: {
        metadata: { labels: { set: name } },
        spec: {
          clusterName: clusterName ?? 'missing',
          bootstrap: { dataSecretName: 'worker-user-data' },
          infrastructureRef: {
            apiGroup: 'infrastructure.cluster.x-k8s.io',
            kind: 'AWSMachineTemplate',
            name: `${name}-template`,
          },
        },
      },
    },
  };
}

function statusCode(err: unknown): number | undefined {
  return (err as { code?: number }).code;
}

describe('the test environment', () => {
  it('enforces the MAPI authoritativeAPI status transition rule (MachineAPI → ClusterAPI only through Migrating)', async () => {
    const namespace = await testNamespace('env');
    const api = adminConfig().makeApiClient(CustomObjectsApi);
    const name = uniqueName('ms');
    await api.createNamespacedCustomObject({ ...MAPI, namespace, body: mapiMachineSet(name) });
    const setStatus = (authoritativeAPI: string) =>
      api.patchNamespacedCustomObjectStatus({
        ...MAPI,
        namespace,
        name,
        body: [{ op: 'add', path: '/status', value: { authoritativeAPI } }],
      });

    await setStatus('MachineAPI');
    const rejection: unknown = await setStatus('ClusterAPI').then(
      () => new Error('expected the API server to reject MachineAPI → ClusterAPI'),
      (err: unknown) => err,
    );
    expect(statusCode(rejection)).to.equal(422);
    expect(String((rejection as { body?: unknown }).body)).to.contain(
      'must not transition directly',
    );

    await setStatus('Migrating');
    await setStatus('ClusterAPI');
    const current = (await api.getNamespacedCustomObject({ ...MAPI, namespace, name })) as {
      status: { authoritativeAPI: string };
    };
    expect(current.status.authoritativeAPI).to.equal('ClusterAPI');
  });

  it('rejects a CAPI v1beta2 MachineSet without spec.clusterName and accepts one with it', async () => {
    const namespace = await testNamespace('env');
    const api = adminConfig().makeApiClient(CustomObjectsApi);
    const rejection: unknown = await api
      .createNamespacedCustomObject({ ...CAPI, namespace, body: capiMachineSet(uniqueName('ms')) })
      .then(
        () => new Error('expected the API server to reject a MachineSet without clusterName'),
        (err: unknown) => err,
      );
    expect(statusCode(rejection)).to.equal(422);
    expect(String((rejection as { body?: unknown }).body)).to.contain('spec.clusterName');

    const created = (await api.createNamespacedCustomObject({
      ...CAPI,
      namespace,
      body: capiMachineSet(uniqueName('ms'), 'cluster-1'),
    })) as { metadata: { uid: string } };
    expect(created.metadata.uid).to.match(/^[0-9a-f-]{36}$/);
  });

  it('garbage-collects an object whose owner was deleted', async function () {
    this.timeout(120_000);
    const namespace = await testNamespace('env');
    const api = adminConfig().makeApiClient(CustomObjectsApi);
    const owner = (await api.createNamespacedCustomObject({
      ...CAPI,
      namespace,
      body: capiMachineSet(uniqueName('owner'), 'cluster-1'),
    })) as { metadata: { name: string; uid: string } };
    const templateName = uniqueName('template');
    await api.createNamespacedCustomObject({
      ...AWS_TEMPLATES,
      namespace,
      body: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'AWSMachineTemplate',
        metadata: {
          name: templateName,
          ownerReferences: [
            {
              apiVersion: 'cluster.x-k8s.io/v1beta2',
              kind: 'MachineSet',
              name: owner.metadata.name,
              uid: owner.metadata.uid,
            },
          ],
        },
        spec: { template: { spec: { instanceType: 'm6i.xlarge' } } },
      },
    });

    await api.deleteNamespacedCustomObject({ ...CAPI, namespace, name: owner.metadata.name });
    await eventually(
      async () => {
        const gone = await api
          .getNamespacedCustomObject({ ...AWS_TEMPLATES, namespace, name: templateName })
          .then(
            () => false,
            (err: unknown) => statusCode(err) === 404,
          );
        expect(gone, 'template still present').to.equal(true);
      },
      { timeoutMs: 90_000 },
    );
  });

  it('delivers ADDED and MODIFIED events to a list+watch through @kubernetes/client-node', async () => {
    const namespace = await testNamespace('env');
    const kc = adminConfig();
    const api = kc.makeApiClient(CustomObjectsApi);
    const list = (await api.listNamespacedCustomObject({ ...MAPI, namespace })) as {
      metadata: { resourceVersion: string };
      items: unknown[];
    };
    expect(list.items).to.have.length(0);

    const seen: string[] = [];
    const name = uniqueName('ms');
    const controller = await new Watch(kc).watch(
      `/apis/${MAPI.group}/${MAPI.version}/namespaces/${namespace}/${MAPI.plural}`,
      { resourceVersion: list.metadata.resourceVersion, allowWatchBookmarks: true },
      (phase, obj: { metadata?: { name?: string } }) => {
        if (obj.metadata?.name === name) seen.push(phase);
      },
      () => undefined,
    );
    try {
      await api.createNamespacedCustomObject({ ...MAPI, namespace, body: mapiMachineSet(name) });
      await api.patchNamespacedCustomObject({
        ...MAPI,
        namespace,
        name,
        body: [{ op: 'replace', path: '/spec/replicas', value: 3 }],
      });
      await eventually(() => expect(seen).to.deep.equal(['ADDED', 'MODIFIED']));
    } finally {
      controller.abort();
    }
  });

  it('issues a non-admin identity that RBAC denies until it is granted', async () => {
    const namespace = await testNamespace('env');
    const { kubeConfig } = await createLimitedIdentity(namespace, 'limited');
    const api = kubeConfig.makeApiClient(CustomObjectsApi);
    const denied: unknown = await api.listNamespacedCustomObject({ ...MAPI, namespace }).then(
      () => new Error('expected RBAC to deny the non-admin identity'),
      (err: unknown) => err,
    );
    expect(statusCode(denied)).to.equal(403);
  });
});
