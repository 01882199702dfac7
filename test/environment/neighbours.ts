// The neighbours: the real controllers and admission webhooks that run next to this project's
// controller in a cluster (Cluster API core, the AWS, OpenStack, GCP and vSphere providers'
// webhooks with stand-ins for their machine controllers' finalizers, machine-api-operator's
// MachineSet and Machine controllers and admission webhooks), each built by
// hack/build-neighbours.sh from its main in neighbours/<name>/, running as its controllers'
// identity in a cluster.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runHackScript } from './builds.js';
import type { IdentityName } from './kube-apiserver.js';
import { freePort, probe, waitFor, type Launcher, type Probe } from './processes.js';

/** The neighbours' Go modules (one per neighbour) and the demo's list of them. */
const NEIGHBOURS_DIR = join(import.meta.dirname, 'neighbours');

export type NeighbourName =
  | 'cluster-api'
  | 'cluster-api-provider-aws'
  | 'cluster-api-provider-openstack'
  | 'cluster-api-provider-gcp'
  | 'cluster-api-provider-vsphere'
  | 'machine-api-operator';

/**
 * The label of an object machine-api-operator's admission webhooks never saw: created while they
 * were down or before they existed. Their registration leaves out objects carrying it set to
 * "true" (an objectSelector), so that tests can create the bad input a cluster may hold (the
 * webhooks' failurePolicy is Ignore, and objects may predate them) and that the controller must
 * report.
 */
export const UNADMITTED_LABEL = 'test.mapi-capi-sync/unadmitted';

/** Which identity each neighbour runs as (the providers' webhooks are Cluster API's). */
const NEIGHBOUR_IDENTITY: Record<NeighbourName, IdentityName> = {
  'cluster-api': 'cluster-api',
  'cluster-api-provider-aws': 'cluster-api',
  'cluster-api-provider-openstack': 'cluster-api',
  'cluster-api-provider-gcp': 'cluster-api',
  'cluster-api-provider-vsphere': 'cluster-api',
  'machine-api-operator': 'machine-api-operator',
};

/** A neighbouring controller or webhook server that runs next to the API server. */
export interface Neighbour {
  name: NeighbourName;
  /** The upstream Go module it is built from, and its version (from neighbours/<name>/go.mod). */
  module: string;
  version: string;
  /** The reconcilers and admission webhooks it runs. */
  runs: string[];
  /** Its webhook server, when it serves admission webhooks (https, CA in `caFile`). */
  webhookUrl?: string;
  caFile?: string;
  /** Its /healthz and /readyz. */
  probeUrl: string;
}

interface NeighbourSpec {
  name: NeighbourName;
  module: string;
  runs: string[];
  /** Serves admission webhooks (and registers them from the module's config/webhook/manifests.yaml). */
  webhooks: boolean;
  /**
   * `false`: the module has no config/webhook/manifests.yaml; the binary registers the webhook
   * configurations the module's Go functions build.
   */
  webhookManifests?: false;
  args?: string[];
  webhookCheck?: WebhookCheck;
}

/**
 * A dry-run request through the API server whose answer proves that the API server calls a
 * neighbour's webhooks (the registration has reached it and the server answers).
 */
interface WebhookCheck {
  what: string;
  path: string;
  body: object;
  answered: (res: Probe) => boolean;
}

/** What runs next to the API server, each built by hack/build-neighbours.sh from neighbours/<name>/. */
const NEIGHBOURS: readonly NeighbourSpec[] = [
  {
    name: 'cluster-api',
    module: 'sigs.k8s.io/cluster-api',
    runs: [
      'Cluster controller',
      'Machine controller',
      'MachineSet controller',
      'ClusterCache (kubeconfig from Secret <cluster>-kubeconfig)',
      'Cluster webhook',
      'Machine webhook',
      'MachineSet webhook',
    ],
    webhooks: true,
    webhookCheck: {
      what: 'the Cluster API MachineSet webhook defaulting a dry-run MachineSet',
      path: '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/machinesets?dryRun=All',
      body: {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'MachineSet',
        metadata: { name: 'webhook-check' },
        spec: {
          clusterName: 'webhook-check',
          selector: { matchLabels: { check: 'webhook' } },
          template: {
            metadata: { labels: { check: 'webhook' } },
            spec: {
              clusterName: 'webhook-check',
              bootstrap: { dataSecretName: 'webhook-check' },
              infrastructureRef: {
                apiGroup: 'infrastructure.cluster.x-k8s.io',
                kind: 'AWSMachineTemplate',
                name: 'webhook-check',
              },
            },
          },
        },
      },
      // the defaulting webhook labels a MachineSet with its cluster name
      answered: (res) =>
        res.status === 201 &&
        (JSON.parse(res.body) as { metadata?: { labels?: Record<string, string> } }).metadata
          ?.labels?.['cluster.x-k8s.io/cluster-name'] === 'webhook-check',
    },
  },
  {
    name: 'cluster-api-provider-aws',
    module: 'sigs.k8s.io/cluster-api-provider-aws/v2',
    runs: [
      'AWSMachineTemplate webhook',
      'AWSMachine webhook',
      'AWSCluster webhook',
      'AWSClusterTemplate webhook',
      "a stand-in for CAPA's AWSMachine controller: its finalizer only (no cloud)",
    ],
    webhooks: true,
    // OpenShift machines boot from Ignition: without this gate CAPA refuses spec.ignition.
    args: ['--feature-gates=BootstrapFormatIgnition=true'],
    webhookCheck: {
      what: 'the AWSMachineTemplate webhook refusing a dry-run template with a providerID',
      path: '/apis/infrastructure.cluster.x-k8s.io/v1beta2/namespaces/default/awsmachinetemplates?dryRun=All',
      body: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'AWSMachineTemplate',
        metadata: { name: 'webhook-check' },
        spec: {
          template: { spec: { instanceType: 'm6i.large', providerID: 'aws:///us-east-1a/i-0' } },
        },
      },
      answered: (res) => res.status >= 400 && res.body.includes('cannot be set in templates'),
    },
  },
  {
    name: 'cluster-api-provider-openstack',
    module: 'sigs.k8s.io/cluster-api-provider-openstack',
    runs: [
      'OpenStackMachineTemplate webhook',
      'OpenStackMachine webhook',
      'OpenStackCluster webhook',
      'OpenStackClusterTemplate webhook',
      "a stand-in for CAPO's OpenStackMachine and OpenStackServer controllers: their finalizers only (no cloud)",
    ],
    webhooks: true,
    webhookCheck: {
      what: 'the OpenStackMachineTemplate webhook refusing a dry-run template with a providerID',
      path: '/apis/infrastructure.cluster.x-k8s.io/v1beta1/namespaces/default/openstackmachinetemplates?dryRun=All',
      body: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'OpenStackMachineTemplate',
        metadata: { name: 'webhook-check' },
        spec: {
          template: {
            spec: {
              flavor: 'm1.large',
              image: { filter: { name: 'rhcos' } },
              providerID: 'openstack:///webhook-check',
            },
          },
        },
      },
      answered: (res) => res.status >= 400 && res.body.includes('cannot be set in templates'),
    },
  },
  {
    name: 'cluster-api-provider-gcp',
    module: 'sigs.k8s.io/cluster-api-provider-gcp',
    runs: [
      'GCPMachineTemplate webhook',
      'GCPMachine webhook',
      'GCPCluster webhook',
      'GCPClusterTemplate webhook',
      "a stand-in for CAPG's GCPMachine controller: its finalizer only (no cloud)",
    ],
    webhooks: true,
    webhookCheck: {
      what: 'the GCPMachineTemplate webhook refusing a dry-run confidential template on an e2 machine',
      path: '/apis/infrastructure.cluster.x-k8s.io/v1beta1/namespaces/default/gcpmachinetemplates?dryRun=All',
      body: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'GCPMachineTemplate',
        metadata: { name: 'webhook-check' },
        spec: {
          template: {
            spec: {
              instanceType: 'e2-standard-4',
              confidentialCompute: 'Enabled',
              onHostMaintenance: 'Terminate',
            },
          },
        },
      },
      answered: (res) =>
        res.status >= 400 && res.body.includes('requires any of the following machine series'),
    },
  },
  {
    name: 'cluster-api-provider-vsphere',
    module: 'sigs.k8s.io/cluster-api-provider-vsphere',
    runs: [
      'VSphereMachineTemplate webhook',
      'VSphereMachine webhook',
      'VSphereFailureDomain webhook',
      'VSphereDeploymentZone webhook',
      "a stand-in for CAPV's VSphereMachine controller: its finalizer only (no vCenter)",
    ],
    webhooks: true,
    webhookCheck: {
      what: 'the VSphereMachineTemplate webhook refusing a dry-run template with a providerID',
      path: '/apis/infrastructure.cluster.x-k8s.io/v1beta1/namespaces/default/vspheremachinetemplates?dryRun=All',
      body: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'VSphereMachineTemplate',
        metadata: { name: 'webhook-check' },
        spec: {
          template: {
            spec: {
              template: 'rhcos',
              network: { devices: [{ networkName: 'VM Network' }] },
              providerID: 'vsphere://00000000-0000-0000-0000-000000000000',
            },
          },
        },
      },
      answered: (res) => res.status >= 400 && res.body.includes('cannot be set in templates'),
    },
  },
  {
    name: 'machine-api-operator',
    module: 'github.com/openshift/machine-api-operator',
    runs: [
      'MachineSet controller (MachineAPIMigration feature gate on)',
      'Machine and drain controllers with a cloud-free stand-in actuator (MachineAPIMigration feature gate on)',
      'MachineHealthCheck controller (deletes the Machine of an unhealthy node, whatever its authority)',
      'MachineSet and Machine defaulting and validating webhooks (built anew when the Infrastructure or DNS changes)',
    ],
    webhooks: true,
    webhookManifests: false,
    args: [`--unadmitted-label=${UNADMITTED_LABEL}`],
    webhookCheck: {
      what: "machine-api-operator's MachineSet webhooks defaulting a dry-run MachineSet",
      path: '/apis/machine.openshift.io/v1beta1/namespaces/default/machinesets?dryRun=All',
      body: {
        apiVersion: 'machine.openshift.io/v1beta1',
        kind: 'MachineSet',
        metadata: { name: 'webhook-check' },
        spec: {
          selector: { matchLabels: { check: 'webhook' } },
          template: {
            metadata: { labels: { check: 'webhook' } },
            spec: {
              providerSpec: {
                value: {
                  apiVersion: 'machine.openshift.io/v1beta1',
                  kind: 'AWSMachineProviderConfig',
                  ami: { id: 'ami-0webhookcheck' },
                },
              },
            },
          },
        },
      },
      // the defaulter fills in the user-data Secret (the AWS Infrastructure is created above)
      answered: (res) =>
        res.status === 201 &&
        (
          JSON.parse(res.body) as {
            spec?: {
              template?: {
                spec?: {
                  providerSpec?: { value?: { userDataSecret?: { name?: string } } };
                };
              };
            };
          }
        ).spec?.template?.spec?.providerSpec?.value?.userDataSecret?.name === 'worker-user-data',
    },
  },
];

/** Builds the neighbours named (none named: all) unless built; the directory of their binaries. */
export function ensureNeighbours(names: readonly NeighbourName[] = []): string {
  return runHackScript('build-neighbours.sh', names);
}

/** The neighbours the demo runs (neighbours/demo.list, which hack/build-all.sh --demo builds). */
export function demoNeighbours(): NeighbourName[] {
  const list = readFileSync(join(NEIGHBOURS_DIR, 'demo.list'), 'utf8');
  const names = list.split('\n').filter((line) => line.trim() && !line.startsWith('#'));
  const unknown = names.filter((name) => !NEIGHBOURS.some((spec) => spec.name === name));
  if (unknown.length)
    throw new Error(`test/environment/neighbours/demo.list: no neighbour ${unknown.join(', ')}`);
  return names as NeighbourName[];
}

/** The version of `module` required by neighbours/<name>/go.mod. */
async function neighbourVersion(name: NeighbourName, module: string): Promise<string> {
  const goMod = await readFile(join(NEIGHBOURS_DIR, name, 'go.mod'), 'utf8');
  const escaped = module.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const match = new RegExp(`^\\s*(?:require\\s+)?${escaped}\\s+(v\\S+)`, 'm').exec(goMod);
  if (!match?.[1])
    throw new Error(`test/environment/neighbours/${name}/go.mod does not require ${module}`);
  return match[1];
}

/** Where the neighbours run, and the API server they and their webhook checks talk to. */
interface NeighbourContext {
  dir: string;
  processes: Launcher<NeighbourName>;
  identityKubeconfigPaths: Record<IdentityName, string>;
  server: string;
  ca: Buffer;
  adminToken: string;
  log: (message: string) => void;
}

/**
 * Starts the neighbours wanted (`true`: all of them), built first unless they are; resolves once
 * each is ready and its webhooks answer.
 */
export async function startNeighbours(
  wanted: true | readonly NeighbourName[],
  ctx: NeighbourContext,
): Promise<Neighbour[]> {
  const specs =
    wanted === true ? NEIGHBOURS : NEIGHBOURS.filter((spec) => wanted.includes(spec.name));
  const binDir = ensureNeighbours(specs.map((spec) => spec.name));
  ctx.log(`starting ${specs.map((n) => n.name).join(', ')}`);
  return Promise.all(specs.map((spec) => startNeighbour(spec, binDir, ctx)));
}

async function startNeighbour(
  spec: NeighbourSpec,
  binDir: string,
  ctx: NeighbourContext,
): Promise<Neighbour> {
  const [probePort, webhookPort] = await Promise.all([freePort(), freePort()]);
  const probeUrl = `http://127.0.0.1:${probePort}`;
  const certDir = join(ctx.dir, 'neighbours', spec.name);
  ctx.processes.launch(
    spec.name,
    [
      `--kubeconfig=${ctx.identityKubeconfigPaths[NEIGHBOUR_IDENTITY[spec.name]]}`,
      `--health-probe-bind-address=127.0.0.1:${probePort}`,
      ...webhookArgs(spec, { webhookPort, certDir, binDir }),
      ...(spec.args ?? []),
      '--v=2',
    ],
    binDir,
  );
  const alive = ctx.processes.ensureRunning(spec.name);
  await waitFor(
    `${spec.name} /readyz`,
    120_000,
    async () => (await probe(`${probeUrl}/readyz`)).status === 200,
    alive,
  );
  if (spec.webhookCheck) await waitUntilWebhooksAnswer(spec.webhookCheck, ctx, alive);
  ctx.log(`${spec.name} ready`);
  return {
    name: spec.name,
    module: spec.module,
    version: await neighbourVersion(spec.name, spec.module),
    runs: spec.runs,
    probeUrl,
    ...(spec.webhooks
      ? { webhookUrl: `https://127.0.0.1:${webhookPort}`, caFile: join(certDir, 'ca.crt') }
      : {}),
  };
}

/** Where a neighbour serves its webhooks and what it registers; nothing if it serves none. */
function webhookArgs(
  spec: NeighbourSpec,
  at: { webhookPort: number; certDir: string; binDir: string },
): string[] {
  if (!spec.webhooks) return [];
  return [
    `--webhook-port=${at.webhookPort}`,
    `--cert-dir=${at.certDir}`,
    ...(spec.webhookManifests !== false
      ? [`--webhook-manifests=${join(at.binDir, `${spec.name}.webhooks.yaml`)}`]
      : []),
  ];
}

async function waitUntilWebhooksAnswer(
  check: WebhookCheck,
  ctx: NeighbourContext,
  alive: () => void,
): Promise<void> {
  await waitFor(
    check.what,
    60_000,
    async () =>
      check.answered(
        await probe(`${ctx.server}${check.path}`, {
          ca: ctx.ca,
          token: ctx.adminToken,
          body: check.body,
        }),
      ),
    alive,
  );
}
