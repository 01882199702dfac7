// CAPI → MAPI for GCP: the `spec.template.spec` of a CAPG GCPMachineTemplate (v1beta1) → a MAPI
// GCPMachineProviderSpec. Pure and deterministic, like the forward converter (index.ts): every
// template field is converted, or reported when Machine API cannot express it, and the MAPI
// fields Cluster API has no place for are kept from the MachineSet's current providerSpec.
import {
  ConversionReport,
  type JsonObject,
  ObjectReader,
  withoutUndefined,
} from '../common/field-reader.js';
import { quote, shorten } from '../common/quote.js';
import type { Conversion, ReverseContext } from '../types.js';
import { type ClusterFacts, clusterFacts } from './cluster.js';
import { disksToMapi } from './to-mapi-disks.js';
import { currentString, keptFromCurrent } from './kept-from-current.js';
import { PROVIDER_SPEC_API_VERSIONS, PROVIDER_SPEC_KIND } from './machine-api.js';
import { networkInterfaceToMapi } from './to-mapi-network.js';
import { schedulingToMapi } from './to-mapi-scheduling.js';
import {
  convertMetadataItems,
  convertResourceManagerTags,
  gcpClusterLabels,
  readStringMap,
} from './tags.js';
import { withoutClusterTagMap } from '../common/cluster-tags.js';
import { rejectWithoutEquivalent } from './template-errors.js';

/**
 * The template fields refused whatever their value (rejectWithoutEquivalent and the disks'
 * suppliedKey check), as paths in `spec.template.spec` (`name[]`: each item of the list `name`).
 * The admission policy mapi-capi-sync-infrastructure-expressible refuses the same ones; a unit test
 * keeps them equal.
 */
export const TEMPLATE_FIELDS_WITHOUT_EQUIVALENT: readonly string[] = [
  'providerID',
  'aliasIPRanges',
  'rootDiskEncryptionKey.suppliedKey',
  'additionalDisks[].encryptionKey.suppliedKey',
];

/** CAPG's service account when the template names none. */
const CAPG_DEFAULT_SERVICE_ACCOUNT = {
  email: 'default',
  scopes: ['https://www.googleapis.com/auth/cloud-platform'],
};

export function gcpToMapi(
  templateSpec: unknown,
  context: ReverseContext,
): Conversion<Record<string, unknown>> {
  const report = new ConversionReport();
  const spec = ObjectReader.of(templateSpec, context.path, report);
  if (spec === undefined) return { ok: false, errors: report.errors };
  const cluster = clusterFacts(context.infrastructure);
  const location = locationToMapi(context, cluster, report);

  const machineType = spec.requiredString(
    'instanceType',
    'set the Compute Engine machine type, e.g. n2-standard-4.',
  );
  const labels = withoutClusterTagMap(
    readStringMap(spec, 'additionalLabels'),
    gcpClusterLabels(context.infrastructure),
  );
  const disks = disksToMapi(spec, labels, report);
  const serviceAccount = serviceAccountToMapi(spec);
  const gcpMetadata = convertMetadataItems(spec, {
    field: 'additionalMetadata',
    toMachineApi: true,
    userDataMessage:
      "Machine API fills with the bootstrap data from the MachineSet's data secret; put the " +
      'user data into that secret and remove this metadata item.',
  });
  const tags = spec.strings('additionalNetworkTags');
  const resourceManagerTags = convertResourceManagerTags(spec, { toMachineApi: true });
  // The CRD defaults ipForwarding to Enabled, and CAPG forwards unless it is Disabled.
  const canIPForward = spec.enumeration('ipForwarding', ['Enabled', 'Disabled']) !== 'Disabled';
  rejectWithoutEquivalent(spec, 'providerID', 'names the VM of one machine');
  const scheduling = schedulingToMapi(spec, { ...location, machineType });
  const kept = keptFromCurrent(context.current, {
    cluster,
    controlPlane: context.controlPlane,
    interruptible: scheduling.preemptible === true || scheduling.provisioningModel === 'Spot',
  });
  const networkInterface = networkInterfaceToMapi(spec, kept);
  spec.finishToMachineApi();

  if (report.errors.length > 0) return { ok: false, errors: report.errors };
  const providerSpec = withoutUndefined({
    apiVersion: PROVIDER_SPEC_API_VERSIONS[0],
    kind: PROVIDER_SPEC_KIND,
    userDataSecret:
      context.userDataSecretName === undefined ? undefined : { name: context.userDataSecretName },
    credentialsSecret: kept.credentialsSecret,
    canIPForward,
    deletionProtection: kept.deletionProtection,
    disks,
    labels,
    gcpMetadata,
    networkInterfaces: [networkInterface],
    serviceAccounts: [serviceAccount],
    tags: tags !== undefined && tags.length > 0 ? tags : undefined,
    targetPools: kept.targetPools,
    machineType,
    region: location.region,
    zone: location.zone,
    projectID: location.projectID,
    gpus: scheduling.gpus,
    preemptible: scheduling.preemptible,
    provisioningModel: scheduling.provisioningModel,
    onHostMaintenance: scheduling.onHostMaintenance,
    restartPolicy: kept.restartPolicy,
    shieldedInstanceConfig: scheduling.shieldedInstanceConfig,
    confidentialCompute: scheduling.confidentialCompute,
    resourceManagerTags,
  });
  return { ok: true, value: providerSpec, warnings: report.warnings };
}

interface MapiLocation {
  zone?: string;
  region?: string;
  projectID?: string;
}

/**
 * The zone is the CAPI MachineSet's failure domain. CAPG creates machines in the cluster's
 * region and project, which MAPI names in every providerSpec: the Infrastructure's values,
 * else the current providerSpec's, else (for the region) the zone's.
 */
function locationToMapi(
  context: ReverseContext,
  cluster: ClusterFacts,
  report: ConversionReport,
): MapiLocation {
  const zone = context.failureDomain || undefined;
  const region =
    cluster.region ?? currentString(context.current, 'region') ?? (zone && regionOfZone(zone));
  const projectID = cluster.projectID ?? currentString(context.current, 'projectID');
  const location: MapiLocation = withoutUndefined({ zone, region, projectID });
  if (zone === undefined) {
    report.error(
      context.path,
      "cannot be placed: the CAPI MachineSet's spec.template.spec.failureDomain is not set, " +
        'but every Machine API machine names its zone; set the failure domain to a zone' +
        `${region === undefined ? '' : ` of ${shorten(region)}`}.`,
    );
  } else if (region !== undefined && !zone.startsWith(`${region}-`)) {
    report.error(
      context.path,
      `cannot be placed: the CAPI MachineSet's failure domain ${quote(zone)} is not a zone of ` +
        `the cluster's region ${quote(region)}; set the failure domain to a zone of ${shorten(region)}.`,
    );
  }
  return location;
}

/** `us-central1-a` → `us-central1`: a Compute Engine zone is its region and a letter. */
function regionOfZone(zone: string): string | undefined {
  const cut = zone.lastIndexOf('-');
  return cut > 0 ? zone.slice(0, cut) : undefined;
}

/** CAPG's one service account → MAPI's list of one; MAPI needs an email and a scope. */
function serviceAccountToMapi(spec: ObjectReader): JsonObject {
  const reader = spec.object('serviceAccounts');
  if (reader === undefined) return structuredClone(CAPG_DEFAULT_SERVICE_ACCOUNT);
  const { report } = spec;
  const errorsBefore = report.errors.length;
  const email = reader.string('email');
  const scopesErrorsBefore = report.errors.length;
  const scopes = reader.strings('scopes');
  const scopesInvalid = report.errors.length > scopesErrorsBefore;
  reader.finishToMachineApi();
  if (email === undefined && scopesErrorsBefore === errorsBefore) {
    report.error(
      reader.pathOf('email'),
      'is required; set the email of the service account the machines run as.',
    );
  }
  if (scopes !== undefined && scopes.length > 0) return { email, scopes };
  if (!scopesInvalid) {
    report.error(
      reader.pathOf('scopes'),
      'is empty, so Cluster API gives the machines no access scopes, but Machine API needs at ' +
        'least one; add the scopes the machines need, e.g. https://www.googleapis.com/auth/cloud-platform.',
    );
  }
  return {};
}
