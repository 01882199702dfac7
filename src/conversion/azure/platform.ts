// What identifies the Azure platform on both sides: the MAPI providerSpec kind and versions, and
// the CAPZ template kind.
import type { ProviderSpecOwner } from '../common/provider-spec.js';

/** The accepted providerSpec apiVersions, the current one first (the one the reverse writes). */
export const MAPI_API_VERSIONS = [
  'machine.openshift.io/v1beta1',
  'azureproviderconfig.openshift.io/v1beta1',
] as const;

export const AZURE_PLATFORM = {
  platform: 'Azure',
  providerSpecKind: 'AzureMachineProviderSpec',
  template: {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
    kind: 'AzureMachineTemplate',
    plural: 'azuremachinetemplates',
  },
} as const satisfies ProviderSpecOwner;

/** The credentials Machine API's Azure machines use; CAPI machines use the cluster identity. */
export const DEFAULT_CREDENTIALS_SECRET = {
  name: 'azure-cloud-credentials',
  namespace: 'openshift-machine-api',
} as const;
