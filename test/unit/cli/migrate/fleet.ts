// A fleet as `migrate` reads it: AWS MachineSets that convert both ways, their mirrors and
// Machines, in the states a migration passes through.
import type {
  CapiMachine,
  CapiMachineSet,
  MapiCondition,
  MapiMachine,
  MapiMachineSet,
} from '../../../../src/api/types.js';
import type { Fleet } from '../../../../src/cli/migrate/state.js';
import { platformCorpus } from '../check/corpus.js';
import {
  capiMachine,
  capiMachineSet,
  mapiCondition,
  mapiMachine,
  synchronizedTrue,
} from '../plugin/objects.js';

type Authority = 'MachineAPI' | 'ClusterAPI';

const AWS_CORPUS = platformCorpus().find((p) => p.platform === 'AWS')!;
export const INFRASTRUCTURE = AWS_CORPUS.infrastructure;

export interface SideState {
  spec?: Authority;
  status?: Authority | 'Migrating';
  synchronizedAPI?: Authority;
  synchronizedGeneration?: number;
  synchronized?: MapiCondition;
  migration?: string;
}

function status(state: SideState, generation: number) {
  const conditions = [state.synchronized ?? synchronizedTrue()];
  if (state.migration)
    conditions.push(mapiCondition('MigrationProgressing', 'True', state.migration));
  return {
    authoritativeAPI: state.status ?? state.spec ?? 'MachineAPI',
    ...(state.synchronizedAPI ? { synchronizedAPI: state.synchronizedAPI } : {}),
    synchronizedGeneration: state.synchronizedGeneration ?? generation,
    conditions,
  };
}

/** A MachineSet that converts both ways, by default synchronized under Machine API. */
export function machineSet(
  name: string,
  state: SideState & { labels?: Record<string, string>; broken?: boolean } = {},
): MapiMachineSet {
  const base = state.broken ? AWS_CORPUS.bad(name) : AWS_CORPUS.good(name);
  return {
    ...base,
    metadata: {
      ...base.metadata,
      namespace: 'openshift-machine-api',
      generation: 3,
      resourceVersion: '100',
      uid: `uid-${name}`,
      labels: { ...base.metadata.labels, ...state.labels },
    },
    spec: { ...base.spec, authoritativeAPI: state.spec ?? 'MachineAPI' },
    status: status(state, 3),
  };
}

const mirror = (name: string): CapiMachineSet => capiMachineSet(name, { generation: 5 });

/** A MAPI Machine of `set` and its CAPI mirror, by default synchronized under Machine API. */
export function machinePair(
  name: string,
  set: string,
  state: SideState = {},
): { mapi: MapiMachine; capi: CapiMachine } {
  const mapi = mapiMachine(name, { machineSet: set, status: status(state, 2) });
  mapi.spec.authoritativeAPI = state.spec ?? 'MachineAPI';
  mapi.metadata.uid = `mapi-${name}`;
  const capi = capiMachine(name);
  capi.metadata.uid = `capi-${name}`;
  capi.metadata.ownerReferences = [
    {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineSet',
      name: set,
      uid: 'u',
      controller: true,
    },
  ];
  return { mapi, capi };
}

/** Synchronized on ClusterAPI at the CAPI generations of `mirror` (5) and `machinePair` (1). */
export const ON_CLUSTER_API: SideState = { spec: 'ClusterAPI', status: 'ClusterAPI' };

export function fleetOf(
  machineSets: MapiMachineSet[],
  machines: { mapi: MapiMachine; capi: CapiMachine }[] = [],
): Fleet {
  return {
    mapiMachineSets: machineSets,
    capiMachineSets: machineSets.map((m) => mirror(m.metadata.name)),
    mapiMachines: machines.map((m) => m.mapi),
    capiMachines: machines.map((m) => m.capi),
  };
}
