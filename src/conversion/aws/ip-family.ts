// The cluster's IP family (Infrastructure `status.platformStatus.aws.ipFamily`) changes how
// Machine API launches every instance, whatever the providerSpec says. On a dual-stack cluster
// machine-api-provider-aws enables the metadata service's IPv6 endpoint and asks for
// resource-name hostnames with A and AAAA records; when IPv6 is primary it also gives the
// primary network interface a primary IPv6 address. The template must ask CAPA for the same.
import type { Infrastructure } from '../../api/types.js';
import type { ConversionReport } from '../common/field-reader.js';
import { quote } from '../common/quote.js';

const IP_FAMILIES = ['IPv4', 'DualStackIPv4Primary', 'DualStackIPv6Primary'] as const;
export type IpFamily = (typeof IP_FAMILIES)[number];

/** The template fields an IP family decides; undefined ones are left to CAPA and AWS. */
export interface IpFamilySettings {
  httpProtocolIpv6: 'enabled' | 'disabled';
  privateDnsName?: {
    enableResourceNameDnsAAAARecord: boolean;
    enableResourceNameDnsARecord: boolean;
    hostnameType: 'resource-name';
  };
  /**
   * CAPA's default enables a primary IPv6 address on any dual-stack subnet, which Machine API
   * does only when IPv6 is primary: on dual-stack clusters it is therefore always written.
   */
  assignPrimaryIPv6?: 'enabled' | 'disabled';
}

/** The template fields whose values the IP family decides: they are checked against it. */
export const IP_FAMILY_FIELDS = [
  'instanceMetadataOptions',
  'assignPrimaryIPv6',
  'privateDnsName',
] as const;

function infrastructureIpFamilyPath(infrastructure: Infrastructure): string {
  return `Infrastructure/${infrastructure.metadata.name || 'cluster'}.status.platformStatus.aws.ipFamily`;
}

/**
 * The IP family of the cluster: absent or empty is IPv4 (the API's default); an unknown value
 * is an error, because guessing would launch machines Machine API would not launch.
 */
export function readIpFamily(
  infrastructure: Infrastructure,
  report: ConversionReport,
): IpFamily | undefined {
  // Typed, but read as the API server may send it: anything at all.
  const value: unknown = infrastructure.status?.platformStatus?.aws?.ipFamily;
  if (value === undefined || value === null || value === '') return 'IPv4';
  if (typeof value === 'string' && (IP_FAMILIES as readonly string[]).includes(value)) {
    return value as IpFamily;
  }
  const shown = typeof value === 'string' ? quote(value) : JSON.stringify(value);
  report.error(
    infrastructureIpFamilyPath(infrastructure),
    `is ${shown ?? typeof value}, which this controller does not know, so it cannot tell how ` +
      `Machine API would launch the machines; expected one of ${IP_FAMILIES.join(', ')}: ` +
      'upgrade the controller or correct the Infrastructure object.',
  );
  return undefined;
}

export function ipFamilySettings(family: IpFamily): IpFamilySettings {
  if (family === 'IPv4') return { httpProtocolIpv6: 'disabled' };
  return {
    httpProtocolIpv6: 'enabled',
    privateDnsName: {
      enableResourceNameDnsAAAARecord: true,
      enableResourceNameDnsARecord: true,
      hostnameType: 'resource-name',
    },
    assignPrimaryIPv6: family === 'DualStackIPv6Primary' ? 'enabled' : 'disabled',
  };
}
