// MAPI → CAPI for GCP: a MAPI GCPMachineProviderSpec → the `spec.template.spec` of a
// CAPG GCPMachineTemplate (v1beta1). Pure and deterministic. Every field is either converted,
// dropped because it carries nothing, dropped with a warning, or reported as an error: the
// mirror must never quietly differ from what the administrator wrote.
import { ConversionReport, ObjectReader, withoutUndefined } from '../common/field-reader.js';
import { convertDisks } from './disks.js';
import { convertNetworkInterfaces } from './network.js';
import { convertScheduling } from './scheduling.js';
import {
  convertMetadataItems,
  convertResourceManagerTags,
  gcpClusterLabels,
  readStringMap,
} from './tags.js';
import { withClusterTags } from '../common/cluster-tags.js';
import {
  checkCredentialsSecretName,
  openProviderSpec,
  type ProviderSpecOwner,
  readUserDataSecretName,
} from '../common/provider-spec.js';
import type { Conversion, ConversionContext, ProviderConversion } from '../types.js';
import { quote, shorten } from '../common/quote.js';
import { type ClusterFacts, clusterFacts } from './cluster.js';
import {
  DEFAULT_CREDENTIALS_SECRET,
  PROVIDER_SPEC_API_VERSIONS,
  PROVIDER_SPEC_KIND,
} from './machine-api.js';

/** What identifies the platform on both sides: its providerSpec kind and template kind. */
export const GCP_PLATFORM: ProviderSpecOwner = {
  platform: 'GCP',
  providerSpecKind: PROVIDER_SPEC_KIND,
  template: {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
    kind: 'GCPMachineTemplate',
    plural: 'gcpmachinetemplates',
  },
};

export function gcpToCapi(
  providerSpec: unknown,
  context: ConversionContext,
): Conversion<ProviderConversion> {
  const opened = openProviderSpec(providerSpec, context, GCP_PLATFORM, PROVIDER_SPEC_API_VERSIONS);
  if (!opened.ok) return opened;
  const { spec, report } = opened;
  const cluster = clusterFacts(context.infrastructure);
  checkCredentialsSecretName(
    spec,
    DEFAULT_CREDENTIALS_SECRET,
    `Cluster API machines use the cluster's GCP identity, which reads the ${DEFAULT_CREDENTIALS_SECRET} secret`,
    report,
  );
  checkDeletionProtection(spec, report);
  checkTargetPools(spec, context.controlPlane, report);
  const userDataSecretName = readUserDataSecretName(spec);
  const location = convertLocation(spec, cluster, report);

  const instanceType = spec.requiredString(
    'machineType',
    'set the Compute Engine machine type, e.g. n2-standard-4.',
  );
  const additionalLabels = readStringMap(spec, 'labels');
  const disks = convertDisks(
    spec,
    {
      project: location.project,
      instanceLabels: additionalLabels,
      instanceLabelsPath: spec.pathOf('labels'),
    },
    report,
  );
  const network = convertNetworkInterfaces(spec, cluster, report);
  const serviceAccounts = convertServiceAccounts(spec, report);
  const additionalMetadata = convertMetadataItems(spec);
  const networkTags = spec.strings('tags');
  const resourceManagerTags = convertResourceManagerTags(spec);
  const ipForwarding = convertCanIPForward(spec);
  const scheduling = convertScheduling(spec, { instanceType, zone: location.zone }, report);
  spec.finish();

  if (report.errors.length > 0) return { ok: false, errors: report.errors };
  const templateSpec = withoutUndefined({
    instanceType,
    image: disks.image,
    rootDeviceSize: disks.rootDeviceSize,
    rootDeviceType: disks.rootDeviceType,
    rootDiskEncryptionKey: disks.rootDiskEncryptionKey,
    additionalDisks: disks.additionalDisks,
    subnet: network.subnet,
    publicIP: network.publicIP,
    serviceAccounts,
    additionalLabels: withClusterTags(additionalLabels, gcpClusterLabels(context.infrastructure)),
    additionalMetadata,
    additionalNetworkTags: networkTags && networkTags.length > 0 ? networkTags : undefined,
    resourceManagerTags,
    ipForwarding,
    preemptible: scheduling.preemptible,
    provisioningModel: scheduling.provisioningModel,
    onHostMaintenance: scheduling.onHostMaintenance,
    shieldedInstanceConfig: scheduling.shieldedInstanceConfig,
    confidentialCompute: scheduling.confidentialCompute,
    guestAccelerators: scheduling.guestAccelerators,
  });
  const value: ProviderConversion = { templateSpec };
  if (location.zone !== undefined) value.failureDomain = location.zone;
  if (userDataSecretName !== undefined) value.userDataSecretName = userDataSecretName;
  return { ok: true, value, warnings: report.warnings };
}

function checkDeletionProtection(spec: ObjectReader, report: ConversionReport): void {
  if (spec.boolean('deletionProtection') !== true) return;
  report.error(
    spec.pathOf('deletionProtection'),
    'is true, but Cluster API cannot protect the VMs of its machines against deletion; set ' +
      'deletionProtection to false or remove it.',
  );
}

function checkTargetPools(
  spec: ObjectReader,
  controlPlane: boolean,
  report: ConversionReport,
): void {
  const pools = spec.strings('targetPools');
  if (pools === undefined || pools.length === 0) return;
  if (!controlPlane) {
    report.error(
      spec.pathOf('targetPools'),
      'registers the machines with load balancer target pools, which Cluster API only does for ' +
        'control-plane machines; remove targetPools from this worker MachineSet.',
    );
    return;
  }
  report.warn(
    `${spec.pathOf('targetPools')} is not converted: Cluster API registers control-plane ` +
      "machines with the load balancers configured on the cluster's GCPCluster.",
  );
}

/**
 * CAPG creates every machine in the cluster's project and region, so `projectID` and `region`
 * must be the Infrastructure's (equal, they are redundant) and the zone must lie in the region.
 */
function convertLocation(
  spec: ObjectReader,
  cluster: ClusterFacts,
  report: ConversionReport,
): { zone?: string; project?: string } {
  const region = checkClusterValue(spec, 'region', 'region', cluster.region, report);
  const project = checkClusterValue(spec, 'projectID', 'project', cluster.projectID, report);
  const zone = spec.string('zone');
  const effectiveRegion = cluster.region ?? region;
  if (zone === undefined) {
    if (spec.raw('zone') === undefined || spec.raw('zone') === '') {
      report.error(
        spec.pathOf('zone'),
        `is required; set the zone of the machines, e.g. ${shorten(effectiveRegion ?? 'us-central1')}-a.`,
      );
    }
    return { project };
  }
  if (effectiveRegion !== undefined && !zone.startsWith(`${effectiveRegion}-`)) {
    report.error(
      spec.pathOf('zone'),
      `is ${quote(zone)}, which is not in the cluster's region ${quote(effectiveRegion)}, ` +
        `and Cluster API creates every machine in that region; choose a zone of ${shorten(effectiveRegion)}.`,
    );
  }
  return { zone, project };
}

/** A providerSpec field that must agree with the Infrastructure; returns the value in force. */
function checkClusterValue(
  spec: ObjectReader,
  field: 'region' | 'projectID',
  what: string,
  clusterValue: string | undefined,
  report: ConversionReport,
): string | undefined {
  const value = spec.string(field);
  if (value === undefined || value === clusterValue) return clusterValue ?? value;
  if (clusterValue === undefined) {
    report.warn(
      `${spec.pathOf(field)} is ${quote(value)}, but the Infrastructure object names no ` +
        `GCP ${what} to check it against; Cluster API creates the machines in the cluster's ${what}.`,
    );
    return value;
  }
  report.error(
    spec.pathOf(field),
    `is ${quote(value)}, but the cluster's ${what} is ${quote(clusterValue)} ` +
      `and Cluster API creates every machine there; set ${field} to ${quote(clusterValue)} ` +
      'or remove it.',
  );
  return clusterValue;
}

/**
 * A VM runs as at most one service account. Without one CAPG would not launch the VM without
 * a service account, as MAPI does, but with the Compute Engine default service account and the
 * cloud-platform scope, so an empty list is an error rather than a silent grant of access.
 */
function convertServiceAccounts(
  spec: ObjectReader,
  report: ConversionReport,
): { email: string; scopes?: string[] } | undefined {
  const listPath = spec.pathOf('serviceAccounts');
  const errorsBefore = report.errors.length;
  const accounts = (spec.objects('serviceAccounts') ?? []).map((reader) => {
    const account = { reader, email: reader.string('email'), scopes: reader.strings('scopes') };
    reader.finish();
    return account;
  });
  const account = accounts[0];
  if (account === undefined) {
    if (report.errors.length === errorsBefore) {
      report.error(
        listPath,
        'is required, because Cluster API would run the machines as the Compute Engine default ' +
          'service account with the cloud-platform scope; set the service account the machines use.',
      );
    }
    return undefined;
  }
  if (accounts.length > 1) {
    report.error(
      listPath,
      `lists ${accounts.length} service accounts, but a Compute Engine VM runs as exactly one; keep one entry.`,
    );
  }
  if (account.email === undefined) {
    report.error(
      account.reader.pathOf('email'),
      'is required; set the email of the service account the machines run as.',
    );
    return undefined;
  }
  return account.scopes !== undefined && account.scopes.length > 0
    ? { email: account.email, scopes: account.scopes }
    : { email: account.email };
}

/** Always written: the CRD defaults ipForwarding to Enabled, but MAPI's default is off. */
function convertCanIPForward(spec: ObjectReader): 'Enabled' | 'Disabled' {
  return spec.boolean('canIPForward') === true ? 'Enabled' : 'Disabled';
}
