// Instance settings that map value for value: the network interface type, the CPU options and
// the instance metadata service (IMDS) options, in both directions.
import type { ObjectReader } from '../common/field-reader.js';

export const NETWORK_INTERFACE_TYPES = { ENA: 'interface', EFA: 'efa' } as const;
type MapiNetworkInterfaceType = keyof typeof NETWORK_INTERFACE_TYPES;
export const HTTP_TOKENS = { Required: 'required', Optional: 'optional' } as const;
export type MapiAuthentication = keyof typeof HTTP_TOKENS;
export const CONFIDENTIAL_COMPUTE = ['Disabled', 'AMDEncryptedVirtualizationNestedPaging'] as const;

/**
 * The IMDS settings MAPI never changes, as the CRD defaults them. `httpProtocolIpv6` and
 * `httpTokens` are the two that vary (with the cluster's IP family and the authentication).
 */
export const FIXED_METADATA_OPTIONS = {
  httpEndpoint: 'enabled',
  httpPutResponseHopLimit: 1,
  instanceMetadataTags: 'disabled',
} as const;

export function convertNetworkInterfaceType(spec: ObjectReader): string | undefined {
  const type = spec.enumeration(
    'networkInterfaceType',
    Object.keys(NETWORK_INTERFACE_TYPES) as MapiNetworkInterfaceType[],
  );
  return type && NETWORK_INTERFACE_TYPES[type];
}

export function convertCpuOptions(spec: ObjectReader): { confidentialCompute: string } | undefined {
  const reader = spec.object('cpuOptions');
  const confidentialCompute = reader?.enumeration('confidentialCompute', CONFIDENTIAL_COMPUTE);
  reader?.finish();
  // CAPA requires at least one property; an empty cpuOptions means "no opinion" on both sides.
  return confidentialCompute === undefined ? undefined : { confidentialCompute };
}

/**
 * Always written in full: the CRD defaults every field of instanceMetadataOptions, and MAPI's
 * "no opinion" is IMDS with optional tokens, which is CAPA's default too. `httpProtocolIpv6`
 * follows the cluster's IP family, as machine-api-provider-aws sets it.
 */
export function convertMetadataServiceOptions(
  spec: ObjectReader,
  httpProtocolIpv6: 'enabled' | 'disabled',
): Record<string, unknown> {
  const reader = spec.object('metadataServiceOptions');
  const authentication = reader?.enumeration(
    'authentication',
    Object.keys(HTTP_TOKENS) as MapiAuthentication[],
  );
  reader?.finish();
  return {
    httpEndpoint: FIXED_METADATA_OPTIONS.httpEndpoint,
    httpProtocolIpv6,
    httpPutResponseHopLimit: FIXED_METADATA_OPTIONS.httpPutResponseHopLimit,
    httpTokens: authentication === undefined ? 'optional' : HTTP_TOKENS[authentication],
    instanceMetadataTags: FIXED_METADATA_OPTIONS.instanceMetadataTags,
  };
}
