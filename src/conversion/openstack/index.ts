// The OpenStack platform converter: a MAPI OpenstackProviderSpec ↔ the `spec.template.spec` of a
// CAPO OpenStackMachineTemplate (v1beta1); MAPI → CAPI in to-capi.ts,
// CAPI → MAPI in to-mapi.ts.
import { OPENSTACK_PLATFORM, openstackToCapi } from './to-capi.js';
import type { PlatformConverter } from '../types.js';
import { openstackMachineIdentity } from './machine-identity.js';
import { openstackToMapi } from './to-mapi.js';

export { KEPT_FROM_CURRENT } from './kept-from-current.js';

export const openstackConverter: PlatformConverter = {
  ...OPENSTACK_PLATFORM,
  toCapi: openstackToCapi,
  machine: {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
    kind: 'OpenStackMachine',
    plural: 'openstackmachines',
    finalizer: 'openstackmachine.infrastructure.cluster.x-k8s.io',
    identity: openstackMachineIdentity,
    // CAPO (v0.11 and later) creates one for each OpenStackMachine it reconciles
    instance: {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha1',
      kind: 'OpenStackServer',
      plural: 'openstackservers',
      finalizer: 'openstackserver.infrastructure.cluster.x-k8s.io',
    },
  },
  toMapi: openstackToMapi,
};
