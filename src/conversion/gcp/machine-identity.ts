// The GCPMachine (CAPG v1beta1) identity: only providerID is in its spec,
// `gce://<project>/<zone>/<instance name>`.
import { identityOf } from '../common/machine-identity.js';

const GCP_PROVIDER_ID = /^gce:\/\/[^/]+\/[^/]+\/[^/]+$/;

export function gcpMachineIdentity(providerID: string) {
  return identityOf(providerID, {
    pattern: GCP_PROVIDER_ID,
    example: 'gce://<project>/<zone>/<instance name>',
    cloud: 'GCP',
  });
}
