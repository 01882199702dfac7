// The vSphere platform converter: a MAPI VSphereMachineProviderSpec ↔ the `spec.template.spec` of
// a CAPV VSphereMachineTemplate (v1beta1); MAPI → CAPI in to-capi.ts, CAPI → MAPI in to-mapi.ts.
import { VSPHERE_PLATFORM, vsphereToCapi } from './to-capi.js';
import type { ConversionContext, FieldError, PlatformConverter } from '../types.js';
import { vsphereMachineIdentity } from './machine-identity.js';
import { CAPV_API_VERSION } from './names.js';
import { staticNetworkBlockers } from './network.js';
import { clusterTagBlockers } from './tags.js';
import { vsphereToMapi } from './to-mapi.js';

export { KEPT_FROM_CURRENT } from './kept-from-current.js';

/** What Cluster API's machines would lack: the cluster's tag, static network settings. */
function vsphereMigrationBlockers(providerSpec: unknown, context: ConversionContext): FieldError[] {
  return [
    ...clusterTagBlockers(providerSpec, context),
    ...staticNetworkBlockers(providerSpec, context),
  ];
}

export const vsphereConverter: PlatformConverter = {
  ...VSPHERE_PLATFORM,
  toCapi: vsphereToCapi,
  migrationBlockers: vsphereMigrationBlockers,
  machine: {
    apiVersion: CAPV_API_VERSION,
    kind: 'VSphereMachine',
    plural: 'vspheremachines',
    finalizer: 'vspheremachine.infrastructure.cluster.x-k8s.io',
    identity: vsphereMachineIdentity,
    // CAPV creates one for each VSphereMachine, named as the Machine; it clones and destroys the VM
    instance: {
      apiVersion: CAPV_API_VERSION,
      kind: 'VSphereVM',
      plural: 'vspherevms',
      finalizer: 'vspherevm.infrastructure.cluster.x-k8s.io',
    },
  },
  toMapi: vsphereToMapi,
};
