// What the MachineSet planners decide from: both sides of one MachineSet and what they read around
// it, as observed by the reconciler. Pure data.
import type {
  CapiMachine,
  CapiMachineSet,
  MachineTemplate,
  MapiMachine,
  MapiMachineSet,
} from '../../api/types.js';
import type { MirrorObserved } from '../observed.js';
import type { TemplateUsers } from './templates.js';

export interface MachineSetObserved extends MirrorObserved {
  mapi?: MapiMachineSet;
  mirror?: CapiMachineSet;
  /** Every machine template of the platform's kind in the CAPI namespace. */
  templates: MachineTemplate[];
  /**
   * The CAPI MachineSets that point at our templates (of `templates`), by template name: a
   * template of ours that one of them still uses is not deleted. Absent: only the mirror is
   * known to use any.
   */
  templateUsers?: TemplateUsers;
  /**
   * The Machines of this MachineSet: the MAPI Machines whose controller is the MAPI MachineSet,
   * and the CAPI Machines whose controller is the CAPI MachineSet (by uid).
   */
  machines?: { mapi: MapiMachine[]; capi: CapiMachine[] };
}
