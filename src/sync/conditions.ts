// The Synchronized condition on the MAPI MachineSet. Pure: the caller passes the time.
import type { MapiCondition } from '../api/types.js';
import { MIGRATION_CONDITION, RECONCILING, SYNCHRONIZED } from '../model/markers.js';

/**
 * A write failed for now (a timeout, a 5xx, an admission plugin that could not decide): the
 * controller retries it with backoff by itself, and nobody has to act. The Warning event keeps the
 * reason of the write that failed.
 */
const RETRYING_REASON = 'Retrying';

/** Reason identifiers, compatible with OpenShift's own sync controller (but for Retrying). */
export const Reason = {
  Synchronized: 'ResourceSynchronized',
  ConversionFailed: 'FailedToConvertMAPIMachineSetToCAPI',
  ReverseConversionFailed: 'FailedToConvertCAPIMachineSetToMAPI',
  InfraResourcesUnavailable: 'FailedToGetCAPIInfraResources',
  CreateFailed: 'FailedToCreateCAPIMachineSet',
  UpdateFailed: 'FailedToUpdateCAPIMachineSet',
  TemplateUpdateFailed: 'FailedToUpdateCAPIInfraMachineTemplate',
  MapiUpdateFailed: 'FailedToUpdateMAPIMachineSet',
  AuthorityChanged: 'AuthoritativeAPIChanged',
  Retrying: RETRYING_REASON,
} as const;
export type Reason = (typeof Reason)[keyof typeof Reason];

/** The same reasons for a Machine's Synchronized condition. */
export const MachineReason = {
  Synchronized: 'ResourceSynchronized',
  ConversionFailed: 'FailedToConvertMAPIMachineToCAPI',
  ReverseConversionFailed: 'FailedToConvertCAPIMachineToMAPI',
  InfraResourcesUnavailable: 'FailedToGetCAPIInfraResources',
  CreateFailed: 'FailedToCreateCAPIMachine',
  UpdateFailed: 'FailedToUpdateCAPIMachine',
  InfraMachineUpdateFailed: 'FailedToUpdateCAPIInfraMachine',
  MapiUpdateFailed: 'FailedToUpdateMAPIMachine',
  AuthorityChanged: 'AuthoritativeAPIChanged',
  Retrying: RETRYING_REASON,
} as const;
export type MachineReason = (typeof MachineReason)[keyof typeof MachineReason];

/** Any reason of the Synchronized condition, on a MachineSet or a Machine. */
export type SyncReason = Reason | MachineReason;

/** The reasons both kinds have, by the same names, each kind with its own identifiers. */
export type KindReasons = Readonly<
  Record<keyof typeof Reason & keyof typeof MachineReason, SyncReason>
>;

export interface SyncState {
  status: 'True' | 'False' | 'Unknown';
  reason: SyncReason;
  message: string;
}

const SEVERITY = { True: '', False: 'Error', Unknown: 'Info' } as const;

/** Longest condition message: enough for a few field errors, never a whole providerSpec. */
const MAX_CONDITION_MESSAGE = 2048;

/** The state with its message cut to MAX_CONDITION_MESSAGE characters. */
export function boundedState<T extends { message: string }>(state: T): T {
  if (state.message.length <= MAX_CONDITION_MESSAGE) return state;
  const cut = `… (${state.message.length} characters in all)`;
  return { ...state, message: state.message.slice(0, MAX_CONDITION_MESSAGE - cut.length) + cut };
}

/** True when the condition says the controller retries a failed write by itself. */
export function retriedByItself(condition: MapiCondition | undefined): boolean {
  return condition?.status === 'False' && condition.reason === RETRYING_REASON;
}

export function findSynchronized(
  conditions: MapiCondition[] | undefined,
): MapiCondition | undefined {
  return conditions?.find((c) => c.type === SYNCHRONIZED);
}

/** The condition for a state; lastTransitionTime moves only when the status changes. */
export function synchronizedCondition(
  state: SyncState,
  previous: MapiCondition | undefined,
  now: string,
): MapiCondition {
  return buildCondition(
    SYNCHRONIZED,
    { ...state, severity: SEVERITY[state.status] },
    previous,
    now,
  );
}

/** True when writing `state` would change what the condition says. */
export function conditionDiffers(previous: MapiCondition | undefined, state: SyncState): boolean {
  return conditionChanged(previous, { ...state, severity: SEVERITY[state.status] });
}

/**
 * `now` as a condition's lastTransitionTime: RFC 3339 in whole seconds, the form Kubernetes
 * (metav1.Time) writes and machine-api-operator rewrites our conditions in. The API server stores
 * a custom resource's status as sent, so a fraction would make two forms of one time.
 */
export function conditionTime(now: string): string {
  return now.replace(/\.\d+(?=Z$|[+-]\d\d:\d\d$)/, '');
}

/** A condition of any type; lastTransitionTime moves only when the status changes. */
export function buildCondition(
  type: string,
  state: Pick<MapiCondition, 'status' | 'reason' | 'message' | 'severity'>,
  previous: MapiCondition | undefined,
  now: string,
): MapiCondition {
  return {
    type,
    status: state.status,
    severity: state.severity ?? '',
    reason: state.reason ?? '',
    message: state.message ?? '',
    lastTransitionTime:
      previous && previous.status === state.status
        ? previous.lastTransitionTime
        : conditionTime(now),
  };
}

/** True when `next` says something `previous` does not (the time aside). */
export function conditionChanged(
  previous: MapiCondition | undefined,
  next: Pick<MapiCondition, 'status' | 'reason' | 'message' | 'severity'>,
): boolean {
  return (
    !previous ||
    previous.status !== next.status ||
    previous.reason !== next.reason ||
    (previous.message ?? '') !== (next.message ?? '') ||
    (previous.severity ?? '') !== (next.severity ?? '')
  );
}

/** Replaces the condition of the same type, keeping the others and their order. */
export function withCondition(
  conditions: MapiCondition[] | undefined,
  condition: MapiCondition,
): MapiCondition[] {
  const list = conditions ?? [];
  const index = list.findIndex((c) => c.type === condition.type);
  if (index === -1) return [...list, condition];
  return list.map((c, i) => (i === index ? condition : c));
}

/** What `Reconciling` says: True while the object is on its way, False once it has arrived. */
export interface ReconcilingState {
  status: 'True' | 'False';
  reason: string;
  message: string;
}

/**
 * `conditions` with `Reconciling` set to `state`; unchanged when it already says so. Severity
 * Info while True, as the Synchronized condition has while it is Unknown.
 */
export function withReconciling(
  conditions: MapiCondition[] | undefined,
  state: ReconcilingState,
  now: string,
): MapiCondition[] {
  const list = conditions ?? [];
  const severity: MapiCondition['severity'] = state.status === 'True' ? 'Info' : '';
  const bounded = { ...boundedState(state), severity };
  const previous = list.find((c) => c.type === RECONCILING);
  if (previous && !conditionChanged(previous, bounded)) return list;
  return withCondition(list, buildCondition(RECONCILING, bounded, previous, now));
}

/**
 * What the sync's report does to `Reconciling` (set only by a migration): once synchronized,
 * False; until then it says why not. Nothing while the handshake still runs (its condition
 * True) or when no migration ever set it.
 */
export function reconcilingAfterSync(
  conditions: MapiCondition[] | undefined,
  state: SyncState,
): ReconcilingState | undefined {
  const reconciling = conditions?.find((c) => c.type === RECONCILING);
  if (reconciling?.status !== 'True') return undefined;
  if (conditions?.some((c) => c.type === MIGRATION_CONDITION && c.status === 'True')) {
    return undefined;
  }
  const status = state.status === 'True' ? 'False' : 'True';
  return { status, reason: state.reason, message: state.message };
}
