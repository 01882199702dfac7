// The AWS platform converter: a MAPI AWSMachineProviderConfig ↔ the `spec.template.spec` of a
// CAPA AWSMachineTemplate (v1beta2); MAPI → CAPI in to-capi.ts,
// CAPI → MAPI in to-mapi.ts.
import { AWS_PLATFORM, awsToCapi } from './to-capi.js';
import type { PlatformConverter } from '../types.js';
import { awsMachineIdentity } from './machine-identity.js';
import { awsToMapi } from './to-mapi.js';

export const awsConverter: PlatformConverter = {
  ...AWS_PLATFORM,
  toCapi: awsToCapi,
  machine: {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'AWSMachine',
    plural: 'awsmachines',
    finalizer: 'awsmachine.infrastructure.cluster.x-k8s.io',
    identity: awsMachineIdentity,
  },
  toMapi: (templateSpec, context) => awsToMapi(templateSpec, context, awsToCapi),
};
