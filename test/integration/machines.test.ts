// Machines mirrored next to machine-api-operator (MachineSet and Machine controllers, with a
// stand-in actuator) and Cluster API (MachineSet and Machine controllers and webhooks): a
// migration moves the machines a MachineSet has, and never creates or deletes one.
import { expect } from 'chai';
import type {
  InfrastructureMachine,
  JsonPatchOperation,
  KubeObject,
  MapiCondition,
} from '../../src/api/types.js';
import { AUTHORITY_ANNOTATION, PAUSED_ANNOTATION } from '../../src/model/markers.js';
import { createCapiCluster, provisionClusterInfrastructure } from '../support/capi-cluster.js';
import { namespaceEvents } from '../support/events.js';
import { eventually } from '../support/eventually.js';
import { getCapi, getMapi } from '../support/machine-sets.js';
import {
  awsMachineSet,
  CAPI,
  createMachineSet,
  DEFAULT_INFRASTRUCTURE,
  MAPI,
  setInfrastructure,
  startTestController,
  type TestController,
} from '../support/controller.js';
import {
  awsMachines,
  CAPI_MACHINES,
  capiMachines,
  MAPI_MACHINES,
  mapiMachines,
  names,
  provisionInfrastructure,
  watchNames,
} from '../support/machines.js';
import { adminObjects } from '../support/cluster.js';
import { openstackFixture } from '../support/fixtures/openstack.js';

const WAIT = { timeoutMs: 90_000 };
/** CAPA's finalizer, added once it has taken an AWSMachine in hand. */
const AWS_FINALIZER = 'awsmachine.infrastructure.cluster.x-k8s.io';

function condition(object: { status?: { conditions?: MapiCondition[] } }, type: string) {
  return object.status?.conditions?.find((c) => c.type === type);
}

async function start(
  options: Parameters<typeof startTestController>[0] = {},
): Promise<TestController> {
  const c = await startTestController(options);
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
    // Read until machine-api-operator's actuator has given each instance its providerID and the
    // mirrors carry it (the two sides are read one after the other).
    const { mapi, capi, aws } = await eventually(async () => {
      const seen = await waitMirrored(c, 2);
      for (const machine of [...seen.mapi, ...seen.capi, ...seen.aws]) {
        expect(machine.spec.providerID, machine.metadata.name).to.be.a('string');
      }
      return seen;
    }, WAIT);
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

async function patch(
  where: { group: string; version: string; plural: string },
  namespace: string,
  name: string,
  body: JsonPatchOperation[],
) {
  await adminObjects().patch({ ...where, namespace, name }, { type: 'json', operations: body });
}

/** The MachineSet and every one of its Machines settled on `authority`. */
async function waitAuthority(
  c: TestController,
  authority: 'MachineAPI' | 'ClusterAPI',
  count: number,
) {
  return eventually(async () => {
    const set = await getMapi(c, 'fleet');
    const capiSet = await getCapi(c, 'fleet');
    const machines = await mapiMachines(c);
    const at = JSON.stringify({
      set: set?.status,
      machines: machines.map((m) => [
        m.metadata.name,
        m.status?.authoritativeAPI,
        m.status?.conditions,
      ]),
    });
    expect(set?.status?.authoritativeAPI, at).to.equal(authority);
    expect(condition(set!, 'Synchronized'), at).to.include({ status: 'True' });
    expect(machines, at).to.have.length(count);
    for (const machine of machines) {
      expect(machine.status?.authoritativeAPI, at).to.equal(authority);
      expect(condition(machine, 'Synchronized'), at).to.include({ status: 'True' });
    }
    // The authoritative MachineSet's own controller counts the machines as its own.
    const replicas = authority === 'ClusterAPI' ? capiSet?.status : set?.status;
    expect(replicas?.replicas, JSON.stringify(replicas)).to.equal(count);
    return { set: set!, capiSet: capiSet!, machines };
  }, WAIT);
}

/**
 * Cluster API's MachineSet controller has reconciled the unpaused set (its Paused condition is
 * False: it was written by a reconcile after the unpause, the one that would create or delete a
 * machine, and writes the condition after), and its Machine controller each of the `count`
 * machines.
 */
async function waitClusterApiInCharge(c: TestController, count: number): Promise<void> {
  await eventually(async () => {
    const set = await getCapi(c, 'fleet');
    expect(condition(set!, 'Paused'), 'the CAPI MachineSet').to.include({ status: 'False' });
    const machines = await capiMachines(c);
    expect(machines).to.have.length(count);
    for (const machine of machines) {
      expect(condition(machine, 'Paused'), machine.metadata.name).to.include({ status: 'False' });
    }
  }, WAIT);
}

/**
 * machine-api-operator's MachineSet controller has reconciled the set as its authority (Paused
 * False, then the replicas synced, then `observedGeneration` at the generation of the authority's
 * change, in that order), and its Machine controller each of the `count` machines.
 */
async function waitMachineApiInCharge(c: TestController, count: number): Promise<void> {
  await eventually(async () => {
    const set = await getMapi(c, 'fleet');
    expect(condition(set!, 'Paused'), 'the MAPI MachineSet').to.include({ status: 'False' });
    expect(set!.status?.observedGeneration, 'observedGeneration').to.equal(
      set!.metadata.generation,
    );
    const machines = await mapiMachines(c);
    expect(machines).to.have.length(count);
    for (const machine of machines) {
      expect(condition(machine, 'Paused'), machine.metadata.name).to.include({ status: 'False' });
    }
  }, WAIT);
}

describe('a migration moves the machines a MachineSet has', function () {
  this.timeout(600_000);
  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('3 Machines migrate to ClusterAPI and back without one created or deleted; scaling on CAPI is mirrored', async () => {
    const c = await start();
    await createMachineSet(
      c.mapiNamespace,
      awsMachineSet('fleet', c.mapiNamespace, { replicas: 3 }),
    );
    const before = await waitMirrored(c, 3);
    await waitAuthority(c, 'MachineAPI', 3);
    const fleet = names(before.mapi);

    // To ClusterAPI, watched until Cluster API's controllers have taken the set and each machine
    // in hand: the same three machines on both sides.
    const watching = watchNames(c);
    await patch(MAPI, c.mapiNamespace, 'fleet', [
      { op: 'replace', path: '/spec/authoritativeAPI', value: 'ClusterAPI' },
    ]);
    const migrated = await waitAuthority(c, 'ClusterAPI', 3);
    expect(migrated.capiSet.metadata.annotations).not.to.have.property(PAUSED_ANNOTATION);
    for (const machine of await capiMachines(c)) {
      expect(machine.metadata.annotations ?? {}).not.to.have.property(PAUSED_ANNOTATION);
    }
    await waitClusterApiInCharge(c, 3);
    const seen = await watching.stop();
    expect(seen.mapi, 'MAPI Machines ever seen').to.deep.equal(fleet);
    expect(seen.capi, 'CAPI Machines ever seen').to.deep.equal(fleet);
    expect(names(await mapiMachines(c))).to.deep.equal(fleet);
    expect(names(await capiMachines(c))).to.deep.equal(fleet);

    // Scaling up on Cluster API: one new machine, mirrored to MAPI under ClusterAPI.
    await patch(CAPI, c.capiNamespace, 'fleet', [
      { op: 'replace', path: '/spec/replicas', value: 4 },
    ]);
    const grown = await eventually(async () => {
      const mapi = await mapiMachines(c);
      const capi = await capiMachines(c);
      expect(names(capi)).to.have.length(4);
      expect(names(mapi)).to.deep.equal(names(capi));
      const added = mapi.find((m) => !fleet.includes(m.metadata.name))!;
      expect(added.spec.authoritativeAPI).to.equal('ClusterAPI');
      expect(added.status?.authoritativeAPI).to.equal('ClusterAPI');
      expect(condition(added, 'Synchronized')).to.include({ status: 'True' });
      return names(capi);
    }, WAIT);

    // Scaling down: two machines go on both sides, nothing stays Terminating.
    await patch(CAPI, c.capiNamespace, 'fleet', [
      { op: 'replace', path: '/spec/replicas', value: 2 },
    ]);
    const shrunk = await eventually(async () => {
      const mapi = await mapiMachines(c);
      const capi = await capiMachines(c);
      expect(names(capi), JSON.stringify(capi.map((m) => m.metadata))).to.have.length(2);
      expect(names(mapi), JSON.stringify(mapi.map((m) => m.metadata))).to.deep.equal(names(capi));
      expect(names(await awsMachines(c))).to.deep.equal(names(capi));
      return names(capi);
    }, WAIT);
    expect(grown).to.include.members(shrunk);

    // No provider controller runs here: an instance Cluster API asked for is never reported, and
    // its Machine stays Provisioning, whose authority OpenShift's policy lets nobody move (the
    // migration back would wait, saying so). CAPA would report it: so does the test.
    await provisionInfrastructure(c.capiNamespace, shrunk);
    await eventually(async () => {
      for (const machine of await mapiMachines(c)) {
        expect(machine.status?.phase, machine.metadata.name).to.not.equal('Provisioning');
      }
    }, WAIT);

    // Back to MachineAPI: the same two machines, none created or deleted.
    const back = watchNames(c);
    await patch(MAPI, c.mapiNamespace, 'fleet', [
      { op: 'replace', path: '/spec/authoritativeAPI', value: 'MachineAPI' },
    ]);
    await waitAuthority(c, 'MachineAPI', 2);
    await waitMachineApiInCharge(c, 2);
    const seenBack = await back.stop();
    expect(seenBack.mapi).to.deep.equal(shrunk);
    expect(seenBack.capi).to.deep.equal(shrunk);
    for (const machine of await capiMachines(c)) {
      expect(machine.metadata.annotations).to.include({ [PAUSED_ANNOTATION]: 'true' });
    }
  });
});

async function deleteOne(where: typeof MAPI, namespace: string, name: string) {
  await adminObjects().delete({ ...where, namespace, name });
}

/**
 * `oc delete --cascade=foreground`: the MachineSet stays until the garbage collector has deleted
 * its Machines, so they go with it rather than being adopted by the MachineSet created again.
 */
async function deleteWithMachines(where: typeof MAPI, namespace: string, name: string) {
  await adminObjects().delete({ ...where, namespace, name }, { propagationPolicy: 'Foreground' });
}

const uidOf = (objects: { metadata: { name: string; uid?: string } }[], name: string) =>
  objects.find((o) => o.metadata.name === name)?.metadata.uid;

/** A MachineSet 'fleet' of 2 Machines, mirrored, at `authority`; returns its first Machine's name. */
async function fleetAt(c: TestController, authority: 'MachineAPI' | 'ClusterAPI') {
  await createMachineSet(c.mapiNamespace, awsMachineSet('fleet', c.mapiNamespace, { replicas: 2 }));
  const { mapi } = await waitMirrored(c, 2);
  if (authority === 'ClusterAPI') {
    await patch(MAPI, c.mapiNamespace, 'fleet', [
      { op: 'replace', path: '/spec/authoritativeAPI', value: 'ClusterAPI' },
    ]);
  }
  await waitAuthority(c, authority, 2);
  return names(mapi)[0]!;
}

describe('deleting one Machine, row by row of the deletion table', function () {
  this.timeout(300_000);
  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('MachineAPI, the MAPI Machine deleted: its mirror and AWSMachine go, its replacement is mirrored', async () => {
    const c = await start();
    const victim = await fleetAt(c, 'MachineAPI');
    await deleteOne(MAPI_MACHINES, c.mapiNamespace, victim);
    await eventually(async () => {
      expect(names(await mapiMachines(c))).to.not.include(victim);
      expect(names(await capiMachines(c))).to.not.include(victim);
      expect(names(await awsMachines(c))).to.not.include(victim);
    }, WAIT);
    const { mapi } = await waitMirrored(c, 2);
    expect(names(mapi)).to.not.include(victim);
  });

  it('MachineAPI, the MAPI Machine deleted: its mirror and AWSMachine stay as they are until machine-api-operator has deleted it', async () => {
    const c = await start();
    const victim = await fleetAt(c, 'MachineAPI');
    const uids = async () => [
      uidOf(await capiMachines(c), victim),
      uidOf(await awsMachines(c), victim),
    ];
    const before = await uids();
    expect(before.every((uid) => typeof uid === 'string')).to.equal(true);
    // machine-api-operator drains the node, then waits for the pre-terminate hook to go
    const hook = { name: 'hold', owner: 'machines-test' };
    await patch(MAPI_MACHINES, c.mapiNamespace, victim, [
      { op: 'add', path: '/spec/lifecycleHooks/preTerminate', value: [hook] },
    ]);
    await deleteOne(MAPI_MACHINES, c.mapiNamespace, victim);
    const held = await eventually(async () => {
      const machine = (await mapiMachines(c)).find((m) => m.metadata.name === victim);
      expect(machine?.status?.phase).to.equal('Deleting');
      return machine!;
    }, WAIT);
    expect(held.metadata.finalizers).to.include('machine.machine.openshift.io');
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(await uids(), 'the same CAPI Machine and AWSMachine').to.deep.equal(before);
    const mirror = (await capiMachines(c)).find((m) => m.metadata.name === victim);
    const aws = (await awsMachines(c)).find((m) => m.metadata.name === victim);
    expect(mirror?.metadata.deletionTimestamp, 'the CAPI Machine is not deleted').to.equal(
      undefined,
    );
    expect(aws?.metadata.deletionTimestamp, 'the AWSMachine is not deleted').to.equal(undefined);

    await patch(MAPI_MACHINES, c.mapiNamespace, victim, [
      { op: 'remove', path: '/spec/lifecycleHooks/preTerminate' },
    ]);
    await eventually(async () => {
      expect(names(await mapiMachines(c))).to.not.include(victim);
      expect(names(await capiMachines(c))).to.not.include(victim);
      expect(names(await awsMachines(c))).to.not.include(victim);
      await expectNothingTerminating(c);
    }, WAIT);
  });

  it('MachineAPI, the CAPI Machine deleted (a person, a remediation): Machine API deletes the machine; its replacement is mirrored', async () => {
    const c = await start();
    const victim = await fleetAt(c, 'MachineAPI');
    await deleteOne(CAPI_MACHINES, c.capiNamespace, victim);
    // machine-api-operator's MachineSet replaces it, and the replacement is mirrored
    await replaced(c, victim, 'MachineAPI');
  });

  it('ClusterAPI, the CAPI Machine deleted: its MAPI mirror follows; the replacement is mirrored under ClusterAPI', async () => {
    const c = await start();
    const victim = await fleetAt(c, 'ClusterAPI');
    await deleteOne(CAPI_MACHINES, c.capiNamespace, victim);
    await replaced(c, victim, 'ClusterAPI');
  });

  it('ClusterAPI, the MAPI Machine deleted (a person, a remediation): Cluster API deletes the machine; the replacement is mirrored under ClusterAPI', async () => {
    const c = await start();
    const victim = await fleetAt(c, 'ClusterAPI');
    await deleteOne(MAPI_MACHINES, c.mapiNamespace, victim);
    await replaced(c, victim, 'ClusterAPI');
  });

  it('a cascade is not a deletion of one machine: the paused CAPI MachineSet deleted under MachineAPI takes its CAPI Machines along, and the MAPI machines stay', async () => {
    const c = await start();
    await fleetAt(c, 'MachineAPI');
    const before = await mapiMachines(c);
    const capiBefore = (await capiMachines(c)).map((m) => m.metadata.uid);
    await deleteWithMachines(CAPI, c.capiNamespace, 'fleet');
    // the garbage collector deletes the paused CAPI Machines; each is created again
    await eventually(async () => {
      expect((await getCapi(c, 'fleet'))?.metadata.deletionTimestamp).to.equal(undefined);
      const capi = await capiMachines(c);
      expect(names(capi)).to.deep.equal(names(before));
      expect(capi.filter((m) => capiBefore.includes(m.metadata.uid))).to.deep.equal([]);
    }, WAIT);
    const { mapi } = await waitMirrored(c, 2);
    expect(mapi.map((m) => m.metadata.uid)).to.have.members(before.map((m) => m.metadata.uid));
    await expectNothingTerminating(c);
  });
});

/**
 * `victim` is gone on both sides and replaced by its MachineSet under `authority`: two Machines
 * mirrored again, nothing Terminating.
 */
async function replaced(c: TestController, victim: string, authority: 'MachineAPI' | 'ClusterAPI') {
  await eventually(async () => {
    const mapi = await mapiMachines(c);
    const capi = await capiMachines(c);
    const at = JSON.stringify(mapi.map((m) => [m.metadata.name, m.metadata.deletionTimestamp]));
    expect(names(capi), at).to.not.include(victim);
    expect(names(capi), at).to.have.length(2);
    expect(names(mapi), at).to.deep.equal(names(capi));
    expect(names(await awsMachines(c)), at).to.deep.equal(names(capi));
  }, WAIT);
  if (authority === 'MachineAPI') await waitMirrored(c, 2);
  else await waitAuthority(c, 'ClusterAPI', 2);
  await expectNothingTerminating(c);
}

/** The MachineSet 'fleet' is gone on both sides, with every Machine and AWSMachine. */
async function fleetGone(c: TestController) {
  await eventually(async () => {
    const state = JSON.stringify({
      mapi: (await getMapi(c, 'fleet'))?.status,
      capi: (await getCapi(c, 'fleet'))?.metadata,
      mapiMachines: (await mapiMachines(c)).map((m) => [m.metadata, m.status]),
      capiMachines: (await capiMachines(c)).map((m) => m.metadata),
    });
    expect(await getMapi(c, 'fleet'), state).to.equal(undefined);
    expect(await getCapi(c, 'fleet'), state).to.equal(undefined);
    expect(names(await mapiMachines(c)), state).to.deep.equal([]);
    expect(names(await capiMachines(c)), state).to.deep.equal([]);
    expect(names(await awsMachines(c)), state).to.deep.equal([]);
  }, WAIT);
}

/** Every object of every kind named, on both sides, none being deleted. */
async function expectNothingTerminating(c: TestController) {
  const all = [...(await mapiMachines(c)), ...(await capiMachines(c)), ...(await awsMachines(c))];
  const terminating = all.filter((o) => o.metadata.deletionTimestamp !== undefined);
  expect(
    terminating.map((o) => `${o.kind} ${o.metadata.name} ${JSON.stringify(o.metadata.finalizers)}`),
  ).to.deep.equal([]);
}

describe('a round trip through Cluster API, and a deletion during one', function () {
  this.timeout(600_000);
  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  // Cluster API Provider AWS adds this finalizer when it first reconciles an unpaused AWSMachine
  // and never removes it from a paused one (in the local control plane, its stand-in does).

  it('MachineAPI → ClusterAPI → MachineAPI, then a scale-down: the machine goes on both sides, its AWSMachine too', async () => {
    const c = await start();
    await fleetAt(c, 'ClusterAPI');
    for (const aws of await awsMachines(c)) {
      expect(aws.metadata.finalizers, 'CAPA took it in hand').to.include(AWS_FINALIZER);
    }
    await patch(MAPI, c.mapiNamespace, 'fleet', [
      { op: 'replace', path: '/spec/authoritativeAPI', value: 'MachineAPI' },
    ]);
    await waitAuthority(c, 'MachineAPI', 2);
    for (const aws of await awsMachines(c)) {
      expect(aws.metadata.finalizers, 'still there after the round trip').to.include(AWS_FINALIZER);
    }

    await patch(MAPI, c.mapiNamespace, 'fleet', [
      { op: 'replace', path: '/spec/replicas', value: 1 },
    ]);
    await eventually(async () => {
      const mapi = names(await mapiMachines(c));
      expect(mapi).to.have.length(1);
      expect(names(await capiMachines(c))).to.deep.equal(mapi);
      expect(names(await awsMachines(c))).to.deep.equal(mapi);
      await expectNothingTerminating(c);
    }, WAIT);
  });

  it('ClusterAPI → MachineAPI, a CAPI Machine deleted mid-hand-over: that machine goes, nothing stays Terminating', async () => {
    const deleting: Promise<unknown>[] = [];
    const victim: { name?: string; controller?: TestController } = {};
    const c = await start({
      onWrite: (w) => {
        const { controller, name } = victim;
        if (
          controller &&
          w.note === 'pausing the CAPI machine' &&
          w.object.metadata.name === name
        ) {
          deleting.push(deleteOne(CAPI_MACHINES, controller.capiNamespace, name));
          victim.controller = undefined; // once
        }
      },
    });
    victim.name = await fleetAt(c, 'ClusterAPI');
    victim.controller = c;
    await patch(MAPI, c.mapiNamespace, 'fleet', [
      { op: 'replace', path: '/spec/authoritativeAPI', value: 'MachineAPI' },
    ]);
    await eventually(() => expect(deleting).to.have.length(1), WAIT);
    await Promise.all(deleting);
    const { machines } = await waitAuthority(c, 'MachineAPI', 2);
    expect(names(machines)).to.not.include(victim.name);
    // Cluster API finishes the deletion it was asked for (in its own time).
    await eventually(async () => {
      expect(names(await capiMachines(c))).to.not.include(victim.name);
      expect(names(await awsMachines(c))).to.not.include(victim.name);
      await expectNothingTerminating(c);
    }, WAIT);
  });
});

describe('the CAPI MachineSet deleted while its MachineSet migrates back', function () {
  this.timeout(300_000);
  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  // The write after which the person deletes the CAPI MachineSet, on the MachineSet or a Machine.
  const moments: [string, string, string][] = [
    [
      'MachineSet',
      'entering Migrating (ClusterAPI → MachineAPI)',
      'as the MachineSet enters Migrating',
    ],
    ['MachineSet', 'pausing the CAPI machine set', 'once the CAPI MachineSet is paused'],
    [
      'Machine',
      'entering Migrating (ClusterAPI → MachineAPI)',
      'as the first Machine enters Migrating',
    ],
  ];
  for (const [kind, note, when] of moments) {
    it(`${when}: the deletion wins, Cluster API deletes the machines, nothing stays paused or Terminating`, async () => {
      const deleting: Promise<unknown>[] = [];
      const armed: { controller?: TestController } = {};
      const c = await start({
        onWrite: (w) => {
          const { controller } = armed;
          if (controller && w.note === note && w.object.kind === kind) {
            deleting.push(deleteOne(CAPI, controller.capiNamespace, 'fleet'));
            armed.controller = undefined; // once
          }
        },
      });
      await fleetAt(c, 'ClusterAPI');
      armed.controller = c;
      await patch(MAPI, c.mapiNamespace, 'fleet', [
        { op: 'replace', path: '/spec/authoritativeAPI', value: 'MachineAPI' },
      ]);
      await eventually(() => expect(deleting).to.have.length(1), WAIT);
      await Promise.all(deleting);
      await fleetGone(c);
    });
  }
});

describe('the MAPI MachineSet deleted while it migrates to ClusterAPI', function () {
  this.timeout(300_000);
  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('the migration stops, Machine API deletes the machines, nothing stays paused or Terminating', async () => {
    const deleting: Promise<unknown>[] = [];
    const armed: { controller?: TestController } = {};
    const c = await start({
      onWrite: (w) => {
        const { controller } = armed;
        if (
          controller &&
          w.object.kind === 'MachineSet' &&
          w.note === 'entering Migrating (MachineAPI → ClusterAPI)'
        ) {
          deleting.push(deleteOne(MAPI, controller.mapiNamespace, 'fleet'));
          armed.controller = undefined; // once
        }
      },
    });
    await fleetAt(c, 'MachineAPI');
    armed.controller = c;
    await patch(MAPI, c.mapiNamespace, 'fleet', [
      { op: 'replace', path: '/spec/authoritativeAPI', value: 'ClusterAPI' },
    ]);
    await eventually(() => expect(deleting).to.have.length(1), WAIT);
    await Promise.all(deleting);
    await fleetGone(c);
  });
});

describe("a MachineHealthCheck's remediation (machine-api-operator's, whatever the authority)", function () {
  this.timeout(300_000);
  const NODES = { group: '', version: 'v1', plural: 'nodes' };
  const HEALTH_CHECKS = {
    group: 'machine.openshift.io',
    version: 'v1beta1',
    plural: 'machinehealthchecks',
  };
  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  /** A Node for the instance `providerID`, NotReady for an hour: the kubelet stopped reporting. */
  async function unhealthyNode(name: string, providerID: string): Promise<void> {
    const api = adminObjects();
    await api.create(NODES, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name },
      spec: { providerID },
    });
    const anHourAgo = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const ready = {
      type: 'Ready',
      status: 'False',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      lastTransitionTime: anHourAgo,
      lastHeartbeatTime: anHourAgo,
    };
    await api.patch(
      { ...NODES, name },
      { type: 'merge', body: { status: { conditions: [ready] } } },
      { subresource: 'status' },
    );
  }

  /** machine-api-operator's MachineHealthCheck over the fleet's Machines: NotReady for 1 s is unhealthy. */
  async function healthCheck(c: TestController): Promise<void> {
    await adminObjects().create(
      { ...HEALTH_CHECKS, namespace: c.mapiNamespace },
      {
        apiVersion: 'machine.openshift.io/v1beta1',
        kind: 'MachineHealthCheck',
        metadata: { name: 'fleet' },
        spec: {
          selector: { matchLabels: { 'machine.openshift.io/cluster-api-machineset': 'fleet' } },
          unhealthyConditions: [{ type: 'Ready', status: 'False', timeout: '1s' }],
        },
      },
    );
  }

  /** The MachineHealthCheck deleted the victim's MAPI Machine, and the machine was replaced. */
  async function remediated(
    c: TestController,
    victim: string,
    authority: 'MachineAPI' | 'ClusterAPI',
  ) {
    await replaced(c, victim, authority);
    const deleted = (await namespaceEvents(c.mapiNamespace)).items.filter(
      (e) => e.reason === 'MachineDeleted' && e.involvedObject.name === victim,
    );
    expect(deleted, 'the MachineHealthCheck deleted the MAPI Machine').to.have.length(1);
  }

  it('under MachineAPI: machine-api-operator deletes the Machine of an unhealthy node and replaces it; the mirror follows', async () => {
    const c = await start();
    const victim = await fleetAt(c, 'MachineAPI');
    const machine = (await mapiMachines(c)).find((m) => m.metadata.name === victim)!;
    const node = `${victim}-node`;
    await unhealthyNode(node, machine.spec.providerID!);
    // What machine-api-operator's nodelink controller (not run here) writes once the node joins.
    await adminObjects().patch(
      { ...MAPI_MACHINES, namespace: c.mapiNamespace, name: victim },
      { type: 'merge', body: { status: { nodeRef: { kind: 'Node', name: node } } } },
      { subresource: 'status' },
    );
    await healthCheck(c);
    await remediated(c, victim, 'MachineAPI');
    await adminObjects()
      .delete({ ...NODES, name: node })
      .catch(() => undefined);
  });

  it('under ClusterAPI: the MAPI mirror it deletes takes the CAPI Machine along; Cluster API replaces the machine, and the replacement is mirrored', async () => {
    const c = await start();
    const victim = await fleetAt(c, 'ClusterAPI');
    await provisionInfrastructure(c.capiNamespace, names(await awsMachines(c)));
    const capi = (await capiMachines(c)).find((m) => m.metadata.name === victim)!;
    const node = `${victim}-node`;
    await unhealthyNode(node, capi.spec.providerID!);
    // Cluster API finds the node by its providerID; the sync carries the node reference over.
    await eventually(async () => {
      const mapi = (await mapiMachines(c)).find((m) => m.metadata.name === victim);
      expect(mapi?.status?.nodeRef?.name).to.equal(node);
    }, WAIT);
    await healthCheck(c);
    await remediated(c, victim, 'ClusterAPI');
    await adminObjects()
      .delete({ ...NODES, name: node })
      .catch(() => undefined);
  });
});

/** A fleet migrating to ClusterAPI on a Cluster whose infrastructure is not ready: CAPA waits. */
async function waitingForProvider() {
  const c = await startTestController();
  const cluster = await createCapiCluster(c.capiNamespace, { infrastructureReady: false });
  await fleetAt(c, 'MachineAPI');
  await patch(MAPI, c.mapiNamespace, 'fleet', [
    { op: 'replace', path: '/spec/authoritativeAPI', value: 'ClusterAPI' },
  ]);
  await eventually(async () => {
    const machines = await mapiMachines(c);
    const at = JSON.stringify(machines.map((m) => [m.metadata.name, m.status]));
    expect(machines, at).to.have.length(2);
    for (const machine of machines) {
      expect(machine.status?.authoritativeAPI, at).to.equal('Migrating');
      expect(condition(machine, 'MigrationProgressing'), at).to.include({
        reason: 'WaitingForProvider',
      });
    }
    for (const capi of await capiMachines(c)) {
      expect(capi.metadata.annotations, 'CAPI Machine').to.have.property(PAUSED_ANNOTATION);
    }
    for (const aws of await awsMachines(c)) {
      expect(aws.metadata.annotations ?? {}, 'AWSMachine').to.not.have.property(PAUSED_ANNOTATION);
      expect(aws.metadata.finalizers ?? [], 'AWSMachine').to.not.include(AWS_FINALIZER);
    }
  }, WAIT);
  return { c, cluster };
}

describe("the provider's finalizer before a Machine is Cluster API's", function () {
  this.timeout(300_000);
  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('the CAPI Machines are unpaused only once CAPA has taken their AWSMachines in hand', async () => {
    const { c, cluster } = await waitingForProvider();
    await provisionClusterInfrastructure(c.capiNamespace, cluster.name);
    await waitAuthority(c, 'ClusterAPI', 2);
    for (const aws of await awsMachines(c)) {
      expect(aws.metadata.finalizers, aws.metadata.name).to.include(AWS_FINALIZER);
    }
  });

  it('the MAPI MachineSet deleted meanwhile: Machine API, still authoritative, deletes the machines', async () => {
    const { c } = await waitingForProvider();
    await deleteOne(MAPI, c.mapiNamespace, 'fleet');
    await fleetGone(c);
    // No Machine became Cluster API's: each hand-over returned to MachineAPI (stopped by the
    // deletion, or restarting as its CAPI Machine went first), and machine-api-operator deleted it.
    const events = (await namespaceEvents(c.mapiNamespace)).items.filter(
      (e) => e.involvedObject.kind === 'Machine',
    );
    const returned = events.filter((e) =>
      ['MigrationStoppedByDeletion', 'MigrationRestarted'].includes(e.reason ?? ''),
    );
    const reasons = JSON.stringify(events.map((e) => [e.involvedObject.name, e.reason]));
    expect(
      events.filter((e) => e.reason === 'MigrationCompleted'),
      reasons,
    ).to.deep.equal([]);
    expect(new Set(returned.map((e) => e.involvedObject.name)).size, reasons).to.equal(2);
  });
});

describe("CAPO's OpenStackServer, on OpenStack", function () {
  this.timeout(300_000);
  const OPENSTACK_MACHINES = {
    group: 'infrastructure.cluster.x-k8s.io',
    version: 'v1beta1',
    plural: 'openstackmachines',
  };
  const SERVERS = {
    group: 'infrastructure.cluster.x-k8s.io',
    version: 'v1alpha1',
    plural: 'openstackservers',
  };
  const SERVER_FINALIZER = 'openstackserver.infrastructure.cluster.x-k8s.io';

  before(() => setInfrastructure(openstackFixture.infrastructure));
  after(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('is paused under MachineAPI; a paused mirror deleted in a cascade takes it along and the server stays', async () => {
    const c = await start();
    const api = adminObjects();
    await createMachineSet(c.mapiNamespace, openstackFixture.machineSet('os', c.mapiNamespace));
    const machine = await eventually(async () => {
      const list = await api.list<InfrastructureMachine>({
        ...OPENSTACK_MACHINES,
        namespace: c.capiNamespace,
      });
      expect(list.items).to.have.length(1);
      return list.items[0]!;
    }, WAIT);
    const name = machine.metadata.name;
    const mapiUid = uidOf(await mapiMachines(c), name);
    const at = { ...SERVERS, namespace: c.capiNamespace, name };
    const server = () =>
      api.get<KubeObject>(at).catch((err: { code?: number }) => {
        if (err.code === 404) return undefined;
        throw err;
      });
    // What CAPO makes for an OpenStackMachine it reconciled while Cluster API was authoritative.
    const spec = machine.spec;
    await api.create(at, {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha1',
      kind: 'OpenStackServer',
      metadata: {
        name,
        labels: { 'cluster.x-k8s.io/cluster-name': 'demo-abc12' },
        finalizers: [SERVER_FINALIZER],
        ownerReferences: [
          {
            apiVersion: machine.apiVersion,
            kind: machine.kind,
            name,
            uid: machine.metadata.uid!,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        identityRef: spec.identityRef,
        image: spec.image,
        flavor: spec.flavor,
        ports: spec.ports ?? [{}],
        sshKeyName: spec.sshKeyName ?? '',
      },
    });
    await eventually(async () => {
      expect((await server())?.metadata.annotations).to.have.property(PAUSED_ANNOTATION);
    }, WAIT);

    // A person deletes the paused CAPI MachineSet: the garbage collector takes the CAPI Machine,
    // the OpenStackMachine, then the server; paused, CAPO never deletes its instance, and we let
    // it go. (A deletion of the CAPI Machine itself would delete the machine, through Machine API.)
    const mirrorUid = uidOf(await capiMachines(c), name);
    await deleteWithMachines(CAPI, c.capiNamespace, 'os');
    await eventually(async () => {
      expect(await server(), 'the server object let go').to.equal(undefined);
      const mirror = uidOf(await capiMachines(c), name);
      expect(mirror, 'the mirror created again').to.be.a('string').and.not.equal(mirrorUid);
      expect(uidOf(await mapiMachines(c), name), 'the MAPI Machine untouched').to.equal(mapiUid);
      await expectNothingTerminating(c);
    }, WAIT);
  });
});

/** `oc scale` (or an autoscaler) of a MachineSet through its /scale subresource. */
async function scale(where: typeof MAPI, namespace: string, name: string, replicas: number) {
  await adminObjects().patch(
    { ...where, namespace, name },
    { type: 'merge', body: { spec: { replicas } } },
    { subresource: 'scale' },
  );
}

/** The MachineSet's migration events, oldest first. */
async function machineSetEvents(c: TestController): Promise<string[]> {
  return (await namespaceEvents(c.mapiNamespace)).items
    .filter((e) => e.involvedObject.kind === 'MachineSet')
    .map((e) => e.reason ?? '');
}

describe('a MachineSet scaled while it migrates', function () {
  this.timeout(300_000);
  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('to ClusterAPI, scaled again and again and a Machine deleted: no restart, Cluster API ends at the last count', async () => {
    const { c, cluster } = await waitingForProvider();
    // machine-api-operator has paused the MAPI MachineSet: each count waits for the new side. A
    // restart, at any later step of the handshake, would leave its event.
    for (const replicas of [4, 1, 3]) await scale(MAPI, c.mapiNamespace, 'fleet', replicas);
    const set = await getMapi(c, 'fleet');
    expect(set?.status?.authoritativeAPI).to.equal('Migrating');
    expect(condition(set!, 'MigrationProgressing')).to.include({ reason: 'WaitingForMachines' });
    const [victim] = names(await mapiMachines(c));
    await deleteOne(MAPI_MACHINES, c.mapiNamespace, victim!);
    await provisionClusterInfrastructure(c.capiNamespace, cluster.name);

    // Cluster API, authoritative, makes the count: no provider runs here, so the test reports
    // the new instances as CAPA would.
    const fleet = await eventually(async () => {
      const capi = names(await capiMachines(c));
      expect(capi).to.have.length(3);
      expect(capi).to.not.include(victim);
      return capi;
    }, WAIT);
    await provisionInfrastructure(c.capiNamespace, fleet);
    const migrated = await waitAuthority(c, 'ClusterAPI', 3);
    expect([migrated.set.spec.replicas, migrated.capiSet.spec.replicas]).to.deep.equal([3, 3]);
    expect(names(await mapiMachines(c))).to.deep.equal(fleet);
    await expectNothingTerminating(c);
    const events = await machineSetEvents(c);
    expect(events, 'never restarted').to.not.include('MigrationRestarted');
    expect(events.filter((r) => r === 'MigrationCompleted')).to.have.length(1);
  });

  it('to MachineAPI, a CAPI Machine created between the gate and the pause: mirrored, handed over, none lost', async () => {
    const c = await start();
    await fleetAt(c, 'ClusterAPI');
    // The gate has just let the migration in (its one status write) and Cluster API, not paused
    // yet, scales up; the controller restarts into that state.
    await c.stop();
    await patch(MAPI, c.mapiNamespace, 'fleet', [
      { op: 'replace', path: '/spec/authoritativeAPI', value: 'MachineAPI' },
    ]);
    await adminObjects().patch(
      { ...MAPI, namespace: c.mapiNamespace, name: 'fleet' },
      {
        type: 'merge',
        body: { status: { authoritativeAPI: 'Migrating', synchronizedAPI: 'ClusterAPI' } },
      },
      { subresource: 'status' },
    );
    await scale(CAPI, c.capiNamespace, 'fleet', 3);
    const fleet = await eventually(async () => {
      const capi = names(await capiMachines(c));
      expect(capi).to.have.length(3);
      return capi;
    }, WAIT);
    await provisionInfrastructure(c.capiNamespace, fleet);

    const restarted = await startTestController({
      namespaces: { mapi: c.mapiNamespace, capi: c.capiNamespace },
    });
    const { set, capiSet } = await waitAuthority(restarted, 'MachineAPI', 3);
    expect([set.spec.replicas, capiSet.spec.replicas]).to.deep.equal([3, 3]);
    expect(names(await mapiMachines(c))).to.deep.equal(fleet);
    expect(names(await capiMachines(c))).to.deep.equal(fleet);
    for (const machine of await capiMachines(c)) {
      expect(machine.metadata.annotations, machine.metadata.name).to.include({
        [PAUSED_ANNOTATION]: 'true',
      });
    }
    await expectNothingTerminating(c);
    expect(await machineSetEvents(c), 'never restarted').to.not.include('MigrationRestarted');
  });
});
