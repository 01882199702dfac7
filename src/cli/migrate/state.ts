// Where one MachineSet stands in a migration, read from its objects alone: both MachineSets and
// both sides' Machines. Pure: the same objects give the same answer, so a run can stop at any
// moment and the next one carries on from what the cluster shows.
import type {
  CapiMachine,
  CapiMachineSet,
  MachineAutoscaler,
  MapiCondition,
  MapiMachine,
  MapiMachineSet,
} from '../../api/types.js';
import { oneLine } from '../../kube/errors.js';
import { findSynchronized, Reason, retriedByItself } from '../../sync/conditions.js';
import { authorityOf, machineSetOf, stepOf, synchronizedOf } from '../plugin/rows.js';
import type { Authority } from './flags.js';

/** One read of the cluster: what the command knows of every MachineSet and Machine. */
export interface Fleet {
  mapiMachineSets: MapiMachineSet[];
  capiMachineSets: CapiMachineSet[];
  mapiMachines: MapiMachine[];
  capiMachines: CapiMachine[];
  /** Absent when the cluster does not serve MachineAutoscalers. */
  autoscalers?: MachineAutoscaler[];
}

/** The objects of one MachineSet. */
export interface MachineSetObjects {
  mapi: MapiMachineSet;
  capi?: CapiMachineSet;
  mapiMachines: MapiMachine[];
  capiMachines: CapiMachine[];
}

/** The label Cluster API puts on the Machines of a MachineSet. */
const CAPI_SET_LABEL = 'cluster.x-k8s.io/set-name';

/** The CAPI MachineSet a CAPI Machine belongs to: its controller, else its set-name label. */
function capiMachineSetOf(machine: CapiMachine): string | undefined {
  const owner = machine.metadata.ownerReferences?.find(
    (o) => o.controller && o.kind === 'MachineSet' && o.apiVersion.startsWith('cluster.x-k8s.io/'),
  );
  return owner?.name ?? machine.metadata.labels?.[CAPI_SET_LABEL];
}

export function objectsOf(fleet: Fleet, name: string): MachineSetObjects | undefined {
  const mapi = fleet.mapiMachineSets.find((m) => m.metadata.name === name);
  if (!mapi) return undefined;
  const capi = fleet.capiMachineSets.find((c) => c.metadata.name === name);
  return {
    mapi,
    ...(capi ? { capi } : {}),
    mapiMachines: fleet.mapiMachines.filter((m) => machineSetOf(m) === name),
    capiMachines: fleet.capiMachines.filter((m) => capiMachineSetOf(m) === name),
  };
}

/**
 * - `pending`: spec.authoritativeAPI does not ask for the target: checked, then patched;
 * - `cancel`: the same, while a migration away from the target is under way (Migrating from
 *   it): the patch is a cancel, which the handshake always accepts, so it is not checked;
 * - `moving`: spec asks for the target (an earlier run, or someone, wrote it) but it has not
 *   arrived: only waited for, never patched again;
 * - `done`: it has arrived (see `arrived`), or its status is on the target and nothing of the
 *   handshake is left (a MachineSet that stays unsynchronized there is not waited for).
 */
export type Phase = 'pending' | 'cancel' | 'moving' | 'done';

const specOf = (mapi: MapiMachineSet): Authority => mapi.spec?.authoritativeAPI ?? 'MachineAPI';

interface Mirrored {
  metadata: { generation?: number };
  status?: {
    conditions?: MapiCondition[];
    authoritativeAPI?: string;
    synchronizedGeneration?: number;
  };
}

/**
 * On `target`, Synchronized=True at the generation of the new authoritative side: the MAPI
 * object's under Machine API, its CAPI mirror's under Cluster API.
 */
function settledOn(
  mapi: Mirrored,
  capi: { metadata: { generation?: number } } | undefined,
  target: Authority,
): boolean {
  const authoritative = target === 'ClusterAPI' ? capi : mapi;
  return (
    mapi.status?.authoritativeAPI === target &&
    findSynchronized(mapi.status?.conditions)?.status === 'True' &&
    authoritative?.metadata.generation !== undefined &&
    mapi.status.synchronizedGeneration === authoritative.metadata.generation
  );
}

const live = <T extends { metadata: { deletionTimestamp?: string } }>(objects: T[]): T[] =>
  objects.filter((o) => !o.metadata.deletionTimestamp);

/** The MachineSet and every Machine of it settled on `target`, spec asking for it. */
export function arrived(objects: MachineSetObjects, target: Authority): boolean {
  const { mapi, capi } = objects;
  if (specOf(mapi) !== target || !settledOn(mapi, capi, target)) return false;
  return live(objects.mapiMachines).every((machine) =>
    settledOn(
      machine,
      objects.capiMachines.find((c) => c.metadata.name === machine.metadata.name),
      target,
    ),
  );
}

export function phaseOf(objects: MachineSetObjects, target: Authority): Phase {
  const { mapi } = objects;
  if (specOf(mapi) !== target) {
    const status = mapi.status;
    return status?.authoritativeAPI === 'Migrating' && status.synchronizedAPI === target
      ? 'cancel'
      : 'pending';
  }
  if (mapi.status?.authoritativeAPI !== target || arrived(objects, target)) {
    return mapi.status?.authoritativeAPI === target ? 'done' : 'moving';
  }
  // On the target: settling if the handshake has just left Migrating or a Machine is still on
  // its way; otherwise it is there, and its Synchronized condition says whatever else it has.
  const settling =
    findSynchronized(mapi.status.conditions)?.reason === Reason.AuthorityChanged ||
    live(objects.mapiMachines).some((m) => m.status?.authoritativeAPI !== target);
  return settling ? 'moving' : 'done';
}

/** What a table row says of one MachineSet. */
export interface Progress {
  name: string;
  /** `spec→status`, or one value when they agree. */
  authority: string;
  /** The MigrationProgressing reason while a migration is wanted or under way, else `-`. */
  step: string;
  /** Its live MAPI Machines, and how many of them are on the target. */
  machines: { onTarget: number; total: number };
  synchronized: string;
  arrived: boolean;
}

export function progressOf(objects: MachineSetObjects, target: Authority): Progress {
  const machines = live(objects.mapiMachines);
  return {
    name: objects.mapi.metadata.name,
    authority: authorityOf(objects.mapi),
    step: stepOf(objects.mapi),
    machines: {
      onTarget: machines.filter((m) => m.status?.authoritativeAPI === target).length,
      total: machines.length,
    },
    synchronized: synchronizedOf(objects.mapi),
    arrived: arrived(objects, target),
  };
}

/** A Synchronized=False that the controller does not retry by itself: something must change. */
function stuck(object: Mirrored): string | undefined {
  const condition = findSynchronized(object.status?.conditions);
  if (condition?.status !== 'False' || retriedByItself(condition)) return undefined;
  return `Synchronized=False, reason ${condition.reason ?? 'none'}: ${oneLine(condition.message ?? '', 600)}`;
}

/**
 * Why a MachineSet this run has asked to migrate will not get there by itself, as its objects
 * show it; undefined while nothing says so.
 */
export function failureOf(
  objects: MachineSetObjects | undefined,
  target: Authority,
): string | undefined {
  if (!objects) return 'the MAPI MachineSet is gone (deleted)';
  const { mapi } = objects;
  if (mapi.metadata.deletionTimestamp) return 'the MAPI MachineSet is being deleted';
  const spec = specOf(mapi);
  if (spec !== target) {
    return `spec.authoritativeAPI is ${spec} again: someone withdrew or cancelled this migration`;
  }
  const own = stuck(mapi);
  if (own) return own;
  for (const machine of live(objects.mapiMachines)) {
    const problem = stuck(machine);
    if (problem) return `Machine ${machine.metadata.name}: ${problem}`;
  }
  return undefined;
}

/** The uid of every live Machine of a MachineSet, per side, by name. */
export interface MachineSnapshot {
  mapi: Record<string, string>;
  capi: Record<string, string>;
  /** Machines already being deleted: their going is not this run's doing. */
  deleting: string[];
}

export function machineSnapshot(objects: MachineSetObjects): MachineSnapshot {
  const uids = (machines: { metadata: { name: string; uid?: string } }[]) =>
    Object.fromEntries(machines.map((m) => [m.metadata.name, m.metadata.uid ?? '']));
  const all = [...objects.mapiMachines, ...objects.capiMachines];
  return {
    mapi: uids(live(objects.mapiMachines)),
    capi: uids(live(objects.capiMachines)),
    deleting: [
      ...new Set(all.filter((m) => m.metadata.deletionTimestamp).map((m) => m.metadata.name)),
    ],
  };
}

/**
 * Machines created or deleted since `before`: a Machine of either side gone, being deleted or
 * replaced (another uid), or a name neither side had. A mirror appearing for a machine known on
 * the other side is no new machine.
 */
export function machineChanges(before: MachineSnapshot, objects: MachineSetObjects): string[] {
  const changes: string[] = [];
  const sides = [
    ['MAPI', before.mapi, objects.mapiMachines],
    ['CAPI', before.capi, objects.capiMachines],
  ] as const;
  for (const [side, known, machines] of sides) {
    for (const [name, uid] of Object.entries(known)) {
      const now = machines.find((m) => m.metadata.name === name);
      if (!now) changes.push(`${side} Machine ${name} was deleted`);
      else if (now.metadata.uid !== uid) changes.push(`${side} Machine ${name} was replaced`);
      else if (now.metadata.deletionTimestamp)
        changes.push(`${side} Machine ${name} is being deleted`);
    }
  }
  const names = new Set([
    ...Object.keys(before.mapi),
    ...Object.keys(before.capi),
    ...before.deleting,
  ]);
  const created = new Set(
    [...objects.mapiMachines, ...objects.capiMachines]
      .map((m) => m.metadata.name)
      .filter((name) => !names.has(name)),
  );
  for (const name of [...created].sort()) changes.push(`Machine ${name} was created`);
  return changes;
}
