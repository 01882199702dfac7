// The CAPI Cluster that Cluster API's reconcilers (running next to the test API server, see
// test/environment/control-plane.ts) need before they act on MachineSets and Machines in a
// namespace: until the Cluster named in spec.clusterName exists, the MachineSet reconciler only
// returns errors.
import { readFile } from 'node:fs/promises';
import { SECRET } from '../../src/kube/builtin-resources.js';
import { adminObjects, controlPlane } from './cluster.js';
import { DEFAULT_INFRASTRUCTURE } from './controller.js';
import { eventually } from './eventually.js';

const CAPI_CLUSTERS = { group: 'cluster.x-k8s.io', version: 'v1beta2', plural: 'clusters' };
const AWS_CLUSTERS = {
  group: 'infrastructure.cluster.x-k8s.io',
  version: 'v1beta2',
  plural: 'awsclusters',
};
/** The finalizer Cluster API's Cluster reconciler puts on every Cluster it takes in hand. */
const CAPI_CLUSTER_FINALIZER = 'cluster.cluster.x-k8s.io';

interface InfrastructureRef {
  apiGroup: string;
  kind: string;
  name: string;
}

export interface CapiClusterOptions {
  /** The Cluster's name: the Infrastructure's `status.infrastructureName`. Default 'demo-abc12'. */
  name?: string;
  /**
   * `spec.infrastructureRef` of an infrastructure cluster the caller provides. Default: an
   * AWSCluster of the same name, created here as OpenShift's cluster-capi-operator does: marked
   * externally managed (`cluster.x-k8s.io/managed-by`) and `status.ready: true`, so that Cluster
   * API treats the infrastructure as provisioned (the Cluster webhook refuses a Cluster without
   * an infrastructureRef, controlPlaneRef or topology).
   */
  infrastructureRef?: InfrastructureRef;
  /**
   * The infrastructure cluster to create instead of the default AWSCluster, as
   * cluster-capi-operator does on that platform (e.g. a VSphereCluster): its resource, kind and
   * spec; created externally managed and, unless `infrastructureReady` is false, ready.
   */
  infrastructureCluster?: InfrastructureCluster;
  /**
   * Whether the default AWSCluster is created ready (its infrastructure provisioned). Default
   * true; false holds the providers off (they take no machine in hand before), until
   * `provisionClusterInfrastructure`.
   */
  infrastructureReady?: boolean;
  /** Resolve only once Cluster API has put its finalizer on the Cluster. Default true. */
  waitForClusterApi?: boolean;
}

export interface InfrastructureCluster {
  resource: { group: string; version: string; plural: string };
  kind: string;
  spec: Record<string, unknown>;
}

export interface CapiCluster {
  name: string;
  namespace: string;
  uid: string;
  infrastructureRef: InfrastructureRef;
  /** Secret `<name>-kubeconfig` (key `value`): the workload cluster's kubeconfig. */
  kubeconfigSecret: string;
}

/**
 * Creates in `namespace`: the Secret `<name>-kubeconfig` holding an admin kubeconfig of the test
 * API server (where Cluster API's ClusterCache finds the workload cluster; labelled with the
 * cluster name, as Cluster API's own Secret cache requires), the infrastructure cluster unless
 * one is given, and the CAPI Cluster `<name>` (v1beta2) with the test API server as its control
 * plane endpoint. Everything goes away with the namespace.
 */
export async function createCapiCluster(
  namespace: string,
  options: CapiClusterOptions = {},
): Promise<CapiCluster> {
  const name = options.name ?? DEFAULT_INFRASTRUCTURE.infrastructureName;
  const api = adminObjects();
  const server = new URL(controlPlane().server);

  const kubeconfigSecret = `${name}-kubeconfig`;
  await api.create(
    { ...SECRET, namespace },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: kubeconfigSecret, labels: { 'cluster.x-k8s.io/cluster-name': name } },
      type: 'cluster.x-k8s.io/secret',
      stringData: { value: await readFile(controlPlane().kubeconfigPath, 'utf8') },
    },
  );

  let infrastructureRef = options.infrastructureRef;
  if (!infrastructureRef) {
    const endpoint = { host: server.hostname, port: Number(server.port) };
    const infra = options.infrastructureCluster ?? {
      resource: AWS_CLUSTERS,
      kind: 'AWSCluster',
      spec: { region: 'us-east-1' },
    };
    infrastructureRef = { apiGroup: infra.resource.group, kind: infra.kind, name };
    await api.create(
      { ...infra.resource, namespace },
      {
        apiVersion: `${infra.resource.group}/${infra.resource.version}`,
        kind: infra.kind,
        metadata: { name, annotations: { 'cluster.x-k8s.io/managed-by': 'cluster-capi-operator' } },
        spec: { ...infra.spec, controlPlaneEndpoint: endpoint },
      },
    );
    if (options.infrastructureReady ?? true) {
      await provisionClusterInfrastructure(namespace, name, infra.resource);
    }
  }

  const created = await api.create<{ metadata: { uid: string } }>(
    { ...CAPI_CLUSTERS, namespace },
    {
      apiVersion: `${CAPI_CLUSTERS.group}/${CAPI_CLUSTERS.version}`,
      kind: 'Cluster',
      metadata: { name },
      spec: {
        // as in an OpenShift cluster: the control plane is the cluster's own API server
        controlPlaneEndpoint: { host: server.hostname, port: Number(server.port) },
        infrastructureRef,
      },
    },
  );

  if (options.waitForClusterApi ?? true) {
    await eventually(
      async () => {
        const cluster = await api.get<{
          metadata: { finalizers?: string[] };
        }>({ ...CAPI_CLUSTERS, namespace, name });
        if (!cluster.metadata.finalizers?.includes(CAPI_CLUSTER_FINALIZER)) {
          throw new Error(`Cluster API has not taken Cluster ${namespace}/${name} in hand yet`);
        }
      },
      { timeoutMs: 30_000 },
    );
  }
  return { name, namespace, uid: created.metadata.uid, infrastructureRef, kubeconfigSecret };
}

/**
 * What cluster-capi-operator writes on the infrastructure cluster it manages (an AWSCluster unless
 * `resource` says otherwise): its infrastructure is ready.
 */
export async function provisionClusterInfrastructure(
  namespace: string,
  name: string,
  resource: InfrastructureCluster['resource'] = AWS_CLUSTERS,
): Promise<void> {
  await adminObjects().patch(
    { ...resource, namespace, name },
    { type: 'json', operations: [{ op: 'add', path: '/status', value: { ready: true } }] },
    { subresource: 'status' },
  );
}

/** The user-data Secret the fixtures' machines boot from, as cluster-capi-operator copies it. */
export async function createUserData(namespace: string): Promise<void> {
  await adminObjects().create(
    { ...SECRET, namespace },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'worker-user-data' },
      stringData: { userData: '{"ignition":{"version":"3.2.0"}}' },
    },
  );
}
