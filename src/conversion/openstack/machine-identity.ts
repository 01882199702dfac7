// The OpenStackMachine (CAPO v1beta1) identity: only providerID is in its spec (the instance ID
// is status), `openstack://<region, may be empty>/<server ID>`.
import { identityOf } from '../common/machine-identity.js';

const OPENSTACK_PROVIDER_ID = /^openstack:\/\/[^/]*\/[^/]+$/;

export function openstackMachineIdentity(providerID: string) {
  return identityOf(providerID, {
    pattern: OPENSTACK_PROVIDER_ID,
    example: 'openstack:///<server ID>',
    cloud: 'OpenStack',
  });
}
