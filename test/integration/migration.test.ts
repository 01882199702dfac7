// The migration handshake next to machine-api-operator (which pauses MAPI while
// Migrating) and Cluster API (which reports Paused from the annotation): both
// directions, the gate, and a cancellation, a deletion of either side and a
// controller restart after every step of it.
import { expect } from 'chai';
import type { JsonPatchOperation, MapiCondition } from '../../src/api/types.js';
import { MIGRATION_CONDITION, MigrationReason } from '../../src/migration/status.js';
import { AUTHORITY_ANNOTATION, PAUSED_ANNOTATION } from '../../src/model/markers.js';
import { createCapiCluster } from '../support/capi-cluster.js';
import { adminObjects, identityConfig, testNamespace } from '../support/cluster.js';
import { eventually } from '../support/eventually.js';
import { getCapi, getMapi } from '../support/machine-sets.js';
import { capiMachines, MAPI_MACHINES, mapiMachines } from '../support/machines.js';
import { acknowledgeControllerDenials } from '../support/audit.js';
import { installOpenShiftPolicies } from '../support/openshift-policies.js';
import {
  AWS_TEMPLATES,
  awsMachineSet,
  CAPI,
  createMachineSet,
  DEFAULT_INFRASTRUCTURE,
  MAPI,
  setInfrastructure,
  startTestController,
  type TestController,
} from '../support/controller.js';
import { objectsFor } from '../support/kube-client.js';
import { namespaceEvents } from '../support/events.js';

type Authority = 'MachineAPI' | 'ClusterAPI';
const api = adminObjects;
const WAIT = { timeoutMs: 60_000 };

/** The handshake's writes, in order, from MachineAPI to ClusterAPI. */
const TO_CLUSTER_API = [
  'entering Migrating (MachineAPI → ClusterAPI)',
  'marking the CAPI machine set as migrating',
  'unpausing the CAPI machine set',
  'leaving Migrating: ClusterAPI is authoritative',
];
/** The same, from ClusterAPI back to MachineAPI. */
const TO_MACHINE_API = [
  'entering Migrating (ClusterAPI → MachineAPI)',
  'pausing the CAPI machine set',
  'giving the machines this MAPI machine set creates back to Machine API',
  'leaving Migrating: MachineAPI is authoritative',
];
const DIRECTIONS = [
  { from: 'MachineAPI', to: 'ClusterAPI', steps: TO_CLUSTER_API },
  { from: 'ClusterAPI', to: 'MachineAPI', steps: TO_MACHINE_API },
] as const;
type Direction = (typeof DIRECTIONS)[number];

function condition(
  object: { status?: { conditions?: MapiCondition[] } } | undefined,
  type: string,
) {
  return object?.status?.conditions?.find((c) => c.type === type);
}

async function patchMapi(
  c: TestController,
  name: string,
  body: JsonPatchOperation[],
): Promise<void> {
  await api().patch(
    { ...MAPI, namespace: c.mapiNamespace, name },
    { type: 'json', operations: body },
  );
}

/** What an administrator does to migrate. */
async function wish(c: TestController, name: string, authority: Authority): Promise<void> {
  await patchMapi(c, name, [{ op: 'replace', path: '/spec/authoritativeAPI', value: authority }]);
}

/** The authority settled, synchronized at the authoritative side's generation, both sides' Paused right. */
async function waitAuthority(c: TestController, name: string, authority: Authority) {
  return eventually(async () => {
    const mapi = await getMapi(c, name);
    const capi = await getCapi(c, name);
    const at = JSON.stringify({ mapi: mapi?.status, capi: capi?.metadata.annotations });
    expect(mapi?.status?.authoritativeAPI, at).to.equal(authority);
    expect(mapi?.status?.synchronizedAPI ?? authority, at).to.equal(authority);
    expect(condition(mapi, 'Synchronized'), at).to.include({ status: 'True' });
    const authoritative = authority === 'MachineAPI' ? mapi : capi;
    expect(mapi?.status?.synchronizedGeneration, at).to.equal(authoritative?.metadata.generation);
    expect(condition(mapi, 'Paused'), at).to.include({
      status: authority === 'MachineAPI' ? 'False' : 'True',
    });
    expect(condition(capi, 'Paused'), at).to.include({
      status: authority === 'MachineAPI' ? 'True' : 'False',
    });
    expect(capi?.metadata.annotations?.[AUTHORITY_ANNOTATION], at).to.equal(authority);
    return { mapi: mapi!, capi: capi! };
  }, WAIT);
}

/** Synchronized=False with this reason, its message naming each of `says`. */
async function waitNotSynchronized(
  c: TestController,
  name: string,
  reason: string,
  says: string[],
) {
  await eventually(async () => {
    const mapi = await getMapi(c, name);
    const synchronized = condition(mapi, 'Synchronized');
    expect(synchronized, JSON.stringify(mapi?.status)).to.include({ status: 'False', reason });
    for (const text of says) expect(synchronized?.message).to.include(text);
  }, WAIT);
}

async function start(options: Parameters<typeof startTestController>[0] = {}) {
  const c = await startTestController(options);
  await createCapiCluster(c.capiNamespace);
  return c;
}

async function createSynchronized(c: TestController, name: string) {
  await createMachineSet(c.mapiNamespace, awsMachineSet(name, c.mapiNamespace, { replicas: 0 }));
  return waitAuthority(c, name, 'MachineAPI');
}

describe('the migration handshake, next to machine-api-operator and Cluster API', function () {
  this.timeout(300_000);
  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('MachineAPI → ClusterAPI → MachineAPI by editing spec.authoritativeAPI, step by step', async () => {
    const notes: string[] = [];
    const c = await start({ onWrite: (w) => notes.push(w.note) });
    const before = await createSynchronized(c, 'fleet');

    await wish(c, 'fleet', 'ClusterAPI');
    const migrated = await waitAuthority(c, 'fleet', 'ClusterAPI');
    expect(migrated.capi.metadata.uid, 'the same CAPI MachineSet').to.equal(
      before.capi.metadata.uid,
    );
    expect(migrated.capi.metadata.annotations).not.to.have.property(PAUSED_ANNOTATION);
    expect(condition(migrated.mapi, MIGRATION_CONDITION)).to.include({
      status: 'False',
      reason: MigrationReason.Completed,
    });
    const order = TO_CLUSTER_API.map((note) => notes.indexOf(note));
    expect(order, notes.join(' | ')).to.deep.equal([...order].sort((a, b) => a - b));
    expect(order[0]).to.be.greaterThan(-1);

    notes.length = 0;
    await wish(c, 'fleet', 'MachineAPI');
    const back = await waitAuthority(c, 'fleet', 'MachineAPI');
    expect(back.capi.metadata.uid).to.equal(before.capi.metadata.uid);
    expect(back.capi.metadata.annotations).to.have.property(PAUSED_ANNOTATION);
    const pausing = notes.indexOf('pausing the CAPI machine set');
    const leaving = notes.indexOf('leaving Migrating: MachineAPI is authoritative');
    expect(pausing, notes.join(' | ')).to.be.greaterThan(-1);
    expect(leaving).to.be.greaterThan(pausing);

    await eventually(async () => {
      const events = await namespaceEvents(c.mapiNamespace);
      const reasons = events.items
        .filter((e) => e.involvedObject.name === 'fleet')
        .map((e) => e.reason);
      expect(reasons).to.include.members(['MigrationStarted', 'MigrationCompleted']);
    }, WAIT);
  });

  it('holds the gate while the MachineSet is not synchronized, says why, and proceeds by itself', async () => {
    const c = await start();
    await createSynchronized(c, 'gated');
    const instanceType = '/spec/template/spec/providerSpec/value/instanceType';
    await patchMapi(c, 'gated', [{ op: 'replace', path: instanceType, value: 42 }]);
    await wish(c, 'gated', 'ClusterAPI');
    const waiting = await eventually(async () => {
      const mapi = await getMapi(c, 'gated');
      const migration = condition(mapi, MIGRATION_CONDITION);
      expect(migration, JSON.stringify(mapi?.status)).to.include({
        status: 'True',
        reason: MigrationReason.WaitingForSynchronization,
      });
      // The gate may first say the mirror is behind, then why, once the sync has reported.
      expect(migration?.message).to.match(
        /Synchronized is False \(FailedToConvertMAPIMachineSetToCAPI\).*set spec\.authoritativeAPI back to MachineAPI/,
      );
      return mapi!;
    }, WAIT);
    expect(waiting.status?.authoritativeAPI).to.equal('MachineAPI');
    await patchMapi(c, 'gated', [{ op: 'replace', path: instanceType, value: 'm6i.large' }]);
    await waitAuthority(c, 'gated', 'ClusterAPI');
  });

  it('holds a MachineSet while one of its Machines cannot be mirrored, names it, and migrates once it is gone', async () => {
    const c = await start();
    await createMachineSet(
      c.mapiNamespace,
      awsMachineSet('fleet', c.mapiNamespace, { replicas: 1 }),
    );
    // machine-api-operator creates the machine; it is mirrored, then marked as a control-plane
    // machine, which is out of scope and cannot be mirrored.
    const machine = await eventually(async () => {
      const [only] = await mapiMachines(c);
      expect(only, 'the MachineSet has its Machine').to.not.equal(undefined);
      expect(only!.status?.synchronizedGeneration).to.equal(only!.metadata.generation);
      return only!;
    }, WAIT);
    const name = machine.metadata.name;
    await api().patch(
      { ...MAPI_MACHINES, namespace: c.mapiNamespace, name },
      {
        type: 'json',
        operations: [
          {
            op: 'add',
            path: '/metadata/labels/machine.openshift.io~1cluster-api-machine-role',
            value: 'master',
          },
        ],
      },
    );
    await wish(c, 'fleet', 'ClusterAPI');
    const held = await eventually(async () => {
      const mapi = await getMapi(c, 'fleet');
      expect(condition(mapi, MIGRATION_CONDITION), JSON.stringify(mapi?.status)).to.include({
        status: 'True',
        reason: MigrationReason.MachinesNotMirrored,
      });
      return mapi!;
    }, WAIT);
    expect(held.status?.authoritativeAPI).to.equal('MachineAPI');
    expect(condition(held, MIGRATION_CONDITION)?.message).to.include(name);
    // Deleted: machine-api-operator replaces it with a machine that is mirrored, and follows.
    await api().delete({ ...MAPI_MACHINES, namespace: c.mapiNamespace, name });
    await waitAuthority(c, 'fleet', 'ClusterAPI');
    const [replacement] = await mapiMachines(c);
    expect(replacement?.metadata.name).to.not.equal(name);
    expect(replacement?.status?.authoritativeAPI).to.equal('ClusterAPI');
  });

  /** A synchronized MachineSet whose authority is `from`. */
  async function createAt(c: TestController, name: string, from: Authority) {
    await createSynchronized(c, name);
    if (from === 'ClusterAPI') {
      await wish(c, name, 'ClusterAPI');
      await waitAuthority(c, name, 'ClusterAPI');
    }
  }

  /**
   * One MachineSet per step of the handshake; `act` runs (not awaited by the
   * controller) right after that step's write for that MachineSet.
   */
  async function atEveryStep(
    prefix: string,
    direction: Direction,
    act: (c: TestController, name: string) => Promise<void>,
  ): Promise<{ c: TestController; names: string[] }> {
    const { steps } = direction;
    const pending: Promise<void>[] = [];
    const names = steps.map((_, k) => `${prefix}-${k}`);
    const started: { controller?: TestController } = {};
    const acted = new Set<string>();
    const c = await start({
      onWrite: (w) => {
        const k = names.indexOf(w.object.metadata.name);
        // once per MachineSet: a migration started again passes the same step again
        if (k >= 0 && w.note === steps[k] && started.controller && !acted.has(names[k]!)) {
          acted.add(names[k]!);
          pending.push(act(started.controller, names[k]!));
        }
      },
    });
    started.controller = c;
    await Promise.all(names.map((name) => createAt(c, name, direction.from)));
    await Promise.all(names.map((name) => wish(c, name, direction.to)));
    await eventually(() => expect(pending).to.have.length(names.length), WAIT);
    await Promise.all(pending);
    return { c, names };
  }

  for (const direction of DIRECTIONS) {
    const { from, to } = direction;
    it(`${from} → ${to} cancelled after any step: back to ${from} with the same CAPI MachineSet`, async () => {
      const uids = new Map<string, string | undefined>();
      const { c, names } = await atEveryStep(
        `cancel-${to.toLowerCase()}`,
        direction,
        async (c, name) => {
          uids.set(name, (await getCapi(c, name))?.metadata.uid);
          await wish(c, name, from);
        },
      );
      for (const name of names) {
        const { capi } = await waitAuthority(c, name, from);
        expect(capi.metadata.uid, name).to.equal(uids.get(name));
      }
    });
  }

  it('MachineAPI → ClusterAPI, the MAPI MachineSet deleted after any step: it goes, and no paused CAPI MachineSet stays behind', async () => {
    const { c, names } = await atEveryStep('delmapi', DIRECTIONS[0], (c, name) =>
      api()
        .delete({ ...MAPI, namespace: c.mapiNamespace, name })
        .then(() => undefined),
    );
    for (const name of names) {
      await eventually(async () => {
        expect(await getMapi(c, name), name).to.equal(undefined);
        // Deleted while Migrating, the migration stops and Machine API's paused mirror goes with
        // it; deleted once the hand-over had ended, the CAPI MachineSet is authoritative and stays.
        const capi = await getCapi(c, name);
        if (capi) {
          expect(capi.metadata.annotations, name).not.to.have.property(PAUSED_ANNOTATION);
          expect(capi.metadata.deletionTimestamp, name).to.equal(undefined);
        }
      }, WAIT);
    }
  });

  it('MachineAPI → ClusterAPI, the CAPI MachineSet deleted after any step: nothing is stuck, and the migration ends', async () => {
    const { c, names } = await atEveryStep('delcapi', DIRECTIONS[0], (c, name) =>
      api()
        .delete({ ...CAPI, namespace: c.capiNamespace, name })
        .then(() => undefined),
    );
    for (const name of names) {
      await eventually(async () => {
        const mapi = await getMapi(c, name);
        // Deleted while Cluster API already acted on it: the migration ended at ClusterAPI, and
        // the MAPI mirror followed its CAPI side.
        if (!mapi) return;
        // Otherwise Machine API was authoritative again, the mirror was created again, and the
        // migration, still asked for, started again and ended.
        expect(mapi.status?.authoritativeAPI, name).to.equal('ClusterAPI');
        const capi = await getCapi(c, name);
        expect(capi?.metadata.annotations, name).not.to.have.property(PAUSED_ANNOTATION);
        expect(capi?.metadata.deletionTimestamp, name).to.equal(undefined);
      }, WAIT);
    }
  });

  for (const { from, to, steps } of DIRECTIONS) {
    it(`${from} → ${to}: a controller restarted after any step resumes and never repeats a step`, async () => {
      const c = await start();
      await c.stop();
      const namespaces = { mapi: c.mapiNamespace, capi: c.capiNamespace };
      for (let k = 0; k < steps.length; k++) {
        const name = `restart-${k}`;
        let stopped: Promise<unknown> | undefined;
        const running: { first?: TestController } = {};
        const first = await startTestController({
          namespaces,
          onWrite: (w) => {
            if (w.object.metadata.name === name && w.note === steps[k] && running.first) {
              stopped ??= running.first.stop();
            }
          },
        });
        running.first = first;
        await createAt(first, name, from);
        await wish(first, name, to);
        await eventually(
          () => expect(stopped, `stopped after step ${k}`).not.to.equal(undefined),
          WAIT,
        );
        await stopped;
        const notes: string[] = [];
        const second = await startTestController({
          namespaces,
          onWrite: (w) => {
            if (w.object.metadata.name === name) notes.push(w.note);
          },
        });
        await waitAuthority(second, name, to);
        const repeated = steps.slice(0, k + 1).filter((note) => notes.includes(note));
        expect(repeated, `restarted after step ${k}: ${notes.join(' | ')}`).to.deep.equal([]);
        await second.stop();
      }
    });
  }

  it('while Cluster API is authoritative, its changes show up on MAPI; what MAPI cannot express is reported', async () => {
    const c = await start();
    await createSynchronized(c, 'reverse');
    await wish(c, 'reverse', 'ClusterAPI');
    const { capi } = await waitAuthority(c, 'reverse', 'ClusterAPI');

    // A new template made on the Cluster API side, with another instance type.
    const current = await api().get<{ spec: { template: { spec: Record<string, unknown> } } }>({
      ...AWS_TEMPLATES,
      namespace: c.capiNamespace,
      name: capi.spec.template.spec.infrastructureRef.name,
    });
    await api().create(
      { ...AWS_TEMPLATES, namespace: c.capiNamespace },
      {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'AWSMachineTemplate',
        metadata: { name: 'reverse-larger' },
        spec: {
          template: { spec: { ...current.spec.template.spec, instanceType: 'm6i.4xlarge' } },
        },
      },
    );
    const hook = 'pre-drain.delete.hook.machine.cluster.x-k8s.io/drain-guard';
    await api().patch(
      { ...CAPI, namespace: c.capiNamespace, name: 'reverse' },
      {
        type: 'json',
        operations: [
          { op: 'replace', path: '/spec/replicas', value: 1 },
          { op: 'replace', path: '/spec/deletion', value: { order: 'Oldest' } },
          {
            op: 'replace',
            path: '/spec/template/spec/infrastructureRef/name',
            value: 'reverse-larger',
          },
          { op: 'add', path: '/spec/template/metadata/labels/team', value: 'storage' },
          {
            op: 'add',
            path: '/spec/template/metadata/annotations',
            value: { [hook]: 'storage-operator' },
          },
        ],
      },
    );
    await eventually(async () => {
      const mapi = (await getMapi(c, 'reverse'))!;
      const capiNow = (await getCapi(c, 'reverse'))!;
      const at = JSON.stringify(mapi.spec);
      expect(mapi.spec.replicas, at).to.equal(1);
      expect(mapi.spec.deletePolicy, at).to.equal('Oldest');
      const value = mapi.spec.template?.spec?.providerSpec?.value as { instanceType?: string };
      expect(value.instanceType, at).to.equal('m6i.4xlarge');
      expect(mapi.spec.template?.metadata?.labels, at).to.include({ team: 'storage' });
      expect(mapi.spec.template?.spec?.lifecycleHooks?.preDrain, at).to.deep.equal([
        { name: 'drain-guard', owner: 'storage-operator' },
      ]);
      // Status follows Cluster API's once it describes the current generation.
      expect(capiNow.status?.observedGeneration).to.equal(capiNow.metadata.generation);
      expect(mapi.status?.replicas, JSON.stringify(mapi.status)).to.equal(
        capiNow.status?.replicas ?? 0,
      );
      expect(mapi.status?.observedGeneration).to.equal(mapi.metadata.generation);
      expect(condition(mapi, 'Synchronized')).to.include({ status: 'True' });
      expect(mapi.status?.synchronizedGeneration).to.equal(capiNow.metadata.generation);
    }, WAIT);

    const where = { ...CAPI, namespace: c.capiNamespace, name: 'reverse' };
    const readinessGates: JsonPatchOperation[] = [
      { op: 'replace', path: '/spec/replicas', value: 0 },
      {
        op: 'add',
        path: '/spec/template/spec/readinessGates',
        value: [{ conditionType: 'Custom' }],
      },
    ];
    // A person's edit is refused at admission: by OpenShift's policy (which binds everyone) or by
    // ours (manifests/admission-policies.yaml), whichever the API server evaluates first ...
    const refused = await api()
      .patch(where, { type: 'json', operations: readinessGates })
      .then(
        () => undefined,
        (err: { body?: string }) => err.body,
      );
    expect(refused).to.match(
      /ValidatingAdmissionPolicy '(mapi-capi-sync-cluster-api-machine-set-expressible|openshift-cluster-api-prevent-setting-of-capi-fields-unsupported-by-mapi)/,
    );
    // ... but such a MachineSet can still arrive (made before the policies, or by an exempt
    // controller, with a field OpenShift's policies do not guard): the reverse sync reports it.
    await objectsFor(identityConfig('cluster-api')).patch(where, {
      type: 'json',
      operations: [
        { op: 'replace', path: '/spec/replicas', value: 0 },
        {
          op: 'add',
          path: '/spec/template/spec/deletion',
          value: { nodeDrainTimeoutSeconds: 600 },
        },
      ],
    });
    await waitNotSynchronized(c, 'reverse', 'FailedToConvertCAPIMachineSetToMAPI', [
      'spec.template.spec.deletion.nodeDrainTimeoutSeconds',
    ]);
  });
});

// OpenShift's own migration policies (cluster-capi-operator's admission-policies/) exempt only
// machine-api-operator's and Cluster API's accounts; every test controller runs with them, our
// ServiceAccount added to their exemptions (startTestController). These two show what that buys.
describe("next to OpenShift's own migration policies", function () {
  this.timeout(300_000);
  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  async function startUnder(exemptController: boolean) {
    const mapi = await testNamespace('mapi');
    const capi = await testNamespace('capi');
    await installOpenShiftPolicies({ mapiNamespace: mapi, capiNamespace: capi, exemptController });
    return start({ namespaces: { mapi, capi }, openshiftPolicies: false });
  }

  const machineUids = async (c: TestController) =>
    eventually(async () => {
      const mapi = await mapiMachines(c);
      const capi = await capiMachines(c);
      expect(mapi.map((m) => m.metadata.name).sort()).to.have.length(2);
      expect(capi.map((m) => m.metadata.name).sort()).to.deep.equal(
        mapi.map((m) => m.metadata.name).sort(),
      );
      for (const machine of mapi) {
        expect(condition(machine, 'Synchronized'), machine.metadata.name).to.include({
          status: 'True',
        });
      }
      return [...mapi, ...capi].map((m) => m.metadata.uid).sort();
    }, WAIT);

  it('with our ServiceAccount in their exemptions, MachineAPI → ClusterAPI → MachineAPI completes with the same Machines', async () => {
    const c = await startUnder(true);
    await createMachineSet(
      c.mapiNamespace,
      awsMachineSet('fleet', c.mapiNamespace, { replicas: 2 }),
    );
    await waitAuthority(c, 'fleet', 'MachineAPI');
    const before = await machineUids(c);

    await wish(c, 'fleet', 'ClusterAPI');
    await waitAuthority(c, 'fleet', 'ClusterAPI');
    expect(await machineUids(c), 'no machine created or deleted').to.deep.equal(before);

    await wish(c, 'fleet', 'MachineAPI');
    await waitAuthority(c, 'fleet', 'MachineAPI');
    expect(await machineUids(c), 'no machine created or deleted').to.deep.equal(before);
  });

  it('without our ServiceAccount in their exemptions, a denied write is reported on its MachineSet with the policy message', async () => {
    const c = await startUnder(false);
    await createSynchronized(c, 'denied');
    // a change of the MAPI spec: the paused mirror's spec must follow, and their policy forbids it
    await patchMapi(c, 'denied', [
      { op: 'add', path: '/spec/template/metadata/labels/team', value: 'storage' },
    ]);
    await waitNotSynchronized(c, 'denied', 'FailedToUpdateCAPIMachineSet', [
      'cluster-api-machine-set-vap',
      'Changing .spec is not allowed',
    ]);
    // denied on purpose: not a defect for the root hook to report
    await acknowledgeControllerDenials();
  });
});
