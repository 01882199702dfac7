// Who owns a Machine's mirror: the CAPI MachineSet of the same name when a MAPI MachineSet owns
// the MAPI Machine, else the CAPI Cluster. Control-plane machines are out of scope.
import type { CapiMachineSet, KubeObject, OwnerReference } from '../../api/types.js';
import type { ConversionReport, MapEntry } from '../common/field-reader.js';
import { quote } from '../common/quote.js';
import { isControlPlane } from '../common/metadata.js';
import type { OwnerInput } from './input.js';
import { MAPI_GROUP } from '../../model/api-groups.js';

const OWNERS_PATH = 'metadata.ownerReferences';
const OUT_OF_SCOPE =
  'control-plane machines are out of scope of the Machine sync: the ControlPlaneMachineSet ' +
  'operator manages them, and they stay on Machine API.';

export interface Ownership {
  ownerReferences: OwnerReference[];
  /** The CAPI MachineSet that owns the mirror, when a MAPI MachineSet owns the Machine. */
  machineSetName?: string;
}

/** The mirror's owners, or undefined after reporting why there are none. */
export function mirrorOwnership(
  owners: readonly OwnerInput[],
  labels: readonly MapEntry[],
  machineSet: CapiMachineSet | undefined,
  cluster: KubeObject | undefined,
  report: ConversionReport,
): Ownership | undefined {
  const before = report.errors.length;
  if (owners.some((owner) => owner.kind === 'ControlPlaneMachineSet')) {
    report.error(OWNERS_PATH, `names a ControlPlaneMachineSet: ${OUT_OF_SCOPE}`);
  }
  if (isControlPlane(Object.fromEntries(labels.map((l) => [l.key, l.value])))) {
    report.error('metadata.labels', `mark a control-plane (master) machine: ${OUT_OF_SCOPE}`);
  }
  const owningSet = owners.find(
    (owner) => owner.kind === 'MachineSet' && owner.apiVersion?.split('/')[0] === MAPI_GROUP,
  );
  if (report.errors.length > before) return undefined;
  if (owningSet) return machineSetOwnership(owningSet.name ?? '', machineSet, report);
  const uid = cluster?.metadata?.uid;
  if (!cluster || !uid) return { ownerReferences: [] };
  return {
    ownerReferences: [
      {
        apiVersion: cluster.apiVersion,
        kind: cluster.kind,
        name: cluster.metadata.name,
        uid,
        controller: false,
      },
    ],
  };
}

function machineSetOwnership(
  name: string,
  machineSet: CapiMachineSet | undefined,
  report: ConversionReport,
): Ownership | undefined {
  const mirrorName: unknown = machineSet?.metadata?.name;
  const uid: unknown = machineSet?.metadata?.uid;
  if (mirrorName !== name || typeof uid !== 'string' || uid === '') {
    report.error(
      OWNERS_PATH,
      `names the MachineSet ${quote(name)}, whose Cluster API mirror ` +
        `${machineSet ? 'is another MachineSet or has no uid' : 'does not exist yet'}; the ` +
        `Machine is mirrored once its MachineSet is, so that the mirror has the same owner.`,
    );
    return undefined;
  }
  return {
    machineSetName: name,
    ownerReferences: [
      {
        apiVersion: machineSet!.apiVersion,
        kind: 'MachineSet',
        name,
        uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  };
}
