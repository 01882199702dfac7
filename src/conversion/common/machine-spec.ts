// MAPI → CAPI: the spec of a Cluster API machine, built the same way for a Machine and for a
// MachineSet's machine template: the cluster, the bootstrap data secret and the failure domain the
// platform converter found, the reference to the infrastructure object, and the taints.
import type { CapiMachine } from '../../api/types.js';
import { INFRASTRUCTURE_GROUP } from '../../model/api-groups.js';
import type { ProviderConversion } from '../types.js';
import type { CapiTaint } from './taints.js';

/**
 * A Cluster API v1.13 machine spec as written here: a Machine's, with the `minReadySeconds` of a
 * MachineSet's template, and taints as this module writes them.
 */
export type CapiMachineSpec = Omit<CapiMachine['spec'], 'taints'> & {
  minReadySeconds?: number;
  taints?: CapiTaint[];
};

export interface MachineSpecParts {
  clusterName: string;
  provider: Pick<ProviderConversion, 'userDataSecretName' | 'failureDomain'>;
  /** The infrastructure machine template (of a MachineSet) or infrastructure machine (of a Machine). */
  infrastructure: { kind: string; name: string };
  taints: CapiTaint[];
  /** A Machine's instance; a MachineSet's template has none. */
  providerID?: string;
  /** A MachineSet's; 0 is Cluster API's default and left out. */
  minReadySeconds?: number;
}

/** The machine spec; what is unset is left out rather than written empty. */
export function capiMachineSpec(parts: MachineSpecParts): CapiMachineSpec {
  const { clusterName, provider, infrastructure, taints, providerID, minReadySeconds } = parts;
  const { userDataSecretName, failureDomain } = provider;
  return {
    clusterName,
    // A required field of Cluster API's: written empty when there is no data secret.
    bootstrap: userDataSecretName ? { dataSecretName: userDataSecretName } : {},
    infrastructureRef: {
      apiGroup: INFRASTRUCTURE_GROUP,
      kind: infrastructure.kind,
      name: infrastructure.name,
    },
    ...(providerID !== undefined ? { providerID } : {}),
    ...(failureDomain ? { failureDomain } : {}),
    ...(minReadySeconds ? { minReadySeconds } : {}),
    ...(taints.length > 0 ? { taints } : {}),
  };
}
