// The CAPI mirror's status, derived from the MAPI MachineSet's. Pure: the caller passes the time.
import isEqual from 'lodash/isEqual.js';
import type { CapiCondition, CapiMachineSet, LabelSelector, MapiMachineSet } from '../api/types.js';
import { PAUSED_ANNOTATION } from './markers.js';

type MirrorStatus = NonNullable<CapiMachineSet['status']>;

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
  type: string,
  isTrue: boolean,
  reasons: [string, string],
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
    reason: isTrue ? reasons[0] : reasons[1],
    message,
    lastTransitionTime: before && before.status === status ? before.lastTransitionTime : now,
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
  };
}

/**
 * The status the mirror should have, or undefined when the MAPI status does not
 * describe the current MAPI spec yet (observedGeneration behind generation).
 */
export function desiredMirrorStatus(
  mapi: MapiMachineSet,
  mirror: CapiMachineSet,
  now: string,
): MirrorStatus | undefined {
  const source = mapi.status;
  if (!source || source.observedGeneration !== mapi.metadata.generation) return undefined;
  const desired = mirror.spec.replicas ?? 0;
  const replicas = source.replicas ?? 0;
  const ready = source.readyReplicas ?? 0;
  const available = source.availableReplicas ?? 0;
  const generation = mirror.metadata.generation;
  const previous = mirror.status?.conditions;
  const paused = mirror.metadata.annotations?.[PAUSED_ANNOTATION] !== undefined;
  return {
    replicas,
    readyReplicas: ready,
    availableReplicas: available,
    selector: selectorString(mirror.spec.selector),
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
    conditions: [
      condition(
        'ScalingUp',
        replicas < desired,
        ['ScalingUp', 'NotScalingUp'],
        replicas < desired ? `Scaling up from ${replicas} to ${desired} replicas` : '',
        generation,
        previous,
        now,
      ),
      condition(
        'ScalingDown',
        replicas > desired,
        ['ScalingDown', 'NotScalingDown'],
        replicas > desired ? `Scaling down from ${replicas} to ${desired} replicas` : '',
        generation,
        previous,
        now,
      ),
      condition(
        'MachinesReady',
        ready === replicas,
        ['Ready', 'NotReady'],
        ready === replicas ? '' : `${ready} of ${replicas} machines are ready`,
        generation,
        previous,
        now,
      ),
      condition(
        'Paused',
        paused,
        ['Paused', 'NotPaused'],
        paused ? 'Machine API is authoritative; this MachineSet is a mirror' : '',
        generation,
        previous,
        now,
      ),
    ],
  };
}

export function mirrorStatusDiffers(mirror: CapiMachineSet, desired: MirrorStatus): boolean {
  return !isEqual(mirror.status ?? {}, desired);
}
