// MachineAutoscalers as the migration sees them: one that names a MachineSet (in either API group)
// holds its authority where it is, as the admission policy mapi-capi-sync-autoscaled-authority-change
// does; one that names no MachineSet scales nothing, and is said so. Pure.
import type { MachineAutoscaler } from '../../api/types.js';
import type { FieldError } from '../../conversion/types.js';

/** The API groups whose MachineSet of a given name is one of the pair a migration moves. */
const MACHINE_SET_GROUPS = ['machine.openshift.io', 'cluster.x-k8s.io'];

/** Whether `autoscaler` names the MachineSet `name` (its MAPI or its CAPI side). */
function scalesMachineSet(autoscaler: MachineAutoscaler, name: string): boolean {
  const target = autoscaler.spec?.scaleTargetRef;
  if (target?.kind !== 'MachineSet' || target.name !== name) return false;
  return (
    MACHINE_SET_GROUPS.includes(targetGroup(autoscaler)) && !autoscaler.metadata.deletionTimestamp
  );
}

/** The API group of the target; a missing apiVersion is read as Machine API's. */
function targetGroup(autoscaler: MachineAutoscaler): string {
  const apiVersion = autoscaler.spec?.scaleTargetRef?.apiVersion ?? 'machine.openshift.io/';
  return apiVersion.split('/')[0] ?? '';
}

/** Why the MachineSet `name` cannot change authority while these MachineAutoscalers exist. */
export function autoscalerProblems(
  name: string,
  autoscalers: readonly MachineAutoscaler[],
): FieldError[] {
  return autoscalers
    .filter((autoscaler) => scalesMachineSet(autoscaler, name))
    .map(({ metadata, spec }) => ({
      path: `MachineAutoscaler ${metadata.name} spec.scaleTargetRef`,
      message:
        `names this MachineSet (${spec?.scaleTargetRef?.apiVersion ?? 'machine.openshift.io/v1beta1'}): ` +
        `after a change of authority the MachineSet it scales would be a mirror that cannot be ` +
        `scaled, and the admission policy refuses the change. Delete it (oc delete ` +
        `machineautoscaler -n ${metadata.namespace ?? '<namespace>'} ${metadata.name}; the ` +
        `MachineSet keeps its replicas), migrate, and create it again once the MachineSet's ` +
        `status.authoritativeAPI is the new authority.`,
    }));
}

/**
 * One line for each MachineAutoscaler that names a Machine API MachineSet not in
 * `machineSetNames` (one naming a Cluster API MachineSet may scale one that has no MAPI twin).
 */
export function strayAutoscalers(
  autoscalers: readonly MachineAutoscaler[],
  machineSetNames: readonly string[],
): string[] {
  return autoscalers
    .filter((autoscaler) => autoscaler.spec?.scaleTargetRef?.kind === 'MachineSet')
    .filter((autoscaler) => targetGroup(autoscaler) === 'machine.openshift.io')
    .filter((autoscaler) => !machineSetNames.some((name) => scalesMachineSet(autoscaler, name)))
    .filter((autoscaler) => !autoscaler.metadata.deletionTimestamp)
    .map(({ metadata, spec }) => {
      const target = spec?.scaleTargetRef;
      return (
        `MachineAutoscaler ${metadata.name} names MachineSet ${target?.name ?? '(no name)'} ` +
        `(${target?.apiVersion ?? 'machine.openshift.io/v1beta1'}), which is not among the ` +
        `Machine API MachineSets read: it scales nothing and holds no migration; correct ` +
        `spec.scaleTargetRef or delete it.`
      );
    });
}
