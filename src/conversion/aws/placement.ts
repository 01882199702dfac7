// MAPI `placement` → the CAPI failure domain (the zone) and CAPA's tenancy and dedicated-host
// fields. CAPA always creates machines in the cluster's region, so a different region is an
// error, and `hostAffinity` is always written because the CRD would default it anyway.
import type { ConversionReport, ObjectReader } from '../common/field-reader.js';
import { convertTags } from './tags.js';
import { quote } from '../common/quote.js';

type CapaHostAffinity = 'default' | 'host';

export interface ConvertedPlacement {
  failureDomain?: string;
  tenancy?: string;
  /** Always set: the CRD defaults it to `default`, so leaving it out would never settle. */
  hostAffinity: CapaHostAffinity;
  hostID?: string;
  dynamicHostAllocation?: { tags?: Record<string, string> };
}

const TENANCIES = ['default', 'dedicated', 'host'] as const;
const MAPI_HOST_AFFINITIES = ['DedicatedHost', 'AnyAvailable'] as const;
const CAPA_HOST_AFFINITY: Record<(typeof MAPI_HOST_AFFINITIES)[number], CapaHostAffinity> = {
  DedicatedHost: 'host',
  AnyAvailable: 'default',
};
const ALLOCATION_STRATEGIES = ['UserProvided', 'Dynamic'] as const;
// CAPA accepts only the current host ID format; MAPI also allows legacy 8-digit IDs.
const CAPA_HOST_ID = /^h-[0-9a-f]{17}$/;

export function convertPlacement(
  placement: ObjectReader | undefined,
  infrastructureRegion: string | undefined,
  report: ConversionReport,
): ConvertedPlacement {
  const converted: ConvertedPlacement = { hostAffinity: 'default' };
  if (placement === undefined) return converted;
  checkRegion(placement, infrastructureRegion, report);
  const zone = placement.string('availabilityZone');
  if (zone !== undefined) converted.failureDomain = zone;
  const tenancy = placement.enumeration('tenancy', TENANCIES);
  if (tenancy !== undefined) converted.tenancy = tenancy;
  const host = placement.object('host');
  placement.finish();
  if (host === undefined) return converted;
  if (tenancy !== 'host') {
    report.error(
      host.path,
      'may only be set when tenancy is host; set placement.tenancy to host or remove placement.host.',
    );
  }
  return { ...converted, ...convertHost(host, report) };
}

function checkRegion(
  placement: ObjectReader,
  infrastructureRegion: string | undefined,
  report: ConversionReport,
): void {
  const region = placement.string('region', { keepEmpty: true });
  // Equal to the cluster's region it is redundant: CAPA takes the region from the cluster.
  if (region === undefined || region === infrastructureRegion) return;
  // Empty, it is no error either: CAPA creates every instance in the region of the AWSCluster
  // (an AWSMachine has no region of its own), and machine-api-operator's webhook gives Machine
  // API's machines the cluster's region when theirs is empty. So both run in the cluster's region;
  // the warning says so, since the providerSpec says nothing.
  if (region === '') {
    const clusterRegion =
      infrastructureRegion === undefined ? '' : `, ${quote(infrastructureRegion)}`;
    report.warn(
      `${placement.pathOf('region')} is empty: machine-api-operator's webhook sets an empty ` +
        `region to the cluster's${clusterRegion}, and Cluster API creates every machine in the ` +
        "cluster's region (the AWSCluster's), so the machines run there.",
    );
    return;
  }
  if (infrastructureRegion === undefined) {
    report.warn(
      `${placement.pathOf('region')} is ${quote(region)}, but the Infrastructure object ` +
        "names no AWS region to check it against; Cluster API creates the machines in the cluster's region.",
    );
    return;
  }
  report.error(
    placement.pathOf('region'),
    `is ${quote(region)}, but the cluster is in ${quote(infrastructureRegion)} ` +
      "and Cluster API creates every machine in the cluster's region; set placement.region to " +
      `${quote(infrastructureRegion)} or remove it.`,
  );
}

function convertHost(
  host: ObjectReader,
  report: ConversionReport,
): Pick<ConvertedPlacement, 'hostAffinity' | 'hostID' | 'dynamicHostAllocation'> {
  const errorsBefore = report.errors.length;
  const affinity = host.enumeration('affinity', MAPI_HOST_AFFINITIES);
  if (affinity === undefined && report.errors.length === errorsBefore) {
    report.error(host.pathOf('affinity'), 'is required; set it to DedicatedHost or AnyAvailable.');
  }
  const dedicatedHost = host.object('dedicatedHost');
  host.finish();
  const converted = { hostAffinity: affinity ? CAPA_HOST_AFFINITY[affinity] : 'default' };
  if (dedicatedHost === undefined) {
    if (affinity === 'DedicatedHost') {
      report.error(
        host.pathOf('dedicatedHost'),
        'is required when affinity is DedicatedHost; name the host (id) or choose Dynamic allocation.',
      );
    }
    return converted;
  }
  return { ...converted, ...convertDedicatedHost(dedicatedHost, report) };
}

function convertDedicatedHost(
  dedicatedHost: ObjectReader,
  report: ConversionReport,
): Pick<ConvertedPlacement, 'hostID' | 'dynamicHostAllocation'> {
  const errorsBefore = report.errors.length;
  const strategy = dedicatedHost.enumeration('allocationStrategy', ALLOCATION_STRATEGIES);
  const strategyInvalid = report.errors.length > errorsBefore;
  const id = dedicatedHost.string('id');
  const dynamic = dedicatedHost.object('dynamicHostAllocation');
  const tags = dynamic?.objects('tags');
  dynamic?.finish();
  dedicatedHost.finish();
  const dynamicTags = convertTags(tags, dynamic?.pathOf('tags') ?? '', report);
  if (strategy === 'Dynamic') {
    if (id !== undefined) {
      report.error(
        dedicatedHost.pathOf('id'),
        'must not be set when allocationStrategy is Dynamic; remove it or use UserProvided.',
      );
      return {};
    }
    return { dynamicHostAllocation: dynamicTags ? { tags: dynamicTags } : {} };
  }
  // The API defaults allocationStrategy to UserProvided.
  if (dynamic !== undefined) {
    report.error(
      dynamic.path,
      'is only allowed when allocationStrategy is Dynamic; remove it or set allocationStrategy to Dynamic.',
    );
  }
  if (id === undefined) {
    if (strategyInvalid) return {};
    report.error(
      dedicatedHost.pathOf('id'),
      'is required when allocationStrategy is UserProvided (the default); set the dedicated host ID.',
    );
    return {};
  }
  if (!CAPA_HOST_ID.test(id)) {
    report.error(
      dedicatedHost.pathOf('id'),
      `is ${quote(id)}, but Cluster API only accepts host IDs of the form h- followed by ` +
        "17 lowercase hexadecimal digits; use the host's current 17-digit ID.",
    );
    return {};
  }
  return { hostID: id };
}
