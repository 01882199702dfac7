// The controller's own API client on a client-node KubeConfig (what the test and bench fixtures
// hold), through the same kubeconfig-to-transport path the program uses.
import type { KubeConfig } from '@kubernetes/client-node';
import { clusterAccess } from '../../src/kube/cluster-access.js';
import { currentContext } from '../../src/kube/kubeconfig.js';
import { KubeClient, type KubeClientOptions } from '../../src/kube/http-client.js';

export function clientFor(kubeConfig: KubeConfig, options: KubeClientOptions = {}): KubeClient {
  return new KubeClient(clusterAccess(currentContext(kubeConfig)), options);
}
