// Our admission policies (manifests/admission-policies.yaml) through the real API server, next to
// the real neighbours: each refuses a person's edit with its documented message and admits the
// same request from the controllers it exempts (this controller's identity, Cluster API's,
// machine-api-operator's). And a write of ours that someone else's policy denies is reported on
// the object at once, never retried in silence.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { expect } from 'chai';
import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject, MapiMachineSet } from '../../src/api/types.js';
import { MIRROR_UID_ANNOTATION } from '../../src/model/markers.js';
import {
  VALIDATING_ADMISSION_POLICY,
  VALIDATING_ADMISSION_POLICY_BINDING,
} from '../../src/kube/builtin-resources.js';
import {
  admissionPolicies,
  installAdmissionPolicies,
  installForTheTest,
} from '../support/admission.js';
import type { ManifestObject } from '../support/manifests.js';
import {
  acknowledgeControllerDenials,
  auditLogEnd,
  controllerDenialsSince,
} from '../support/audit.js';
import { createCapiCluster } from '../support/capi-cluster.js';
import {
  adminConfig,
  adminObjects,
  controlPlane,
  identityConfig,
  testNamespace,
  uniqueName,
} from '../support/cluster.js';
import {
  awsMachineSet,
  CAPI,
  DEFAULT_INFRASTRUCTURE,
  MAPI,
  setInfrastructure,
  startTestController,
} from '../support/controller.js';
import { eventually } from '../support/eventually.js';
import { namespaceEvents } from '../support/events.js';
import { createAs, mergePatchAs, refusal, refusedOnceInEffect } from '../support/requests.js';
import { objectsFor } from '../support/kube-client.js';
import { CAPI_MACHINES, MAPI_MACHINES } from '../support/machines.js';
import { warningClient } from '../support/warnings.js';
import { isConflict } from '../../src/kube/errors.js';

type Where = { group: string; version: string; plural: string };

const configOf = identityConfig;

/**
 * machine-api-operator has copied spec.authoritativeAPI into the empty status and, in a second
 * write, set its Paused condition from it. A test's own status write must wait for both: the
 * second is a merge patch computed from the copy machine-api-operator read, and it sets
 * status.phase to that copy's (empty), undoing a phase written in between.
 */
async function waitStatusAuthority(
  where: Where,
  namespace: string,
  name: string,
  authority: string,
) {
  const api = adminObjects();
  await eventually(async () => {
    const current = await api.get<{
      status?: { authoritativeAPI?: string; conditions?: { type: string; status: string }[] };
    }>({ ...where, namespace, name });
    expect(current.status?.authoritativeAPI).to.equal(authority);
    expect(current.status?.conditions?.find((c) => c.type === 'Paused')?.status).to.equal(
      authority === 'MachineAPI' ? 'False' : 'True',
    );
  });
}

/**
 * Sets status fields by read-modify-write. machine-api-operator's controllers write the same
 * status, so a 409 means "read again", as for any writer of a shared object.
 */
async function setStatus(where: Where, namespace: string, name: string, status: object) {
  const api = adminObjects();
  for (let attempt = 1; ; attempt++) {
    const current = await api.get<{
      status?: object;
    }>({ ...where, namespace, name });
    try {
      await api.replace(
        { ...where, namespace, name },
        { ...current, status: { ...current.status, ...status } },
        { subresource: 'status' },
      );
      return;
    } catch (err) {
      if (!isConflict(err) || attempt === 10) throw err;
    }
  }
}

const synchronizedTrue = (generation: number) => ({
  conditions: [
    {
      type: 'Synchronized',
      status: 'True',
      severity: '',
      reason: 'ResourceSynchronized',
      message: '',
      lastTransitionTime: '2026-01-01T00:00:00Z',
    },
  ],
  synchronizedGeneration: generation,
});

function capiMachineSet(name: string, namespace: string, extra: object = {}) {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineSet',
    metadata: {
      name,
      namespace,
      annotations: { 'cluster.x-k8s.io/paused': 'true' },
      labels: { 'cluster.x-k8s.io/cluster-name': 'demo-abc12' },
    },
    spec: {
      clusterName: 'demo-abc12',
      replicas: 0,
      selector: { matchLabels: { set: name } },
      template: {
        metadata: { labels: { set: name } },
        spec: {
          clusterName: 'demo-abc12',
          bootstrap: { dataSecretName: 'worker-user-data' },
          infrastructureRef: {
            apiGroup: 'infrastructure.cluster.x-k8s.io',
            kind: 'AWSMachineTemplate',
            name: `${name}-template`,
          },
          ...extra,
        },
      },
    },
  };
}

/** A CAPI Machine of the cluster, on an AWSMachine of its name; paused unless said otherwise. */
function capiMachine(name: string, namespace: string, paused = true, extra: object = {}) {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: {
      name,
      namespace,
      annotations: paused ? { 'cluster.x-k8s.io/paused': 'true' } : {},
    },
    spec: {
      clusterName: 'demo-abc12',
      bootstrap: { dataSecretName: 'worker-user-data' },
      infrastructureRef: {
        apiGroup: 'infrastructure.cluster.x-k8s.io',
        kind: 'AWSMachine',
        name,
      },
      ...extra,
    },
  };
}

/** A providerSpec machine-api-operator's webhooks admit (the installer-style worker's). */
function awsProviderSpec() {
  return awsMachineSet('any', 'any').spec.template!.spec!.providerSpec!;
}

/** Someone else's policy on every creation of a CAPI MachineSet, by anyone, where it is bound. */
function machineSetCreationPolicy(
  name: string,
  spec: { validations: { expression: string; message?: string }[]; paramKind?: object },
) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      failurePolicy: 'Fail',
      ...(spec.paramKind ? { paramKind: spec.paramKind } : {}),
      matchConstraints: {
        resourceRules: [
          {
            apiGroups: ['cluster.x-k8s.io'],
            apiVersions: ['*'],
            operations: ['CREATE'],
            resources: ['machinesets'],
          },
        ],
      },
      validations: spec.validations,
    },
  };
}

/** A Deny binding of the policy of the same name to one namespace. */
function denyingBinding(name: string, namespace: string, paramRef?: object) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: {
      policyName: name,
      validationActions: ['Deny'],
      ...(paramRef ? { paramRef } : {}),
      matchResources: {
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
      },
    },
  };
}

async function namespacesWithPolicies() {
  const mapiNamespace = await testNamespace('mapi');
  const capiNamespace = await testNamespace('capi');
  await installAdmissionPolicies({ mapiNamespace, capiNamespace });
  return { mapiNamespace, capiNamespace };
}

describe('admission policies', function () {
  this.timeout(180_000);

  before(async () => {
    await setInfrastructure(DEFAULT_INFRASTRUCTURE);
  });

  it('the paused CAPI mirror is read-only for a person under MachineAPI; Cluster API and the controller are admitted', async () => {
    // our policy's own message: OpenShift's would refuse the same edit first, with its own
    const ctrl = await startTestController({ openshiftPolicies: false });
    await createCapiCluster(ctrl.capiNamespace);
    const name = uniqueName('guarded');
    const mapi = adminObjects();
    await mapi.create(
      { ...MAPI, namespace: ctrl.mapiNamespace },
      awsMachineSet(name, ctrl.mapiNamespace, { replicas: 0 }),
    );
    await eventually(
      async () => {
        const current = await mapi.get<MapiMachineSet>({
          ...MAPI,
          namespace: ctrl.mapiNamespace,
          name,
        });
        expect(current.status?.conditions?.find((c) => c.type === 'Synchronized')?.status).to.equal(
          'True',
        );
      },
      { timeoutMs: 60_000 },
    );
    const mirror = {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineSet',
      namespace: ctrl.capiNamespace,
      name,
    };
    const person = adminConfig();
    const scale = { spec: { replicas: 3 } };
    const denied = await refusedOnceInEffect(() => mergePatchAs(person, mirror, scale, true));
    expect(denied).to.contain(
      "ValidatingAdmissionPolicy 'mapi-capi-sync-cluster-api-machine-set-mirror",
    );
    expect(denied).to.contain(
      `MachineSet ${name} is a paused mirror of the Machine API MachineSet of the same name (status.authoritativeAPI: MachineAPI)`,
    );
    expect(denied).to.contain(`Edit the Machine API MachineSet in ${ctrl.mapiNamespace} instead`);

    const label = { metadata: { labels: { 'cluster.x-k8s.io/owner': 'me' } } };
    expect(await mergePatchAs(person, mirror, label)).to.contain('(cluster.x-k8s.io/owner)');
    expect(
      await mergePatchAs(person, mirror, { metadata: { labels: { team: 'a' } } }, true),
      "other labels are the person's own",
    ).to.equal(undefined);
    // The uninstall (hack/release-finalizers.sh, run by a person) records the mirror's own uid;
    // any other value is refused.
    const { uid } = (await mapi.get<KubeObject>({ ...CAPI, namespace: ctrl.capiNamespace, name }))
      .metadata;
    const record = (value: string) => ({
      metadata: { annotations: { [MIRROR_UID_ANNOTATION]: value } },
    });
    expect(await mergePatchAs(person, mirror, record('another-uid'))).to.contain(
      `(${MIRROR_UID_ANNOTATION})`,
    );
    expect(await mergePatchAs(person, mirror, record(uid!), true), 'its own uid').to.equal(
      undefined,
    );

    for (const identity of ['mapi-capi-sync', 'cluster-api', 'machine-api-operator'] as const) {
      expect(await mergePatchAs(configOf(identity), mirror, scale, true), identity).to.equal(
        undefined,
      );
      expect(await mergePatchAs(configOf(identity), mirror, label, true), identity).to.equal(
        undefined,
      );
    }
  });

  it('a denial of the controller by our own policies is found in the audit log (what every test checks after it)', async () => {
    const mapiNamespace = await testNamespace('mapi');
    const capiNamespace = await testNamespace('capi');
    // policies that exempt someone else instead of the controller
    await installAdmissionPolicies({
      mapiNamespace,
      capiNamespace,
      controllerUser: 'system:serviceaccount:elsewhere:someone',
    });
    const from = await auditLogEnd();
    const name = uniqueName('taken');
    expect(await createAs(adminConfig(), capiMachine(name, capiNamespace, false))).to.equal(
      undefined,
    );
    // a MAPI Machine over it: the controller may create Machines (its Role), so the policy decides
    const over = {
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'Machine',
      metadata: { name, namespace: mapiNamespace },
      spec: { authoritativeAPI: 'MachineAPI', providerSpec: awsProviderSpec() },
    };
    expect(
      await refusedOnceInEffect(() => createAs(configOf('mapi-capi-sync'), over, true)),
    ).to.contain('mapi-capi-sync-machine-api-machine-create-over-cluster-api');
    const denials = await eventually(async () => {
      const found = await controllerDenialsSince(from);
      expect(found).to.not.deep.equal([]);
      return found;
    });
    expect(denials[0]).to.contain(`/namespaces/${mapiNamespace}/machines`);
    await acknowledgeControllerDenials();
  });

  it('the MAPI mirror is read-only for a person under ClusterAPI, except spec.authoritativeAPI', async () => {
    const { mapiNamespace } = await namespacesWithPolicies();
    const name = uniqueName('mirror');
    const api = adminObjects();
    const body = awsMachineSet(name, mapiNamespace, { replicas: 0 });
    body.spec.authoritativeAPI = 'ClusterAPI';
    await api.create({ ...MAPI, namespace: mapiNamespace }, body);
    // machine-api-operator copies spec.authoritativeAPI into the empty status
    await waitStatusAuthority(MAPI, mapiNamespace, name, 'ClusterAPI');
    const object = {
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'MachineSet',
      namespace: mapiNamespace,
      name,
    };
    const person = adminConfig();
    const denied = await refusedOnceInEffect(() =>
      mergePatchAs(person, object, { spec: { replicas: 2 } }, true),
    );
    expect(denied).to.contain("ValidatingAdmissionPolicy 'mapi-capi-sync-machine-api-mirror");
    expect(denied).to.contain(
      `MachineSet ${name} mirrors Cluster API (status.authoritativeAPI: ClusterAPI)`,
    );
    expect(
      await mergePatchAs(person, object, {
        metadata: {
          annotations: { 'machine.openshift.io/cluster-api-autoscaler-node-group-max-size': '5' },
        },
      }),
    ).to.contain('machine.openshift.io/cluster-api-autoscaler-node-group-max-size');
    expect(
      await mergePatchAs(person, object, { spec: { authoritativeAPI: 'MachineAPI' } }, true),
      'the way back stays open',
    ).to.equal(undefined);
    for (const identity of ['mapi-capi-sync', 'machine-api-operator'] as const) {
      expect(
        await mergePatchAs(configOf(identity), object, { spec: { replicas: 2 } }, true),
        identity,
      ).to.equal(undefined);
    }
  });

  it("a Machine's authority changes only when the hand-over can succeed; a cancel always can", async () => {
    const { mapiNamespace, capiNamespace } = await namespacesWithPolicies();
    const name = uniqueName('machine');
    const api = adminObjects();
    await api.create(
      { ...MAPI_MACHINES, namespace: mapiNamespace },
      {
        apiVersion: 'machine.openshift.io/v1beta1',
        kind: 'Machine',
        metadata: { name, namespace: mapiNamespace, finalizers: ['test.mapi-capi-sync/hold'] },
        spec: { authoritativeAPI: 'ClusterAPI', providerSpec: awsProviderSpec() },
      },
    );
    await waitStatusAuthority(MAPI_MACHINES, mapiNamespace, name, 'ClusterAPI');
    const machine = {
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'Machine',
      namespace: mapiNamespace,
      name,
    };
    const person = adminConfig();
    const toMachineApi = { spec: { authoritativeAPI: 'MachineAPI' } };

    await setStatus(MAPI_MACHINES, mapiNamespace, name, { phase: 'Provisioning' });
    const provisioning = await refusedOnceInEffect(() =>
      mergePatchAs(person, machine, toMachineApi, true),
    );
    expect(provisioning).to.contain(
      "ValidatingAdmissionPolicy 'mapi-capi-sync-machine-authority-change-",
    );
    expect(provisioning).to.contain(`Machine ${name} is Provisioning under ClusterAPI`);

    await setStatus(MAPI_MACHINES, mapiNamespace, name, { phase: 'Running' });
    expect(await mergePatchAs(person, machine, toMachineApi, true)).to.contain(
      'is not Synchronized=True at its generation (no Synchronized condition yet)',
    );

    await setStatus(MAPI_MACHINES, mapiNamespace, name, synchronizedTrue(1));
    // its CAPI Machine has not provisioned its infrastructure yet
    await api.create(
      { ...CAPI_MACHINES, namespace: capiNamespace },
      capiMachine(name, capiNamespace),
    );
    // admitted until the API server has listed the new CAPI Machine as the policy's parameter
    const unprovisioned = await eventually(async () => {
      const message = await mergePatchAs(person, machine, toMachineApi, true);
      expect(message).to.contain('has not provisioned its infrastructure');
      return message!;
    });
    expect(unprovisioned).to.contain('mapi-capi-sync-machine-authority-change-mirror');
    await setStatus(CAPI_MACHINES, capiNamespace, name, {
      initialization: { infrastructureProvisioned: true },
    });
    const generation = (
      await api.get<{
        metadata: { generation: number };
      }>({ ...CAPI_MACHINES, namespace: capiNamespace, name })
    ).metadata.generation;
    await setStatus(MAPI_MACHINES, mapiNamespace, name, synchronizedTrue(generation));
    expect(await mergePatchAs(person, machine, toMachineApi, true), 'ready to hand over').to.equal(
      undefined,
    );

    // mid-migration, the cancel (back to status.synchronizedAPI) is always admitted
    await setStatus(MAPI_MACHINES, mapiNamespace, name, {
      authoritativeAPI: 'Migrating',
      synchronizedAPI: 'ClusterAPI',
      phase: 'Provisioning',
    });
    await mergePatchAs(configOf('mapi-capi-sync'), machine, toMachineApi);
    expect(
      await mergePatchAs(person, machine, { spec: { authoritativeAPI: 'ClusterAPI' } }, true),
      'a cancel',
    ).to.equal(undefined);

    // spec now says MachineAPI; the Machine settles under ClusterAPI and starts being deleted
    await api.delete({ ...MAPI_MACHINES, namespace: mapiNamespace, name });
    await setStatus(MAPI_MACHINES, mapiNamespace, name, { authoritativeAPI: 'ClusterAPI' });
    const toClusterApi = { spec: { authoritativeAPI: 'ClusterAPI' } };
    expect(await mergePatchAs(person, machine, toClusterApi, true)).to.contain(
      `Machine ${name} is being deleted`,
    );
    expect(
      await mergePatchAs(configOf('mapi-capi-sync'), machine, toClusterApi, true),
      'the controller is exempt',
    ).to.equal(undefined);
    await mergePatchAs(person, machine, { metadata: { finalizers: null } });
  });

  it('the non-authoritative MachineSet is not scaled through /scale; the authoritative one and the controllers are', async () => {
    const { mapiNamespace, capiNamespace } = await namespacesWithPolicies();
    const scaleAs = async (kc: KubeConfig, where: Where, namespace: string, name: string) => {
      const client = objectsFor(kc);
      try {
        await client.patch(
          { ...where, namespace, name },
          { type: 'merge', body: { spec: { replicas: 3 } } },
          { subresource: 'scale', dryRun: true },
        );
        return undefined;
      } catch (err) {
        return refusal(err);
      } finally {
        client.close();
      }
    };
    const person = adminConfig();
    const api = adminObjects();
    // under ClusterAPI: the MAPI MachineSet is the mirror
    const capiFirst = uniqueName('capi-first');
    const mirror = awsMachineSet(capiFirst, mapiNamespace, { replicas: 0 });
    mirror.spec.authoritativeAPI = 'ClusterAPI';
    await api.create({ ...MAPI, namespace: mapiNamespace }, mirror);
    await waitStatusAuthority(MAPI, mapiNamespace, capiFirst, 'ClusterAPI');
    expect(await createAs(person, capiMachineSet(capiFirst, capiNamespace))).to.equal(undefined);
    const refused = await refusedOnceInEffect(() =>
      scaleAs(person, MAPI, mapiNamespace, capiFirst),
    );
    expect(refused).to.contain("ValidatingAdmissionPolicy 'mapi-capi-sync-scale-mirror");
    expect(refused).to.contain(
      `Machine API MachineSet ${capiFirst} mirrors the Cluster API MachineSet of the same name (status.authoritativeAPI: ClusterAPI)`,
    );
    expect(refused).to.contain('Scale the Cluster API MachineSet instead');
    expect(
      await scaleAs(person, CAPI, capiNamespace, capiFirst),
      'the authoritative side',
    ).to.equal(undefined);

    // under MachineAPI: the paused CAPI MachineSet is the mirror
    const mapiFirst = uniqueName('mapi-first');
    await api.create(
      { ...MAPI, namespace: mapiNamespace },
      awsMachineSet(mapiFirst, mapiNamespace, { replicas: 0 }),
    );
    await waitStatusAuthority(MAPI, mapiNamespace, mapiFirst, 'MachineAPI');
    expect(await createAs(person, capiMachineSet(mapiFirst, capiNamespace))).to.equal(undefined);
    expect(
      await refusedOnceInEffect(() => scaleAs(person, CAPI, capiNamespace, mapiFirst)),
    ).to.contain('Scale the Machine API MachineSet instead');
    expect(
      await scaleAs(person, MAPI, mapiNamespace, mapiFirst),
      'the authoritative side',
    ).to.equal(undefined);
    // while it migrates, the side it migrates from counts (the handshake carries it over)
    await setStatus(MAPI, mapiNamespace, mapiFirst, {
      authoritativeAPI: 'Migrating',
      synchronizedAPI: 'ClusterAPI',
    });
    expect(
      await refusedOnceInEffect(() => scaleAs(person, MAPI, mapiNamespace, mapiFirst)),
    ).to.contain(
      `mirrors the Cluster API MachineSet of the same name (status.authoritativeAPI: Migrating from ClusterAPI, whose replicas the migration carries over)`,
    );
    expect(await scaleAs(person, CAPI, capiNamespace, mapiFirst), 'from ClusterAPI').to.equal(
      undefined,
    );
    await setStatus(MAPI, mapiNamespace, mapiFirst, { synchronizedAPI: 'MachineAPI' });
    expect(
      await refusedOnceInEffect(() => scaleAs(person, CAPI, capiNamespace, mapiFirst)),
    ).to.contain('(status.authoritativeAPI: Migrating from MachineAPI,');
    expect(await scaleAs(person, MAPI, mapiNamespace, mapiFirst), 'from MachineAPI').to.equal(
      undefined,
    );
    // the exempt controllers (ours never scales: its Role has no /scale)
    for (const identity of ['cluster-api', 'machine-api-operator'] as const) {
      expect(await scaleAs(configOf(identity), CAPI, capiNamespace, mapiFirst), identity).to.equal(
        undefined,
      );
    }
    // no MAPI MachineSet of that name: nothing to guard (parameterNotFoundAction: Allow)
    const alone = uniqueName('alone');
    expect(await createAs(person, capiMachineSet(alone, capiNamespace))).to.equal(undefined);
    expect(await scaleAs(person, CAPI, capiNamespace, alone)).to.equal(undefined);
  });

  it('no authority change while a MachineAutoscaler targets the MachineSet; a stray one holds nothing', async () => {
    const { mapiNamespace } = await namespacesWithPolicies();
    const person = adminConfig();
    const api = adminObjects();
    const autoscaled = uniqueName('autoscaled');
    const other = uniqueName('other');
    for (const name of [autoscaled, other]) {
      await api.create(
        { ...MAPI, namespace: mapiNamespace },
        awsMachineSet(name, mapiNamespace, { replicas: 0 }),
      );
      await waitStatusAuthority(MAPI, mapiNamespace, name, 'MachineAPI');
    }
    const MAPI_MACHINE_SET_KIND = {
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'MachineSet',
    };
    const MACHINE_AUTOSCALER = {
      group: 'autoscaling.openshift.io',
      version: 'v1beta1',
      plural: 'machineautoscalers',
    };
    const migrate = (name: string) =>
      mergePatchAs(
        person,
        { ...MAPI_MACHINE_SET_KIND, namespace: mapiNamespace, name },
        { spec: { authoritativeAPI: 'ClusterAPI' } },
        true,
      );
    // no MachineAutoscaler at all: nothing to guard (parameterNotFoundAction: Allow)
    expect(await migrate(autoscaled)).to.equal(undefined);

    const machineAutoscaler = (name: string, apiVersion: string, target: string) => ({
      apiVersion: 'autoscaling.openshift.io/v1beta1',
      kind: 'MachineAutoscaler',
      metadata: { name, namespace: mapiNamespace },
      spec: {
        minReplicas: 1,
        maxReplicas: 4,
        scaleTargetRef: { apiVersion, kind: 'MachineSet', name: target },
      },
    });
    const stray = machineAutoscaler(
      uniqueName('stray'),
      'machine.openshift.io/v1beta1',
      'no-such-machineset',
    );
    expect(await createAs(person, stray)).to.equal(undefined);
    const scaler = machineAutoscaler(
      uniqueName('scaler'),
      'machine.openshift.io/v1beta1',
      autoscaled,
    );
    expect(await createAs(person, scaler)).to.equal(undefined);
    const refused = await refusedOnceInEffect(() => migrate(autoscaled));
    expect(refused).to.contain(
      "ValidatingAdmissionPolicy 'mapi-capi-sync-autoscaled-authority-change",
    );
    expect(refused).to.contain(
      `MachineAutoscaler ${scaler.metadata.name} in ${mapiNamespace} scales MachineSet ${autoscaled}`,
    );
    expect(refused).to.contain(
      `oc delete machineautoscaler -n ${mapiNamespace} ${scaler.metadata.name}`,
    );
    expect(await migrate(other), 'a stray MachineAutoscaler holds no other MachineSet').to.equal(
      undefined,
    );
    expect(
      await mergePatchAs(
        person,
        { ...MAPI_MACHINE_SET_KIND, namespace: mapiNamespace, name: autoscaled },
        { metadata: { labels: { team: 'a' } } },
        true,
      ),
      'an edit that keeps the authority',
    ).to.equal(undefined);

    // one naming the Cluster API MachineSet of the same name holds it too
    await api.delete({
      ...MACHINE_AUTOSCALER,
      namespace: mapiNamespace,
      name: scaler.metadata.name,
    });
    const capiScaler = machineAutoscaler(
      uniqueName('capi-scaler'),
      'cluster.x-k8s.io/v1beta1',
      autoscaled,
    );
    expect(await createAs(person, capiScaler)).to.equal(undefined);
    expect(await refusedOnceInEffect(() => migrate(autoscaled))).to.contain(
      `MachineAutoscaler ${capiScaler.metadata.name} in ${mapiNamespace} scales MachineSet ${autoscaled} (spec.scaleTargetRef: cluster.x-k8s.io/v1beta1 MachineSet)`,
    );
    await api.delete({
      ...MACHINE_AUTOSCALER,
      namespace: mapiNamespace,
      name: capiScaler.metadata.name,
    });
    await eventually(async () =>
      expect(await migrate(autoscaled), 'once it is deleted').to.equal(undefined),
    );
  });

  it('a cluster without the MachineAutoscaler CRD: the autoscaler policy holds nothing', async () => {
    const mapiNamespace = await testNamespace('mapi');
    // ours as shipped, its param a kind this API server does not serve, as without
    // cluster-autoscaler-operator's CRD
    const shipped = (
      await admissionPolicies({ mapiNamespace, capiNamespace: mapiNamespace })
    ).filter((o) => o.metadata.name.startsWith('mapi-capi-sync-autoscaled-authority-change'));
    const [policy, binding] = shipped as [
      ManifestObject & { spec: { paramKind: object; failurePolicy: string } },
      ManifestObject & { spec: { policyName: string } },
    ];
    expect([policy.kind, binding.kind]).to.deep.equal([
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionPolicyBinding',
    ]);
    const asShipped = policy.spec.failurePolicy;
    policy.metadata.name = binding.spec.policyName = binding.metadata.name = uniqueName('no-crd');
    policy.spec.paramKind = { apiVersion: 'autoscaling.openshift.io/v1beta1', kind: 'Absent' };
    const name = uniqueName('ms');
    await adminObjects().create(
      { ...MAPI, namespace: mapiNamespace },
      awsMachineSet(name, mapiNamespace, { replicas: 0 }),
    );
    const at = {
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'MachineSet',
      namespace: mapiNamespace,
      name,
    };
    const label = { metadata: { labels: { team: 'a' } } };
    // with failurePolicy Fail, every edit of every MachineSet would be refused (this also shows
    // the binding in effect) ...
    policy.spec.failurePolicy = 'Fail';
    await installForTheTest([policy, binding]);
    await eventually(async () =>
      expect(await mergePatchAs(adminConfig(), at, label, true)).to.contain(
        'failed to find resource referenced by paramKind',
      ),
    );
    // ... as shipped, nothing is
    const api = adminObjects();
    const vap = { ...VALIDATING_ADMISSION_POLICY, name: policy.metadata.name };
    await api.patch(vap, { type: 'merge', body: { spec: { failurePolicy: asShipped } } });
    await eventually(async () =>
      expect(await mergePatchAs(adminConfig(), at, label, true)).to.equal(undefined),
    );
    const authority = { spec: { authoritativeAPI: 'ClusterAPI' } };
    expect(await mergePatchAs(adminConfig(), at, authority, true)).to.equal(undefined);
  });

  it('no unpaused Cluster API MachineSet or Machine over an authoritative Machine API one', async () => {
    const { mapiNamespace, capiNamespace } = await namespacesWithPolicies();
    const person = adminConfig();
    const api = adminObjects();
    const unpaused = <T extends { metadata: { annotations?: Record<string, string> } }>(o: T) => ({
      ...o,
      metadata: { ...o.metadata, annotations: {} },
    });
    const name = uniqueName('twin');
    await api.create(
      { ...MAPI, namespace: mapiNamespace },
      awsMachineSet(name, mapiNamespace, { replicas: 0 }),
    );
    await waitStatusAuthority(MAPI, mapiNamespace, name, 'MachineAPI');
    const denied = await refusedOnceInEffect(() =>
      createAs(person, unpaused(capiMachineSet(name, capiNamespace)), true),
    );
    expect(denied).to.contain(
      "ValidatingAdmissionPolicy 'mapi-capi-sync-cluster-api-create-over-machine-api",
    );
    expect(denied).to.contain(
      `A Machine API MachineSet named ${name} exists in ${mapiNamespace} with status.authoritativeAPI MachineAPI`,
    );
    expect(denied).to.contain('Create it paused (annotation cluster.x-k8s.io/paused)');
    expect(await createAs(person, capiMachineSet(name, capiNamespace), true), 'paused').to.equal(
      undefined,
    );
    expect(
      await createAs(configOf('cluster-api'), unpaused(capiMachineSet(name, capiNamespace)), true),
      'an exempt controller',
    ).to.equal(undefined);

    const machineName = uniqueName('twin-machine');
    await api.create(
      { ...MAPI_MACHINES, namespace: mapiNamespace },
      {
        apiVersion: 'machine.openshift.io/v1beta1',
        kind: 'Machine',
        metadata: { name: machineName },
        spec: { providerSpec: awsProviderSpec() },
      },
    );
    await waitStatusAuthority(MAPI_MACHINES, mapiNamespace, machineName, 'MachineAPI');
    const machine = capiMachine(machineName, capiNamespace, false);
    expect(await refusedOnceInEffect(() => createAs(person, machine, true))).to.contain(
      'mapi-capi-sync-cluster-api-machine-create-over-machine-api',
    );

    // under ClusterAPI the Cluster API side is the one that acts: unpaused is what it should be
    const capiFirst = uniqueName('capi-first');
    const mirror = awsMachineSet(capiFirst, mapiNamespace, { replicas: 0 });
    mirror.spec.authoritativeAPI = 'ClusterAPI';
    await api.create({ ...MAPI, namespace: mapiNamespace }, mirror);
    await waitStatusAuthority(MAPI, mapiNamespace, capiFirst, 'ClusterAPI');
    expect(
      await createAs(person, unpaused(capiMachineSet(capiFirst, capiNamespace)), true),
    ).to.equal(undefined);
  });

  it('no Machine API MachineSet over an existing Cluster API one, and none the Machine API side cannot express', async () => {
    const { mapiNamespace, capiNamespace } = await namespacesWithPolicies();
    const person = adminConfig();
    const taken = uniqueName('taken');
    expect(await createAs(person, capiMachineSet(taken, capiNamespace))).to.equal(undefined);
    const over = awsMachineSet(taken, mapiNamespace, { replicas: 0 });
    const denied = await refusedOnceInEffect(() => createAs(person, over, true));
    expect(denied).to.contain('mapi-capi-sync-machine-api-create-over-cluster-api');
    expect(denied).to.contain(
      `A Cluster API MachineSet named ${taken} already exists in ${capiNamespace}`,
    );
    over.spec.authoritativeAPI = 'ClusterAPI';
    expect(await createAs(person, over, true), 'as its mirror').to.equal(undefined);
    // an exempt controller (ours never creates MAPI MachineSets: its Role does not allow it)
    expect(
      await createAs(
        configOf('machine-api-operator'),
        { ...over, spec: { ...over.spec, authoritativeAPI: 'MachineAPI' } } as never,
        true,
      ),
    ).to.equal(undefined);

    // a MAPI MachineSet exists: its CAPI twin keeps to what Machine API can express
    const paired = uniqueName('paired');
    expect(await createAs(person, awsMachineSet(paired, mapiNamespace, { replicas: 0 }))).to.equal(
      undefined,
    );
    const inexpressible = capiMachineSet(paired, capiNamespace, {
      readinessGates: [{ conditionType: 'example.com/Ready' }],
      deletion: { nodeDrainTimeoutSeconds: 300 },
    });
    const refused = await refusedOnceInEffect(() => createAs(person, inexpressible, true));
    expect(refused).to.contain('mapi-capi-sync-cluster-api-machine-set-expressible');
    expect(refused).to.contain(
      'Machine API cannot express spec.template.spec.readinessGates, spec.template.spec.deletion.nodeDrainTimeoutSeconds',
    );
    expect(await createAs(person, capiMachineSet(paired, capiNamespace), true)).to.equal(undefined);
    expect(
      await createAs(
        person,
        capiMachineSet(uniqueName('unpaired'), capiNamespace, {
          readinessGates: [{ conditionType: 'example.com/Ready' }],
        }),
        true,
      ),
      'no MAPI MachineSet of that name (parameterNotFoundAction: Allow)',
    ).to.equal(undefined);
  });

  it('a CAPI Machine with a MAPI twin keeps to what Machine API can express, as a MachineSet does', async () => {
    const { mapiNamespace, capiNamespace } = await namespacesWithPolicies();
    const person = adminConfig();
    const paired = uniqueName('paired');
    const mapiMachine = {
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'Machine',
      metadata: { name: paired, namespace: mapiNamespace },
      spec: { authoritativeAPI: 'MachineAPI', providerSpec: awsProviderSpec() },
    };
    expect(await createAs(person, mapiMachine)).to.equal(undefined);
    // timeouts only: OpenShift's own policy refuses readinessGates on every CAPI Machine first
    const timeouts = {
      deletion: { nodeDrainTimeoutSeconds: 300, nodeVolumeDetachTimeoutSeconds: 60 },
    };
    const refused = await refusedOnceInEffect(() =>
      createAs(person, capiMachine(paired, capiNamespace, true, timeouts), true),
    );
    expect(refused).to.contain('mapi-capi-sync-cluster-api-machine-expressible');
    expect(refused).to.contain(
      `Machine API cannot express spec.deletion.nodeDrainTimeoutSeconds, spec.deletion.nodeVolumeDetachTimeoutSeconds of Machine ${paired}`,
    );
    expect(refused).to.contain(`the Machine API Machine ${paired} in ${mapiNamespace}`);
    const providerID = { providerID: 'aws:///us-east-1a/i-0123456789abcdef0' };
    expect(
      await createAs(person, capiMachine(paired, capiNamespace, true, providerID), true),
      "a Machine's providerID is its own",
    ).to.equal(undefined);
    expect(
      await createAs(
        person,
        capiMachine(uniqueName('unpaired'), capiNamespace, true, timeouts),
        true,
      ),
      'no MAPI Machine of that name (parameterNotFoundAction: Allow)',
    ).to.equal(undefined);
    expect(
      await createAs(
        configOf('cluster-api'),
        capiMachine(paired, capiNamespace, true, timeouts),
        true,
      ),
      'Cluster API',
    ).to.equal(undefined);
  });

  it('under MachineAPI the paused CAPI Machine is read-only, no MAPI Machine is created over a CAPI one, and an unsynchronized edit warns', async () => {
    const { mapiNamespace, capiNamespace } = await namespacesWithPolicies();
    const person = adminConfig();
    const name = uniqueName('machine');
    const mapiMachine = (machineName: string, authoritativeAPI: string) => ({
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'Machine',
      metadata: { name: machineName, namespace: mapiNamespace },
      spec: { authoritativeAPI, providerSpec: awsProviderSpec() },
    });
    expect(await createAs(person, mapiMachine(name, 'MachineAPI'))).to.equal(undefined);
    await waitStatusAuthority(MAPI_MACHINES, mapiNamespace, name, 'MachineAPI');
    expect(await createAs(person, capiMachine(name, capiNamespace))).to.equal(undefined);
    const mirror = {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Machine',
      namespace: capiNamespace,
      name,
    };
    const failureDomain = { spec: { failureDomain: 'us-east-1b' } };
    const denied = await refusedOnceInEffect(() =>
      mergePatchAs(person, mirror, failureDomain, true),
    );
    expect(denied).to.contain('mapi-capi-sync-cluster-api-machine-mirror');
    expect(denied).to.contain(
      `Machine ${name} is a paused mirror of the Machine API Machine of the same name (status.authoritativeAPI: MachineAPI)`,
    );
    expect(
      await mergePatchAs(configOf('cluster-api'), mirror, failureDomain, true),
      'Cluster API',
    ).to.equal(undefined);

    const taken = uniqueName('taken');
    expect(await createAs(person, capiMachine(taken, capiNamespace))).to.equal(undefined);
    const over = await refusedOnceInEffect(() =>
      createAs(person, mapiMachine(taken, 'MachineAPI'), true),
    );
    expect(over).to.contain('mapi-capi-sync-machine-api-machine-create-over-cluster-api');
    expect(over).to.contain(`A Cluster API Machine named ${taken} already exists`);
    expect(await createAs(person, mapiMachine(taken, 'ClusterAPI'), true)).to.equal(undefined);

    // not Synchronized: the edit is kept, with a warning that says so
    const warnings: string[] = [];
    const warned = warningClient((w) => warnings.push(w));
    const labelled = {
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'Machine',
      metadata: { name, namespace: mapiNamespace, labels: { team: 'storage' } },
    };
    await eventually(async () => {
      await warned.patch(
        { ...MAPI_MACHINES, namespace: mapiNamespace, name },
        { type: 'merge', body: labelled },
      );
      expect(warnings.join('\n')).to.contain('mapi-capi-sync-warn-unsynchronized');
    });
    warned.close();
    expect(warnings.join('\n')).to.contain(
      `Machine ${name} is not synchronized with its mirror (no Synchronized condition yet)`,
    );
  });

  it('a write of ours that a policy denies is Synchronized=False with the policy message at once, and not retried without a change', async () => {
    const writes: string[] = [];
    const mapiNamespace = await testNamespace('mapi');
    const capiNamespace = await testNamespace('capi');
    await createCapiCluster(capiNamespace);
    // someone else's policy: no CAPI MachineSet may be created in this namespace, by anyone
    const deny = uniqueName('deny-machinesets');
    await installForTheTest([
      machineSetCreationPolicy(deny, {
        validations: [{ expression: 'false', message: 'MachineSets are frozen here' }],
      }),
      denyingBinding(deny, capiNamespace),
    ]);
    await eventually(async () => {
      expect(
        await createAs(configOf('mapi-capi-sync'), capiMachineSet('probe', capiNamespace), true),
      ).to.contain('MachineSets are frozen here');
    });
    const ctrl = await startTestController({
      namespaces: { mapi: mapiNamespace, capi: capiNamespace },
      onWrite: (w) => writes.push(`${w.verb} ${w.resource.plural}`),
    });
    const name = uniqueName('frozen');
    const api = adminObjects();
    await api.create(
      { ...MAPI, namespace: ctrl.mapiNamespace },
      awsMachineSet(name, ctrl.mapiNamespace, { replicas: 0 }),
    );
    const condition = await eventually(async () => {
      const current = await api.get<MapiMachineSet>({
        ...MAPI,
        namespace: ctrl.mapiNamespace,
        name,
      });
      const synchronized = current.status?.conditions?.find((c) => c.type === 'Synchronized');
      expect(synchronized?.status).to.equal('False');
      return synchronized!;
    });
    expect(condition.reason).to.equal('FailedToCreateCAPIMachineSet');
    expect(condition.message).to.contain(`ValidatingAdmissionPolicy '${deny}'`);
    expect(condition.message).to.contain('MachineSets are frozen here');
    const settled = writes.length;
    await new Promise((r) => setTimeout(r, 5_000));
    expect(writes.slice(settled), 'no retry loop').to.deep.equal([]);
    const capi: unknown = await api
      .get({ ...CAPI, namespace: capiNamespace, name })
      .catch((err: { code?: number }) => err.code);
    expect(capi).to.equal(404);
  });

  it('a write of ours denied by a policy the API server cannot evaluate is retried, and goes through once the policy is mended', async () => {
    const mapiNamespace = await testNamespace('mapi');
    const capiNamespace = await testNamespace('capi');
    await createCapiCluster(capiNamespace);
    // someone else's policy whose parameter kind does not exist: with failurePolicy Fail the API
    // server denies whatever it matches, whoever sends it, until the policy is mended
    const broken = uniqueName('unevaluated');
    const validations = [{ expression: 'true' }];
    await installForTheTest([
      machineSetCreationPolicy(broken, {
        validations,
        paramKind: { apiVersion: 'example.mapi-capi-sync.test/v1', kind: 'Absent' },
      }),
      denyingBinding(broken, capiNamespace, { name: 'anything', parameterNotFoundAction: 'Deny' }),
    ]);
    const denial = await eventually(async () => {
      const message = await createAs(
        configOf('mapi-capi-sync'),
        capiMachineSet('probe', capiNamespace),
        true,
      );
      expect(message).to.contain('failed to configure');
      return message!;
    });
    expect(denial).to.contain(`ValidatingAdmissionPolicy '${broken}'`);
    const ctrl = await startTestController({
      namespaces: { mapi: mapiNamespace, capi: capiNamespace },
    });
    const name = uniqueName('unevaluated');
    const api = adminObjects();
    const at = { ...MAPI, namespace: ctrl.mapiNamespace, name };
    await api.create(at, awsMachineSet(name, ctrl.mapiNamespace, { replicas: 0 }));
    const failed = await synchronizedWhen(at, 'False');
    // the admission plugin could not decide: a failure for now, which the controller retries
    expect(failed.condition.reason).to.equal('Retrying');
    expect(failed.condition.message).to.contain(`ValidatingAdmissionPolicy '${broken}'`);
    expect(failed.condition.message).to.contain('Retrying with backoff.');
    const events = await eventually(async () => {
      const { items } = await namespaceEvents(ctrl.mapiNamespace);
      const reasons = items.filter((e) => e.involvedObject.name === name).map((e) => e.reason);
      expect(reasons).to.include('FailedToCreateCAPIMachineSet');
      return reasons;
    });
    expect(events).to.not.include('Retrying');

    // mended: no parameter kind; nothing about the MachineSet changes
    await api.replace(
      { ...VALIDATING_ADMISSION_POLICY, name: broken },
      {
        ...(await api.get({ ...VALIDATING_ADMISSION_POLICY, name: broken })),
        spec: machineSetCreationPolicy(broken, { validations }).spec,
      },
    );
    const mended = await synchronizedWhen(at, 'True', 60_000);
    expect(mended.generation, 'nothing about the MachineSet changed').to.equal(failed.generation);
    await api.get({ ...CAPI, namespace: capiNamespace, name });
  });

  it('a write of ours refused by a policy is reported once, and goes through once the policy is mended, with nothing else changed', async () => {
    const mapiNamespace = await testNamespace('mapi');
    const capiNamespace = await testNamespace('capi');
    await createCapiCluster(capiNamespace);
    // someone else's policy refusing every CAPI MachineSet creation there, ours included
    const refusing = uniqueName('refusing');
    await installForTheTest([
      machineSetCreationPolicy(refusing, {
        validations: [{ expression: 'false', message: 'no CAPI MachineSets here yet' }],
      }),
      denyingBinding(refusing, capiNamespace),
    ]);
    await eventually(async () => {
      const message = await createAs(
        configOf('mapi-capi-sync'),
        capiMachineSet('probe', capiNamespace),
        true,
      );
      expect(message).to.contain('no CAPI MachineSets here yet');
    });
    const ctrl = await startTestController({
      namespaces: { mapi: mapiNamespace, capi: capiNamespace },
    });
    const name = uniqueName('refused');
    const api = adminObjects();
    const at = { ...MAPI, namespace: ctrl.mapiNamespace, name };
    await api.create(at, awsMachineSet(name, ctrl.mapiNamespace, { replicas: 0 }));
    const failed = await synchronizedWhen(at, 'False');
    expect(failed.condition.reason).to.equal('FailedToCreateCAPIMachineSet');
    expect(failed.condition.message).to.contain('no CAPI MachineSets here yet');
    expect(failed.condition.message).to.contain(
      'the write is tried again when something changes, and otherwise within 5 minutes.',
    );

    // mended: the binding goes; nothing about the MachineSet changes
    await api.delete({ ...VALIDATING_ADMISSION_POLICY_BINDING, name: refusing });
    const mended = await synchronizedWhen(at, 'True', 90_000);
    expect(mended.generation, 'nothing about the MachineSet changed').to.equal(failed.generation);
    await api.get({ ...CAPI, namespace: capiNamespace, name });
  });
});

/** The MAPI MachineSet's Synchronized condition once it has `status`, and its generation then. */
async function synchronizedWhen(
  at: { group: string; version: string; plural: string; namespace: string; name: string },
  status: 'True' | 'False',
  timeoutMs?: number,
) {
  return eventually(
    async () => {
      const current = await adminObjects().get<MapiMachineSet>(at);
      const synchronized = current.status?.conditions?.find((c) => c.type === 'Synchronized');
      expect(synchronized?.status).to.equal(status);
      return { condition: synchronized!, generation: current.metadata.generation };
    },
    timeoutMs ? { timeoutMs } : {},
  );
}

/** `kubectl` as a person (the admin kubeconfig), with a manifest on stdin; its output or refusal. */
async function kubectl(args: string[], stdin?: string, env: Record<string, string> = {}) {
  const child = spawn(join(controlPlane().binDir, 'kubectl'), args, {
    env: { ...process.env, KUBECONFIG: controlPlane().kubeconfigPath, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stdin.end(stdin ?? '');
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, out };
}

describe('admission policies under `oc apply` and `oc edit`', function () {
  this.timeout(180_000);
  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('admits the way out (spec.authoritativeAPI only) applied client-side, server-side or edited, and refuses a guarded change applied either way with the same message as a patch', async () => {
    const ctrl = await startTestController();
    await createCapiCluster(ctrl.capiNamespace);
    const name = uniqueName('applied');
    const created = await kubectl(
      ['apply', '-f', '-'],
      JSON.stringify({
        ...awsMachineSet(name, ctrl.mapiNamespace, { replicas: 0 }),
        spec: {
          ...awsMachineSet(name, ctrl.mapiNamespace, { replicas: 0 }).spec,
          authoritativeAPI: 'ClusterAPI',
        },
      }),
    );
    expect(created.code, created.out).to.equal(0);
    const where = { ...MAPI, namespace: ctrl.mapiNamespace, name };
    await eventually(
      async () => {
        const current = await adminObjects().get<MapiMachineSet>(where);
        expect(current.status?.authoritativeAPI).to.equal('ClusterAPI');
        expect(current.metadata.annotations).to.have.property(
          'kubectl.kubernetes.io/last-applied-configuration',
        );
        expect(current.status?.conditions?.find((c) => c.type === 'Synchronized')?.status).to.equal(
          'True',
        );
      },
      { timeoutMs: 60_000 },
    );
    // The same change as a merge patch. OpenShift's policy for it takes effect once the API
    // server has listed its parameter (the CAPI MachineSet), ours at once: read it again beside
    // each apply, so that both were answered by the same policies.
    const patchRefusal = () =>
      refusedOnceInEffect(() =>
        mergePatchAs(
          adminConfig(),
          { apiVersion: 'machine.openshift.io/v1beta1', kind: 'MachineSet', ...where },
          { spec: { replicas: 2 } },
          true,
        ),
      );
    // ours, or OpenShift's, whichever the API server evaluates first
    expect(await patchRefusal()).to.match(
      /ValidatingAdmissionPolicy '(mapi-capi-sync-machine-api-mirror|machine-api-machine-set-vap)/,
    );
    const serverSide = ['--server-side', '--field-manager=gitops', '--force-conflicts'];
    // The manifest as `oc get -o yaml` gives it once synchronized (the reverse sync has written
    // Cluster API's view of the spec), saved in Git, edited and applied again; a client-side
    // apply rewrites kubectl's record of the last apply on the object
    const live = await adminObjects().get<MapiMachineSet>(where);
    const manifest = (authority: string, replicas = live.spec.replicas) =>
      JSON.stringify({
        apiVersion: live.apiVersion,
        kind: live.kind,
        metadata: { name, namespace: ctrl.mapiNamespace, labels: live.metadata.labels },
        spec: { ...live.spec, authoritativeAPI: authority, replicas },
      });
    const again = await kubectl(['apply', '-f', '-'], manifest('ClusterAPI'));
    expect(again.code, `the same spec again: ${again.out}`).to.equal(0);

    const wayOut = manifest('MachineAPI');
    for (const how of [[], serverSide]) {
      const applied = await kubectl(['apply', '--dry-run=server', ...how, '-f', '-'], wayOut);
      expect(applied.code, `${how.join(' ') || 'client-side'}: ${applied.out}`).to.equal(0);
      const refused = await kubectl(
        ['apply', '--dry-run=server', ...how, '-f', '-'],
        manifest('ClusterAPI', 2),
      );
      expect(refused.code, refused.out).to.not.equal(0);
      // the policy that refuses the patch (OpenShift's or ours) refuses the apply, in the same
      // words (kubectl words the object's part of the message its own way)
      const patched = await patchRefusal();
      const policyPart = patched.slice(patched.indexOf("ValidatingAdmissionPolicy '"));
      expect(refused.out, `${refused.out}\n--- the patch: ${patched}`).to.contain(policyPart);
    }

    // `oc edit` of the way out: the first authoritativeAPI in the YAML is the spec's
    const edited = await kubectl(
      ['edit', 'machinesets.machine.openshift.io', name, '-n', ctrl.mapiNamespace],
      '',
      {
        EDITOR: `sed -i -e '0,/^  authoritativeAPI: ClusterAPI$/s//  authoritativeAPI: MachineAPI/'`,
      },
    );
    expect(edited.code, edited.out).to.equal(0);
    const after = await adminObjects().get<MapiMachineSet>(where);
    expect(after.spec.authoritativeAPI).to.equal('MachineAPI');
  });
});
