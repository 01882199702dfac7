// The paused mirror's status, derived from the MAPI MachineSet's. Pure: the caller passes the time.
//
// Only the fields below are ours while the mirror is paused; Cluster API owns
// its `Paused` condition (it sets it on paused objects too) and every other
// condition, so they are kept as they are and never compared.
import isEqual from 'lodash/isEqual.js';
import type {
  CapiCondition,
  CapiMachineSet,
  LabelSelector,
  MapiMachineSet,
} from '../../api/types.js';
import { conditionTime } from '../conditions.js';
import { patchStatus, type WriteStep } from '../steps.js';

/** The condition types we write on a paused mirror. */
export const MIRROR_CONDITION_TYPES = ['ScalingUp', 'ScalingDown', 'MachinesReady'] as const;

/** A label selector in the string form Kubernetes uses for the scale subresource. */
export function selectorString(selector: LabelSelector): string {
  const parts = Object.entries(selector.matchLabels ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}=${value}`);
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    const list = [...values].sort().join(',');
    if (operator === 'In') parts.push(`${key} in (${list})`);
    else if (operator === 'NotIn') parts.push(`${key} notin (${list})`);
    else if (operator === 'Exists') parts.push(key);
    else if (operator === 'DoesNotExist') parts.push(`!${key}`);
  }
  return parts.join(',');
}

function condition(
  type: (typeof MIRROR_CONDITION_TYPES)[number],
  isTrue: boolean,
  reason: string,
  message: string,
  generation: number | undefined,
  previous: CapiCondition[] | undefined,
  now: string,
): CapiCondition {
  const status = isTrue ? 'True' : 'False';
  const before = previous?.find((c) => c.type === type);
  return {
    type,
    status,
    reason,
    message,
    lastTransitionTime:
      before && before.status === status ? before.lastTransitionTime : conditionTime(now),
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
  };
}

/** Our conditions as Cluster API would compute them from the replica counts. */
function mirrorConditions(
  desired: number,
  replicas: number,
  ready: number,
  generation: number | undefined,
  previous: CapiCondition[] | undefined,
  now: string,
): CapiCondition[] {
  const up = replicas < desired;
  const down = replicas > desired;
  const allReady = ready === replicas;
  return [
    condition(
      'ScalingUp',
      up,
      up ? 'ScalingUp' : 'NotScalingUp',
      up ? `Scaling up from ${replicas} to ${desired} replicas` : '',
      generation,
      previous,
      now,
    ),
    condition(
      'ScalingDown',
      down,
      down ? 'ScalingDown' : 'NotScalingDown',
      down ? `Scaling down from ${replicas} to ${desired} replicas` : '',
      generation,
      previous,
      now,
    ),
    condition(
      'MachinesReady',
      allReady,
      replicas === 0 ? 'NoReplicas' : allReady ? 'Ready' : 'NotReady',
      allReady ? '' : `${ready} of ${replicas} machines are ready`,
      generation,
      previous,
      now,
    ),
  ];
}

/** Replaces our condition types in the list, keeping everyone else's in place. */
function mergeConditions(
  existing: CapiCondition[] | undefined,
  ours: CapiCondition[],
): CapiCondition[] {
  const merged = (existing ?? []).map((c) => ours.find((o) => o.type === c.type) ?? c);
  return [...merged, ...ours.filter((o) => !merged.some((c) => c.type === o.type))];
}

/**
 * The patch of the mirror's status fields we own, or undefined when they
 * already say it, or when the MAPI status does not describe the current MAPI
 * spec yet (observedGeneration behind generation).
 */
export function planMirrorStatus(
  mapi: MapiMachineSet,
  mirror: CapiMachineSet,
  now: string,
): WriteStep | undefined {
  const source = mapi.status;
  if (!source || source.observedGeneration !== mapi.metadata.generation) return undefined;
  const replicas = source.replicas ?? 0;
  const ready = source.readyReplicas ?? 0;
  const generation = mirror.metadata.generation;
  const previous = mirror.status?.conditions;
  const owned = {
    replicas,
    readyReplicas: ready,
    availableReplicas: source.availableReplicas ?? 0,
    selector: selectorString(mirror.spec.selector),
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
  };
  const ours = mirrorConditions(
    mirror.spec.replicas ?? 0,
    replicas,
    ready,
    generation,
    previous,
    now,
  );
  const current = mirror.status ?? {};
  const same =
    Object.entries(owned).every(([key, value]) =>
      isEqual(current[key as keyof typeof current], value),
    ) &&
    ours.every((c) =>
      isEqual(
        previous?.find((p) => p.type === c.type),
        c,
      ),
    );
  if (same) return undefined;
  return patchStatus(
    mirror,
    { ...owned, conditions: mergeConditions(previous, ours) },
    'updating CAPI machine set status',
  );
}
