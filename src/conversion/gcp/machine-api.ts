// What Machine API's GCPMachineProviderSpec is called and what its admission webhook defaults,
// shared by both directions of the GCP conversion.

export const PROVIDER_SPEC_KIND = 'GCPMachineProviderSpec';
/** The apiVersions accepted, the current one first: the reverse conversion writes that one. */
export const PROVIDER_SPEC_API_VERSIONS = [
  'machine.openshift.io/v1beta1',
  'gcpprovider.openshift.io/v1beta1',
] as const;
/** The only credentials secret CAPI can honour: the cluster identity reads this one. */
export const DEFAULT_CREDENTIALS_SECRET = 'gcp-cloud-credentials';
