// What the sync says on the MAPI object (MachineSet or Machine): the Synchronized condition and
// status.synchronizedGeneration, written as a patch of those fields only.
import type { AuthoritativeAPI, KubeObject, MapiCondition } from '../api/types.js';
import type { FieldError } from '../conversion/types.js';
import {
  boundedState,
  conditionDiffers,
  findSynchronized,
  reconcilingAfterSync,
  synchronizedCondition,
  withCondition,
  withReconciling,
  type SyncReason,
  type SyncState,
} from './conditions.js';
import { done, patchStatus, type EventSpec, type Step } from './steps.js';

/** A MAPI object that reports its synchronization: a MachineSet or a Machine. */
export interface ReportingObject extends KubeObject {
  status?: {
    conditions?: MapiCondition[];
    synchronizedGeneration?: number;
    authoritativeAPI?: AuthoritativeAPI;
  };
}

/** Field errors named in one message; the rest are counted. */
const MAX_FIELD_ERRORS = 10;

export function formatFieldErrors(errors: FieldError[]): string {
  const named = errors
    .slice(0, MAX_FIELD_ERRORS)
    .map((e) => `${e.path}: ${e.message.replace(/\.+$/, '')}`);
  const more = errors.length - named.length;
  return more > 0 ? `${named.join('; ')}; and ${more} more` : named.join('; ');
}

/** A conversion's warnings as the Warning events told with its writes. */
export function warningEvents(warnings: readonly string[]): EventSpec[] {
  return warnings.map((message) => ({ type: 'Warning', reason: 'ConversionWarning', message }));
}

/** Synchronized=True, and mirrored at the object's own generation. */
export function synchronizedAtGeneration(object: ReportingObject): boolean {
  return (
    findSynchronized(object.status?.conditions)?.status === 'True' &&
    object.status?.synchronizedGeneration === object.metadata.generation
  );
}

/**
 * A step writing the Synchronized condition (and maybe raising
 * synchronizedGeneration, never lowering it), or undefined when both already say so.
 */
export function reportState(
  mapi: ReportingObject,
  now: string,
  wanted: SyncState,
  synchronizedGeneration?: number,
  events: EventSpec[] = [],
  /** Other status fields to write in the same patch (written even if the condition stands). */
  alongside?: Record<string, unknown>,
): Step | undefined {
  const state = boundedState(wanted);
  const previous = findSynchronized(mapi.status?.conditions);
  const current = mapi.status?.synchronizedGeneration;
  const raise = synchronizedGeneration !== undefined && synchronizedGeneration > (current ?? 0);
  const changed = conditionDiffers(previous, state);
  const reconciling = reconcilingAfterSync(mapi.status?.conditions, state);
  // The no-op reconcile of a synchronized object ends here, without building a conditions list.
  const mustWrite = changed || raise || alongside !== undefined;
  if (!mustWrite && !reconciling) return undefined;
  const synchronized = withCondition(
    mapi.status?.conditions,
    synchronizedCondition(state, previous, now),
  );
  const conditions = reconciling ? withReconciling(synchronized, reconciling, now) : synchronized;
  if (!mustWrite && conditions === synchronized) return undefined;
  const status: Record<string, unknown> = {
    ...alongside,
    conditions,
    ...(raise ? { synchronizedGeneration } : {}),
  };
  return {
    ...patchStatus(mapi, status, `reporting Synchronized=${state.status}`),
    events: changed ? events : [],
  };
}

/**
 * Synchronized=False with a Warning event, written once per distinct message. The event's reason
 * is `eventReason` when given (the write that failed, where the condition says `Retrying`).
 */
export function reportFailure(
  mapi: ReportingObject,
  now: string,
  reason: SyncReason,
  message: string,
  note: string,
  eventReason: SyncReason = reason,
): Step {
  const state = boundedState<SyncState>({ status: 'False', reason, message });
  const event: EventSpec = { type: 'Warning', reason: eventReason, message: state.message };
  return reportState(mapi, now, state, undefined, [event]) ?? done(note);
}
