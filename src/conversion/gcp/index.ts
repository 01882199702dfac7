// The GCP platform converter: a MAPI GCPMachineProviderSpec ↔ the `spec.template.spec` of a
// CAPG GCPMachineTemplate (v1beta1); MAPI → CAPI in to-capi.ts,
// CAPI → MAPI in to-mapi.ts.
import { GCP_PLATFORM, gcpToCapi } from './to-capi.js';
import type { PlatformConverter } from '../types.js';
import { gcpMachineIdentity } from './machine-identity.js';
import { gcpToMapi } from './to-mapi.js';
import { missingClusterResourceTags } from './tags.js';

export const gcpConverter: PlatformConverter = {
  ...GCP_PLATFORM,
  toCapi: gcpToCapi,
  machine: {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
    kind: 'GCPMachine',
    plural: 'gcpmachines',
    finalizer: 'gcpmachine.infrastructure.cluster.x-k8s.io',
    identity: gcpMachineIdentity,
  },
  toMapi: gcpToMapi,
  migrationBlockers: missingClusterResourceTags,
};
