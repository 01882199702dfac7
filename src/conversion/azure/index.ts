// The Azure platform converter: MAPI AzureMachineProviderSpec ↔ the `spec.template.spec` of a
// CAPZ AzureMachineTemplate (v1beta1), one file per direction.
import { AZURE_PLATFORM } from './platform.js';
import { convertAzureProviderSpec } from './to-capi.js';
import { convertAzureTemplateSpec } from './to-mapi.js';
import type { PlatformConverter } from '../types.js';

export const azureConverter: PlatformConverter = {
  ...AZURE_PLATFORM,
  template: { ...AZURE_PLATFORM.template },
  convert: convertAzureProviderSpec,
  toMapi: convertAzureTemplateSpec,
};
