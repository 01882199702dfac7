// The names both directions of the PowerVS converter share.

export const PROVIDER_SPEC_KIND = 'PowerVSMachineProviderConfig';
/** The current (and only) apiVersion of PowerVSMachineProviderConfig. */
export const PROVIDER_SPEC_API_VERSION = 'machine.openshift.io/v1';
/** The only credentials secret CAPI can honour: CAPIBM authenticates with its own credentials. */
export const DEFAULT_CREDENTIALS_SECRET = 'powervs-credentials';
export const LOAD_BALANCER_TYPES = ['Application'] as const;
