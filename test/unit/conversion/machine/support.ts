// A MAPI worker Machine on AWS, owned by its MachineSet, and the CAPI objects around it.
import type { CapiMachineSet, KubeObject, MapiMachine } from '../../../../src/api/types.js';
import { platformMachineSets, providerSpecOf } from '../../../support/conversion.js';

export const AWS = platformMachineSets()[0]!;
export const CAPI_NAMESPACE = 'openshift-cluster-api';
export const PROVIDER_ID = 'aws:///us-east-1a/i-0123456789abcdef0';

export function workerMachine(): MapiMachine {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name: 'worker-a-x7k2p',
      namespace: 'openshift-machine-api',
      labels: {
        'machine.openshift.io/cluster-api-cluster': 'demo-abc12',
        'machine.openshift.io/cluster-api-machine-role': 'worker',
        'machine.openshift.io/cluster-api-machineset': 'worker-a',
        'machine.openshift.io/instance-type': 'm6i.xlarge',
      },
      annotations: { 'machine.openshift.io/instance-state': 'running' },
      ownerReferences: [
        {
          apiVersion: 'machine.openshift.io/v1beta1',
          kind: 'MachineSet',
          name: 'worker-a',
          uid: 'mapi-uid',
          controller: true,
        },
      ],
    },
    spec: {
      metadata: { labels: { 'node-role.kubernetes.io/infra': '' } },
      lifecycleHooks: { preDrain: [{ name: 'drain-guard', owner: 'storage-operator' }] },
      taints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }],
      providerSpec: { value: providerSpecOf(AWS.machineSet()) },
      providerID: PROVIDER_ID,
    },
  };
}

export const CAPI_MACHINE_SET = {
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'MachineSet',
  metadata: { name: 'worker-a', namespace: CAPI_NAMESPACE, uid: 'capi-set-uid' },
} as CapiMachineSet;

export const CLUSTER: KubeObject = {
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Cluster',
  metadata: { name: 'demo-abc12', namespace: CAPI_NAMESPACE, uid: 'cluster-uid' },
};
