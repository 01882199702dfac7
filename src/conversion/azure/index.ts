// The Azure platform converter: MAPI AzureMachineProviderSpec ↔ the `spec.template.spec` of a
// CAPZ AzureMachineTemplate (v1beta1), one file per direction.
import { azureMachineIdentity } from './machine-identity.js';
import { AZURE_PLATFORM } from './platform.js';
import { azureToCapi } from './to-capi.js';
import { azureToMapi } from './to-mapi.js';
import type { PlatformConverter } from '../types.js';

export const azureConverter: PlatformConverter = {
  ...AZURE_PLATFORM,
  template: { ...AZURE_PLATFORM.template },
  toCapi: azureToCapi,
  machine: {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
    kind: 'AzureMachine',
    plural: 'azuremachines',
    finalizer: 'azuremachine.infrastructure.cluster.x-k8s.io',
    identity: azureMachineIdentity,
  },
  toMapi: azureToMapi,
};
