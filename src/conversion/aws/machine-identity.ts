// The AWSMachine (CAPA v1beta2) identity: `aws:///<zone>/<instance ID>` gives providerID and
// instanceID, the EC2 instance CAPA adopts instead of creating one.
import { identityOf } from '../common/machine-identity.js';

const AWS_PROVIDER_ID = /^aws:\/\/\/[^/]*\/(?<instanceID>i-[0-9a-f]+)$/;

export function awsMachineIdentity(providerID: string) {
  return identityOf(providerID, {
    pattern: AWS_PROVIDER_ID,
    example: 'aws:///<zone>/i-<hex digits>',
    cloud: 'AWS',
    fields: ({ instanceID }) => ({ instanceID }),
  });
}
