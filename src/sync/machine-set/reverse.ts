// CAPI → MAPI for one MachineSet (../reverse.ts): while Cluster API is authoritative, the MAPI
// MachineSet mirrors the CAPI MachineSet and the template it points at. Pure. What is the
// MachineSet's own: the template is anyone's, found among those observed; its providerSpec sits
// in the MachineSet's machine template; its status fields.
import type { CapiMachineSet, MapiMachineSet } from '../../api/types.js';
import { isControlPlane } from '../../conversion/common/metadata.js';
import { machineSetToMapi } from '../../conversion/machine-set/to-mapi.js';
import { planReverse, type ReverseMirror } from '../reverse.js';
import type { Step } from '../steps.js';
import { MACHINE_SETS } from './kind.js';
import { mapiMachineSetStatus } from './mirror-status.js';
import type { MachineSetObserved } from './observed.js';

export function planMachineSetReverse(
  o: MachineSetObserved,
  mapi: MapiMachineSet,
  capi: CapiMachineSet,
): Step {
  return planReverse(MACHINE_SETS, o, mapi, capi, machineSetReverseMirror(o, mapi, capi));
}

/** What the MachineSet brings to the reverse sync: its conversion, providerSpec and status. */
export function machineSetReverseMirror(
  o: MachineSetObserved,
  mapi: MapiMachineSet,
  capi: CapiMachineSet,
): ReverseMirror {
  const templateName = capi.spec.template?.spec?.infrastructureRef?.name;
  const template = o.templates.find((t) => t.metadata.name === templateName);
  return {
    convert: (infrastructure, converter) =>
      machineSetToMapi({ capi, template, mapi, infrastructure, converter }),
    machineSpec: {
      within: (spec) => (spec as { template?: { spec?: unknown } }).template?.spec,
      path: 'spec.template.spec.providerSpec.value',
      controlPlane: isControlPlane(mapi.spec?.template?.metadata?.labels),
    },
    status: () => mapiMachineSetStatus(mapi, capi),
    alsoMirrors: `${template?.kind ?? 'template'} ${templateName ?? ''}`,
  };
}
