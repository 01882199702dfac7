// Cluster API Provider vSphere next to the API server
// (test/environment/neighbours/cluster-api-provider-vsphere): its admission webhooks judge
// VSphereMachineTemplates and VSphereMachines as in a cluster, and a stand-in for its
// VSphereMachine controller puts and takes that controller's finalizer by its rules. What a
// vSphere converter writes must pass both.
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { adminConfig, adminObjects, testNamespace, uniqueName } from '../support/cluster.js';
import { eventually } from '../support/eventually.js';
import { CAPI_MACHINES } from '../support/machines.js';
import { createAs, mergePatchAs } from '../support/requests.js';

const GROUP = 'infrastructure.cluster.x-k8s.io';
const VERSION = 'v1beta1';
const MACHINES = { group: GROUP, version: VERSION, plural: 'vspheremachines' };
/** CAPV's infrav1.MachineFinalizer. */
const FINALIZER = 'vspheremachine.infrastructure.cluster.x-k8s.io';
const PAUSED = 'cluster.x-k8s.io/paused';

/** What the CRD requires of a machine spec: the VM template to clone and one network device. */
const MINIMAL_SPEC = {
  template: 'rhcos-9.6-template',
  network: { devices: [{ networkName: 'VM Network' }] },
};

function template(namespace: string, spec: Record<string, unknown>) {
  return {
    apiVersion: `${GROUP}/${VERSION}`,
    kind: 'VSphereMachineTemplate',
    metadata: { name: uniqueName('template'), namespace },
    spec: { template: { spec: { ...MINIMAL_SPEC, ...spec } } },
  };
}

function machine(
  namespace: string,
  spec: Record<string, unknown> = {},
  metadata: Record<string, unknown> = {},
) {
  return {
    apiVersion: `${GROUP}/${VERSION}`,
    kind: 'VSphereMachine',
    metadata: { name: uniqueName('machine'), namespace, ...metadata },
    spec: { ...MINIMAL_SPEC, ...spec },
  };
}

const at = (o: { apiVersion: string; kind: string; metadata: { name: string } }, ns: string) => ({
  apiVersion: o.apiVersion,
  kind: o.kind,
  namespace: ns,
  name: o.metadata.name,
});

interface Stored {
  metadata: { finalizers?: string[]; uid: string };
  spec: Record<string, unknown>;
}

async function read(namespace: string, name: string): Promise<Stored | undefined> {
  return adminObjects()
    .get<Stored>({ ...MACHINES, namespace, name })
    .catch((err: { code?: number }) => {
      if (err.code === 404) return undefined;
      throw err;
    });
}

describe('Cluster API Provider vSphere: its webhooks and its VSphereMachine finalizer', function () {
  this.timeout(60_000);

  it('VSphereMachineTemplate: refuses what CAPV forbids in a template, admits a minimal one, and refuses any change of its spec', async () => {
    const namespace = await testNamespace('vsphere');
    const person = adminConfig();
    const refused = await createAs(
      person,
      template(namespace, {
        providerID: 'vsphere://42112f2c-7a44-4a0d-9e04-1dbd3c6c1a0e',
        hardwareVersion: 'vmx-latest',
      }),
    );
    expect(refused, 'admitted').to.be.a('string');
    expect(refused).to.contain(
      'admission webhook "validation.vspheremachinetemplate.infrastructure.cluster.x-k8s.io" denied the request',
    );
    expect(refused).to.contain(
      'spec.template.spec.providerID: Forbidden: cannot be set in templates',
    );
    expect(refused).to.contain('should be a valid VM hardware version, example vmx-17');
    const withAddresses = template(namespace, {
      network: { devices: [{ networkName: 'VM Network', ipAddrs: ['10.0.0.5/24'] }] },
    });
    expect(await createAs(person, withAddresses)).to.contain(
      'spec.template.spec.network.devices.ipAddrs: Forbidden: cannot be set in templates',
    );

    const minimal = template(namespace, {});
    expect(await createAs(person, minimal)).to.equal(undefined);
    const changed = await mergePatchAs(person, at(minimal, namespace), {
      spec: { template: { spec: { numCPUs: 8 } } },
    });
    expect(changed).to.contain(
      'VSphereMachineTemplate spec.template.spec field is immutable. Please create a new resource instead.',
    );
    const labelled = { metadata: { labels: { team: 'infra' } } };
    expect(await mergePatchAs(person, at(minimal, namespace), labelled)).to.equal(undefined);
  });

  it('VSphereMachine: defaults the datacenter, refuses addresses outside CIDR form, and refuses a change of its spec but for its providerID', async () => {
    const namespace = await testNamespace('vsphere');
    const person = adminConfig();
    const badAddress = machine(namespace, {
      network: { devices: [{ networkName: 'VM Network', ipAddrs: ['10.0.0.5'] }] },
    });
    const refused = await createAs(person, badAddress);
    expect(refused, 'admitted').to.be.a('string');
    expect(refused).to.contain('ip addresses should be in the CIDR format');

    const minimal = machine(namespace);
    expect(await createAs(person, minimal)).to.equal(undefined);
    const stored = await read(namespace, minimal.metadata.name);
    expect(stored?.spec.datacenter, 'defaulted by the mutating webhook').to.equal('*');

    const where = at(minimal, namespace);
    expect(await mergePatchAs(person, where, { spec: { numCPUs: 8 } })).to.contain(
      'spec: Forbidden: cannot be modified',
    );
    const providerID = 'vsphere://42112f2c-7a44-4a0d-9e04-1dbd3c6c1a0e';
    expect(await mergePatchAs(person, where, { spec: { providerID } })).to.equal(undefined);
  });

  it('puts the finalizer on a VSphereMachine first of all, paused and ownerless too, and takes it off a deleted one unless paused with its Machine', async () => {
    const namespace = await testNamespace('vsphere');
    const api = adminObjects();

    // CAPV adds its finalizer before it looks for the Machine or at the pause
    const ownerless = machine(namespace, {}, { annotations: { [PAUSED]: '' } });
    await api.create({ ...MACHINES, namespace }, ownerless);
    await eventually(async () =>
      expect((await read(namespace, ownerless.metadata.name))?.metadata.finalizers).to.deep.equal([
        FINALIZER,
      ]),
    );
    // without an owner Machine there is nothing to delete: the finalizer goes at once
    await api.delete({ ...MACHINES, namespace, name: ownerless.metadata.name });
    await eventually(async () =>
      expect(await read(namespace, ownerless.metadata.name)).to.equal(undefined),
    );

    // owned by a Machine (of no Cluster here), paused: kept while paused, then let go
    const owner = await api.create<{ metadata: { name: string; uid: string } }>(
      { ...CAPI_MACHINES, namespace },
      {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'Machine',
        metadata: { name: uniqueName('owner'), annotations: { [PAUSED]: '' } },
        spec: {
          clusterName: 'no-such-cluster',
          bootstrap: { dataSecretName: 'worker-user-data' },
          infrastructureRef: { apiGroup: GROUP, kind: 'VSphereMachine', name: 'owned' },
        },
      },
    );
    const owned = machine(
      namespace,
      {},
      {
        name: 'owned',
        annotations: { [PAUSED]: '' },
        ownerReferences: [
          {
            apiVersion: 'cluster.x-k8s.io/v1beta2',
            kind: 'Machine',
            name: owner.metadata.name,
            uid: owner.metadata.uid,
          },
        ],
      },
    );
    await api.create({ ...MACHINES, namespace }, owned);
    await eventually(async () =>
      expect((await read(namespace, 'owned'))?.metadata.finalizers).to.deep.equal([FINALIZER]),
    );
    await api.delete({ ...MACHINES, namespace, name: 'owned' });
    await sleep(3_000);
    expect((await read(namespace, 'owned'))?.metadata.finalizers, 'paused').to.deep.equal([
      FINALIZER,
    ]);
    await api.patch(
      { ...MACHINES, namespace, name: 'owned' },
      { type: 'merge', body: { metadata: { annotations: { [PAUSED]: null } } } },
    );
    await eventually(async () => expect(await read(namespace, 'owned')).to.equal(undefined));
  });
});
