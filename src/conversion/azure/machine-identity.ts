// The AzureMachine (CAPZ v1beta1) identity: only providerID is in its spec, the ARM ID of the
// virtual machine after `azure://`.
import { identityOf } from '../common/machine-identity.js';

const AZURE_PROVIDER_ID =
  /^azure:\/\/\/subscriptions\/[^/]+\/resourceGroups\/[^/]+\/providers\/Microsoft\.Compute\/virtualMachines\/[^/]+$/i;

export function azureMachineIdentity(providerID: string) {
  return identityOf(providerID, {
    pattern: AZURE_PROVIDER_ID,
    example:
      'azure:///subscriptions/<subscription>/resourceGroups/<group>/providers/Microsoft.Compute/virtualMachines/<name>',
    cloud: 'Azure',
  });
}
