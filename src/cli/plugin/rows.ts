// What one row of the plugin's tables says about a MAPI object and its CAPI mirror. Pure: the
// values are read from the objects as they are; ages are left as timestamps for the table.
import type {
  CapiCondition,
  CapiMachine,
  CapiMachineSet,
  MapiCondition,
  MapiMachine,
  MapiMachineSet,
} from '../../api/types.js';
import { findMigration } from '../../migration/status.js';
import { findSynchronized } from '../../sync/conditions.js';

/** Shown where a value is absent. */
export const NONE = '-';

export interface MachineSetRow {
  name: string;
  /** `spec → status`, or one value when they agree. */
  authority: string;
  /** The Synchronized condition's status, and its reason unless True. */
  synchronized: string;
  /** When the Synchronized condition last changed status (RFC 3339), for the AGE column. */
  synchronizedSince?: string;
  /** `synchronizedGeneration/generation of the authoritative side`. */
  generation: string;
  mirror: string;
  /** The sides whose own controller reports Paused=True. */
  paused: string;
  template: string;
  /** `mapi/capi` desired and ready. */
  replicas: string;
  /** The MigrationProgressing reason while a migration is under way. */
  step: string;
  /** What a person should read: the migration's message while it runs, else Synchronized's. */
  message: string;
}

export interface MachineRow {
  name: string;
  machineSet: string;
  authority: string;
  synchronized: string;
  synchronizedSince?: string;
  generation: string;
  /** `mapi/capi` phase. */
  phase: string;
  providerID: string;
  paused: string;
  step: string;
  message: string;
}

/** The fields a MAPI MachineSet and a MAPI Machine share, as far as the rows read them. */
interface MapiSubject {
  metadata: { generation?: number };
  spec?: { authoritativeAPI?: string };
  status?: {
    conditions?: MapiCondition[];
    authoritativeAPI?: string;
    synchronizedAPI?: string;
    synchronizedGeneration?: number;
  };
}

interface CapiSubject {
  metadata: { generation?: number };
  status?: { conditions?: CapiCondition[] };
}

export function authorityOf(mapi: MapiSubject): string {
  const wanted = mapi.spec?.authoritativeAPI ?? NONE;
  const current = mapi.status?.authoritativeAPI ?? NONE;
  return wanted === current ? current : `${wanted}→${current}`;
}

export function synchronizedOf(mapi: MapiSubject): string {
  const condition = findSynchronized(mapi.status?.conditions);
  if (!condition) return NONE;
  if (condition.status === 'True' || !condition.reason) return condition.status;
  return `${condition.status} ${condition.reason}`;
}

/**
 * The generation synchronizedGeneration is compared with: the authoritative side's (the CAPI
 * mirror's under Cluster API; while Migrating, the side the migration started from).
 */
function generationOf(mapi: MapiSubject, capi: CapiSubject | undefined): string {
  const status = mapi.status;
  const authority =
    status?.authoritativeAPI === 'Migrating' ? status.synchronizedAPI : status?.authoritativeAPI;
  const generation =
    authority === 'ClusterAPI' ? capi?.metadata.generation : mapi.metadata.generation;
  return `${status?.synchronizedGeneration ?? NONE}/${generation ?? NONE}`;
}

type PausedReport = 'paused' | 'running' | 'unreported';

function pausedReport(conditions: (MapiCondition | CapiCondition)[] | undefined): PausedReport {
  const paused = conditions?.find((c) => c.type === 'Paused');
  if (paused?.status === 'True') return 'paused';
  if (paused?.status === 'False') return 'running';
  return 'unreported';
}

/**
 * Which sides are paused, as their owners report it (machine-api-operator's Paused condition on
 * MAPI, Cluster API's on CAPI): `MAPI`, `CAPI`, `MAPI,CAPI` or `none`; a side whose owner has
 * not reported yet is added with a question mark (`CAPI,MAPI?`). Annotations are not read: they
 * say what was asked, not what the owner did.
 */
function pausedOf(mapi: MapiSubject, capi: CapiSubject | undefined): string {
  const sides: [string, PausedReport][] = [['MAPI', pausedReport(mapi.status?.conditions)]];
  if (capi) sides.push(['CAPI', pausedReport(capi.status?.conditions)]);
  const paused = sides.filter(([, report]) => report === 'paused').map(([side]) => side);
  const unreported = sides.filter(([, r]) => r === 'unreported').map(([side]) => `${side}?`);
  const all = [...paused, ...unreported];
  return all.length > 0 ? all.join(',') : 'none';
}

/**
 * The handshake's current reason: while Migrating, and at the gate (MigrationProgressing=True
 * before Migrating is entered); `-` when no migration is under way.
 */
export function stepOf(mapi: MapiSubject): string {
  const migration = findMigration(mapi.status?.conditions);
  const migrating = mapi.status?.authoritativeAPI === 'Migrating';
  if (migrating || migration?.status === 'True') return migration?.reason || NONE;
  return NONE;
}

/** One line: the migration's message while it runs, else Synchronized's unless it is True. */
function messageOf(mapi: MapiSubject): string {
  const migration = findMigration(mapi.status?.conditions);
  const synchronized = findSynchronized(mapi.status?.conditions);
  const text =
    stepOf(mapi) !== NONE
      ? migration?.message
      : synchronized?.status !== 'True'
        ? synchronized?.message
        : undefined;
  return text ? text.replace(/\s+/g, ' ').trim() : NONE;
}

const count = (value: number | undefined): string => (value === undefined ? NONE : String(value));

function replicasOf(mapi: MapiMachineSet, capi: CapiMachineSet | undefined): string {
  const desired = `${count(mapi.spec?.replicas)}/${capi ? count(capi.spec.replicas) : NONE}`;
  const ready = `${count(mapi.status?.readyReplicas ?? 0)}/${capi ? count(capi.status?.readyReplicas ?? 0) : NONE}`;
  return `${desired} ready ${ready}`;
}

export function machineSetRow(
  mapi: MapiMachineSet,
  capi: CapiMachineSet | undefined,
): MachineSetRow {
  const since = findSynchronized(mapi.status?.conditions)?.lastTransitionTime;
  return {
    name: mapi.metadata.name,
    authority: authorityOf(mapi),
    synchronized: synchronizedOf(mapi),
    ...(since ? { synchronizedSince: since } : {}),
    generation: generationOf(mapi, capi),
    mirror: capi?.metadata.name ?? NONE,
    paused: pausedOf(mapi, capi),
    template: capi?.spec.template.spec.infrastructureRef.name ?? NONE,
    replicas: replicasOf(mapi, capi),
    step: stepOf(mapi),
    message: messageOf(mapi),
  };
}

/** The label machine-api-operator puts on the Machines of a MachineSet. */
const MACHINE_SET_LABEL = 'machine.openshift.io/cluster-api-machineset';

/** The MAPI MachineSet a Machine belongs to: its controller, else its MachineSet label. */
export function machineSetOf(machine: MapiMachine): string | undefined {
  const owner = machine.metadata.ownerReferences?.find(
    (o) =>
      o.controller && o.kind === 'MachineSet' && o.apiVersion.startsWith('machine.openshift.io/'),
  );
  return owner?.name ?? machine.metadata.labels?.[MACHINE_SET_LABEL];
}

function providerIDOf(mapi: MapiMachine, capi: CapiMachine | undefined): string {
  const mapiID = mapi.spec?.providerID;
  const capiID = capi?.spec.providerID;
  if (mapiID && capiID && mapiID !== capiID) return `${mapiID} (CAPI: ${capiID})`;
  return mapiID ?? capiID ?? NONE;
}

export function machineRow(mapi: MapiMachine, capi: CapiMachine | undefined): MachineRow {
  const since = findSynchronized(mapi.status?.conditions)?.lastTransitionTime;
  return {
    name: mapi.metadata.name,
    machineSet: machineSetOf(mapi) ?? NONE,
    authority: authorityOf(mapi),
    synchronized: synchronizedOf(mapi),
    ...(since ? { synchronizedSince: since } : {}),
    generation: generationOf(mapi, capi),
    phase: `${mapi.status?.phase ?? NONE}/${capi ? (capi.status?.phase ?? NONE) : NONE}`,
    providerID: providerIDOf(mapi, capi),
    paused: pausedOf(mapi, capi),
    step: stepOf(mapi),
    message: messageOf(mapi),
  };
}
