// `mapi-capi-sync check` against the real control plane: what it reports of MachineSets the
// controller has synchronized (or could not), that Cluster API and its provider's webhooks accept
// the objects it shows, and that it writes nothing.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadAll } from 'js-yaml';
import type { KubeObject, MapiMachineSet } from '../../src/api/types.js';
import type { CheckDocument } from '../../src/cli/check/render.js';
import {
  CLUSTER_ROLE,
  CLUSTER_ROLE_BINDING,
  ROLE,
  ROLE_BINDING,
} from '../../src/kube/builtin-resources.js';
import {
  adminObjects,
  controlPlane,
  createLimitedIdentity,
  testNamespace,
} from '../support/cluster.js';
import {
  AWS_TEMPLATES,
  awsMachineSet,
  CAPI,
  createMachineSet,
  DEFAULT_INFRASTRUCTURE,
  MAPI,
  setInfrastructure,
  startTestController,
  unadmitted,
} from '../support/controller.js';
import { createUserData } from '../support/capi-cluster.js';
import { check } from '../support/check.js';
import { eventually } from '../support/eventually.js';
import { MACHINE_AUTOSCALER } from '../../src/kube/resources.js';
import { FROM_SOURCE } from '../support/program.js';

const AMI_PATH = 'spec.template.spec.providerSpec.value.ami.arn';

/** Every object of these kinds in these namespaces, by kind/namespace/name → resourceVersion. */
async function snapshot(namespaces: string[]): Promise<Record<string, string>> {
  const api = adminObjects();
  const versions: Record<string, string> = {};
  for (const resource of [MAPI, CAPI, AWS_TEMPLATES]) {
    for (const namespace of namespaces) {
      const list = await api.list<KubeObject>({ ...resource, namespace });
      for (const item of list.items) {
        versions[`${resource.plural}/${namespace}/${item.metadata.name}`] =
          item.metadata.resourceVersion ?? '';
      }
    }
  }
  const infrastructure = await api.get<KubeObject>({
    group: 'config.openshift.io',
    version: 'v1',
    plural: 'infrastructures',
    name: 'cluster',
  });
  versions['infrastructures/cluster'] = infrastructure.metadata.resourceVersion ?? '';
  return versions;
}

async function synchronizedOf(namespace: string, name: string) {
  const mapi = await adminObjects().get<MapiMachineSet>({ ...MAPI, namespace, name });
  const condition = mapi.status?.conditions?.find((c) => c.type === 'Synchronized');
  return {
    condition,
    generation: mapi.metadata.generation,
    at: mapi.status?.synchronizedGeneration,
  };
}

/** Creates each object as a server-side dry run: validation and every admission webhook, no write. */
async function dryRunCreate(object: KubeObject): Promise<void> {
  const [group, version] = object.apiVersion.split('/') as [string, string];
  const plural = object.kind === 'MachineSet' ? 'machinesets' : `${object.kind.toLowerCase()}s`;
  await adminObjects().create(
    { group, version, plural, namespace: object.metadata.namespace ?? '' },
    object,
    { dryRun: true, fieldValidation: 'Strict' },
  );
}

describe('mapi-capi-sync check', function () {
  this.timeout(180_000);

  it('reports a good and a bad MachineSet, exits 1, shows CAPI objects the API server accepts, and writes nothing', async () => {
    await setInfrastructure(DEFAULT_INFRASTRUCTURE);
    const c = await startTestController();
    const good = awsMachineSet('good', c.mapiNamespace, { replicas: 0 });
    // machine-api-operator's validating webhook refuses a missing ami.id: one it never saw
    const bad = unadmitted(awsMachineSet('ami-arn', c.mapiNamespace, { replicas: 0 }));
    (bad.spec.template!.spec!.providerSpec!.value as { ami: object }).ami = {
      arn: 'arn:aws:ec2:us-east-1::image/ami-0abcdef1234567890',
    };
    await createMachineSet(c.mapiNamespace, good);
    await createMachineSet(c.mapiNamespace, bad);
    await eventually(async () => {
      const g = await synchronizedOf(c.mapiNamespace, 'good');
      expect(g.condition?.status).to.equal('True');
      expect(g.at).to.equal(g.generation);
      const b = await synchronizedOf(c.mapiNamespace, 'ami-arn');
      expect(b.condition?.reason).to.equal('FailedToConvertMAPIMachineSetToCAPI');
    });
    // From here on only check and the neighbours run; the neighbours settle first.
    await c.stop();
    const dryRunNamespace = await testNamespace('check');
    await createUserData(dryRunNamespace);
    const namespaces = [c.mapiNamespace, c.capiNamespace, dryRunNamespace];
    let before: Record<string, string> = {};
    await eventually(
      async () => {
        const previous = before;
        before = await snapshot(namespaces);
        expect(before).to.deep.equal(previous);
      },
      { timeoutMs: 60_000, intervalMs: 2_000 },
    );
    expect(Object.keys(before)).to.include.members([
      `machinesets/${c.mapiNamespace}/good`,
      `machinesets/${c.mapiNamespace}/ami-arn`,
      `machinesets/${c.capiNamespace}/good`,
    ]);
    expect(Object.keys(before).filter((k) => k.startsWith('awsmachinetemplates/'))).to.have.length(
      1,
    );
    const kubeconfig = ['--kubeconfig', controlPlane().kubeconfigPath];
    const where = ['--mapi-namespace', c.mapiNamespace, '--capi-namespace', dryRunNamespace];

    const yaml = await check([...kubeconfig, ...where, '-o', 'yaml']);
    expect(yaml.stderr).to.equal('');
    expect(yaml.code).to.equal(1);
    const [report] = loadAll(yaml.stdout) as CheckDocument[];
    expect(report?.readFrom).to.equal('cluster');
    expect(report?.summary).to.deep.equal({ machineSets: 2, canMirror: 1, canMigrate: 1 });
    const [badReport, goodReport] = report!.machineSets;
    expect(goodReport).to.deep.include({
      name: 'good',
      platform: 'AWS',
      authoritativeAPI: 'MachineAPI',
      canMirror: true,
      canMigrate: true,
      blocking: [],
    });
    expect(badReport).to.deep.include({ name: 'ami-arn', canMirror: false, canMigrate: false });
    // The conversion's field, and the gate's: the controller reported the same failure.
    expect(badReport!.blocking.map((p) => [p.stage, p.path])).to.deep.equal([
      ['mirror', AMI_PATH],
      ['migration', 'status.conditions[Synchronized]'],
    ]);
    expect(badReport!.blocking[1]?.message).to.match(
      /^is False, reason FailedToConvertMAPIMachineSetToCAPI; fix what it names/,
    );

    // What check shows is what Cluster API and CAPA's webhooks accept, template first.
    const objects = goodReport!.capiObjects;
    expect(objects.map((o) => o.kind)).to.deep.equal(['AWSMachineTemplate', 'MachineSet']);
    for (const object of objects) await dryRunCreate(object);
    // The dry run is a real check: Cluster API refuses a MachineSet of another cluster.
    const wrong = structuredClone(objects[1]) as KubeObject & { spec: { clusterName: string } };
    wrong.spec.clusterName = 'another-cluster';
    const refusal = await dryRunCreate(wrong).then(
      () => undefined,
      (err: { code?: number }) => err.code,
    );
    expect(refusal).to.be.within(400, 499);

    // The program itself, as an administrator runs it: the table, exit code 1.
    const program = spawnSync(
      process.execPath,
      [...FROM_SOURCE.nodeArgs, 'check', ...kubeconfig, ...where],
      { cwd: FROM_SOURCE.cwd, encoding: 'utf8', env: { ...process.env, KUBECONFIG: '' } },
    );
    expect(program.status, program.stderr).to.equal(1);
    const lines = program.stdout.split('\n');
    expect(lines[0]).to.match(/^NAME +PLATFORM +MIRROR +MIGRATE$/);
    expect(lines[1]).to.match(/^ami-arn +AWS +no +no$/);
    expect(lines[2]).to.equal(`    blocking: ${AMI_PATH}: ${badReport!.blocking[0]?.message}`);
    expect(lines).to.satisfy((ls: string[]) => ls.some((l) => /^good +AWS +yes +yes$/.test(l)));
    expect(lines).to.include('2 MachineSets: 1 can migrate, 1 cannot (1 cannot be mirrored)');

    expect(await snapshot(namespaces)).to.deep.equal(before);
  });

  it('names the MachineAutoscaler that holds a MachineSet, and one that names no MachineSet', async () => {
    await setInfrastructure(DEFAULT_INFRASTRUCTURE);
    const namespace = await testNamespace('check');
    await createMachineSet(namespace, awsMachineSet('scaled', namespace, { replicas: 0 }));
    await createMachineSet(namespace, awsMachineSet('alone', namespace, { replicas: 0 }));
    const api = adminObjects();
    const autoscaler = (name: string, target: string) => ({
      apiVersion: 'autoscaling.openshift.io/v1beta1',
      kind: 'MachineAutoscaler',
      metadata: { name, namespace },
      spec: {
        minReplicas: 0,
        maxReplicas: 3,
        scaleTargetRef: {
          apiVersion: 'machine.openshift.io/v1beta1',
          kind: 'MachineSet',
          name: target,
        },
      },
    });
    for (const [name, target] of [
      ['scaler', 'scaled'],
      ['stray', 'gone'],
    ] as const) {
      await api.create({ ...MACHINE_AUTOSCALER, namespace }, autoscaler(name, target));
    }
    const run = await check([
      '--kubeconfig',
      controlPlane().kubeconfigPath,
      '--mapi-namespace',
      namespace,
      '-o',
      'json',
    ]);
    expect(run.stderr).to.equal('');
    const document = JSON.parse(run.stdout) as CheckDocument;
    const blocking = (name: string) =>
      document.machineSets.find((m) => m.name === name)!.blocking.map((p) => p.path);
    expect(blocking('scaled')).to.include('MachineAutoscaler scaler spec.scaleTargetRef');
    expect(blocking('alone')).to.not.include('MachineAutoscaler scaler spec.scaleTargetRef');
    expect(document.notes).to.deep.equal([
      'MachineAutoscaler stray names MachineSet gone (machine.openshift.io/v1beta1), which is not among the Machine API MachineSets read: it scales nothing and holds no migration; correct spec.scaleTargetRef or delete it.',
    ]);
  });

  it('holds a MachineSet whose bootstrap Secret Cluster API would not find, and says how to copy it', async () => {
    await setInfrastructure(DEFAULT_INFRASTRUCTURE);
    const namespace = await testNamespace('check');
    const capiNamespace = await testNamespace('check-capi');
    await createMachineSet(namespace, awsMachineSet('boot', namespace, { replicas: 0 }));
    const args = [
      ...['--kubeconfig', controlPlane().kubeconfigPath, '--mapi-namespace', namespace],
      ...['--capi-namespace', capiNamespace, '-o', 'json'],
    ];
    const bootstrap = async () => {
      const run = await check(args);
      expect(run.stderr).to.equal('');
      const [report] = (JSON.parse(run.stdout) as CheckDocument).machineSets;
      return report!.blocking.filter((p) => p.path.endsWith('userDataSecret.name'));
    };
    const [problem, ...more] = await bootstrap();
    expect(more).to.deep.equal([]);
    expect(problem).to.deep.include({
      stage: 'migration',
      path: 'spec.template.spec.providerSpec.value.userDataSecret.name',
    });
    expect(problem!.message).to.match(
      new RegExp(
        `^names the Secret worker-user-data, which does not exist in ${capiNamespace}, where Cluster API reads it: .*\\(oc get secret worker-user-data -n ${namespace} -o json`,
      ),
    );
    await createUserData(capiNamespace);
    expect(await bootstrap()).to.deep.equal([]);
  });

  it('needs only to list MachineSets and get the Infrastructure (and MachineAutoscalers, Secrets and Cluster API MachineSets, if it may)', async () => {
    await setInfrastructure(DEFAULT_INFRASTRUCTURE);
    const namespace = await testNamespace('check');
    await createMachineSet(namespace, awsMachineSet('good', namespace, { replicas: 0 }));
    const identity = await createLimitedIdentity(namespace, 'checker');
    const rbac = adminObjects();
    const subjects = [{ kind: 'ServiceAccount', name: 'checker', namespace }];
    await rbac.create(
      { ...ROLE, namespace },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'checker' },
        rules: [
          { apiGroups: ['machine.openshift.io'], resources: ['machinesets'], verbs: ['list'] },
        ],
      },
    );
    await rbac.create(
      { ...ROLE_BINDING, namespace },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'checker' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'checker' },
        subjects,
      },
    );
    const clusterRole = namespace; // unique, and gone with the test
    await rbac.create(CLUSTER_ROLE, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: clusterRole },
      rules: [
        {
          apiGroups: ['config.openshift.io'],
          resources: ['infrastructures'],
          resourceNames: ['cluster'],
          verbs: ['get'],
        },
      ],
    });
    const dir = await mkdtemp(join(tmpdir(), 'check-'));
    try {
      await rbac.create(CLUSTER_ROLE_BINDING, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: clusterRole },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: clusterRole,
        },
        subjects,
      });
      const kubeconfig = join(dir, 'kubeconfig');
      await writeFile(kubeconfig, identity.kubeConfig.exportConfig(), { mode: 0o600 });
      const args = ['--kubeconfig', kubeconfig, '--mapi-namespace', namespace, '-o', 'json'];
      // The authorizer may see the new bindings a moment later.
      const result = await eventually(async () => {
        const run = await check(args);
        expect(run.stderr).to.equal('');
        return run;
      });
      const document = JSON.parse(result.stdout) as CheckDocument;
      expect(document.machineSets.map((m) => [m.name, m.platform, m.canMirror])).to.deep.equal([
        ['good', 'AWS', true],
      ]);
      // Never synchronized (no controller here): the gate holds it, and check says so.
      expect(result.code).to.equal(1);
      // MachineAutoscalers and CAPI MachineSets it may not list, Secrets it may not get: said,
      // not fatal
      expect(document.notes).to.have.length(3);
      expect(document.notes[0]).to.match(
        /^MachineAutoscalers not checked: cannot list machineautoscalers\.autoscaling\.openshift\.io in check-[0-9a-f]+: .*forbidden/,
      );
      expect(document.notes[1]).to.match(
        /^bootstrap Secrets in openshift-cluster-api not checked: cannot get secrets in openshift-cluster-api: .*forbidden/,
      );
      expect(document.notes[2]).to.match(
        /^leftover Cluster API MachineSets not checked: cannot list machinesets\.cluster\.x-k8s\.io in openshift-cluster-api: .*forbidden/,
      );

      // Without the right to list, a clear one-line refusal and exit code 2.
      await rbac.delete({ ...ROLE_BINDING, namespace, name: 'checker' });
      const refused = await eventually(async () => {
        const run = await check(args);
        expect(run.code).to.equal(2);
        return run;
      });
      expect(refused.stderr).to.match(
        /^mapi-capi-sync check: cannot list machinesets\.machine\.openshift\.io in check-[0-9a-f]+: .*forbidden/,
      );
      expect(refused.stderr.trimEnd().split('\n')).to.have.length(1);
    } finally {
      await rbac.delete({ ...CLUSTER_ROLE_BINDING, name: clusterRole }).catch(() => undefined);
      await rbac.delete({ ...CLUSTER_ROLE, name: clusterRole }).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    }
  });
});
