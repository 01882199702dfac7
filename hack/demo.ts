// The demo: a local control plane with the real CRDs, shown the way an
// administrator sees it. Finishes by itself and leaves no process behind.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { startControlPlane, type ControlPlane } from './control-plane.js';

const MAPI_NAMESPACE = 'openshift-machine-api';
const CAPI_NAMESPACE = 'openshift-cluster-api';

function banner(text: string): void {
  console.log(`\n=== ${text} ===`);
}

function kubectl(plane: ControlPlane, args: string[]): void {
  const binary = join(plane.binDir, 'kubectl');
  console.log(`$ kubectl ${args.join(' ')}`);
  const out = execFileSync(binary, ['--kubeconfig', plane.kubeconfigPath, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.stdout.write(out);
}

async function seed(plane: ControlPlane): Promise<void> {
  const core = plane.kubeConfig.makeApiClient(CoreV1Api);
  for (const name of [MAPI_NAMESPACE, CAPI_NAMESPACE]) {
    await core.createNamespace({ body: { metadata: { name } } });
  }
  const custom = plane.kubeConfig.makeApiClient(CustomObjectsApi);
  const name = 'demo-worker-us-east-1a';
  await custom.createNamespacedCustomObject({
    group: 'machine.openshift.io',
    version: 'v1beta1',
    plural: 'machinesets',
    namespace: MAPI_NAMESPACE,
    body: {
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'MachineSet',
      metadata: { name },
      spec: {
        replicas: 2,
        selector: { matchLabels: { 'machine.openshift.io/cluster-api-machineset': name } },
        template: {
          metadata: { labels: { 'machine.openshift.io/cluster-api-machineset': name } },
          spec: {
            providerSpec: {
              value: {
                apiVersion: 'machine.openshift.io/v1beta1',
                kind: 'AWSMachineProviderConfig',
                instanceType: 'm6i.xlarge',
                ami: { id: 'ami-0123456789abcdef0' },
                placement: { region: 'us-east-1', availabilityZone: 'us-east-1a' },
              },
            },
          },
        },
      },
    },
  });
}

const dir = await mkdtemp(join(tmpdir(), 'mapi-capi-sync-demo-'));
let plane: ControlPlane | undefined;
try {
  banner('starting a local control plane (etcd, kube-apiserver, kube-controller-manager)');
  plane = await startControlPlane({ dir, log: (m) => console.log(`  ${m}`) });
  await seed(plane);
  banner('Machine API MachineSets');
  kubectl(plane, ['get', 'machinesets.machine.openshift.io', '-A']);
  banner('Cluster API MachineSets');
  kubectl(plane, ['get', 'machinesets.cluster.x-k8s.io', '-A']);
} finally {
  await plane?.stop();
  await rm(dir, { recursive: true, force: true });
  banner('control plane stopped');
}
