// Paused Cluster API MachineSets that nobody acts on: marked as the mirror of a Machine API
// MachineSet (sync.machine.openshift.io/authoritative-api: MachineAPI) that does not exist. The
// controller deletes such a mirror by itself when it records its own uid (ours, whose MAPI side
// went while we were away); one that does not is a copy, or predates the record, and is left for
// a person: `check` names it and how to remove it. Pure.
import type { CapiMachineSet } from '../../api/types.js';
import { isOurPausedMirror, isRecordedMirror } from '../../sync/deletion.js';

/** One line for each paused mirror-marked CAPI MachineSet with no MAPI MachineSet of its name. */
export function leftoverMirrors(
  capiMachineSets: readonly CapiMachineSet[],
  mapiMachineSetNames: readonly string[],
): string[] {
  return capiMachineSets
    .filter((set) => isOurPausedMirror(set) && !set.metadata.deletionTimestamp)
    .filter((set) => !mapiMachineSetNames.includes(set.metadata.name))
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
    .map((set) => {
      const { name, namespace } = set.metadata;
      const who = isRecordedMirror(set)
        ? 'it is a mirror of ours, which the controller deletes once it runs'
        : 'it is not a mirror the controller made (a copy, or one older than its record), so the controller leaves it alone';
      return (
        `the paused CAPI MachineSet ${name} is marked as the mirror of a Machine API ` +
        `MachineSet that does not exist, and nobody acts on it or its Machines; ${who}. To ` +
        `remove it: oc delete machinesets.cluster.x-k8s.io -n ${namespace ?? '<namespace>'} ${name} ` +
        `(paused, it deletes no instance; the controller releases it and its Machines).`
      );
    });
}
