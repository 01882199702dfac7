// etcd: one member on loopback, its data in the control plane's directory.
import { join } from 'node:path';
import { freePort, probe, waitFor, type Launcher } from './processes.js';

/** Starts etcd on free loopback ports; resolves with its client URL once /health passes. */
export async function startEtcd(
  processes: Launcher<'etcd'>,
  dir: string,
  log: (message: string) => void,
): Promise<string> {
  const [clientPort, peerPort] = await Promise.all([freePort(), freePort()]);
  const etcdUrl = `http://127.0.0.1:${clientPort}`;
  const peerUrl = `http://127.0.0.1:${peerPort}`;
  log(`starting etcd on ${etcdUrl}`);
  processes.launch('etcd', [
    '--name=etcd',
    `--data-dir=${join(dir, 'etcd')}`,
    `--listen-client-urls=${etcdUrl}`,
    `--advertise-client-urls=${etcdUrl}`,
    `--listen-peer-urls=${peerUrl}`,
    `--initial-advertise-peer-urls=${peerUrl}`,
    `--initial-cluster=etcd=${peerUrl}`,
    '--unsafe-no-fsync',
    '--log-level=warn',
  ]);
  await waitFor(
    'etcd /health',
    30_000,
    async () => (await probe(`${etcdUrl}/health`)).status === 200,
    processes.ensureRunning('etcd'),
  );
  return etcdUrl;
}
