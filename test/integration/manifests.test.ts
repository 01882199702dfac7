// The deployment manifests against the real API server: accepted as written (with the real
// CRDs), admitted under the restricted Pod Security Standard, and least-privilege RBAC.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import type {
  KubernetesObject,
  V1Deployment,
  V1Pod,
  V1PodDisruptionBudget,
  V1PriorityClass,
  V1Service,
} from '@kubernetes/client-node';
import { loadAll } from 'js-yaml';
import { NAMESPACE, POD, PRIORITY_CLASS } from '../../src/kube/builtin-resources.js';
import { parseOptions } from '../../src/options.js';
import { adminObjects, controlPlane, testNamespace, uniqueName } from '../support/cluster.js';
import { eventually } from '../support/eventually.js';
import { warningClient } from '../support/warnings.js';
import {
  INFRASTRUCTURE_MACHINE_RESOURCES,
  CAPI_NAMESPACE,
  CONTROLLER_API_USAGE,
  grantsTo,
  KUSTOMIZATION,
  loadManifests,
  manifestFiles,
  MANIFESTS_DIR,
  MAPI_NAMESPACE,
  permissionKey,
  rewriteManifests,
  SERVICE_ACCOUNT,
  sourceOf,
  type ManifestObject,
} from '../support/manifests.js';

const FIELD_MANAGER = 'mapi-capi-sync-manifests-test';

function find<T>(objects: ManifestObject[], kind: string, name?: string): ManifestObject & T {
  const found = objects.filter((o) => o.kind === kind && (!name || o.metadata.name === name));
  expect(found, `${kind} ${name ?? ''} in manifests/`).to.have.length(1);
  return found[0] as ManifestObject & T;
}

function identity(o: KubernetesObject): string {
  return `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
}

/** Paths of `expected` whose value the server dropped or changed (defaults it adds are fine). */
function lostFields(actual: unknown, expected: unknown, path = ''): string[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [path];
    return expected.flatMap((item, i) => lostFields(actual[i], item, `${path}[${i}]`));
  }
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object') return [path];
    return Object.entries(expected).flatMap(([key, value]) =>
      lostFields((actual as Record<string, unknown>)[key], value, `${path}.${key}`),
    );
  }
  return actual === expected ? [] : [`${path} (sent ${String(expected)}, got ${String(actual)})`];
}

function statusMessage(err: unknown): string {
  const body = (err as { body?: unknown }).body;
  if (typeof body === 'string') {
    try {
      return (JSON.parse(body) as { message?: string }).message ?? body;
    } catch {
      return body;
    }
  }
  return err instanceof Error ? err.message : String(err);
}

/** An admin client that hands every API server warning (deprecated fields, …) to `onWarning`. */
/** A Pod made from the Deployment's pod template, as the ReplicaSet controller would. */
function podFrom(deployment: V1Deployment, namespace: string, name: string): V1Pod {
  const template = deployment.spec!.template;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: template.metadata?.labels ?? {} },
    spec: structuredClone(template.spec!),
  };
}

describe('deployment manifests', function () {
  this.timeout(120_000);

  let manifests: ManifestObject[];
  before(async () => {
    manifests = await loadManifests();
  });

  it('are all listed in kustomization.yaml, and kubectl kustomize renders exactly them', async () => {
    const [kustomization] = loadAll(await readFile(join(MANIFESTS_DIR, KUSTOMIZATION), 'utf8')) as [
      { resources?: string[]; namespace?: string },
    ];
    expect([...(kustomization.resources ?? [])].sort()).to.deep.equal(await manifestFiles());
    // the objects live in two namespaces: a kustomize namespace would move them all into one
    expect(kustomization.namespace).to.equal(undefined);

    const kubectl = join(controlPlane().binDir, 'kubectl');
    const { stdout } = await promisify(execFile)(kubectl, ['kustomize', MANIFESTS_DIR], {
      maxBuffer: 16 * 1024 * 1024,
    });
    const rendered = (loadAll(stdout) as KubernetesObject[]).filter(Boolean);
    expect(rendered.map(identity).sort()).to.deep.equal(manifests.map(identity).sort());
    const deployment = rendered.find((o) => o.kind === 'Deployment') as V1Deployment;
    expect(deployment.spec?.template.spec?.containers[0]?.image).to.equal(
      'quay.io/openshift/mapi-capi-sync:latest',
    );
  });

  it('are accepted by the API server as written (server-side apply, dry run, real CRDs)', async () => {
    const objects = rewriteManifests(manifests, {
      mapiNamespace: await testNamespace('mapi'),
      capiNamespace: await testNamespace('capi'),
      suffix: uniqueName('manifests'),
    });
    const problems: string[] = [];
    let current = '';
    const client = warningClient((warning) => problems.push(`${current}: warning ${warning}`));
    for (const object of objects) {
      current = `${identity(object)} (${sourceOf(object)})`;
      try {
        const applied = await client.patch(
          await client.locate(object),
          { type: 'apply', body: object },
          { dryRun: true, fieldManager: FIELD_MANAGER, force: true },
        );
        // A field the schema does not know is pruned from custom resources without an error.
        const lost = lostFields(applied, object);
        if (lost.length) {
          problems.push(`${current}: dropped ${lost.join(', ')}`);
        }
      } catch (err) {
        problems.push(`${current}: ${statusMessage(err)}`);
      }
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
    expect(new Set(objects.map((o) => o.kind))).to.include.keys(
      'ServiceMonitor',
      'PrometheusRule',
      'Deployment',
    );
  });

  describe('pod security', () => {
    it('a Pod from the Deployment is admitted under restricted (latest); one allowing privilege escalation is not', async () => {
      const namespace = await testNamespace('psa');
      const api = adminObjects();
      await api.patch(
        { ...NAMESPACE, name: namespace },
        {
          type: 'json',
          operations: [
            {
              op: 'add',
              path: '/metadata/labels/pod-security.kubernetes.io~1enforce',
              value: 'restricted',
            },
            {
              op: 'add',
              path: '/metadata/labels/pod-security.kubernetes.io~1enforce-version',
              value: 'latest',
            },
          ],
        },
      );
      const deployment = find<V1Deployment>(manifests, 'Deployment', 'mapi-capi-sync');

      // The control first: it also waits until admission sees the namespace's new labels.
      const escalating = podFrom(deployment, namespace, 'escalating');
      escalating.spec!.containers[0]!.securityContext!.allowPrivilegeEscalation = true;
      const rejection = await eventually(async () => {
        const outcome: unknown = await api
          .create({ ...POD, namespace }, escalating, { dryRun: true })
          .then(
            () => 'admitted',
            (err: unknown) => err,
          );
        expect(outcome, 'the control pod must be rejected').to.not.equal('admitted');
        return outcome;
      });
      expect((rejection as { code?: number }).code).to.equal(403);
      expect(statusMessage(rejection)).to.match(/violates PodSecurity "restricted:latest"/);
      expect(statusMessage(rejection)).to.contain('allowPrivilegeEscalation');

      const admitted = await api.create<V1Pod>(
        { ...POD, namespace },
        podFrom(deployment, namespace, 'controller'),
        { dryRun: true },
      );
      expect(admitted.metadata?.namespace).to.equal(namespace);
      // the Priority admission plugin resolved the class to its value
      expect(admitted.spec?.priorityClassName).to.equal('system-cluster-critical');
      expect(admitted.spec?.priority).to.equal(2_000_000_000);
    });

    it('the priority class exists on a real API server', async () => {
      const priorityClass = await adminObjects().get<V1PriorityClass>({
        ...PRIORITY_CLASS,
        name: 'system-cluster-critical',
      });
      expect(priorityClass.value).to.equal(2_000_000_000);
    });

    it('the pod template is restricted-v2 compatible: no fixed user, no privilege, read-only root', () => {
      const spec = find<V1Deployment>(manifests, 'Deployment', 'mapi-capi-sync').spec!.template
        .spec!;
      // restricted-v2 assigns the UID from the namespace's range: a fixed one would be refused
      for (const context of [
        spec.securityContext,
        ...spec.containers.map((c) => c.securityContext),
      ]) {
        expect(context).to.not.have.any.keys('runAsUser', 'runAsGroup', 'fsGroup', 'privileged');
      }
      expect(spec.securityContext).to.deep.include({
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(spec.hostNetwork ?? false).to.equal(false);
      expect(spec.hostPID ?? false).to.equal(false);
      for (const container of spec.containers) {
        expect(container.securityContext, container.name).to.deep.equal({
          runAsNonRoot: true,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        expect(container.resources?.limits, 'no limits').to.equal(undefined);
      }
      for (const volume of spec.volumes ?? []) {
        expect(Object.keys(volume).filter((k) => k !== 'name')).to.deep.equal(['emptyDir']);
      }
    });
  });

  it('run the controller as documented: leader-elected replicas on the control plane, probes, metrics', () => {
    const deployment = find<V1Deployment>(manifests, 'Deployment', 'mapi-capi-sync');
    expect(deployment.metadata.namespace).to.equal(CAPI_NAMESPACE);
    expect(deployment.spec?.replicas).to.equal(2);
    const pod = deployment.spec!.template.spec!;
    expect(pod.serviceAccountName).to.equal(SERVICE_ACCOUNT);
    expect(pod.priorityClassName).to.equal('system-cluster-critical');
    expect(pod.terminationGracePeriodSeconds).to.be.within(30, 60);
    expect(pod.nodeSelector).to.deep.equal({ 'node-role.kubernetes.io/control-plane': '' });
    for (const key of ['node-role.kubernetes.io/master', 'node-role.kubernetes.io/control-plane']) {
      expect(pod.tolerations).to.deep.include({ key, operator: 'Exists', effect: 'NoSchedule' });
    }
    const [container, ...others] = pod.containers;
    expect(others).to.deep.equal([]);
    expect(container!.image).to.equal('quay.io/openshift/mapi-capi-sync:latest');
    expect(container!.command).to.equal(undefined); // the image's ENTRYPOINT
    expect(container!.args).to.deep.equal([
      '--leader-elect',
      '--metrics-bind-address=:8080',
      '--health-probe-bind-address=:8081',
      '--log-format=json',
      '--cluster-operator=mapi-capi-sync',
    ]);
    expect(container!.env).to.deep.include({
      name: 'POD_NAMESPACE',
      valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } },
    });
    expect(container!.ports).to.deep.include.members([
      { name: 'metrics', containerPort: 8080, protocol: 'TCP' },
      { name: 'health', containerPort: 8081, protocol: 'TCP' },
    ]);
    expect(container!.livenessProbe?.httpGet).to.deep.equal({ path: '/healthz', port: 'health' });
    expect(container!.readinessProbe?.httpGet).to.deep.equal({ path: '/readyz', port: 'health' });
    expect(container!.resources).to.deep.equal({ requests: { cpu: '10m', memory: '120Mi' } });
    expect(container!.volumeMounts).to.deep.include({ name: 'tmp', mountPath: '/tmp' });

    // Service → pods, ServiceMonitor → Service, PDB → pods
    const podLabels = deployment.spec!.template.metadata!.labels!;
    expect(deployment.spec!.selector.matchLabels).to.deep.equal(podLabels);
    const service = find<V1Service>(manifests, 'Service');
    expect(service.spec?.selector).to.deep.equal(podLabels);
    expect(service.spec?.ports).to.deep.equal([
      { name: 'metrics', port: 8080, targetPort: 'metrics', protocol: 'TCP' },
    ]);
    const monitor = find<{
      spec: { selector: { matchLabels: Record<string, string> }; endpoints: { port: string }[] };
    }>(manifests, 'ServiceMonitor');
    expect(service.metadata.labels).to.deep.include(monitor.spec.selector.matchLabels);
    expect(monitor.spec.endpoints.map((e) => e.port)).to.deep.equal(['metrics']);
    expect(
      find<V1PodDisruptionBudget>(manifests, 'PodDisruptionBudget').spec?.selector?.matchLabels,
    ).to.deep.equal(podLabels);
  });

  it('pass flags the program accepts, with the Lease the Role lets it use', () => {
    const deployment = find<V1Deployment>(manifests, 'Deployment', 'mapi-capi-sync');
    const container = deployment.spec!.template.spec!.containers[0]!;
    // what the pod's environment gives the program (POD_NAMESPACE from the downward API)
    const env = Object.fromEntries(
      (container.env ?? []).map((e) => [
        e.name,
        e.valueFrom?.fieldRef?.fieldPath === 'metadata.namespace'
          ? deployment.metadata.namespace
          : e.value,
      ]),
    );
    const options = parseOptions(container.args ?? [], env, false);
    if (options === 'help') throw new Error('the Deployment asks for --help');
    expect(options).to.include({
      leaderElect: true,
      metricsBindAddress: ':8080',
      healthProbeBindAddress: ':8081',
      logFormat: 'json',
      mapiNamespace: MAPI_NAMESPACE,
      capiNamespace: CAPI_NAMESPACE,
      leaderElectNamespace: CAPI_NAMESPACE,
      clusterOperator: 'mapi-capi-sync',
    });
    const leases = grantsTo(manifests, CAPI_NAMESPACE, SERVICE_ACCOUNT).filter(
      (g) => g.resource === 'leases',
    );
    expect(leases.map((g) => g.verb).sort()).to.deep.equal(['create', 'get', 'update']);
    for (const lease of leases) {
      expect(lease.namespace, lease.verb).to.equal(options.leaderElectNamespace);
      if (lease.verb !== 'create') {
        expect(lease.resourceNames, lease.verb).to.deep.equal([options.leaderElectId]);
      }
    }
  });

  it('alert on a MachineSet not synchronized for 15 minutes and on a missing leader', () => {
    const rule = find<{
      spec: { groups: { rules: { alert?: string; expr: string; for?: string }[] }[] };
    }>(manifests, 'PrometheusRule');
    const alerts = rule.spec.groups.flatMap((g) => g.rules).filter((r) => r.alert);
    const notSynchronized = alerts.find((a) =>
      a.expr.includes('mapi_capi_sync_machinesets{synchronized="False"}'),
    );
    expect(notSynchronized?.for).to.equal('15m');
    const noLeader = alerts.find((a) =>
      a.expr.includes('leader_election_master_status{name="mapi-capi-sync"}'),
    );
    expect(noLeader?.for).to.equal('5m');
  });

  describe('least privilege', () => {
    it('grants the controller exactly the audited API usage: no other verb, no wildcard', () => {
      const granted = grantsTo(manifests, CAPI_NAMESPACE, SERVICE_ACCOUNT);
      const grantedKeys = new Set(granted.map(permissionKey));
      const usedKeys = new Set(CONTROLLER_API_USAGE.map(permissionKey));
      const unused = granted
        .filter((g) => !usedKeys.has(permissionKey(g)))
        .map((g) => `${permissionKey(g)} (${g.role})`);
      const missing = [...usedKeys].filter((k) => !grantedKeys.has(k));
      expect(unused, 'granted but not used by the code').to.deep.equal([]);
      expect(missing, 'used by the code but not granted').to.deep.equal([]);
      expect(granted.length, 'each permission granted once').to.equal(grantedKeys.size);
    });

    it('scopes every grant as narrowly as it can be', () => {
      const granted = grantsTo(manifests, CAPI_NAMESPACE, SERVICE_ACCOUNT);
      // cluster-wide: only the Infrastructure singleton and our own ClusterOperator
      expect(granted.filter((g) => g.namespace === '').map((g) => g.resource)).to.satisfy(
        (resources: string[]) =>
          resources.every((r) =>
            ['infrastructures', 'clusteroperators', 'clusteroperators/status'].includes(r),
          ),
      );
      expect([...new Set(granted.map((g) => g.namespace))].sort()).to.deep.equal(
        ['', CAPI_NAMESPACE, MAPI_NAMESPACE].sort(),
      );
      // by name wherever a name is known in advance: the Lease and the ClusterOperator (create
      // cannot be narrowed)
      const named: Record<string, string> = {
        leases: 'mapi-capi-sync-leader',
        clusteroperators: 'mapi-capi-sync',
        'clusteroperators/status': 'mapi-capi-sync',
      };
      for (const g of granted) {
        const name = g.verb === 'create' ? undefined : named[g.resource];
        expect(g.resourceNames, permissionKey(g)).to.deep.equal(name ? [name] : []);
      }
      // no escalation paths
      for (const g of granted) {
        expect(['secrets', 'roles', 'rolebindings', 'pods', 'serviceaccounts']).to.not.include(
          g.resource,
        );
        expect(['bind', 'escalate', 'impersonate', 'deletecollection']).to.not.include(g.verb);
        // patch only where it is guarded: finalizers (JSON-patch test), owned status fields and
        // annotations (resourceVersion), on the MachineSets, Machines, infrastructure machines
        // and CAPO's OpenStackServers and CAPV's VSphereVMs
        if (g.verb === 'patch') {
          expect(
            [
              'machinesets',
              'machinesets/status',
              'machines',
              'machines/status',
              ...INFRASTRUCTURE_MACHINE_RESOURCES,
              'openstackservers',
              'vspherevms',
            ],
            permissionKey(g),
          ).to.include(g.resource);
        }
      }
    });

    it('binds nothing else to the controller, and gives Prometheus read access only', () => {
      const roles = manifests.filter((o) => o.kind === 'Role' || o.kind === 'ClusterRole');
      const bindings = manifests.filter((o) => /^(Cluster)?RoleBinding$/.test(o.kind));
      const subjects = bindings.flatMap(
        (b) =>
          (b as { subjects?: { kind: string; name: string; namespace?: string }[] }).subjects ?? [],
      );
      for (const subject of subjects) {
        expect(subject.kind).to.equal('ServiceAccount');
        expect([
          `${CAPI_NAMESPACE}/${SERVICE_ACCOUNT}`,
          'openshift-monitoring/prometheus-k8s',
        ]).to.include(`${subject.namespace}/${subject.name}`);
      }
      expect(roles).to.have.length(bindings.length);
      const prometheus = grantsTo(manifests, 'openshift-monitoring', 'prometheus-k8s');
      expect(prometheus).to.not.deep.equal([]);
      for (const g of prometheus) {
        expect(g.namespace).to.equal(CAPI_NAMESPACE);
        expect(['get', 'list', 'watch']).to.include(g.verb);
        expect(['services', 'endpoints', 'pods', 'endpointslices']).to.include(g.resource);
      }
    });
  });
});
