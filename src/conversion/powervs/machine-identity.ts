// The IBMPowerVSMachine (CAPIBM v1beta2) identity: only providerID is in its spec (the instance
// ID is status), `ibmpowervs://<region>/<zone>/<service instance ID>/<instance ID>`.
import { identityOf } from '../common/machine-identity.js';

const POWERVS_PROVIDER_ID = /^ibmpowervs:\/\/[^/]+\/[^/]+\/[^/]+\/[^/]+$/;

export function powerVsMachineIdentity(providerID: string) {
  return identityOf(providerID, {
    pattern: POWERVS_PROVIDER_ID,
    example: 'ibmpowervs://<region>/<zone>/<service instance ID>/<instance ID>',
    cloud: 'Power VS',
  });
}
