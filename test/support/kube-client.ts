// The controller's own API client on a client-node KubeConfig (what the test and bench fixtures
// hold), through the same kubeconfig-to-transport path the program uses, and the object client
// on it that the tests, the demo and the bench read and write with.
import type { KubeConfig } from '@kubernetes/client-node';
import { clusterAccess } from '../../src/kube/cluster-access.js';
import { currentContext } from '../../src/kube/kubeconfig.js';
import { KubeClient, type KubeClientOptions } from '../../src/kube/http-client.js';
import { ObjectClient } from '../../src/kube/objects.js';

export function clientFor(kubeConfig: KubeConfig, options: KubeClientOptions = {}): KubeClient {
  return new KubeClient(clusterAccess(currentContext(kubeConfig)), options);
}

/**
 * The User-Agent of the fixtures' requests: the API server names their field manager after it, so
 * the objects the tests, the demo and the bench write never look written by the controller
 * (whose requests say mapi-capi-sync).
 */
const FIXTURES_USER_AGENT = 'test-fixtures';

/** Objects of any resource, as the user of `kubeConfig`. */
export function objectsFor(kubeConfig: KubeConfig, options: KubeClientOptions = {}): ObjectClient {
  return new ObjectClient(clientFor(kubeConfig, { userAgent: FIXTURES_USER_AGENT, ...options }));
}
