// The controller's ClusterOperator, written by the program as it runs in a pod (product.md, "The
// controller's own health"): healthy; a MachineSet stuck unsynchronized past the threshold; no
// Infrastructure; writes refused for lack of a grant; a leader change (only the leader writes, and
// the status does not flap).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import type { V1PolicyRule } from '@kubernetes/client-node';
import type { OperatorCondition } from '../../src/status/operator-status.js';
import { programVersion } from '../../src/version.js';
import { createCapiCluster } from '../support/capi-cluster.js';
import {
  adminObjects,
  controlPlane,
  createLimitedIdentity,
  testNamespace,
  uniqueName,
} from '../support/cluster.js';
import {
  awsMachineSet,
  createMachineSet,
  DEFAULT_INFRASTRUCTURE,
  MAPI,
  setInfrastructure,
  unadmitted,
} from '../support/controller.js';
import { acknowledgeControllerDenials } from '../support/audit.js';
import { eventually } from '../support/eventually.js';
import {
  loadManifests,
  rewriteManifests,
  SERVICE_ACCOUNT,
  type ManifestObject,
} from '../support/manifests.js';
import { startProgram, type ProgramProcess } from '../support/program.js';

const CLUSTER_OPERATORS = {
  group: 'config.openshift.io',
  version: 'v1',
  plural: 'clusteroperators',
};
const INFRASTRUCTURES = { group: 'config.openshift.io', version: 'v1', plural: 'infrastructures' };
const WAIT = { timeoutMs: 60_000 };
const FAST = ['--operator-status-interval=500ms', '--degraded-after=3s'];

interface ClusterOperator {
  metadata: { name: string; resourceVersion: string };
  status?: {
    conditions?: OperatorCondition[];
    versions?: { name: string; version: string }[];
    relatedObjects?: { group: string; resource: string; namespace?: string; name: string }[];
  };
}

async function getClusterOperator(name: string): Promise<ClusterOperator | undefined> {
  try {
    return await adminObjects().get<ClusterOperator>({ ...CLUSTER_OPERATORS, name });
  } catch (err) {
    if ((err as { code?: number }).code === 404) return undefined;
    throw err;
  }
}

/** The ClusterOperator the Deployment names, and the only one its ClusterRole lets it write. */
const CLUSTER_OPERATOR = 'mapi-capi-sync';

async function deleteClusterOperator(name: string): Promise<void> {
  await adminObjects()
    .delete({ ...CLUSTER_OPERATORS, name })
    .catch((err: { code?: number }) => {
      if (err.code !== 404) throw err;
    });
}

const conditionOf = (co: ClusterOperator | undefined, type: string) =>
  co?.status?.conditions?.find((c) => c.type === type);

/** Waits until the ClusterOperator's conditions include these status/reason pairs. */
async function waitConditions(
  name: string,
  expected: Record<string, { status: string; reason?: string }>,
): Promise<ClusterOperator> {
  return eventually(async () => {
    const co = await getClusterOperator(name);
    for (const [type, want] of Object.entries(expected)) {
      expect(conditionOf(co, type), `${type}: ${JSON.stringify(co?.status)}`).to.include(want);
    }
    return co!;
  }, WAIT);
}

async function namespaces() {
  const mapiNamespace = await testNamespace('mapi');
  const capiNamespace = await testNamespace('capi');
  return { mapiNamespace, capiNamespace };
}

function startFor(
  ns: { mapiNamespace: string; capiNamespace: string },
  clusterOperator: string,
  extra: string[] = [],
): ProgramProcess {
  return startProgram([
    `--mapi-namespace=${ns.mapiNamespace}`,
    `--capi-namespace=${ns.capiNamespace}`,
    `--cluster-operator=${clusterOperator}`,
    ...FAST,
    ...extra,
  ]);
}

describe('the ClusterOperator', function () {
  this.timeout(300_000);
  const names: string[] = [];
  // The name the manifests' ClusterRole grants (resourceNames): one test at a time uses it.
  const clusterOperator = () => {
    names.push(CLUSTER_OPERATOR);
    return CLUSTER_OPERATOR;
  };

  beforeEach(async () => {
    await setInfrastructure(DEFAULT_INFRASTRUCTURE);
    await deleteClusterOperator(CLUSTER_OPERATOR);
  });
  afterEach(async () => {
    await setInfrastructure(DEFAULT_INFRASTRUCTURE);
    for (const name of names.splice(0)) await deleteClusterOperator(name);
  });

  it('is created and healthy; a MachineSet unsynchronized past the threshold degrades it, and its fix heals it', async () => {
    const ns = await namespaces();
    await createCapiCluster(ns.capiNamespace);
    await createMachineSet(ns.mapiNamespace, awsMachineSet('good', ns.mapiNamespace));
    const name = clusterOperator();
    startFor(ns, name);
    const healthy = await waitConditions(name, {
      Available: { status: 'True', reason: 'AsExpected' },
      Progressing: { status: 'False', reason: 'AsExpected' },
      Degraded: { status: 'False', reason: 'AsExpected' },
      Upgradeable: { status: 'True', reason: 'AsExpected' },
    });
    expect(healthy.status?.versions).to.deep.equal([
      { name: 'operator', version: programVersion() },
    ]);
    expect(healthy.status?.relatedObjects).to.deep.include({
      group: 'machine.openshift.io',
      resource: 'machinesets',
      namespace: ns.mapiNamespace,
      name: '',
    });
    expect(healthy.status?.relatedObjects).to.deep.include({
      group: '',
      resource: 'namespaces',
      name: ns.capiNamespace,
    });

    // Healthy and unchanged: nothing written over several intervals.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await getClusterOperator(name))?.metadata.resourceVersion).to.equal(
      healthy.metadata.resourceVersion,
    );

    // machine-api-operator's webhooks refuse it: one they never saw
    const bad = unadmitted(awsMachineSet('bad', ns.mapiNamespace));
    (bad.spec.template!.spec!.providerSpec!.value as { instanceType: unknown }).instanceType = 42;
    await createMachineSet(ns.mapiNamespace, bad);
    const degraded = await waitConditions(name, {
      Degraded: { status: 'True', reason: 'MachineSetsNotSynchronized' },
      Available: { status: 'True' },
    });
    expect(conditionOf(degraded, 'Degraded')?.message).to.include(
      'bad (FailedToConvertMAPIMachineSetToCAPI)',
    );
    await adminObjects().patch(
      { ...MAPI, namespace: ns.mapiNamespace, name: 'bad' },
      {
        type: 'json',
        operations: [
          {
            op: 'replace',
            path: '/spec/template/spec/providerSpec/value/instanceType',
            value: 'm6i.large',
          },
        ],
      },
    );
    await waitConditions(name, {
      Degraded: { status: 'False', reason: 'AsExpected' },
      Progressing: { status: 'False' },
    });
  });

  it('says Degraded InfrastructureMissing when there is no Infrastructure', async () => {
    const ns = await namespaces();
    await adminObjects().delete({ ...INFRASTRUCTURES, name: 'cluster' });
    const name = clusterOperator();
    startFor(ns, name);
    const co = await waitConditions(name, {
      Available: { status: 'True' },
      Degraded: { status: 'True', reason: 'InfrastructureMissing' },
    });
    expect(conditionOf(co, 'Degraded')?.message).to.include('oc get infrastructure cluster');
  });

  it('says Degraded WritesRefused when the API server refuses a write for lack of a grant, and heals when granted', async () => {
    // not 'mapi'/'capi': those get the manifests' Roles already, and this test writes its own
    const ns = {
      mapiNamespace: await testNamespace('co-mapi'),
      capiNamespace: await testNamespace('co-capi'),
    };
    await createCapiCluster(ns.capiNamespace);
    // The manifests' RBAC for this test's namespaces, without "create" on CAPI MachineSets.
    const manifests = rewriteManifests(await loadManifests(), {
      ...ns,
      suffix: uniqueName('co-rbac'),
    });
    const identity = await createLimitedIdentity(ns.capiNamespace, SERVICE_ACCOUNT);
    const kubeconfig = join(controlPlane().dir, `${uniqueName('kubeconfig-co')}.json`);
    await writeFile(kubeconfig, identity.kubeConfig.exportConfig(), { mode: 0o600 });
    const client = adminObjects();
    const roles = manifests.filter((o) => /^(Cluster)?Role(Binding)?$/.test(o.kind));
    const capiRole = roles.find(
      (o) =>
        o.kind === 'Role' &&
        o.metadata.namespace === ns.capiNamespace &&
        (o as ManifestObject & { rules: V1PolicyRule[] }).rules.some((r) =>
          r.resources?.includes('machinesets'),
        ),
    ) as ManifestObject & { rules: V1PolicyRule[] };
    const granted = structuredClone(capiRole.rules);
    capiRole.rules = capiRole.rules.map((r) =>
      r.apiGroups?.includes('cluster.x-k8s.io') && r.resources?.includes('machinesets')
        ? { ...r, verbs: r.verbs.filter((v) => v !== 'create') }
        : r,
    );
    const clusterScoped: ManifestObject[] = [];
    let program: ProgramProcess | undefined;
    try {
      for (const object of roles) {
        await client.create(await client.locate(object), object);
        if (!object.metadata.namespace) clusterScoped.push(object);
      }
      // The ClusterRole grants the ClusterOperator by its name in the manifests.
      names.push('mapi-capi-sync');
      await deleteClusterOperator('mapi-capi-sync');
      await createMachineSet(ns.mapiNamespace, awsMachineSet('refused', ns.mapiNamespace));
      program = startFor(ns, 'mapi-capi-sync', [`--kubeconfig=${kubeconfig}`]);
      const co = await waitConditions('mapi-capi-sync', {
        Degraded: { status: 'True', reason: 'WritesRefused' },
      });
      expect(conditionOf(co, 'Degraded')?.message).to.include(
        'create machinesets.cluster.x-k8s.io',
      );

      capiRole.rules = granted;
      await client.replace(await client.locate(capiRole), capiRole);
      await waitConditions('mapi-capi-sync', { Degraded: { status: 'False' } });
      // refused on purpose: not a defect for the root hook to report
      await acknowledgeControllerDenials();
    } finally {
      // stopped before its grants go, or its next read would be refused
      program?.kill('SIGTERM');
      await program?.exit(60_000);
      for (const object of clusterScoped) {
        await client
          .locate(object)
          .then((at) => client.delete(at))
          .catch(() => undefined);
      }
    }
  });

  it('is written by the leader only; a new leader finds it current and does not flap it', async () => {
    const ns = await namespaces();
    await createCapiCluster(ns.capiNamespace);
    await createMachineSet(ns.mapiNamespace, awsMachineSet('steady', ns.mapiNamespace));
    const name = clusterOperator();
    const election = [
      '--leader-elect',
      `--leader-elect-namespace=${ns.capiNamespace}`,
      // Long enough that a loaded machine never loses the lease by a late renewal (the standby
      // would then lead and write); the hand-over below is a release, which takes one retry.
      '--leader-elect-lease-duration=15s',
      '--leader-elect-renew-deadline=10s',
      '--leader-elect-retry-period=500ms',
    ];
    const first = startFor(ns, name, election);
    await eventually(() => {
      expect(first.logs().some((l) => l.message === 'became leader')).to.equal(true);
    }, WAIT);
    const second = startFor(ns, name, election);
    const healthy = await waitConditions(name, {
      Available: { status: 'True' },
      Degraded: { status: 'False' },
      Progressing: { status: 'False' },
    });
    await eventually(() => {
      expect(second.logs().some((l) => l.message === 'caches synced')).to.equal(true);
    }, WAIT);
    const reported = (p: ProgramProcess) =>
      p.logs().filter((l) => l.message === 'reported the ClusterOperator status').length;
    expect(
      reported(second),
      `the standby writes nothing\n--- first:\n${first.text}\n--- second:\n${second.text}`,
    ).to.equal(0);

    // SIGTERM releases the lease; the standby leads, derives the same status, writes nothing.
    first.kill('SIGTERM');
    expect(await first.exit(60_000), first.text).to.equal(0);
    await eventually(() => {
      expect(second.logs().some((l) => l.message === 'became leader')).to.equal(true);
    }, WAIT);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const after = await getClusterOperator(name);
    expect(after?.metadata.resourceVersion, 'no write on a leader change').to.equal(
      healthy.metadata.resourceVersion,
    );
    expect(after?.status?.conditions).to.deep.equal(healthy.status?.conditions);

    // And it does report what changes next.
    // machine-api-operator's webhooks refuse it: one they never saw
    const bad = unadmitted(awsMachineSet('bad', ns.mapiNamespace));
    (bad.spec.template!.spec!.providerSpec!.value as { instanceType: unknown }).instanceType = 42;
    await createMachineSet(ns.mapiNamespace, bad);
    await waitConditions(name, { Degraded: { status: 'True' } });
    expect(reported(second)).to.be.greaterThan(0);
  });
});
