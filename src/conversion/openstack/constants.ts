// Facts about the OpenStack providerSpec that both directions of the conversion share.

export const KIND = 'OpenstackProviderSpec';
/** The accepted apiVersions, the current one first (the one the way back writes). */
export const API_VERSIONS = [
  'machine.openshift.io/v1alpha1',
  'openstackproviderconfig.openshift.io/v1alpha1',
] as const;
/**
 * The only clouds secret CAPI can honour: the cloud credential operator issues a secret of this
 * name in the Machine API namespace and another in the Cluster API namespace, from the same
 * OpenStack credentials. CAPO reads the one in its own namespace.
 */
export const DEFAULT_CLOUDS_SECRET = 'openstack-cloud-credentials';
/** Nova's limit on server metadata keys and values. */
export const MAX_METADATA_LENGTH = 255;
