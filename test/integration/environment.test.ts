// Proves the test environment is a real API server with the real CRDs, a real
// garbage collector and the real neighbouring controllers and webhooks (Cluster
// API, CAPA's webhooks, machine-api-operator): every assertion here fails against
// a fake.
import { expect } from 'chai';
import { isAlive } from '../environment/control-plane.js';
import { createCapiCluster } from '../support/capi-cluster.js';
import {
  adminObjects,
  controlPlane,
  controllerConfig,
  createLimitedIdentity,
  testNamespace,
  uniqueName,
} from '../support/cluster.js';
import { DEFAULT_INFRASTRUCTURE, setInfrastructure, unadmitted } from '../support/controller.js';
import { acknowledgeControllerDenials } from '../support/audit.js';
import { eventually } from '../support/eventually.js';
import { gcpFixture } from '../support/fixtures/gcp.js';
import { objectsFor } from '../support/kube-client.js';
import { CONTROLLER_GROUPS, CONTROLLER_USER } from '../environment/controller-rbac.js';
import {
  CONFIG_MAP,
  ROLE,
  ROLE_BINDING,
  SELF_SUBJECT_REVIEW,
} from '../../src/kube/builtin-resources.js';

const MAPI = { group: 'machine.openshift.io', version: 'v1beta1', plural: 'machinesets' };
const CAPI = { group: 'cluster.x-k8s.io', version: 'v1beta2', plural: 'machinesets' };
const MACHINES = { group: 'machine.openshift.io', version: 'v1beta1', plural: 'machines' };
const AWS_TEMPLATES = {
  group: 'infrastructure.cluster.x-k8s.io',
  version: 'v1beta2',
  plural: 'awsmachinetemplates',
};

/**
 * A MAPI MachineSet as a person may write it: an AWS providerSpec with only its AMI, the rest
 * left to machine-api-operator's defaulting webhook (the control plane's platform is AWS).
 */
function mapiMachineSet(name: string, providerSpec: object = { ami: { id: AMI } }): MapiBody {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    metadata: { name },
    spec: {
      replicas: 1,
      selector: { matchLabels: { 'machine.openshift.io/cluster-api-machineset': name } },
      template: {
        metadata: { labels: { 'machine.openshift.io/cluster-api-machineset': name } },
        spec: {
          providerSpec: {
            value: {
              apiVersion: 'machine.openshift.io/v1beta1',
              kind: 'AWSMachineProviderConfig',
              ...providerSpec,
            },
          },
        },
      },
    },
  };
}

const AMI = 'ami-0abcdef1234567890';

interface MapiBody {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec: {
    replicas?: number;
    template?: {
      metadata?: object;
      spec?: { providerSpec?: { value?: Record<string, unknown> } };
    };
  } & Record<string, unknown>;
}

function providerSpecOf(machineSet: object): Record<string, unknown> {
  return (machineSet as MapiBody).spec.template?.spec?.providerSpec?.value ?? {};
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
    const api = adminObjects();
    const name = uniqueName('ms');
    await api.create({ ...MAPI, namespace }, mapiMachineSet(name));
    const setStatus = (authoritativeAPI: string) =>
      api.patch(
        { ...MAPI, namespace, name },
        { type: 'json', operations: [{ op: 'add', path: '/status', value: { authoritativeAPI } }] },
        { subresource: 'status' },
      );

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
    const current = await api.get<{
      status: { authoritativeAPI: string };
    }>({ ...MAPI, namespace, name });
    expect(current.status.authoritativeAPI).to.equal('ClusterAPI');
  });

  it('rejects a CAPI v1beta2 MachineSet without spec.clusterName and accepts one with it', async () => {
    const namespace = await testNamespace('env');
    const api = adminObjects();
    const rejection: unknown = await api
      .create({ ...CAPI, namespace }, capiMachineSet(uniqueName('ms')))
      .then(
        () => new Error('expected the API server to reject a MachineSet without clusterName'),
        (err: unknown) => err,
      );
    expect(statusCode(rejection)).to.equal(422);
    expect(String((rejection as { body?: unknown }).body)).to.contain('spec.clusterName');

    const created = await api.create<{ metadata: { uid: string } }>(
      { ...CAPI, namespace },
      capiMachineSet(uniqueName('ms'), 'cluster-1'),
    );
    expect(created.metadata.uid).to.match(/^[0-9a-f-]{36}$/);
  });

  it('garbage-collects an object whose owner was deleted', async function () {
    this.timeout(120_000);
    const namespace = await testNamespace('env');
    const api = adminObjects();
    const owner = await api.create<{ metadata: { name: string; uid: string } }>(
      { ...CAPI, namespace },
      capiMachineSet(uniqueName('owner'), 'cluster-1'),
    );
    const templateName = uniqueName('template');
    await api.create(
      { ...AWS_TEMPLATES, namespace },
      {
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
    );

    await api.delete({ ...CAPI, namespace, name: owner.metadata.name });
    await eventually(
      async () => {
        const gone = await api.get({ ...AWS_TEMPLATES, namespace, name: templateName }).then(
          () => false,
          (err: unknown) => statusCode(err) === 404,
        );
        expect(gone, 'template still present').to.equal(true);
      },
      { timeoutMs: 90_000 },
    );
  });

  it('delivers ADDED and MODIFIED events to a list+watch through the object client', async () => {
    const namespace = await testNamespace('env');
    const api = adminObjects();
    const list = await api.list({ ...MAPI, namespace });
    expect(list.items).to.have.length(0);

    // machine-api-operator also writes to the MachineSet (its status, the Paused condition):
    // the events are told apart by spec.replicas
    const seen: string[] = [];
    const name = uniqueName('ms');
    const controller = await api.watch(
      { ...MAPI, namespace },
      { resourceVersion: list.metadata.resourceVersion, allowWatchBookmarks: true },
      (phase, obj: { metadata?: { name?: string }; spec?: { replicas?: number } }) => {
        if (obj.metadata?.name === name) seen.push(`${phase} ${obj.spec?.replicas}`);
      },
      () => undefined,
    );
    try {
      await api.create({ ...MAPI, namespace }, mapiMachineSet(name));
      await api.patch(
        { ...MAPI, namespace, name },
        { type: 'json', operations: [{ op: 'replace', path: '/spec/replicas', value: 3 }] },
      );
      // ADDED, then every change in order: none lost, none out of order
      await eventually(() =>
        expect(seen.join(',')).to.match(/^ADDED 1(,MODIFIED 1)*(,MODIFIED 3)+$/),
      );
    } finally {
      controller.abort();
    }
  });

  it('issues a non-admin identity that RBAC denies until it is granted', async () => {
    const namespace = await testNamespace('env');
    const { kubeConfig } = await createLimitedIdentity(namespace, 'limited');
    const api = objectsFor(kubeConfig);
    const denied: unknown = await api.list({ ...MAPI, namespace }).then(
      () => new Error('expected RBAC to deny the non-admin identity'),
      (err: unknown) => err,
    );
    expect(statusCode(denied)).to.equal(403);
  });

  it("runs OpenShift's admission plugins: blockOwnerDeletion needs update on the owner's finalizers (OwnerReferencesPermissionEnforcement)", async () => {
    const namespace = await testNamespace('env');
    const { username, kubeConfig } = await createLimitedIdentity(namespace, 'writer');
    const admin = adminObjects();
    const grant = async (name: string, resources: string[], verbs: string[]) => {
      await admin.create(
        { ...ROLE, namespace },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'Role',
          metadata: { name },
          rules: [{ apiGroups: [''], resources, verbs }],
        },
      );
      await admin.create(
        { ...ROLE_BINDING, namespace },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
          subjects: [{ kind: 'User', name: username }],
        },
      );
    };
    await grant('configmaps', ['configmaps'], ['create']);
    const owner = await admin.create<{ metadata: { uid: string } }>(
      { ...CONFIG_MAP, namespace },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner' } },
    );
    const api = objectsFor(kubeConfig);
    const dependent = (name: string, blockOwnerDeletion: boolean) =>
      api.create(
        { ...CONFIG_MAP, namespace },
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: {
            name,
            ownerReferences: [
              {
                apiVersion: 'v1',
                kind: 'ConfigMap',
                name: 'owner',
                uid: owner.metadata.uid,
                blockOwnerDeletion,
              },
            ],
          },
        },
      );
    // RBAC's authorizer sees the new binding a moment later
    await eventually(() => dependent('plain', false));
    const refused = await refusal(
      dependent('blocking', true),
      'blockOwnerDeletion without finalizers',
    );
    expect(refused.code).to.equal(403);
    expect(refused.body).to.contain('cannot set blockOwnerDeletion');
    await grant('finalizers', ['configmaps/finalizers'], ['update']);
    await eventually(() => dependent('blocking', true));
  });

  it('runs every controller of ours as its ServiceAccount with the RBAC of manifests/, never in system:masters', async () => {
    const mapiNamespace = await testNamespace('mapi');
    const other = await testNamespace('env');
    // one kubeconfig: startTestController's controllers (controllerConfig) and startProgram's
    // processes (KUBECONFIG) both read controlPlane().identityKubeconfigPaths['mapi-capi-sync']
    const api = objectsFor(controllerConfig());
    const review = await api.create<{
      status?: { userInfo?: { username?: string; groups?: string[] } };
    }>(SELF_SUBJECT_REVIEW, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
    });
    expect(review.status?.userInfo?.username).to.equal(CONTROLLER_USER);
    expect(review.status?.userInfo?.groups).to.have.members([
      ...CONTROLLER_GROUPS,
      'system:authenticated',
    ]);
    // the Machine API Role of manifests/ where a controller runs, nothing where none does
    await api.list({ ...MAPI, namespace: mapiNamespace });
    expect(
      statusCode(await api.list({ ...MAPI, namespace: other }).catch((err: unknown) => err)),
    ).to.equal(403);
    // refused on purpose: not a defect for the root hook to report
    await acknowledgeControllerDenials();
  });
});

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

interface Observed {
  metadata: {
    labels?: Record<string, string>;
    finalizers?: string[];
    managedFields?: { manager?: string; subresource?: string }[];
  };
  spec: { replicas?: number; clusterName?: string; template?: { spec?: object } };
  status?: { authoritativeAPI?: string; conditions?: Condition[] };
}

function condition(obj: Observed, type: string): Condition | undefined {
  return obj.status?.conditions?.find((c) => c.type === type);
}

async function refusal(
  write: Promise<unknown>,
  what: string,
): Promise<{ code?: number; body: string }> {
  const err: unknown = await write.then(
    () => new Error(`expected ${what} to be refused`),
    (e: unknown) => e,
  );
  return { code: statusCode(err), body: String((err as { body?: unknown }).body) };
}

describe('the neighbouring controllers and webhooks', () => {
  it('run next to the API server, built from the pinned upstream modules', () => {
    const plane = controlPlane();
    const versions = Object.fromEntries(plane.neighbours.map((n) => [n.name, n.version]));
    expect(versions).to.deep.equal({
      'cluster-api': 'v1.13.6',
      'cluster-api-provider-aws': 'v2.11.0',
      'cluster-api-provider-openstack': 'v0.14.2',
      'cluster-api-provider-gcp': 'v1.12.0',
      'cluster-api-provider-vsphere': 'v1.15.2',
      'machine-api-operator': 'v0.2.1-0.20260226113419-88465550a74b',
    });
    for (const neighbour of plane.neighbours) {
      const pid = plane.pids[neighbour.name];
      expect(pid, neighbour.name).to.be.a('number');
      expect(isAlive(pid!), `${neighbour.name} is alive`).to.equal(true);
    }
  });

  it('Cluster API puts its finalizer and Paused=True on a paused MachineSet, and nothing else', async function () {
    this.timeout(90_000);
    const namespace = await testNamespace('env');
    const cluster = await createCapiCluster(namespace);
    const api = adminObjects();
    const name = uniqueName('ms');
    const body = capiMachineSet(name, cluster.name) as { metadata: object; spec: object };
    await api.create(
      { ...CAPI, namespace },
      {
        ...body,
        metadata: { name, annotations: { 'cluster.x-k8s.io/paused': '' } },
        spec: { ...body.spec, replicas: 2 },
      },
    );

    const paused = await eventually(
      async () => {
        const ms = await api.get<Observed>({ ...CAPI, namespace, name });
        expect(ms.metadata.finalizers).to.include('cluster.x-k8s.io/machineset');
        expect(condition(ms, 'Paused')).to.include({ status: 'True' });
        return ms;
      },
      { timeoutMs: 60_000 },
    );
    // written by Cluster API's manager, not by anything in this test
    const statusWriters = (paused.metadata.managedFields ?? [])
      .filter((f) => f.subresource === 'status')
      .map((f) => f.manager);
    expect(statusWriters).to.deep.equal(['cluster-api']);
    // paused: two replicas wanted, no Machine created
    const machines = await api.list<unknown>({
      group: 'cluster.x-k8s.io',
      version: 'v1beta2',
      plural: 'machines',
      namespace,
    });
    expect(machines.items).to.have.length(0);
  });

  it('the Cluster API MachineSet webhook defaults the cluster-name label and replicas, and refuses a new spec.clusterName', async () => {
    const namespace = await testNamespace('env');
    const api = adminObjects();
    const name = uniqueName('ms');
    const created = await api.create<Observed>(
      { ...CAPI, namespace },
      capiMachineSet(name, 'cluster-1'),
    );
    expect(created.metadata.labels).to.include({ 'cluster.x-k8s.io/cluster-name': 'cluster-1' });
    expect(created.spec.replicas).to.equal(1);

    const refused = await refusal(
      api.patch(
        { ...CAPI, namespace, name },
        {
          type: 'json',
          operations: [
            { op: 'replace', path: '/spec/clusterName', value: 'cluster-2' },
            { op: 'replace', path: '/spec/template/spec/clusterName', value: 'cluster-2' },
          ],
        },
      ),
      'a change of spec.clusterName',
    );
    expect(refused.code).to.equal(422);
    expect(refused.body).to.contain('spec.clusterName: Forbidden: field is immutable');
  });

  it('the CAPA AWSMachineTemplate webhook refuses a spec update', async () => {
    const namespace = await testNamespace('env');
    const api = adminObjects();
    const name = uniqueName('template');
    await api.create(
      { ...AWS_TEMPLATES, namespace },
      {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'AWSMachineTemplate',
        metadata: { name },
        spec: { template: { spec: { instanceType: 'm6i.xlarge' } } },
      },
    );
    const refused = await refusal(
      api.patch(
        { ...AWS_TEMPLATES, namespace, name },
        {
          type: 'json',
          operations: [
            { op: 'replace', path: '/spec/template/spec/instanceType', value: 'm6i.2xlarge' },
          ],
        },
      ),
      'an AWSMachineTemplate spec update',
    );
    expect(refused.code).to.equal(422);
    expect(refused.body).to.contain('AWSMachineTemplate.Spec is immutable');

    // metadata stays writable
    await api.patch(
      { ...AWS_TEMPLATES, namespace, name },
      {
        type: 'json',
        operations: [{ op: 'add', path: '/metadata/labels', value: { touched: 'yes' } }],
      },
    );
  });

  for (const { kind, plural, version, spec, change, refusal: message } of [
    {
      kind: 'OpenStackMachineTemplate',
      plural: 'openstackmachinetemplates',
      version: 'v1beta1',
      spec: { flavor: 'm1.large', image: { filter: { name: 'rhcos' } } },
      change: { op: 'replace' as const, path: '/spec/template/spec/flavor', value: 'm1.xlarge' },
      refusal: 'OpenStackMachineTemplate spec.template.spec field is immutable',
    },
    {
      kind: 'GCPMachineTemplate',
      plural: 'gcpmachinetemplates',
      version: 'v1beta1',
      spec: { instanceType: 'n2-standard-4' },
      change: {
        op: 'replace' as const,
        path: '/spec/template/spec/instanceType',
        value: 'n2-standard-8',
      },
      refusal: 'spec: Forbidden: cannot be modified',
    },
  ]) {
    it(`the ${kind} webhook refuses a spec update`, async () => {
      const namespace = await testNamespace('env');
      const api = adminObjects();
      const resource = { group: 'infrastructure.cluster.x-k8s.io', version, plural };
      const name = uniqueName('template');
      await api.create(
        { ...resource, namespace },
        {
          apiVersion: `infrastructure.cluster.x-k8s.io/${version}`,
          kind,
          metadata: { name },
          spec: { template: { spec } },
        },
      );
      const refused = await refusal(
        api.patch({ ...resource, namespace, name }, { type: 'json', operations: [change] }),
        `a ${kind} spec update`,
      );
      expect(refused.code).to.equal(422);
      expect(refused.body).to.contain(message);
    });
  }

  it('machine-api-operator copies spec.authoritativeAPI into status and sets MAPI Paused from status.authoritativeAPI', async function () {
    this.timeout(90_000);
    const namespace = await testNamespace('env');
    const api = adminObjects();
    const name = uniqueName('ms');
    const body = mapiMachineSet(name);
    await api.create(
      { ...MAPI, namespace },
      { ...body, spec: { ...body.spec, replicas: 0, authoritativeAPI: 'ClusterAPI' } },
    );
    const get = async () => await api.get<Observed>({ ...MAPI, namespace, name });
    const pausedBecause = async (authoritativeAPI: string, status: string, reason: string) =>
      eventually(
        async () => {
          const ms = await get();
          expect(ms.status?.authoritativeAPI).to.equal(authoritativeAPI);
          expect(condition(ms, 'Paused'), `Paused with ${authoritativeAPI}`).to.include({
            status,
            reason,
          });
        },
        { timeoutMs: 30_000 },
      );
    const setAuthority = (authoritativeAPI: string) =>
      api.patch(
        { ...MAPI, namespace, name },
        {
          type: 'json',
          operations: [
            { op: 'replace', path: '/status/authoritativeAPI', value: authoritativeAPI },
          ],
        },
        { subresource: 'status' },
      );

    // empty status: spec copied into it, then paused
    await pausedBecause('ClusterAPI', 'True', 'AuthoritativeAPINotMachineAPI');
    await setAuthority('Migrating');
    await pausedBecause('Migrating', 'True', 'AuthoritativeAPINotMachineAPI');
    await setAuthority('MachineAPI');
    await pausedBecause('MachineAPI', 'False', 'AuthoritativeAPIMachineAPI');
  });

  describe('machine-api-operator’s admission webhooks', () => {
    after(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

    it('default a MachineSet a person creates, and refuse one without an AMI id with their own message', async () => {
      const namespace = await testNamespace('env');
      const api = adminObjects();
      const created = await api.create<object>(
        { ...MAPI, namespace },
        mapiMachineSet(uniqueName('ms')),
      );
      const defaulted = providerSpecOf(created);
      expect(defaulted.ami).to.deep.equal({ id: AMI });
      expect(defaulted.userDataSecret).to.deep.equal({ name: 'worker-user-data' });
      expect(defaulted.credentialsSecret).to.deep.equal({ name: 'aws-cloud-credentials' });
      // the region from the Infrastructure, an instance type for the control plane's architecture
      expect(defaulted.placement).to.deep.include({ region: 'us-east-1' });
      expect(defaulted.instanceType).to.be.a('string').and.not.equal('');

      const arn = { arn: `arn:aws:ec2:us-east-1::image/${AMI}` };
      const refused = await refusal(
        api.create({ ...MAPI, namespace }, mapiMachineSet(uniqueName('ms'), { ami: arn })),
        'a MachineSet whose AMI has no id',
      );
      expect(refused.code).to.equal(403);
      expect(refused.body).to.contain('validation.machineset.machine.openshift.io');
      expect(refused.body).to.contain('denied the request');
      expect(refused.body).to.contain('expected providerSpec.ami.id to be populated');

      // One the webhooks never saw is stored as given: neither defaulted nor refused.
      const unseen = await api.create<object>(
        { ...MAPI, namespace },
        unadmitted(mapiMachineSet(uniqueName('ms'), { ami: arn })),
      );
      expect(providerSpecOf(unseen)).to.deep.equal({
        apiVersion: 'machine.openshift.io/v1beta1',
        kind: 'AWSMachineProviderConfig',
        ami: arn,
      });
    });

    it('label a Machine with the cluster and default its providerSpec, and refuse an invalid one', async () => {
      const namespace = await testNamespace('env');
      const api = adminObjects();
      const machine = (name: string, providerSpec: object) => {
        const template = mapiMachineSet(name, providerSpec).spec.template!;
        return {
          apiVersion: 'machine.openshift.io/v1beta1',
          kind: 'Machine',
          metadata: { name },
          spec: template.spec,
        };
      };
      const created = await api.create<{ metadata: { labels?: Record<string, string> } }>(
        { ...MACHINES, namespace },
        machine(uniqueName('machine'), { ami: { id: AMI } }),
      );
      expect(created.metadata.labels).to.include({
        'machine.openshift.io/cluster-api-cluster': DEFAULT_INFRASTRUCTURE.infrastructureName,
      });
      expect(providerSpecOf({ spec: { template: created } })).to.include.keys(
        'userDataSecret',
        'credentialsSecret',
      );

      const refused = await refusal(
        api.create(
          { ...MACHINES, namespace },
          machine(uniqueName('machine'), { ami: { id: AMI }, placement: { tenancy: 'bad' } }),
        ),
        'a Machine with an unknown tenancy',
      );
      expect(refused.code).to.equal(403);
      expect(refused.body).to.contain('validation.machine.machine.openshift.io');
      expect(refused.body).to.contain('providerSpec.tenancy');
    });

    it('follow the Infrastructure: a switch of platform changes the defaults at once', async () => {
      const namespace = await testNamespace('env');
      const api = adminObjects();
      await setInfrastructure(gcpFixture.infrastructure);
      const body = gcpFixture.machineSet(uniqueName('ms'), namespace);
      delete providerSpecOf(body).credentialsSecret;
      const created = await api.create<object>({ ...MAPI, namespace }, body);
      expect(providerSpecOf(created).credentialsSecret).to.deep.equal({
        name: 'gcp-cloud-credentials',
      });

      await setInfrastructure(DEFAULT_INFRASTRUCTURE);
      const aws = await api.create<object>(
        { ...MAPI, namespace },
        mapiMachineSet(uniqueName('ms')),
      );
      expect(providerSpecOf(aws).credentialsSecret).to.deep.equal({
        name: 'aws-cloud-credentials',
      });
    });
  });
});
