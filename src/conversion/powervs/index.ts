// The PowerVS platform converter: a MAPI PowerVSMachineProviderConfig ↔ the `spec.template.spec` of a
// CAPIBM IBMPowerVSMachineTemplate (v1beta2); MAPI → CAPI in to-capi.ts,
// CAPI → MAPI in to-mapi.ts.
import { POWERVS_PLATFORM, powerVsToCapi } from './to-capi.js';
import type { PlatformConverter } from '../types.js';
import { powerVsMachineIdentity } from './machine-identity.js';
import { powerVsToMapi } from './to-mapi.js';

export { KEPT_FROM_CURRENT } from './kept-from-current.js';

export const powerVsConverter: PlatformConverter = {
  ...POWERVS_PLATFORM,
  toCapi: powerVsToCapi,
  machine: {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'IBMPowerVSMachine',
    plural: 'ibmpowervsmachines',
    finalizer: 'ibmpowervsmachine.infrastructure.cluster.x-k8s.io',
    identity: powerVsMachineIdentity,
  },
  toMapi: powerVsToMapi,
};
