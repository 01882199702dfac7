// `oc mapi-capi-sync migrate` against the real control plane, next to the controller,
// machine-api-operator and Cluster API: a fleet in waves, refused and skipped MachineSets, a
// run killed mid-wave and resumed, a failure injected mid-run, and the way back.
import { expect } from 'chai';
import type { MapiMachineSet } from '../../src/api/types.js';
import {
  VALIDATING_ADMISSION_POLICY,
  VALIDATING_ADMISSION_POLICY_BINDING,
} from '../../src/kube/builtin-resources.js';
import { runMigrate } from '../../src/cli/migrate/command.js';
import { IDENTITIES } from '../environment/control-plane.js';
import { auditEventsSince, auditLogEnd } from '../support/audit.js';
import { createCapiCluster, createUserData } from '../support/capi-cluster.js';
import { adminObjects, controlPlane, identityConfig, uniqueName } from '../support/cluster.js';
import {
  awsMachineSet,
  CAPI,
  createMachineSet,
  DEFAULT_INFRASTRUCTURE,
  setInfrastructure,
  startTestController,
  type TestController,
  unadmitted,
} from '../support/controller.js';
import { eventually } from '../support/eventually.js';
import { getMapi } from '../support/machine-sets.js';
import { capiMachines, mapiMachines } from '../support/machines.js';
import { objectsFor } from '../support/kube-client.js';

const WAIT = { timeoutMs: 90_000 };
const CONTROLLERS = new Set<string>(Object.values(IDENTITIES));

interface Ran {
  code: number;
  out: string;
  err: string;
}

/** Runs the command in-process as an administrator (the admin kubeconfig). */
async function migrate(
  c: TestController,
  argv: string[],
  options: { signal?: AbortSignal; onOutput?: (out: string) => void } = {},
): Promise<Ran> {
  const ran = { out: '', err: '' };
  const code = await runMigrate(
    [
      ...argv,
      '-n',
      c.mapiNamespace,
      '--capi-namespace',
      c.capiNamespace,
      '--kubeconfig',
      controlPlane().kubeconfigPath,
    ],
    {
      stdout: {
        write: (text: string) => {
          ran.out += text;
          options.onOutput?.(ran.out);
        },
        isTTY: false,
      },
      stderr: { write: (text: string) => (ran.err += text) },
      env: {},
      home: '/nonexistent',
      refreshMs: 500,
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  return { code, ...ran };
}

/** The spec patches of MachineSets in `c`'s MAPI namespace that a person (not a controller) made. */
async function specPatches(c: TestController, from: number): Promise<string[]> {
  const prefix = `/apis/machine.openshift.io/v1beta1/namespaces/${c.mapiNamespace}/machinesets/`;
  const events = await auditEventsSince(from, prefix);
  return (
    events
      .filter((e) => e.verb === 'patch' && !CONTROLLERS.has(e.user.username))
      // Changes made, not attempts: a patch refused because the object changed since it was read
      // (its resourceVersion test) is read again and retried by migrate, and changes nothing.
      .filter((e) => (e.responseStatus?.code ?? 200) < 300)
      .map((e) => e.requestURI.slice(prefix.length).split('?')[0]!)
      .filter((name) => !name.includes('/'))
      .sort()
  );
}

/** Every Machine's uid on both sides, by name. */
async function machineUids(c: TestController): Promise<Record<string, string>> {
  const all = [...(await mapiMachines(c)), ...(await capiMachines(c))];
  return Object.fromEntries(
    all.map((m) => [`${m.apiVersion.split('/')[0]} ${m.metadata.name}`, m.metadata.uid ?? '']),
  );
}

async function authorities(c: TestController, names: string[]) {
  return Promise.all(names.map(async (n) => (await getMapi(c, n))?.status?.authoritativeAPI));
}

/** Created, and synchronized with its Machines. */
async function fleetSynchronized(c: TestController, names: string[], machines: number) {
  await eventually(async () => {
    for (const name of names) {
      const mapi = await getMapi(c, name);
      const synchronized = mapi?.status?.conditions?.find((x) => x.type === 'Synchronized');
      expect(synchronized?.status, name).to.equal('True');
      expect(mapi?.status?.synchronizedGeneration, name).to.equal(mapi?.metadata.generation);
    }
    const all = await mapiMachines(c);
    expect(all).to.have.length(machines);
    for (const m of all) expect(m.status?.synchronizedGeneration).to.equal(m.metadata.generation);
    expect(await capiMachines(c)).to.have.length(machines);
  }, WAIT);
}

describe('oc mapi-capi-sync migrate, next to machine-api-operator and Cluster API', function () {
  this.timeout(400_000);
  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('--all in waves of 2: refused over a MachineSet that cannot convert, --dry-run writes nothing, killed mid-wave and resumed without a step twice, same machines, then --rollback', async () => {
    const c = await startTestController();
    await createCapiCluster(c.capiNamespace);
    await createUserData(c.capiNamespace);
    const names = ['fleet-a', 'fleet-b', 'fleet-c', 'fleet-d', 'fleet-e', 'fleet-f'];
    const replicas = [2, 1, 0, 0, 0, 0];
    await Promise.all(
      names.map((name, i) =>
        createMachineSet(
          c.mapiNamespace,
          awsMachineSet(name, c.mapiNamespace, { replicas: replicas[i]! }),
        ),
      ),
    );
    // machine-api-operator's validating webhook refuses a missing ami.id: one it never saw
    const bad = unadmitted(awsMachineSet('ami-arn', c.mapiNamespace, { replicas: 0 }));
    (bad.spec.template!.spec!.providerSpec!.value as { ami: object }).ami = {
      arn: 'arn:aws:ec2:us-east-1::image/ami-0abcdef1234567890',
    };
    await createMachineSet(c.mapiNamespace, bad);
    await fleetSynchronized(c, names, 3);
    const before = await machineUids(c);
    const start = await auditLogEnd();

    // Refused up front, naming the field; nothing written.
    const refused = await migrate(c, ['--all', '--to', 'ClusterAPI', '--max-in-flight', '2']);
    expect(refused.code).to.equal(1);
    expect(refused.err).to.match(
      /^error: 1 MachineSet cannot migrate to ClusterAPI; nothing was written:\n {2}ami-arn\n {4}blocking: spec\.template\.spec\.providerSpec\.value\.ami\.arn: /,
    );

    const plan = await migrate(c, [
      '--all',
      '--to',
      'ClusterAPI',
      '--max-in-flight',
      '2',
      '--skip-blocked',
      '--dry-run',
    ]);
    expect(plan.code).to.equal(0);
    expect(plan.out).to.include(
      `Plan: 6 MachineSets of ${c.mapiNamespace} to ClusterAPI in 3 waves of at most 2.`,
    );
    expect(plan.out).to.match(
      /wave 2:\n {2}fleet-c +MachineAPI: patch spec\.authoritativeAPI: ClusterAPI/,
    );
    expect(plan.out).to.include('skipped (cannot migrate):\n  ami-arn\n');
    expect(await specPatches(c, start), 'refused and --dry-run write nothing').to.deep.equal([]);

    // Killed once the second wave's patches are out; then the same command again.
    const argv = ['--all', '--to', 'ClusterAPI', '--max-in-flight', '2', '--skip-blocked'];
    const stop = new AbortController();
    const killed = await migrate(c, argv, {
      signal: stop.signal,
      onOutput: (out) => {
        if (out.includes('fleet-d (wave 2/3): spec.authoritativeAPI set to ClusterAPI'))
          stop.abort();
      },
    });
    expect(killed.code, killed.out + killed.err).to.equal(1);
    expect(killed.err).to.equal('Interrupted.\n');
    expect(killed.out).to.include(
      '  to continue:   oc mapi-capi-sync migrate --all --to ClusterAPI --max-in-flight 2 --skip-blocked',
    );
    expect(await specPatches(c, start)).to.deep.equal(['fleet-a', 'fleet-b', 'fleet-c', 'fleet-d']);

    const resumed = await migrate(c, argv);
    expect(resumed.code, resumed.out + resumed.err).to.equal(0);
    // fleet-c and fleet-d are waited for (or already there), never patched again
    expect(resumed.out).to.match(
      /fleet-e \(wave \d\/\d\): spec\.authoritativeAPI set to ClusterAPI/,
    );
    expect(resumed.out).not.to.match(/fleet-[a-d] .*spec\.authoritativeAPI set/);
    const [migrated, already] = /(\d) migrated, (\d) already on ClusterAPI, 1 skipped; done/
      .exec(resumed.out)!
      .slice(1)
      .map(Number);
    expect(migrated! + already!).to.equal(6);
    expect(already).to.be.at.least(2);
    expect(await specPatches(c, start), 'each MachineSet patched once').to.deep.equal(names);
    expect(await authorities(c, [...names, 'ami-arn'])).to.deep.equal([
      ...names.map(() => 'ClusterAPI'),
      'MachineAPI',
    ]);
    expect(await machineUids(c), 'the same machines on both sides').to.deep.equal(before);

    // The way back: every MachineSet on ClusterAPI returns, the blocked one is already there.
    const back = await migrate(c, [...argv, '--rollback', '--max-in-flight', '3']);
    expect(back.code, back.out + back.err).to.equal(0);
    expect(back.out).to.include('6 migrated, 1 already on MachineAPI');
    expect(await authorities(c, names)).to.deep.equal(names.map(() => 'MachineAPI'));
    expect(await machineUids(c)).to.deep.equal(before);
    expect(await specPatches(c, start)).to.deep.equal([...names, ...names].sort());
  });

  it('stops at a write the cluster refuses mid-run, with its message, what moved left where it is', async () => {
    const c = await startTestController();
    await createCapiCluster(c.capiNamespace);
    await createUserData(c.capiNamespace);
    const names = ['a-fine', 'b-victim', 'c-later'];
    for (const name of names) {
      await createMachineSet(
        c.mapiNamespace,
        awsMachineSet(name, c.mapiNamespace, { replicas: 0 }),
      );
    }
    await fleetSynchronized(c, names, 0);
    // someone else's policy: b-victim's CAPI MachineSet may not be unpaused
    const deny = uniqueName('freeze-b-victim');
    const client = adminObjects();
    const paused = (o: string) =>
      `has(${o}.metadata.annotations) && 'cluster.x-k8s.io/paused' in ${o}.metadata.annotations`;
    const policy = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: deny },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [
            {
              apiGroups: ['cluster.x-k8s.io'],
              apiVersions: ['*'],
              operations: ['UPDATE'],
              resources: ['machinesets'],
            },
          ],
        },
        validations: [
          {
            expression: `object.metadata.name != 'b-victim' || !(${paused('oldObject')}) || ${paused('object')}`,
            message: 'b-victim stays paused',
          },
        ],
      },
    };
    const binding = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: deny },
      spec: {
        policyName: deny,
        validationActions: ['Deny'],
        matchResources: {
          namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': c.capiNamespace } },
        },
      },
    };
    await client.create(VALIDATING_ADMISSION_POLICY, policy);
    await client.create(VALIDATING_ADMISSION_POLICY_BINDING, binding);
    try {
      // in effect: the controller's own unpause, tried without being stored
      const asController = objectsFor(identityConfig('mapi-capi-sync'));
      await eventually(async () => {
        const err = await asController
          .patch(
            { ...CAPI, namespace: c.capiNamespace, name: 'b-victim' },
            {
              type: 'json',
              operations: [
                { op: 'remove', path: '/metadata/annotations/cluster.x-k8s.io~1paused' },
              ],
            },
            { dryRun: true },
          )
          .then(
            () => '',
            (e: { body?: unknown }) => JSON.stringify(e.body),
          );
        expect(err).to.include('b-victim stays paused');
      });

      const ran = await migrate(c, ['--all', '--to', 'ClusterAPI']);
      expect(ran.code, ran.out + ran.err).to.equal(1);
      expect(ran.err).to.match(
        /^error: b-victim: Synchronized=False, reason FailedToUpdateCAPIMachineSet: The API server refused .*b-victim stays paused/,
      );
      expect(ran.out).to.include(
        '3 MachineSets: 1 migrated, 0 already on ClusterAPI, 1 failed, 1 not started; stopped on a failure.',
      );
      expect(ran.out).to.include(
        `  to go back:    oc mapi-capi-sync migrate a-fine b-victim --to ClusterAPI --rollback -n ${c.mapiNamespace}`,
      );
      const [a, b, later] = (await Promise.all(
        names.map((n) => getMapi(c, n)),
      )) as MapiMachineSet[];
      expect(a?.status?.authoritativeAPI).to.equal('ClusterAPI');
      expect(b?.status?.authoritativeAPI).to.equal('Migrating');
      expect(later?.spec.authoritativeAPI).to.equal('MachineAPI');
    } finally {
      await client.delete({ ...VALIDATING_ADMISSION_POLICY_BINDING, name: deny });
      await client.delete({ ...VALIDATING_ADMISSION_POLICY, name: deny });
    }
  });
});
