// Shared inputs of the CAPI → MAPI tests: contexts, the minimal template and what it gives.
import type { Infrastructure } from '../../../../src/api/types.js';
import { awsConverter } from '../../../../src/conversion/aws/index.js';
import type { Conversion, ReverseContext } from '../../../../src/conversion/types.js';

export type Json = Record<string, unknown>;
export const T = 'spec.template.spec';
export const HOST_ID = 'h-0123456789abcdef0';
const DUAL_STACK_DNS = {
  enableResourceNameDnsAAAARecord: true,
  enableResourceNameDnsARecord: true,
  hostnameType: 'resource-name',
};

export function infrastructure(ipFamily?: string, region = 'us-east-1'): Infrastructure {
  const aws = Object.assign({ region }, ipFamily === undefined ? {} : { ipFamily });
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    status: { infrastructureName: 'ci-ln-abc12', platformStatus: { type: 'AWS', aws } },
  };
}

export function toMapi(
  templateSpec: unknown,
  overrides: Partial<ReverseContext> = {},
): Conversion<Json> {
  const context = { infrastructure: infrastructure(), path: T, controlPlane: false, ...overrides };
  const result = awsConverter.toMapi?.(templateSpec, context);
  if (result === undefined) throw new Error('the AWS converter has no toMapi');
  return result;
}

/** A template as MAPI → CAPI writes it for the smallest providerSpec. */
export function minimalTemplate(): Json {
  return {
    ami: { id: 'ami-0123456789abcdef0' },
    instanceType: 'm6i.xlarge',
    sshKeyName: '',
    hostAffinity: 'default',
    instanceMetadataOptions: {
      httpEndpoint: 'enabled',
      httpProtocolIpv6: 'disabled',
      httpPutResponseHopLimit: 1,
      httpTokens: 'optional',
      instanceMetadataTags: 'disabled',
    },
    ignition: { storageType: 'UnencryptedUserData' },
  };
}

/** What the minimal template gives without a current providerSpec: defaults for kept fields. */
export function minimalSpec(): Json {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'AWSMachineProviderConfig',
    ami: { id: 'ami-0123456789abcdef0' },
    instanceType: 'm6i.xlarge',
    credentialsSecret: { name: 'aws-cloud-credentials' },
    deviceIndex: 0,
    placement: { region: 'us-east-1' },
  };
}

export const dualStack = (ipv6Primary: boolean): Json => ({
  instanceMetadataOptions: { httpProtocolIpv6: 'enabled', httpTokens: 'optional' },
  privateDnsName: DUAL_STACK_DNS,
  assignPrimaryIPv6: ipv6Primary ? 'enabled' : 'disabled',
});

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null;
}

export function removeUndefined(value: Json): Json {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
