// What the migration handshake writes on the MAPI object (MachineSet or Machine): its own
// condition (merged by type), and the status fields the handshake moves. Pure.
import type { AuthoritativeAPI, CapiCondition, KubeObject, MapiCondition } from '../api/types.js';
import {
  boundedState,
  buildCondition,
  conditionChanged,
  findSynchronized,
  Reason,
  synchronizedCondition,
  withCondition,
  withReconciling,
  type ReconcilingState,
} from '../sync/conditions.js';
import { MIGRATION_CONDITION } from '../model/markers.js';
import { patchStatus, type EventSpec, type Step, type WriteStep } from '../sync/steps.js';

export type Authority = 'MachineAPI' | 'ClusterAPI';

/** What a MAPI MachineSet and a MAPI Machine share: the fields the handshake reads and moves. */
export interface MigratingObject extends KubeObject {
  /** Absent when the object has none, which its CRD admits. */
  spec?: { authoritativeAPI?: Authority };
  status?: {
    conditions?: MapiCondition[];
    authoritativeAPI?: AuthoritativeAPI;
    synchronizedAPI?: Authority;
    synchronizedGeneration?: number;
  };
}

export { MIGRATION_CONDITION };

export const MigrationReason = {
  WaitingForSynchronization: 'WaitingForSynchronization',
  MachinesNotMirrored: 'MachinesNotMirrored',
  ProviderSpecIncomplete: 'ProviderSpecIncomplete',
  WaitingForPause: 'WaitingForPause',
  WaitingForProvider: 'WaitingForProvider',
  WaitingForClusterAPIMachineSet: 'WaitingForClusterAPIMachineSet',
  WaitingForClusterAPIMachine: 'WaitingForClusterAPIMachine',
  WaitingForMachines: 'WaitingForMachines',
  Restarting: 'MigrationRestarting',
  Completed: 'MigrationCompleted',
  Cancelled: 'MigrationCancelled',
  NotRequested: 'NoMigrationRequested',
  NotStarted: 'NoMigrationStarted',
  StoppedByDeletion: 'MigrationStoppedByDeletion',
} as const;
export type MigrationReason = (typeof MigrationReason)[keyof typeof MigrationReason];

export interface MigrationState {
  status: 'True' | 'False';
  reason: MigrationReason;
  message: string;
}

export function findMigration(conditions: MapiCondition[] | undefined): MapiCondition | undefined {
  return conditions?.find((c) => c.type === MIGRATION_CONDITION);
}

/** True when the object's own controller reports `Paused` with this status. */
export function isPausedBy(
  conditions: (MapiCondition | CapiCondition)[] | undefined,
  status: 'True' | 'False',
): boolean {
  return conditions?.some((c) => c.type === 'Paused' && c.status === status) ?? false;
}

function migrationCondition(
  state: MigrationState,
  previous: MapiCondition | undefined,
  now: string,
): MapiCondition {
  const severity = state.status === 'True' ? 'Info' : '';
  return buildCondition(MIGRATION_CONDITION, { ...boundedState(state), severity }, previous, now);
}

/**
 * A status write of the handshake's condition and the given fields, or
 * undefined when neither would change anything. The event is recorded only
 * when the condition changes, so a wait is announced once.
 */
export function conditionWrite(
  mapi: MigratingObject,
  now: string,
  state: MigrationState | undefined,
  note?: string,
  fields: Record<string, unknown> = {},
  event?: EventSpec,
): WriteStep | undefined {
  const conditions = mapi.status?.conditions;
  const previous = findMigration(conditions);
  const next = state && migrationCondition(state, previous, now);
  const conditionChanges = next !== undefined && conditionChanged(previous, next);
  // Nothing to say: a settled state that was never announced needs no condition.
  const unannounced = !previous && state?.status === 'False';
  const write = (conditionChanges && !unannounced) || Object.keys(fields).length > 0;
  if (!write) return undefined;
  const status = {
    ...fields,
    ...(conditionChanges && !unannounced && next && state
      ? { conditions: withReconciling(withCondition(conditions, next), state, now) }
      : {}),
  };
  const events: EventSpec[] = [];
  if (conditionChanges && !unannounced && next) {
    events.push(
      event ?? {
        type: 'Normal',
        reason: next.reason ?? MIGRATION_CONDITION,
        message: next.message ?? '',
      },
    );
  }
  return {
    ...patchStatus(mapi, status, note ?? `reporting ${MIGRATION_CONDITION}=${state?.status}`),
    events,
    ...(fields.authoritativeAPI === 'Migrating' ? { notable: true as const } : {}),
  };
}

/**
 * Step 7, in one write: the new authority, Synchronized=Unknown for the sync to
 * take over from, and synchronizedGeneration 0 (allowed only when leaving Migrating).
 */
export function finalStatus(
  mapi: MigratingObject,
  now: string,
  to: Authority,
  state: MigrationState,
  event: EventSpec,
): Step {
  const conditions = mapi.status?.conditions;
  const synchronized = synchronizedCondition(
    {
      status: 'Unknown',
      reason: Reason.AuthorityChanged,
      message: `${to} is now authoritative; synchronization from ${to} is starting.`,
    },
    findSynchronized(conditions),
    now,
  );
  const migration = migrationCondition(state, findMigration(conditions), now);
  // Still on its way until the sync from the new authority reports True (report.ts).
  const stillReconciling: ReconcilingState = {
    status: 'True',
    reason: synchronized.reason ?? Reason.AuthorityChanged,
    message: synchronized.message ?? '',
  };
  return {
    ...patchStatus(
      mapi,
      {
        authoritativeAPI: to,
        synchronizedAPI: to,
        synchronizedGeneration: 0,
        conditions: withReconciling(
          withCondition(withCondition(conditions, synchronized), migration),
          stillReconciling,
          now,
        ),
      },
      `leaving Migrating: ${to} is authoritative`,
    ),
    events: [event],
    notable: true,
  };
}
