// kube-controller-manager: real ownerReference garbage collection and namespace deletion, its
// other controllers off.
import { freePort, probe, waitFor, type Launcher } from './processes.js';

/**
 * Starts kube-controller-manager with only the garbage-collector and namespace controllers;
 * resolves once its /healthz passes. Started after the CRDs, so that its garbage collector watches
 * them from the start.
 */
export async function startKubeControllerManager(
  processes: Launcher<'kube-controller-manager'>,
  kubeconfigPath: string,
  log: (message: string) => void,
): Promise<void> {
  const port = await freePort();
  log('starting kube-controller-manager (garbage collector, namespace controllers)');
  processes.launch('kube-controller-manager', [
    `--kubeconfig=${kubeconfigPath}`,
    '--controllers=garbagecollector,namespace',
    `--secure-port=${port}`,
    '--bind-address=127.0.0.1',
    '--leader-elect=false',
    '--use-service-account-credentials=false',
    '--v=1',
  ]);
  await waitFor(
    'kube-controller-manager /healthz',
    60_000,
    async () =>
      (await probe(`https://127.0.0.1:${port}/healthz`, { insecure: true })).status === 200,
    processes.ensureRunning('kube-controller-manager'),
  );
}
