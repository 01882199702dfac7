// What the Machine planners see of one Machine: both sides, the infrastructure machine, the
// MachineSets that own them, and the cluster facts the conversion needs.
import type {
  CapiMachine,
  CapiMachineSet,
  Infrastructure,
  InfrastructureMachine,
  KubeObject,
  MapiMachine,
  MapiMachineSet,
} from '../../api/types.js';
import type { PlatformConverter } from '../../conversion/types.js';

export interface MachineObserved {
  mapiNamespace: string;
  capiNamespace: string;
  /** The Machine's name, the same on both sides. */
  name: string;
  mapi?: MapiMachine;
  /** The CAPI Machine of the same name. */
  mirror?: CapiMachine;
  /**
   * The infrastructure machine of the platform's kind named by the CAPI Machine's
   * infrastructureRef (or, without a CAPI Machine, of the Machine's name).
   */
  infrastructureMachine?: InfrastructureMachine;
  /** The MAPI MachineSet that owns the MAPI Machine, or whose name owns the CAPI Machine. */
  mapiMachineSet?: MapiMachineSet;
  /** The CAPI MachineSet of that same name. */
  capiMachineSet?: CapiMachineSet;
  /** The CAPI Cluster named after the infrastructure name, when it exists. */
  cluster?: KubeObject;
  infrastructure?: Infrastructure;
  /** Undefined when the platform has no converter. */
  converter?: PlatformConverter;
  platform?: string;
  /** RFC 3339 time for lastTransitionTime; the only clock input. */
  now: string;
}
