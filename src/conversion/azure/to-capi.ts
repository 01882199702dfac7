// MAPI AzureMachineProviderSpec → the `spec.template.spec` of a CAPZ AzureMachineTemplate
// (v1beta1). Pure and deterministic. Every field is either converted, dropped because it says
// nothing CAPZ does not already do, dropped with a warning, or reported as an error: the mirror
// must never quietly differ from what the administrator wrote.
//
// CAPZ fills in more than its CRD defaults: its webhooks add a network interface, data disk
// caching and (on each machine) boot diagnostics and the Spot eviction policy. Those choices
// differ from Machine API's, so the template always spells them out.
import { convertDataDisks, convertOsDisk } from './disks.js';
import { convertDiagnostics } from './diagnostics.js';
import { convertImage } from './image.js';
import { checkResourceGroup, convertNetwork, type AzureClusterFacts } from './network.js';
import { convertSecurityProfile } from './security-profile.js';
import { convertSpotVMOptions } from './spot.js';
import { ConversionReport, ObjectReader, withoutUndefined } from '../common/field-reader.js';
import type { Infrastructure } from '../../api/types.js';
import { defaultUserDataSecret, openProviderSpec } from '../common/provider-spec.js';
import { AZURE_PLATFORM, DEFAULT_CREDENTIALS_SECRET, MAPI_API_VERSIONS } from './platform.js';
import { readCapacityReservationGroupID, isOpenSshPublicKeyBase64 } from './values.js';
import { azureClusterTags, readTags } from './tags.js';
import { withClusterTags } from '../common/cluster-tags.js';
import type { Conversion, ConversionContext, ProviderConversion } from '../types.js';
import { quote } from '../common/quote.js';

const ULTRA_SSD_CAPABILITY = ['Enabled', 'Disabled'] as const;

export function azureToCapi(
  providerSpec: unknown,
  context: ConversionContext,
): Conversion<ProviderConversion> {
  const opened = openProviderSpec(providerSpec, context, AZURE_PLATFORM, MAPI_API_VERSIONS);
  if (!opened.ok) return opened;
  const { spec, report } = opened;
  checkCredentialsSecret(spec, report);
  const userDataSecretName = readUserDataSecretName(spec) ?? defaultUserDataSecret(spec);
  const cluster = clusterFacts(context.infrastructure);

  const vmSize = spec.requiredString('vmSize', 'set the Azure VM size, e.g. Standard_D4s_v3.');
  const image = convertImage(spec, report);
  const os = convertOsDisk(spec, report);
  const dataDisks = convertDataDisks(spec, report);
  const securityProfile = convertSecurityProfile(
    spec,
    { type: os.securityEncryptionType, path: os.securityEncryptionTypePath },
    report,
  );
  const network = convertNetwork(spec, cluster, context.controlPlane, report);
  checkResourceGroup(spec, 'resourceGroup', cluster.resourceGroup, report);
  // The VM's region is the region of the cluster's virtual network, where CAPZ creates it: a
  // MachineSet whose location differs cannot create machines in Machine API either.
  spec.string('location');
  const failureDomain = spec.string('zone');
  rejectAvailabilitySet(spec, report);
  rejectManagedIdentity(spec, report);
  const sshPublicKey = readSshPublicKey(spec, report);
  const additionalTags = withClusterTags(
    readTags(spec, report),
    azureClusterTags(context.infrastructure),
  );
  const spotVMOptions = convertSpotVMOptions(spec, os.ephemeral, report);
  const ultraSSD = spec.enumeration('ultraSSDCapability', ULTRA_SSD_CAPABILITY);
  const diagnostics = convertDiagnostics(spec, report);
  const capacityReservationGroupID = readCapacityReservationGroupID(spec, report);
  spec.finish();

  if (report.errors.length > 0) return { ok: false, errors: report.errors };
  const templateSpec = withoutUndefined({
    vmSize,
    image,
    // The CRD default: no identity, as Machine API without managedIdentity.
    identity: 'None',
    osDisk: os.osDisk,
    dataDisks,
    sshPublicKey,
    additionalTags,
    // Unset, both sides enable Ultra SSD exactly when an Ultra SSD data disk is attached.
    additionalCapabilities: ultraSSD && { ultraSSDEnabled: ultraSSD === 'Enabled' },
    allocatePublicIP: network.allocatePublicIP,
    securityProfile,
    spotVMOptions,
    diagnostics,
    networkInterfaces: network.networkInterfaces,
    capacityReservationGroupID,
  });
  const value: ProviderConversion = { templateSpec };
  if (failureDomain !== undefined) value.failureDomain = failureDomain;
  if (userDataSecretName !== undefined) value.userDataSecretName = userDataSecretName;
  return { ok: true, value, warnings: report.warnings };
}

export function clusterFacts(infrastructure: Infrastructure): AzureClusterFacts {
  const status = infrastructure.status;
  const azure = status?.platformStatus?.azure;
  const facts: AzureClusterFacts = {};
  // Empty strings are as good as absent.
  if (status?.infrastructureName) facts.infrastructureName = status.infrastructureName;
  if (azure?.resourceGroupName) facts.resourceGroup = azure.resourceGroupName;
  // The Infrastructure API: an empty network resource group is the cluster's resource group.
  const networkResourceGroup = azure?.networkResourceGroupName || azure?.resourceGroupName;
  if (networkResourceGroup) facts.networkResourceGroup = networkResourceGroup;
  return facts;
}

/** CAPZ machines use the cluster's AzureClusterIdentity; only Machine API's default fits. */
function checkCredentialsSecret(spec: ObjectReader, report: ConversionReport): void {
  const secret = spec.object('credentialsSecret');
  if (secret === undefined) return;
  for (const key of ['name', 'namespace'] as const) {
    const value = secret.string(key);
    const expected = DEFAULT_CREDENTIALS_SECRET[key];
    if (value === undefined || value === expected) continue;
    report.error(
      secret.pathOf(key),
      `is ${quote(value)}, but Cluster API machines use the cluster's Azure identity, ` +
        `not a secret per MachineSet; set credentialsSecret to ${DEFAULT_CREDENTIALS_SECRET.namespace}/` +
        `${DEFAULT_CREDENTIALS_SECRET.name} or remove it.`,
    );
  }
  secret.finish();
}

/**
 * The user data secret's name. Its namespace is dropped: Machine API always reads the secret
 * from the machine's own namespace, as Cluster API does.
 */
function readUserDataSecretName(spec: ObjectReader): string | undefined {
  const secret = spec.object('userDataSecret');
  const name = secret?.string('name');
  secret?.string('namespace');
  secret?.finish();
  return name;
}

function rejectAvailabilitySet(spec: ObjectReader, report: ConversionReport): void {
  if (spec.string('availabilitySet') === undefined) return;
  report.error(
    spec.pathOf('availabilitySet'),
    'names an existing availability set, but Cluster API places machines without a zone in an ' +
      'availability set it creates for the MachineSet and cannot use another one; remove ' +
      'availabilitySet or keep this MachineSet on Machine API.',
  );
}

function rejectManagedIdentity(spec: ObjectReader, report: ConversionReport): void {
  if (spec.string('managedIdentity') === undefined) return;
  report.error(
    spec.pathOf('managedIdentity'),
    'names a user-assigned identity that Machine API looks up in the subscription of its ' +
      "credentials, but Cluster API needs the identity's full resource ID and the Infrastructure " +
      'object does not name the subscription; remove managedIdentity if the machines do not ' +
      'use it, or keep this MachineSet on Machine API.',
  );
}

/** Machine API base64-decodes the key before handing it to Azure, exactly as CAPZ does. */
function readSshPublicKey(spec: ObjectReader, report: ConversionReport): string | undefined {
  const key = spec.string('sshPublicKey');
  if (key === undefined) return undefined;
  if (!isOpenSshPublicKeyBase64(key)) {
    report.error(
      spec.pathOf('sshPublicKey'),
      'must be a base64-encoded OpenSSH public key, as Machine API decodes it; encode the ' +
        'key line (ssh-ed25519 AAAA...) with base64, or remove sshPublicKey.',
    );
    return undefined;
  }
  return key;
}
