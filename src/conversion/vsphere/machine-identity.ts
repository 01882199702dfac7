// The VSphereMachine (CAPV v1beta1) identity: only providerID is in its spec,
// `vsphere://<BIOS UUID>`, as both Machine API and CAPV write it. CAPV's VSphereVM finds an
// existing VM by that UUID once it knows it, and before that by the VM's name in its folder, which
// is the Machine's name on both sides.
import { identityOf } from '../common/machine-identity.js';

const VSPHERE_PROVIDER_ID =
  /^vsphere:\/\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function vsphereMachineIdentity(providerID: string) {
  return identityOf(providerID, {
    pattern: VSPHERE_PROVIDER_ID,
    example: 'vsphere://<BIOS UUID>',
    cloud: 'vSphere',
  });
}
