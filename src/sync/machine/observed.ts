// What the Machine planners see of one Machine: both sides, the infrastructure machine, the
// MachineSets that own them, and the cluster facts the conversion needs.
import type {
  CapiMachine,
  CapiMachineSet,
  InfrastructureMachine,
  KubeObject,
  MapiMachine,
  MapiMachineSet,
} from '../../api/types.js';
import type { MirrorObserved } from '../observed.js';

export interface MachineObserved extends MirrorObserved {
  mapi?: MapiMachine;
  /** The CAPI Machine of the same name. */
  mirror?: CapiMachine;
  /**
   * The infrastructure machine of the platform's kind named by the CAPI Machine's
   * infrastructureRef (or, without a CAPI Machine, of the Machine's name).
   */
  infrastructureMachine?: InfrastructureMachine;
  /** The provider's per-machine instance object of the same name (an OpenStackServer), if any. */
  instanceObject?: KubeObject;
  /** The MAPI MachineSet that owns the MAPI Machine, or whose name owns the CAPI Machine. */
  mapiMachineSet?: MapiMachineSet;
  /** The CAPI MachineSet of that same name. */
  capiMachineSet?: CapiMachineSet;
}
