// vSphere end to end, next to CAPV's webhooks, Cluster API and machine-api-operator: an
// installer-style worker MachineSet of two Machines is mirrored as CAPV accepts it, stays quiet
// once synchronized, and migrates to Cluster API and back with the same two machines.
import { expect } from 'chai';
import type { MapiCondition, MapiMachineSet } from '../../src/api/types.js';
import { vsphereConverter } from '../../src/conversion/vsphere/index.js';
import { PAUSED_ANNOTATION } from '../../src/model/markers.js';
import { createCapiCluster } from '../support/capi-cluster.js';
import { adminObjects } from '../support/cluster.js';
import {
  createMachineSet,
  DEFAULT_INFRASTRUCTURE,
  MAPI,
  setInfrastructure,
  startTestController,
  type TestController,
} from '../support/controller.js';
import { platformMachineSets, PROVIDER_SPEC_PATH, providerSpecOf } from '../support/conversion.js';
import { eventually } from '../support/eventually.js';
import { vsphereFixture } from '../support/fixtures/vsphere.js';
import { getCapi, getMapi, mirrorTemplate } from '../support/machine-sets.js';
import { capiMachines, mapiMachines, names, watchNames } from '../support/machines.js';
import { QUIET_WINDOW_MS, WriteLog, writesQuiet } from '../support/writes.js';

const WAIT = { timeoutMs: 90_000 };
const VSPHERE_MACHINES = {
  group: 'infrastructure.cluster.x-k8s.io',
  version: 'v1beta1',
  plural: 'vspheremachines',
};
const VSPHERE_CLUSTER = {
  resource: {
    group: 'infrastructure.cluster.x-k8s.io',
    version: 'v1beta1',
    plural: 'vsphereclusters',
  },
  kind: 'VSphereCluster',
  spec: { server: 'vcenter.demo.example.com' },
};
const CAPV_FINALIZER = vsphereConverter.machine!.finalizer;

interface VSphereMachine {
  metadata: {
    name: string;
    uid?: string;
    annotations?: Record<string, string>;
    finalizers?: string[];
  };
  spec: { providerID?: string };
}

const vsphereMachines = async (c: TestController) =>
  (await adminObjects().list<VSphereMachine>({ ...VSPHERE_MACHINES, namespace: c.capiNamespace }))
    .items;

const uids = (objects: { metadata: { name: string; uid?: string } }[]) =>
  Object.fromEntries(objects.map((o) => [o.metadata.name, o.metadata.uid]));

function condition(object: { status?: { conditions?: MapiCondition[] } }, type: string) {
  return object.status?.conditions?.find((c) => c.type === type);
}

/** The MachineSet 'fleet' and its Machines all on `authority` and synchronized. */
async function settledOn(c: TestController, authority: 'MachineAPI' | 'ClusterAPI') {
  return eventually(async () => {
    const set = (await getMapi(c, 'fleet'))!;
    const machines = await mapiMachines(c);
    const at = JSON.stringify({
      set: set.status,
      machines: machines.map((m) => [m.metadata.name, m.status?.conditions]),
    });
    expect(set.status?.authoritativeAPI, at).to.equal(authority);
    expect(condition(set, 'Synchronized'), at).to.include({ status: 'True' });
    expect(machines, at).to.have.length(2);
    for (const machine of machines) {
      expect(machine.status?.authoritativeAPI, at).to.equal(authority);
      expect(condition(machine, 'Synchronized'), at).to.include({ status: 'True' });
    }
  }, WAIT);
}

/** Each VSphereMachine provisioned, as CAPV reports it once its VM runs (no vCenter here). */
async function provisionVms(c: TestController) {
  for (const machine of await vsphereMachines(c)) {
    await adminObjects().patch(
      { ...VSPHERE_MACHINES, namespace: c.capiNamespace, name: machine.metadata.name },
      { type: 'merge', body: { status: { ready: true } } },
      { subresource: 'status' },
    );
  }
}

describe("vSphere, next to CAPV's webhooks, Cluster API and machine-api-operator", function () {
  this.timeout(600_000);
  before(() => setInfrastructure(vsphereFixture.infrastructure));
  after(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('an installer-style MachineSet of 2 Machines: mirrored as written, quiet, to ClusterAPI and back with the same machines', async () => {
    const writes = new WriteLog();
    const c = await startTestController({ onWrite: writes.record });
    await createCapiCluster(c.capiNamespace, { infrastructureCluster: VSPHERE_CLUSTER });
    const body: MapiMachineSet = vsphereFixture.machineSet('fleet', c.mapiNamespace);
    await createMachineSet(c.mapiNamespace, { ...body, spec: { ...body.spec, replicas: 2 } });

    // Mirrored: each Machine a paused CAPI Machine and VSphereMachine with the VM's identity.
    const mirrored = await eventually(async () => {
      const mapi = await mapiMachines(c);
      const capi = await capiMachines(c);
      const vsphere = await vsphereMachines(c);
      expect(mapi).to.have.length(2);
      for (const machine of mapi) {
        expect(condition(machine, 'Synchronized'), machine.metadata.name).to.include({
          status: 'True',
        });
      }
      expect(names(capi)).to.deep.equal(names(mapi));
      expect(names(vsphere)).to.deep.equal(names(mapi));
      for (const machine of mapi) {
        const mirror = vsphere.find((m) => m.metadata.name === machine.metadata.name)!;
        expect(machine.spec.providerID).to.match(/^vsphere:\/\//);
        expect(mirror.spec.providerID).to.equal(machine.spec.providerID);
        expect(mirror.metadata.annotations).to.have.property(PAUSED_ANNOTATION);
      }
      return { mapi, capi };
    }, WAIT);
    await settledOn(c, 'MachineAPI');
    const fleet = names(mirrored.mapi);
    const mapiUids = uids(mirrored.mapi);
    const capiUids = uids(mirrored.capi);

    // The template CAPV's webhooks admitted is what the converter wrote: nothing left for a
    // default to rewrite.
    const template = await mirrorTemplate(c, 'fleet', vsphereFixture.templates);
    const platform = platformMachineSets().find((p) => p.platform === 'VSphere')!;
    const converted = platform.converter.toCapi(providerSpecOf(platform.machineSet()), {
      infrastructure: platform.infrastructure,
      path: PROVIDER_SPEC_PATH,
      controlPlane: false,
    });
    if (!converted.ok) throw new Error(JSON.stringify(converted.errors));
    expect(template.spec.template.spec).to.deep.equal(converted.value.templateSpec);

    // Synchronized, nothing changing: not one write in the quiet window.
    await writesQuiet(writes, 5_000);
    writes.take();
    await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
    expect(writes.take().counts, 'writes on a synchronized vSphere fleet').to.deep.equal({});

    // To ClusterAPI: the same two machines, CAPV's VSphereMachines unpaused once it holds them.
    const there = watchNames(c);
    await adminObjects().patch(
      { ...MAPI, namespace: c.mapiNamespace, name: 'fleet' },
      {
        type: 'json',
        operations: [{ op: 'replace', path: '/spec/authoritativeAPI', value: 'ClusterAPI' }],
      },
    );
    await settledOn(c, 'ClusterAPI');
    await eventually(async () => {
      for (const machine of await vsphereMachines(c)) {
        expect(machine.metadata.finalizers).to.include(CAPV_FINALIZER);
        expect(machine.metadata.annotations ?? {}).to.not.have.property(PAUSED_ANNOTATION);
      }
      const capiSet = await getCapi(c, 'fleet');
      expect(capiSet?.metadata.annotations ?? {}).to.not.have.property(PAUSED_ANNOTATION);
    }, WAIT);
    await provisionVms(c);
    const seenThere = await there.stop();
    expect(seenThere).to.deep.equal({ mapi: fleet, capi: fleet });

    // Back to MachineAPI: still the same two machines, paused again on the Cluster API side.
    const back = watchNames(c);
    await adminObjects().patch(
      { ...MAPI, namespace: c.mapiNamespace, name: 'fleet' },
      {
        type: 'json',
        operations: [{ op: 'replace', path: '/spec/authoritativeAPI', value: 'MachineAPI' }],
      },
    );
    await settledOn(c, 'MachineAPI');
    await eventually(async () => {
      for (const machine of await vsphereMachines(c)) {
        expect(machine.metadata.annotations).to.have.property(PAUSED_ANNOTATION);
      }
    }, WAIT);
    expect(await back.stop()).to.deep.equal({ mapi: fleet, capi: fleet });
    expect(uids(await mapiMachines(c)), 'no MAPI Machine created or deleted').to.deep.equal(
      mapiUids,
    );
    expect(uids(await capiMachines(c)), 'no CAPI Machine created or deleted').to.deep.equal(
      capiUids,
    );
  });
});
