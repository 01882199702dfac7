// Objects the controller's unit tests build: CAPI MachineSets, Machines, templates.
import type { CapiMachineSet, KubeObject, MachineTemplate } from '../../../src/api/types.js';
import { SOURCE_ANNOTATION } from '../../../src/model/markers.js';

export function capiMachineSet(
  infrastructureRef?: { kind: string; name: string },
  name = 'fleet',
): CapiMachineSet {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineSet',
    metadata: { name, namespace: 'openshift-cluster-api' },
    spec: {
      template: {
        spec: {
          clusterName: 'c',
          bootstrap: {},
          ...(infrastructureRef
            ? {
                infrastructureRef: {
                  apiGroup: 'infrastructure.cluster.x-k8s.io',
                  ...infrastructureRef,
                },
              }
            : {}),
        },
      },
    },
  } as CapiMachineSet;
}

export function machineOwnedBy(
  owners: { apiVersion: string; name: string; controller?: boolean }[],
): KubeObject {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name: 'fleet-x1',
      ownerReferences: owners.map((o) => ({ kind: 'MachineSet', uid: 'u', ...o })),
    },
  };
}

/** An AWS machine template; ours (made for MachineSet `source`) when a source is given. */
export function machineTemplate(name: string, source?: string): MachineTemplate {
  return {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'AWSMachineTemplate',
    metadata: { name, ...(source ? { annotations: { [SOURCE_ANNOTATION]: source } } : {}) },
    spec: { template: { spec: {} } },
  };
}
