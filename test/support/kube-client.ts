// The controller's own API client on a client-node KubeConfig (what the test and bench fixtures
// hold), through the same kubeconfig loader the program uses.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { loadClusterAccess } from '../../src/kube/cluster-access.js';
import { KubeClient, type KubeClientOptions } from '../../src/kube/http-client.js';

export function clientFor(kubeConfig: KubeConfig, options: KubeClientOptions = {}): KubeClient {
  const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-'));
  try {
    const kubeconfigPath = join(dir, 'config');
    writeFileSync(kubeconfigPath, kubeConfig.exportConfig(), { mode: 0o600 });
    return new KubeClient(loadClusterAccess({ kubeconfigPath, env: {} }), options);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
