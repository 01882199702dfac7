// The status fields a MachineSet mirrors (../status-mirror.ts): the paused CAPI MachineSet's
// from the MAPI MachineSet's, and the MAPI MachineSet's from an authoritative CAPI MachineSet's.
// Pure: the caller passes the time.
//
// On the paused CAPI MachineSet, the conditions below are ours; Cluster API owns its `Paused`
// condition (it sets it on paused objects too) and every other condition.
import type {
  CapiCondition,
  CapiMachineSet,
  LabelSelector,
  MapiMachineSet,
} from '../../api/types.js';
import { conditionTime } from '../conditions.js';
import { planStatusMirror, type MirroredStatus } from '../status-mirror.js';
import type { WriteStep } from '../steps.js';

/** The condition types we write on a paused mirror. */
type MirrorConditionType = 'ScalingUp' | 'ScalingDown' | 'MachinesReady';

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

/** What every condition of the mirror is written against: its generation, those before, the time. */
interface ConditionContext {
  generation: number | undefined;
  previous: CapiCondition[] | undefined;
  now: string;
}

function condition(
  type: MirrorConditionType,
  isTrue: boolean,
  reason: string,
  message: string,
  { generation, previous, now }: ConditionContext,
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
  const context = { generation, previous, now };
  return [
    condition(
      'ScalingUp',
      up,
      up ? 'ScalingUp' : 'NotScalingUp',
      up ? `Scaling up from ${replicas} to ${desired} replicas` : '',
      context,
    ),
    condition(
      'ScalingDown',
      down,
      down ? 'ScalingDown' : 'NotScalingDown',
      down ? `Scaling down from ${replicas} to ${desired} replicas` : '',
      context,
    ),
    condition(
      'MachinesReady',
      allReady,
      replicas === 0 ? 'NoReplicas' : allReady ? 'Ready' : 'NotReady',
      allReady ? '' : `${ready} of ${replicas} machines are ready`,
      context,
    ),
  ];
}

/**
 * The paused CAPI MachineSet's status from the MAPI MachineSet's: the replica counts, the selector
 * and our conditions. Undefined when it already says so, or when the MAPI status does not describe
 * the current MAPI spec yet (observedGeneration behind generation).
 */
export function planMachineSetCapiStatus(
  mapi: MapiMachineSet,
  mirror: CapiMachineSet,
  now: string,
): WriteStep | undefined {
  const source = mapi.status;
  if (!source || source.observedGeneration !== mapi.metadata.generation) return undefined;
  const replicas = source.replicas ?? 0;
  const ready = source.readyReplicas ?? 0;
  const generation = mirror.metadata.generation;
  const fields = {
    replicas,
    readyReplicas: ready,
    availableReplicas: source.availableReplicas ?? 0,
    selector: selectorString(mirror.spec.selector),
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
  };
  const conditions = mirrorConditions(
    mirror.spec.replicas ?? 0,
    replicas,
    ready,
    generation,
    mirror.status?.conditions,
    now,
  );
  return planStatusMirror(mirror, { fields, conditions }, 'updating CAPI machine set status');
}

interface DeprecatedV1Beta1Status {
  deprecated?: {
    v1beta1?: { fullyLabeledReplicas?: number; failureReason?: string; failureMessage?: string };
  };
}

/**
 * The MAPI MachineSet's status from its authoritative CAPI MachineSet's, or undefined while
 * Cluster API's status does not describe the CAPI MachineSet's current spec.
 */
export function mapiMachineSetStatus(
  mapi: MapiMachineSet,
  capi: CapiMachineSet,
): MirroredStatus | undefined {
  const capiStatus: (CapiMachineSet['status'] & DeprecatedV1Beta1Status) | undefined = capi.status;
  if (!capiStatus || capiStatus.observedGeneration !== capi.metadata.generation) return undefined;
  const v1beta1 = capiStatus.deprecated?.v1beta1;
  const fields: Record<string, unknown> = {
    replicas: capiStatus.replicas ?? 0,
    readyReplicas: capiStatus.readyReplicas ?? 0,
    availableReplicas: capiStatus.availableReplicas ?? 0,
    fullyLabeledReplicas: v1beta1?.fullyLabeledReplicas ?? capiStatus.replicas ?? 0,
    observedGeneration: mapi.metadata.generation,
    // Absent fields are removed (null in a merge patch), so an old error does not linger.
    labelSelector: capiStatus.selector || null,
    errorReason: v1beta1?.failureReason ?? null,
    errorMessage: v1beta1?.failureMessage ?? null,
  };
  return { fields };
}
