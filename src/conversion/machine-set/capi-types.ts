// Fields of Cluster API v1.13's MachineSet that the shared object types do not name yet.
import type { CapiMachineSet } from '../../api/types.js';
import type { CapiTaint } from '../common/taints.js';

/** A CAPI MachineSet's `spec.template.spec`, with the node taints of Cluster API v1.13. */
export type CapiMachineSpec = CapiMachineSet['spec']['template']['spec'] & {
  taints?: CapiTaint[];
};
