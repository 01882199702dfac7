// Machines mirrored next to machine-api-operator (MachineSet and Machine controllers, with a
// stand-in actuator) and Cluster API (MachineSet and Machine controllers and webhooks): a
// migration moves the machines a MachineSet has, and never creates or deletes one.
import { expect } from 'chai';
import type { MapiCondition } from '../../src/api/types.js';
import { AUTHORITY_ANNOTATION, PAUSED_ANNOTATION } from '../../src/sync/markers.js';
import { createCapiCluster } from '../support/capi-cluster.js';
import { eventually } from '../support/eventually.js';
import {
  awsMachineSet,
  createMachineSet,
  DEFAULT_INFRASTRUCTURE,
  setInfrastructure,
  startTestController,
  type TestController,
} from '../support/controller.js';
import { awsMachines, capiMachines, mapiMachines, names } from '../support/machines.js';

const WAIT = { timeoutMs: 90_000 };

function condition(object: { status?: { conditions?: MapiCondition[] } }, type: string) {
  return object.status?.conditions?.find((c) => c.type === type);
}

async function start(): Promise<TestController> {
  const c = await startTestController();
  await createCapiCluster(c.capiNamespace);
  return c;
}

/** Every MAPI Machine mirrored: a paused CAPI Machine and AWSMachine of the same name each. */
async function waitMirrored(c: TestController, count: number) {
  return eventually(async () => {
    const mapi = await mapiMachines(c);
    const capi = await capiMachines(c);
    const aws = await awsMachines(c);
    const at = JSON.stringify(mapi.map((m) => [m.metadata.name, m.status?.conditions]));
    expect(mapi, at).to.have.length(count);
    for (const machine of mapi) {
      expect(condition(machine, 'Synchronized'), at).to.include({ status: 'True' });
      expect(machine.status?.synchronizedGeneration, at).to.equal(machine.metadata.generation);
    }
    expect(names(capi)).to.deep.equal(names(mapi));
    expect(names(aws)).to.deep.equal(names(mapi));
    for (const machine of capi) {
      // Cluster API's own word that it leaves the mirror alone.
      expect(condition(machine, 'Paused'), 'CAPI Paused').to.include({ status: 'True' });
    }
    return { mapi, capi, aws };
  }, WAIT);
}

describe('Machines, next to machine-api-operator and Cluster API', function () {
  this.timeout(300_000);
  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('mirrors the Machines of a MachineSet as paused CAPI Machines and AWSMachines, with the instance identity', async () => {
    const c = await start();
    await createMachineSet(
      c.mapiNamespace,
      awsMachineSet('workers', c.mapiNamespace, { replicas: 2 }),
    );
    const { mapi, capi, aws } = await waitMirrored(c, 2);
    for (const machine of capi) {
      const source = mapi.find((m) => m.metadata.name === machine.metadata.name)!;
      expect(machine.metadata.annotations).to.include({
        [PAUSED_ANNOTATION]: 'true',
        [AUTHORITY_ANNOTATION]: 'MachineAPI',
      });
      expect(machine.metadata.ownerReferences?.[0]).to.include({
        kind: 'MachineSet',
        name: 'workers',
        controller: true,
      });
      expect(machine.spec.providerID).to.equal(source.spec.providerID);
      const infra = aws.find((m) => m.metadata.name === machine.metadata.name)!;
      expect(infra.spec.providerID).to.equal(source.spec.providerID);
      expect(infra.spec.instanceID).to.match(/^i-[0-9a-f]+$/);
      expect(infra.metadata.ownerReferences?.[0]).to.include({
        kind: 'Machine',
        uid: machine.metadata.uid,
      });
    }
  });
});
