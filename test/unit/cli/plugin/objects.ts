// MAPI and CAPI objects as the plugin reads them, in the states a cluster shows.
import type {
  CapiCondition,
  CapiMachine,
  CapiMachineSet,
  MapiCondition,
  MapiMachine,
  MapiMachineSet,
} from '../../../../src/api/types.js';

export const NOW = new Date('2026-03-01T12:00:00Z');
/** Five minutes before NOW. */
export const FIVE_MINUTES_AGO = '2026-03-01T11:55:00Z';

type Status = 'True' | 'False' | 'Unknown';

export function mapiCondition(
  type: string,
  status: Status,
  reason = '',
  message = '',
  lastTransitionTime = FIVE_MINUTES_AGO,
): MapiCondition {
  return { type, status, reason, message, lastTransitionTime };
}

export function capiCondition(type: string, status: Status, reason = 'Reason'): CapiCondition {
  return { type, status, reason, message: '', lastTransitionTime: FIVE_MINUTES_AGO };
}

export const synchronizedTrue = () => mapiCondition('Synchronized', 'True', 'ResourceSynchronized');
/** machine-api-operator's Paused condition on a MAPI object. */
export const mapiPaused = (status: 'True' | 'False') =>
  mapiCondition(
    'Paused',
    status,
    status === 'True' ? 'AuthoritativeAPINotMachineAPI' : 'AuthoritativeAPIMachineAPI',
  );
/** Cluster API's Paused condition on a CAPI object. */
export const capiPaused = (status: 'True' | 'False') =>
  capiCondition('Paused', status, status === 'True' ? 'Paused' : 'NotPaused');

/** A MAPI MachineSet under Machine API, synchronized at generation 3, 3 replicas all ready. */
export function mapiMachineSet(
  name = 'workers-a',
  patch: {
    spec?: Partial<MapiMachineSet['spec']>;
    status?: Partial<NonNullable<MapiMachineSet['status']>>;
    generation?: number;
  } = {},
): MapiMachineSet {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    metadata: { name, namespace: 'openshift-machine-api', generation: patch.generation ?? 3 },
    spec: { replicas: 3, selector: {}, authoritativeAPI: 'MachineAPI', ...patch.spec },
    status: {
      replicas: 3,
      readyReplicas: 3,
      authoritativeAPI: 'MachineAPI',
      synchronizedGeneration: 3,
      conditions: [synchronizedTrue(), mapiPaused('False')],
      ...patch.status,
    },
  };
}

/** Its paused CAPI mirror, as Cluster API reports it. */
export function capiMachineSet(
  name = 'workers-a',
  patch: {
    replicas?: number;
    status?: Partial<NonNullable<CapiMachineSet['status']>>;
    generation?: number;
    template?: string;
  } = {},
): CapiMachineSet {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineSet',
    metadata: { name, namespace: 'openshift-cluster-api', generation: patch.generation ?? 1 },
    spec: {
      clusterName: 'demo-abc12',
      replicas: patch.replicas ?? 3,
      selector: {},
      template: {
        spec: {
          clusterName: 'demo-abc12',
          bootstrap: { dataSecretName: 'worker-user-data' },
          infrastructureRef: {
            apiGroup: 'infrastructure.cluster.x-k8s.io',
            kind: 'AWSMachineTemplate',
            name: patch.template ?? `${name}-0123456789`,
          },
        },
      },
    },
    status: { replicas: 3, readyReplicas: 3, conditions: [capiPaused('True')], ...patch.status },
  };
}

export function mapiMachine(
  name: string,
  patch: {
    machineSet?: string;
    labels?: Record<string, string>;
    spec?: Partial<MapiMachine['spec']>;
    status?: Partial<NonNullable<MapiMachine['status']>>;
  } = {},
): MapiMachine {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name,
      namespace: 'openshift-machine-api',
      generation: 2,
      ...(patch.labels ? { labels: patch.labels } : {}),
      ...(patch.machineSet
        ? {
            ownerReferences: [
              {
                apiVersion: 'machine.openshift.io/v1beta1',
                kind: 'MachineSet',
                name: patch.machineSet,
                uid: 'uid-1',
                controller: true,
              },
            ],
          }
        : {}),
    },
    spec: {
      authoritativeAPI: 'MachineAPI',
      providerID: 'aws:///us-east-1a/i-0123456789abcdef0',
      ...patch.spec,
    },
    status: {
      phase: 'Running',
      authoritativeAPI: 'MachineAPI',
      synchronizedGeneration: 2,
      conditions: [synchronizedTrue(), mapiPaused('False')],
      ...patch.status,
    },
  };
}

export function capiMachine(
  name: string,
  patch: { providerID?: string; status?: Partial<NonNullable<CapiMachine['status']>> } = {},
): CapiMachine {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: { name, namespace: 'openshift-cluster-api', generation: 1 },
    spec: {
      clusterName: 'demo-abc12',
      bootstrap: {},
      infrastructureRef: {
        apiGroup: 'infrastructure.cluster.x-k8s.io',
        kind: 'AWSMachine',
        name,
      },
      providerID: patch.providerID ?? 'aws:///us-east-1a/i-0123456789abcdef0',
    },
    status: { phase: 'Running', conditions: [capiPaused('True')], ...patch.status },
  };
}
