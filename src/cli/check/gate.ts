// What the migration handshake's gate would hold a MachineSet for, as far as the MAPI MachineSet
// alone shows it (the CAPI side and the Machines are not read). Pure.
import type { MapiMachineSet } from '../../api/types.js';
import { oneLine } from '../../kube/errors.js';
import { findSynchronized } from '../../sync/conditions.js';
import type { FieldError } from '../../conversion/types.js';

/** Longest part of the controller's own condition message quoted in a problem. */
const MAX_QUOTED = 300;

/**
 * Why a migration of this MachineSet would not start now; empty when nothing visible holds it.
 * `quoteCondition`: quote the Synchronized message (pointless when the conversion's own problems
 * are shown, which it repeats).
 */
export function gateProblems(mapi: MapiMachineSet, quoteCondition = true): FieldError[] {
  if (mapi.metadata.deletionTimestamp) {
    return [
      {
        path: 'metadata.deletionTimestamp',
        message: `is set: the MachineSet is being deleted, and a MachineSet being deleted is not migrated.`,
      },
    ];
  }
  const status = mapi.status;
  if (status?.authoritativeAPI === 'Migrating') {
    const back = status.synchronizedAPI ?? 'the previous authority';
    return [
      {
        path: 'status.authoritativeAPI',
        message: `is Migrating: a migration of this MachineSet is under way; let it finish (the MigrationProgressing condition says what it waits for), or set spec.authoritativeAPI back to ${back} to cancel it.`,
      },
    ];
  }
  const synchronized = findSynchronized(status?.conditions);
  if (!synchronized) {
    return [
      {
        path: 'status.conditions[Synchronized]',
        message:
          'is not reported: this MachineSet has not been synchronized yet; run mapi-capi-sync and wait for Synchronized=True before migrating.',
      },
    ];
  }
  if (synchronized.status !== 'True') {
    const said =
      quoteCondition && synchronized.message
        ? ` (${oneLine(synchronized.message, MAX_QUOTED)})`
        : '';
    return [
      {
        path: 'status.conditions[Synchronized]',
        message: `is ${synchronized.status}, reason ${synchronized.reason ?? 'none'}${said}; fix what it names and wait for Synchronized=True: the migration waits for it.`,
      },
    ];
  }
  // Under Cluster API the synchronized generation is the CAPI MachineSet's, which is not read here.
  const authority = status?.authoritativeAPI ?? mapi.spec?.authoritativeAPI ?? 'MachineAPI';
  const generation = mapi.metadata.generation ?? 0;
  const synchronizedGeneration = status?.synchronizedGeneration ?? 0;
  if (authority === 'MachineAPI' && synchronizedGeneration !== generation) {
    return [
      {
        path: 'status.synchronizedGeneration',
        message: `is ${synchronizedGeneration}, but metadata.generation is ${generation}: the latest change is not mirrored yet; wait for the sync to catch up (a migration requested now starts by itself once it has).`,
      },
    ];
  }
  return [];
}
