// The status a mirror shows of the object it mirrors, written once for both kinds and both
// directions: a paused CAPI object's from its MAPI object, a MAPI mirror's from its authoritative
// CAPI object. Each kind says which fields it mirrors (machine-set/mirror-status.ts,
// machine/mirror-status.ts); only those are written, and only the ones that differ. Conditions
// stay with their owners (Cluster API's `Paused`, machine-api-operator's), but for the types the
// kind says are ours. Pure.
import isEqual from 'lodash/isEqual.js';
import type { KubeObject } from '../api/types.js';
import { patchStatus, setStatusFields, type WriteStep } from './steps.js';

interface TypedCondition {
  type: string;
}

/** What a kind mirrors onto one object's status. */
export interface MirroredStatus {
  /** The status fields we own and what they should say; null removes a field. */
  fields: Record<string, unknown>;
  /** Conditions we own, replacing those of their types; everyone else's stay as they are. */
  conditions?: TypedCondition[];
}

/** A status as the mirror reads it. */
type Status = Record<string, unknown> & { conditions?: TypedCondition[] };

/**
 * The status fields to write: those of `wanted` that `current` does not say (an absent field says
 * null), and the whole conditions list when one of ours changed. Undefined when none.
 */
export function statusChanges(
  current: Status | undefined,
  wanted: MirroredStatus,
): Record<string, unknown> | undefined {
  const status = current ?? {};
  const changed = Object.entries(wanted.fields).filter(
    ([key, value]) => !isEqual(status[key] ?? null, value),
  );
  const ours = wanted.conditions ?? [];
  const previous = status.conditions;
  const conditionsChanged = ours.some(
    (c) =>
      !isEqual(
        previous?.find((p) => p.type === c.type),
        c,
      ),
  );
  if (changed.length === 0 && !conditionsChanged) return undefined;
  return {
    ...Object.fromEntries(changed),
    ...(conditionsChanged ? { conditions: mergeConditions(previous, ours) } : {}),
  };
}

/** A merge patch of the object's status fields that differ from `wanted`, or undefined. */
export function planStatusMirror(
  object: KubeObject & { status?: object },
  wanted: MirroredStatus | undefined,
  note: string,
): WriteStep | undefined {
  const changes = wanted && statusChanges(object.status as Status | undefined, wanted);
  if (!changes) return undefined;
  // The condition list is merged with everyone else's as read: only that needs the guard.
  return 'conditions' in changes
    ? patchStatus(object, changes, note)
    : setStatusFields(object, changes, note);
}

/** Replaces our condition types in the list, keeping everyone else's in place. */
function mergeConditions<C extends TypedCondition>(existing: C[] | undefined, ours: C[]): C[] {
  const merged = (existing ?? []).map((c) => ours.find((o) => o.type === c.type) ?? c);
  return [...merged, ...ours.filter((o) => !merged.some((c) => c.type === o.type))];
}
