// CAPA instance settings → MAPI: the metadata service options, the network interface type, the
// CPU options, the fields the cluster's IP family decides, and the Ignition bootstrap settings.
// Only values Machine API would produce itself are accepted; anything else would launch
// machines that differ from the ones Machine API launches.
import { isDeepStrictEqual } from 'node:util';
import type { ConversionReport, JsonObject, ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';
import {
  CONFIDENTIAL_COMPUTE,
  FIXED_METADATA_OPTIONS,
  HTTP_TOKENS,
  NETWORK_INTERFACE_TYPES,
  type MapiAuthentication,
} from './instance-options.js';
import type { IpFamily, IpFamilySettings } from './ip-family.js';
import { isEmpty, REMOVE_OR_STAY } from './template-reader.js';

export function networkInterfaceTypeToMapi(spec: ObjectReader): string | undefined {
  const capaTypes = Object.values(NETWORK_INTERFACE_TYPES);
  const type = spec.enumeration('networkInterfaceType', capaTypes);
  const entry = Object.entries(NETWORK_INTERFACE_TYPES).find(([, capa]) => capa === type);
  return entry?.[0];
}

export function cpuOptionsToMapi(spec: ObjectReader): JsonObject | undefined {
  const reader = spec.object('cpuOptions');
  if (reader === undefined) return undefined;
  const confidentialCompute = reader.enumeration('confidentialCompute', CONFIDENTIAL_COMPUTE);
  reader.finishToMachineApi();
  return confidentialCompute === undefined ? undefined : { confidentialCompute };
}

/**
 * `instanceMetadataOptions` → `metadataServiceOptions`. An absent field has the CRD's default.
 * Optional tokens are Machine API's default, so they come back as no metadataServiceOptions.
 */
export function metadataOptionsToMapi(
  spec: ObjectReader,
  ip: IpFamilySettings,
  family: IpFamily,
  report: ConversionReport,
): JsonObject | undefined {
  const reader = spec.object('instanceMetadataOptions');
  const path = spec.pathOf('instanceMetadataOptions');
  if (reader === undefined) {
    if (ip.httpProtocolIpv6 === 'enabled' && spec.raw('instanceMetadataOptions') === undefined) {
      report.error(
        path,
        `is not set, so the metadata service has no IPv6 endpoint, but on this ${family} cluster ` +
          'Machine API always enables it; set instanceMetadataOptions.httpProtocolIpv6 to enabled.',
      );
    }
    return undefined;
  }
  const fixed: [string, string | number, string][] = [
    ['httpEndpoint', FIXED_METADATA_OPTIONS.httpEndpoint, 'keeps the metadata service on'],
    ['httpPutResponseHopLimit', FIXED_METADATA_OPTIONS.httpPutResponseHopLimit, 'allows one hop'],
    ['instanceMetadataTags', FIXED_METADATA_OPTIONS.instanceMetadataTags, 'hides instance tags'],
  ];
  for (const [key, expected, what] of fixed) {
    const value = typeof expected === 'number' ? reader.integer(key) : reader.string(key);
    if (value === undefined || value === expected) continue;
    report.error(
      reader.pathOf(key),
      `is ${quote(value)}, but Machine API always ${what} (${quote(expected)}); set it to ` +
        `${quote(expected)} or keep the MachineSet on Cluster API.`,
    );
  }
  const ipv6 = reader.enumeration('httpProtocolIpv6', ['enabled', 'disabled']) ?? 'disabled';
  if (ipv6 !== ip.httpProtocolIpv6) {
    report.error(
      reader.pathOf('httpProtocolIpv6'),
      `is ${quote(ipv6)}, but on this ${family} cluster Machine API sets it to ` +
        `${quote(ip.httpProtocolIpv6)}; set it to ${quote(ip.httpProtocolIpv6)}.`,
    );
  }
  const tokens = reader.enumeration('httpTokens', Object.values(HTTP_TOKENS));
  reader.finishToMachineApi();
  if (tokens !== 'required') return undefined;
  const authentication: MapiAuthentication = 'Required';
  return { authentication };
}

/** `assignPrimaryIPv6` and `privateDnsName` must be what the IP family makes Machine API do. */
export function checkIpFamilyFields(
  spec: ObjectReader,
  ip: IpFamilySettings,
  family: IpFamily,
  report: ConversionReport,
): void {
  const fields: ['assignPrimaryIPv6' | 'privateDnsName', unknown][] = [
    ['assignPrimaryIPv6', ip.assignPrimaryIPv6],
    ['privateDnsName', ip.privateDnsName],
  ];
  for (const [key, expected] of fields) {
    const value = spec.raw(key);
    if (isDeepStrictEqual(value, expected)) continue;
    report.error(
      spec.pathOf(key),
      `is ${value === undefined ? 'not set' : JSON.stringify(value).slice(0, 200)}, but Machine API ` +
        `derives it from the cluster's IP family (${family}): ` +
        (expected === undefined
          ? `it sets nothing here; ${REMOVE_OR_STAY}`
          : `set it to ${JSON.stringify(expected)}.`),
    );
  }
}

/**
 * Machine API hands the Ignition config to EC2 as plain user data: the template must say
 * UnencryptedUserData. Settings CAPA ignores with that storage type are dropped with a warning.
 */
export function checkBootstrap(spec: ObjectReader, report: ConversionReport): void {
  const ignition = spec.object('ignition');
  const storageType = ignition?.string('storageType');
  if (storageType !== 'UnencryptedUserData') {
    report.error(
      ignition?.pathOf('storageType') ?? spec.pathOf('ignition'),
      `is ${storageType === undefined ? 'not set' : quote(storageType)}, but Machine API hands ` +
        'the Ignition config to EC2 as plain user data; set ignition.storageType to UnencryptedUserData.',
    );
  }
  if (ignition !== undefined) {
    for (const key of ['version', 'proxy', 'tls']) ignoredWithIgnition(ignition, key, report);
    ignition.finishToMachineApi();
  }
  ignoredWithIgnition(spec, 'cloudInit', report);
  ignoredWithIgnition(spec, 'uncompressedUserData', report);
}

function ignoredWithIgnition(reader: ObjectReader, key: string, report: ConversionReport) {
  const value = reader.raw(key);
  if (isEmpty(value)) return;
  report.warn(
    `${reader.pathOf(key)} is not converted: Cluster API ignores it for machines that take ` +
      'their Ignition config as plain user data, and Machine API has no such setting.',
  );
}
