// The RBAC in manifests/ is sufficient and minimal: the program runs with the Deployment's own
// flags as the manifests' ServiceAccount, bound only to the manifests' Roles and ClusterRole. It
// goes through its interesting paths on every platform without a single 403, and the API
// server's audit log shows that it used every verb it was granted (except the few listed below,
// with the reason) and nothing else.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { expect } from 'chai';
import type { V1Deployment } from '@kubernetes/client-node';
import type {
  CapiMachineSet,
  JsonPatchOperation,
  MachineTemplate,
  MapiMachineSet,
} from '../../src/api/types.js';
import { FINALIZER } from '../../src/model/markers.js';
import {
  adminObjects,
  controlPlane,
  createLimitedIdentity,
  testNamespace,
  uniqueName,
} from '../support/cluster.js';
import {
  AWS_TEMPLATES,
  awsMachineSet,
  CAPI,
  createMachineSet,
  DEFAULT_INFRASTRUCTURE,
  MAPI,
  setInfrastructure,
  unadmitted,
} from '../support/controller.js';
import { eventually } from '../support/eventually.js';
import { PLATFORM_FIXTURES } from '../support/fixtures/index.js';
import {
  CAPI_NAMESPACE,
  grantsTo,
  INFRASTRUCTURE_MACHINE_RESOURCES,
  loadManifests,
  MAPI_NAMESPACE,
  permissionKey,
  rewriteManifests,
  SERVICE_ACCOUNT,
  type ManifestObject,
  type Permission,
} from '../support/manifests.js';
import { startProgram, type ProgramProcess } from '../support/program.js';
import { waitUntilAuthorized } from '../environment/controller-rbac.js';
import { namespaceEvents } from '../support/events.js';
import { capiMachines, mapiMachines } from '../support/machines.js';

/**
 * Granted verbs this test does not see the controller use, and why. Everything else granted must
 * show up in the audit log. Keep it short: a verb nobody can justify here is removed from the Role;
 * an entry that the test does exercise fails the test until it is removed from this list.
 */
const NOT_EXERCISED_HERE: readonly {
  apiGroup: string;
  resources: string[];
  verbs: string[];
  reason: string;
  /** Exercised here or not depending on timing: being used is not a reason to fail. */
  timing?: true;
}[] = [
  {
    apiGroup: 'infrastructure.cluster.x-k8s.io',
    resources: [
      'azuremachinetemplates',
      'gcpmachinetemplates',
      'ibmpowervsmachinetemplates',
      'openstackmachinetemplates',
      'vspheremachinetemplates',
    ],
    verbs: ['update'],
    reason:
      'templates are created already owned by their mirror; update adopts an ownerless one, moves the pause marker when the authority changes, or releases one that others own too. Adoption is exercised here for AWS only (the owner removed by hand); the rest is unit-tested in test/unit/sync/machine-set/plan.test.ts',
  },
  {
    apiGroup: 'cluster.x-k8s.io',
    resources: ['machines'],
    verbs: ['delete'],
    reason:
      'a CAPI Machine mirror is deleted with its MAPI Machine; exercised next to Cluster API in test/integration/machines.test.ts',
  },
  {
    apiGroup: 'cluster.x-k8s.io',
    resources: ['machines'],
    verbs: ['update'],
    reason:
      'a CAPI Machine mirror is updated when machine-api-operator changes its MAPI Machine after the mirror exists, which here depends on timing; exercised next to Cluster API in test/integration/machines.test.ts',
    timing: true,
  },
  {
    apiGroup: 'infrastructure.cluster.x-k8s.io',
    resources: INFRASTRUCTURE_MACHINE_RESOURCES.filter((r) => r !== 'vspheremachines'),
    verbs: ['patch'],
    reason:
      'an infrastructure machine is patched (paused, unpaused) by the migration handshake; exercised for AWS in test/integration/machines.test.ts, the rest unit-tested per platform',
  },
  {
    apiGroup: 'infrastructure.cluster.x-k8s.io',
    resources: ['vspheremachines'],
    verbs: ['patch'],
    reason:
      "as the other infrastructure machines; and CAPV puts its finalizer on a VSphereMachine at once, paused too, so a mirror deleted with its Machine here is patched to let it go when the deletion comes after CAPV's finalizer, which depends on timing",
    timing: true,
  },
  {
    apiGroup: 'infrastructure.cluster.x-k8s.io',
    resources: INFRASTRUCTURE_MACHINE_RESOURCES,
    verbs: ['update'],
    reason:
      'an infrastructure machine is updated when machine-api-operator changes its Machine after it exists, which here depends on timing; exercised for AWS in test/integration/machines.test.ts, the rest unit-tested per platform',
    timing: true,
  },
  {
    apiGroup: 'infrastructure.cluster.x-k8s.io',
    resources: INFRASTRUCTURE_MACHINE_RESOURCES.filter((r) => r !== 'awsmachines'),
    verbs: ['create'],
    reason:
      "an infrastructure machine is created when the controller mirrors the Machine machine-api-operator makes for the platform's MachineSet, which here may come after the test has deleted that MachineSet, so it depends on timing; exercised for AWS in test/integration/machines.test.ts",
    timing: true,
  },
  {
    apiGroup: 'infrastructure.cluster.x-k8s.io',
    resources: ['openstackservers', 'vspherevms'],
    verbs: ['patch'],
    reason:
      "CAPO's OpenStackServer is paused with its machine and let go when deleted paused; CAPO makes one only while Cluster API is authoritative, exercised in test/integration/machines.test.ts",
  },
  {
    apiGroup: 'machine.openshift.io',
    resources: ['machinesets/finalizers'],
    verbs: ['update'],
    reason:
      'checked by OwnerReferencesPermissionEnforcement when a MAPI mirror of a Machine an authoritative CAPI MachineSet creates is created (blockOwnerDeletion on its MachineSet), exercised in test/integration/machines.test.ts',
  },
  {
    apiGroup: 'machine.openshift.io',
    resources: ['machines'],
    verbs: ['create', 'delete'],
    reason:
      'MAPI mirrors are created and deleted for Machines a Cluster API-authoritative MachineSet scales up and down, exercised in test/integration/machines.test.ts',
  },
];

/**
 * Granted verbs no request uses: OwnerReferencesPermissionEnforcement checks them while admitting
 * another write, which the audit log shows instead. Each counts as used when that write was.
 */
const CHECKED_BY_ADMISSION: readonly { permission: Permission; provenBy: Permission }[] = [
  {
    permission: {
      namespace: CAPI_NAMESPACE,
      apiGroup: 'cluster.x-k8s.io',
      resource: 'machinesets/finalizers',
      verb: 'update',
    },
    // a CAPI Machine mirror is created controlled by its CAPI MachineSet, blockOwnerDeletion set
    provenBy: {
      namespace: CAPI_NAMESPACE,
      apiGroup: 'cluster.x-k8s.io',
      resource: 'machines',
      verb: 'create',
    },
  },
  {
    permission: {
      namespace: CAPI_NAMESPACE,
      apiGroup: 'cluster.x-k8s.io',
      resource: 'machines/finalizers',
      verb: 'update',
    },
    // an AWSMachine is created controlled by its CAPI Machine, blockOwnerDeletion set
    provenBy: {
      namespace: CAPI_NAMESPACE,
      apiGroup: 'infrastructure.cluster.x-k8s.io',
      resource: 'awsmachines',
      verb: 'create',
    },
  },
];

/** Short leader-election timings, so that the Lease is renewed (updated) during the test. */
const FAST_LEADER_ELECTION = [
  '--leader-elect-lease-duration=3s',
  '--leader-elect-renew-deadline=2s',
  '--leader-elect-retry-period=500ms',
];

interface AuditEvent {
  stage: string;
  verb: string;
  user: { username: string };
  objectRef?: {
    apiGroup?: string;
    resource?: string;
    subresource?: string;
    namespace?: string;
    name?: string;
  };
  responseStatus?: { code?: number; message?: string };
  requestURI: string;
}

/** Every audit event of the user, from the log and its rotated siblings. */
async function auditEventsOf(username: string): Promise<AuditEvent[]> {
  const path = controlPlane().auditLogPath;
  const stem = basename(path, '.log');
  const files = (await readdir(dirname(path)))
    .filter((f) => f === basename(path) || (f.startsWith(`${stem}-`) && f.endsWith('.log')))
    .map((f) => join(dirname(path), f));
  const events: AuditEvent[] = [];
  for (const file of files) {
    for (const line of (await readFile(file, 'utf8')).split('\n')) {
      // cheap filter before parsing: the log holds every request of the whole test run
      if (!line.includes(username)) continue;
      const event = JSON.parse(line) as AuditEvent;
      if (event.user.username === username) events.push(event);
    }
  }
  return events;
}

/** The permission an audited request needed, in the manifests' own namespaces. */
function permissionOf(event: AuditEvent, namespaces: Record<string, string>): Permission {
  const ref = event.objectRef ?? {};
  return {
    namespace: ref.namespace ? (namespaces[ref.namespace] ?? ref.namespace) : '',
    apiGroup: ref.apiGroup ?? '',
    resource: ref.subresource ? `${ref.resource}/${ref.subresource}` : (ref.resource ?? ''),
    verb: event.verb,
  };
}

const api = () => adminObjects();

/** The ClusterOperator the Deployment's flags name, gone. */
async function removeClusterOperator(): Promise<void> {
  await api()
    .delete({
      group: 'config.openshift.io',
      version: 'v1',
      plural: 'clusteroperators',
      name: 'mapi-capi-sync',
    })
    .catch((err: { code?: number }) => {
      if (err.code !== 404) throw err;
    });
}

function synchronized(mapi: MapiMachineSet) {
  return mapi.status?.conditions?.find((c) => c.type === 'Synchronized');
}

describe('RBAC from manifests/ (sufficient and minimal)', function () {
  this.timeout(300_000);

  const clusterScoped: ManifestObject[] = [];

  afterEach(async () => {
    await setInfrastructure(DEFAULT_INFRASTRUCTURE);
    await removeClusterOperator();
    const client = adminObjects();
    for (const object of clusterScoped.splice(0)) {
      await client
        .locate(object)
        .then((at) => client.delete(at))
        .catch((err: { code?: number }) => {
          if (err.code !== 404) throw err;
        });
    }
  });

  it('runs the program with the Deployment flags as the manifests ServiceAccount on every platform, using every granted verb', async () => {
    // not 'mapi'/'capi': those get the test controllers' grants, and this test applies its own
    const mapiNamespace = await testNamespace('rbac-mapi');
    const capiNamespace = await testNamespace('rbac-capi');
    const manifests = rewriteManifests(await loadManifests(), {
      mapiNamespace,
      capiNamespace,
      suffix: uniqueName('rbac'),
    });
    const backToManifests = { [mapiNamespace]: MAPI_NAMESPACE, [capiNamespace]: CAPI_NAMESPACE };

    // The manifests' ServiceAccount, with a token; its RBAC objects applied as written.
    const account = manifests.find((o) => o.kind === 'ServiceAccount')!;
    expect(account.metadata).to.include({ name: SERVICE_ACCOUNT, namespace: capiNamespace });
    const identity = await createLimitedIdentity(capiNamespace, SERVICE_ACCOUNT);
    const kubeconfigPath = join(controlPlane().dir, `${uniqueName('kubeconfig-rbac')}.json`);
    await writeFile(kubeconfigPath, identity.kubeConfig.exportConfig(), { mode: 0o600 });
    const client = adminObjects();
    for (const object of manifests.filter((o) => /^(Cluster)?Role(Binding)?$/.test(o.kind))) {
      await client.create(await client.locate(object), object);
      if (!object.metadata.namespace) clusterScoped.push(object);
    }
    const verb = 'list';
    await waitUntilAuthorized(
      adminObjects(),
      [
        { namespace: mapiNamespace, group: 'machine.openshift.io', resource: 'machinesets', verb },
        { namespace: capiNamespace, group: 'cluster.x-k8s.io', resource: 'machinesets', verb },
        { group: 'config.openshift.io', resource: 'infrastructures', verb },
      ],
      {
        user: identity.username,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${capiNamespace}`],
      },
    );

    // The program as the pod runs it: the Deployment's flags and POD_NAMESPACE, only pointed at
    // this test's namespaces, at free local ports (ProgramProcess's) and with faster timings.
    const deployment = manifests.find((o) => o.kind === 'Deployment') as ManifestObject &
      V1Deployment;
    const container = deployment.spec!.template.spec!.containers[0]!;
    const args = [
      ...(container.args ?? []).filter((a) => !/^--(metrics|health-probe)-bind-address/.test(a)),
      `--kubeconfig=${kubeconfigPath}`,
      `--mapi-namespace=${mapiNamespace}`,
      `--capi-namespace=${capiNamespace}`,
      ...FAST_LEADER_ELECTION,
    ];
    expect(args).to.include('--leader-elect');
    const programs: ProgramProcess[] = [];
    const start = () => {
      const program = startProgram(args, { POD_NAMESPACE: deployment.metadata.namespace! });
      programs.push(program);
      return program;
    };
    const stop = async (program: ProgramProcess) => {
      program.kill('SIGTERM');
      expect(await program.exit(60_000), program.text).to.equal(0);
    };

    const world = new World(mapiNamespace, capiNamespace);
    const conditionMessages: string[] = [];
    const waitCondition = async (name: string, status: string, reason: string) => {
      const mapi = await eventually(
        async () => {
          const current = await world.mapi(name);
          const condition = synchronized(current);
          expect(condition, JSON.stringify(current.status)).to.include({ status, reason });
          if (status === 'True' && current.status?.authoritativeAPI === 'MachineAPI') {
            expect(current.status.synchronizedGeneration).to.equal(current.metadata.generation);
          }
          return current;
        },
        { timeoutMs: 60_000 },
      );
      conditionMessages.push(synchronized(mapi)?.message ?? '');
      return mapi;
    };
    const waitGone = (name: string, templates: TemplateResource) =>
      eventually(
        async () => {
          expect(await world.mapiExists(name), 'MAPI MachineSet released').to.equal(false);
          expect(await world.mirror(name)).to.equal(undefined);
          expect(await world.templates(templates)).to.deep.equal([]);
          // machine-api-operator's webhook judges a Machine by the cluster's platform: none may
          // outlive its platform into the next one's infrastructure
          expect((await mapiMachines(world)).map((m) => m.metadata.name)).to.deep.equal([]);
          expect((await capiMachines(world)).map((m) => m.metadata.name)).to.deep.equal([]);
        },
        { timeoutMs: 60_000 },
      );

    // The Deployment names the ClusterOperator: the program creates it afresh, then keeps it.
    await removeClusterOperator();
    try {
      // AWS: every path of the controller.
      await setInfrastructure(DEFAULT_INFRASTRUCTURE);
      let program = start();

      // create → Synchronized=True, the paused mirror and its template (create, adopt)
      // Later given an AMI by ARN, which machine-api-operator's validating webhook refuses: one
      // it never saw.
      await world.createMapi(unadmitted(awsMachineSet('rbac-a', mapiNamespace)));
      await waitCondition('rbac-a', 'True', 'ResourceSynchronized');
      const [firstTemplate] = await world.templates(AWS_TEMPLATES);
      expect(firstTemplate).to.not.equal(undefined);

      // replicas → the mirror is updated; machine-api-operator's MAPI status (3 Machines) → the
      // mirror's status is written
      await world.patchMapi('rbac-a', [{ op: 'replace', path: '/spec/replicas', value: 3 }]);
      await eventually(async () =>
        expect((await world.mirror('rbac-a'))?.spec.replicas).to.equal(3),
      );
      await eventually(
        async () => expect((await world.mirror('rbac-a'))?.status?.replicas).to.equal(3),
        { timeoutMs: 60_000 },
      );

      // providerSpec change → a new template, the mirror repointed, the old one released, deleted
      await world.patchMapi('rbac-a', [
        {
          op: 'replace',
          path: '/spec/template/spec/providerSpec/value/instanceType',
          value: 'm6i.2xlarge',
        },
      ]);
      await eventually(async () => {
        const templates = await world.templates(AWS_TEMPLATES);
        expect(templates.map((t) => t.metadata.name)).to.have.length(1);
        expect(templates[0]!.metadata.name).to.not.equal(firstTemplate!.metadata.name);
      });
      await waitCondition('rbac-a', 'True', 'ResourceSynchronized');

      // the template's owner removed by someone → the template is adopted again (update)
      const [current] = await world.templates(AWS_TEMPLATES);
      await api().patch(
        { ...AWS_TEMPLATES, namespace: capiNamespace, name: current!.metadata.name },
        { type: 'json', operations: [{ op: 'remove', path: '/metadata/ownerReferences' }] },
      );
      const mirrorUid = (await world.mirror('rbac-a'))!.metadata.uid;
      await eventually(async () => {
        const [adopted] = await world.templates(AWS_TEMPLATES);
        expect(adopted?.metadata.ownerReferences?.map((r) => r.uid)).to.deep.equal([mirrorUid]);
      });

      // a bad providerSpec → False and an Event; fixed; the same mistake again → the same Event
      // counted up (read and updated, not created again)
      const arn = { arn: 'arn:aws:ec2:us-east-1::image/ami-0abcdef1234567890' };
      const goodAmi = { id: 'ami-0abcdef1234567890' };
      const amiPath = '/spec/template/spec/providerSpec/value/ami';
      await world.patchMapi('rbac-a', [{ op: 'replace', path: amiPath, value: arn }]);
      await waitCondition('rbac-a', 'False', 'FailedToConvertMAPIMachineSetToCAPI');
      await world.patchMapi('rbac-a', [{ op: 'replace', path: amiPath, value: goodAmi }]);
      await waitCondition('rbac-a', 'True', 'ResourceSynchronized');
      await world.patchMapi('rbac-a', [{ op: 'replace', path: amiPath, value: arn }]);
      await waitCondition('rbac-a', 'False', 'FailedToConvertMAPIMachineSetToCAPI');
      await eventually(async () => {
        const events = await world.events('FailedToConvertMAPIMachineSetToCAPI');
        expect(events.map((e) => [e.involvedObject.name, e.count])).to.deep.equal([['rbac-a', 2]]);
      });
      await world.patchMapi('rbac-a', [{ op: 'replace', path: amiPath, value: goodAmi }]);
      await waitCondition('rbac-a', 'True', 'ResourceSynchronized');

      // the mirror deleted by someone → released and recreated
      const mirrorBefore = (await world.mirror('rbac-a'))!;
      await api().delete({ ...CAPI, namespace: capiNamespace, name: 'rbac-a' });
      await eventually(
        async () => {
          const mirror = await world.mirror('rbac-a');
          expect(mirror?.metadata.uid).to.be.a('string').and.not.equal(mirrorBefore.metadata.uid);
          expect(mirror?.metadata.finalizers).to.include(FINALIZER);
        },
        { timeoutMs: 60_000 },
      );
      await waitCondition('rbac-a', 'True', 'ResourceSynchronized');

      // the MAPI MachineSet deleted → the mirror and templates deleted, every finalizer released
      await api().delete({ ...MAPI, namespace: mapiNamespace, name: 'rbac-a' });
      await waitGone('rbac-a', AWS_TEMPLATES);

      // ClusterAPI: the initial sync creates the CAPI side and the MAPI side records it; deleting
      // the authoritative CAPI MachineSet makes its MAPI mirror follow (MAPI delete)
      await world.createMapi(awsMachineSet('rbac-capi', mapiNamespace), 'ClusterAPI');
      await waitCondition('rbac-capi', 'True', 'ResourceSynchronized');
      await api().delete({ ...CAPI, namespace: capiNamespace, name: 'rbac-capi' });
      await waitGone('rbac-capi', AWS_TEMPLATES);
      // SIGTERM: the lease is handed back (an update)
      await stop(program);

      // Every other platform: its own template resource, created, rotated and deleted.
      for (const fixture of PLATFORM_FIXTURES) {
        await setInfrastructure(fixture.infrastructure);
        program = start();
        const name = `rbac-${fixture.platform.toLowerCase()}`;
        await world.createMapi(fixture.machineSet(name, mapiNamespace));
        await waitCondition(name, 'True', 'ResourceSynchronized');
        const [first] = await world.templates(fixture.templates);
        expect(first, fixture.templates.kind).to.not.equal(undefined);
        await world.patchMapi(name, fixture.change);
        await eventually(
          async () => {
            const templates = await world.templates(fixture.templates);
            expect(templates.map((t) => t.metadata.name)).to.have.length(1);
            expect(templates[0]!.metadata.name).to.not.equal(first!.metadata.name);
          },
          { timeoutMs: 60_000 },
        );
        await waitCondition(name, 'True', 'ResourceSynchronized');
        await api().delete({ ...MAPI, namespace: mapiNamespace, name });
        await waitGone(name, fixture.templates);
        await stop(program);
      }
    } catch (err) {
      // A missing permission shows up as a timeout above; say what the program was refused.
      throw new Error(
        `${(err as Error).message}\nprogram log lines mentioning "forbidden":\n${forbiddenLines(programs).join('\n') || '(none)'}`,
        { cause: err },
      );
    }

    // No request was refused: not in the logs, not on the condition, not in the audit log.
    expect(forbiddenLines(programs), 'forbidden in the logs').to.deep.equal([]);
    expect(conditionMessages.filter((m) => /forbidden/i.test(m))).to.deep.equal([]);
    for (const program of programs) {
      expect(program.logs().filter((l) => l.message === 'became leader')).to.have.length(1);
    }

    const granted = grantsTo(manifests, capiNamespace, SERVICE_ACCOUNT).map((g) => ({
      ...g,
      namespace: g.namespace ? (backToManifests[g.namespace] ?? g.namespace) : '',
    }));
    const grantedKeys = new Set(granted.map(permissionKey));
    const listed = (p: Permission) =>
      NOT_EXERCISED_HERE.find(
        (a) =>
          a.apiGroup === p.apiGroup && a.resources.includes(p.resource) && a.verbs.includes(p.verb),
      );
    const allowlisted = (p: Permission) => listed(p) !== undefined;
    const stale = NOT_EXERCISED_HERE.flatMap((a) =>
      a.resources.flatMap((resource) => a.verbs.map((verb) => ({ ...a, resource, verb }))),
    ).filter(
      (a) =>
        !granted.some(
          (g) => g.apiGroup === a.apiGroup && g.resource === a.resource && g.verb === a.verb,
        ),
    );
    expect(
      stale.map((a) => `${a.apiGroup}/${a.resource} ${a.verb}`),
      'listed as not exercised but not granted',
    ).to.deep.equal([]);

    // Audit log ↔ manifests: everything used is granted, everything granted is used (or listed).
    // Retried briefly: the last requests may still be on their way into the log.
    const used = await eventually(
      async () => {
        const audited = await auditEventsOf(identity.username);
        const refused = audited.filter((e) => e.responseStatus?.code === 403);
        expect(
          refused.map((e) => `${e.verb} ${e.requestURI}: ${e.responseStatus?.message}`),
          'requests refused',
        ).to.deep.equal([]);
        const permissions = new Map<string, Permission>();
        for (const event of audited) {
          const permission = permissionOf(event, backToManifests);
          permissions.set(permissionKey(permission), permission);
        }
        expect(
          [...permissions.keys()].filter((k) => !grantedKeys.has(k)),
          'used but not granted',
        ).to.deep.equal([]);
        // a successful write that OwnerReferencesPermissionEnforcement admitted only with the
        // owner's finalizers permission
        for (const { permission, provenBy } of CHECKED_BY_ADMISSION) {
          if (!permissions.has(permissionKey(provenBy))) continue;
          permissions.set(permissionKey(permission), permission);
        }
        expect(
          granted
            .filter((g) => !permissions.has(permissionKey(g)) && !allowlisted(g))
            .map(permissionKey),
          'granted but never used (remove the verb, exercise it here, or list it with a reason)',
        ).to.deep.equal([]);
        expect(
          [...permissions.values()]
            .filter((p) => allowlisted(p) && !listed(p)?.timing)
            .map(permissionKey),
          'used although listed as not exercised: remove it from NOT_EXERCISED_HERE',
        ).to.deep.equal([]);
        return permissions;
      },
      { timeoutMs: 15_000, intervalMs: 500 },
    );
    if (process.env.TEST_SHOW_AUDIT) {
      process.stdout.write('      audited (namespace group/resource verb):\n');
      for (const key of [...used.keys()].sort()) process.stdout.write(`        ${key}\n`);
    }
  });
});

/** Distinct program log lines that mention "forbidden". */
function forbiddenLines(programs: ProgramProcess[]): string[] {
  const lines = programs.flatMap((p) => p.text.split('\n')).filter((l) => /forbidden/i.test(l));
  return [...new Set(lines.map((l) => l.replace(/"requeues":\d+,/, '').slice(0, 400)))];
}

interface TemplateResource {
  group: string;
  version: string;
  plural: string;
}

/** The objects of one test, read and written as admin. */
class World {
  constructor(
    readonly mapiNamespace: string,
    readonly capiNamespace: string,
  ) {}

  async mapi(name: string): Promise<MapiMachineSet> {
    return await api().get<MapiMachineSet>({ ...MAPI, namespace: this.mapiNamespace, name });
  }

  async mapiExists(name: string): Promise<boolean> {
    return this.mapi(name).then(
      () => true,
      (err: { code?: number }) => {
        if (err.code === 404) return false;
        throw err;
      },
    );
  }

  async mirror(name: string): Promise<CapiMachineSet | undefined> {
    try {
      return await api().get<CapiMachineSet>({ ...CAPI, namespace: this.capiNamespace, name });
    } catch (err) {
      if ((err as { code?: number }).code === 404) return undefined;
      throw err;
    }
  }

  async templates({ group, version, plural }: TemplateResource): Promise<MachineTemplate[]> {
    const list = await api().list<MachineTemplate>({
      group,
      version,
      plural,
      namespace: this.capiNamespace,
    });
    return list.items;
  }

  async events(reason: string) {
    const list = await namespaceEvents(this.mapiNamespace);
    return list.items.filter((e) => e.reason === reason);
  }

  async createMapi(
    body: MapiMachineSet,
    authority: 'MachineAPI' | 'ClusterAPI' = 'MachineAPI',
  ): Promise<void> {
    await createMachineSet(this.mapiNamespace, body, authority);
  }

  async patchMapi(name: string, ops: JsonPatchOperation[]): Promise<void> {
    await api().patch(
      { ...MAPI, namespace: this.mapiNamespace, name },
      { type: 'json', operations: ops },
    );
  }
}
