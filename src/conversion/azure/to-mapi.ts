// CAPZ AzureMachineTemplate `spec.template.spec` → MAPI AzureMachineProviderSpec, for a
// MachineSet whose authoritative API is Cluster API. Pure, never throws. Every template field is
// converted, dropped because Machine API behaves that way anyway, or reported with its path; the
// MAPI fields Cluster API cannot express are kept from the MachineSet's current providerSpec.
//
// The result is checked by converting it forward again: a providerSpec the MAPI → CAPI
// converter would refuse is never written.
import { ObjectReader, withoutUndefined, type JsonObject } from '../common/field-reader.js';
import type { Conversion, ReverseContext } from '../types.js';
import { keepCurrentSpellings, keptFieldDefaults } from './kept-from-current.js';
import { AZURE_PLATFORM, MAPI_API_VERSIONS } from './platform.js';
import { KEEP_ON_CLUSTER_API, TemplateReport } from './template-report.js';
import { azureToCapi } from './to-capi.js';
import { reverseDataDisks, reverseOsDisk } from './to-mapi-disks.js';
import { reverseNetwork } from './to-mapi-network.js';
import {
  reverseDiagnostics,
  reverseImage,
  reverseSecurityProfile,
  reverseSpotVMOptions,
} from './to-mapi-options.js';
import { readCapacityReservationGroupID, isOpenSshPublicKeyBase64 } from './values.js';
import { azureClusterTags } from './tags.js';
import { withoutClusterTags } from '../common/cluster-tags.js';

/** Where the providerSpec sits in a MAPI MachineSet, for messages about it. */
const MAPI_PROVIDER_SPEC_PATH = 'spec.template.spec.providerSpec.value';

export function azureToMapi(
  templateSpec: unknown,
  context: ReverseContext,
): Conversion<JsonObject> {
  const report = new TemplateReport();
  const spec = ObjectReader.of(templateSpec, context.path, report);
  if (spec === undefined) return { ok: false, errors: report.errors };
  const fields = readTemplate(spec, context, report);
  spec.finishToMachineApi({ orKeepOnClusterApi: true });
  if (report.errors.length > 0) return { ok: false, errors: report.errors };

  const canonical: JsonObject = {
    kind: AZURE_PLATFORM.providerSpecKind,
    apiVersion: MAPI_API_VERSIONS[0],
    ...keptFieldDefaults(context.infrastructure),
    ...fields,
  };
  const forwardContext = {
    infrastructure: context.infrastructure,
    path: MAPI_PROVIDER_SPEC_PATH,
    controlPlane: context.controlPlane,
  };
  const forward = (providerSpec: JsonObject) => azureToCapi(providerSpec, forwardContext);
  const check = forward(canonical);
  if (!check.ok) {
    // Limits the template's webhook would enforce already (sizes, names, formats).
    for (const error of check.errors) {
      report.error(
        context.path,
        `converts to a Machine API providerSpec whose ${error.path.slice(MAPI_PROVIDER_SPEC_PATH.length + 1)} ` +
          `${error.message.replace(/\.$/, '')}; fix the template field it comes from.`,
      );
    }
    return { ok: false, errors: report.errors };
  }
  const kept = keepCurrentSpellings(canonical, context.current, forward);
  for (const key of kept.dropped) {
    if (Object.hasOwn(fields, key)) continue;
    report.warn(
      `${MAPI_PROVIDER_SPEC_PATH}.${key} of the Machine API MachineSet is not kept: Cluster API ` +
        'cannot express it and the providerSpec with it would not convert to this template, ' +
        `so it is ${Object.hasOwn(kept.providerSpec, key) ? 'reset to its default' : 'removed'}.`,
    );
  }
  return { ok: true, value: kept.providerSpec, warnings: report.warnings };
}

/** The MAPI fields the template determines, in the order Machine API lists them. */
function readTemplate(
  spec: ObjectReader,
  context: ReverseContext,
  report: TemplateReport,
): JsonObject {
  rejectUnsupported(spec, report);
  const vmSize = spec.requiredString('vmSize', 'set the Azure VM size, e.g. Standard_D4s_v3.');
  const image = reverseImage(spec, report);
  const os = reverseOsDisk(spec, report);
  const dataDisks = reverseDataDisks(spec, report);
  const network = reverseNetwork(spec, report);
  const templateZone = spec.string('failureDomain');
  const additionalCapabilities = spec.object('additionalCapabilities');
  const ultraSSD = additionalCapabilities?.boolean('ultraSSDEnabled');
  additionalCapabilities?.finishToMachineApi({ orKeepOnClusterApi: true });
  // CAPZ installs its bootstrap-status extension unless told not to; Machine API never does,
  // so either value leaves Machine API's VMs as they are.
  spec.boolean('disableVMBootstrapExtension');
  // Machine API's provider adds the cluster's tags by itself.
  const own = withoutClusterTags(
    spec.stringMap('additionalTags'),
    azureClusterTags(context.infrastructure),
  );
  return withoutUndefined({
    vmSize,
    image,
    osDisk: os.osDisk,
    dataDisks,
    sshPublicKey: readSshPublicKey(spec, report),
    tags: own && Object.fromEntries(own.map((t) => [t.key, t.value])),
    ultraSSDCapability: ultraSSD === undefined ? undefined : ultraSSD ? 'Enabled' : 'Disabled',
    // Machine API always writes publicIP; acceleratedNetworking only when true.
    publicIP: network.publicIP,
    acceleratedNetworking: network.acceleratedNetworking || undefined,
    subnet: network.subnet,
    securityProfile: reverseSecurityProfile(spec, report),
    spotVMOptions: reverseSpotVMOptions(spec, os.ephemeral, report),
    diagnostics: reverseDiagnostics(spec, report),
    capacityReservationGroupID: readCapacityReservationGroupID(spec, report),
    // CAPZ takes the Machine's failure domain first, the template's only without one.
    zone: context.failureDomain || templateZone,
    userDataSecret: context.userDataSecretName ? { name: context.userDataSecretName } : undefined,
  });
}

/**
 * The template fields refused whatever their value (rejectUnsupported, reverseNetwork and the data
 * disks), as paths in `spec.template.spec` (`name[]`: each item of the list `name`). The admission
 * policy mapi-capi-sync-infrastructure-expressible refuses the same ones; a unit test keeps them
 * equal.
 */
export const TEMPLATE_FIELDS_WITHOUT_EQUIVALENT: readonly string[] = [
  'providerID',
  'userAssignedIdentities',
  'systemAssignedIdentityRole',
  'roleAssignmentName',
  'vmExtensions',
  'disableExtensionOperations',
  'enableIPForwarding',
  'dnsServers',
  'dataDisks[].managedDisk.securityProfile',
];

function rejectUnsupported(spec: ObjectReader, report: TemplateReport): void {
  if (spec.raw('providerID') !== undefined) {
    report.error(
      spec.pathOf('providerID'),
      'names one existing VM, which a template for many machines must not; remove providerID.',
    );
  }
  const identity = spec.enumeration('identity', [
    'None',
    'SystemAssigned',
    'UserAssigned',
  ] as const);
  if (identity === 'SystemAssigned' || identity === 'UserAssigned') {
    report.error(
      spec.pathOf('identity'),
      `is ${identity}, but Machine API can only name a user-assigned identity within the ` +
        'subscription of its credentials, which the cluster does not name; set identity to None, or ' +
        `${KEEP_ON_CLUSTER_API}.`,
    );
  }
  const userAssigned = spec.items('userAssignedIdentities');
  if (userAssigned !== undefined && userAssigned.length > 0) {
    report.noEquivalent(spec.pathOf('userAssignedIdentities'), 'assigns identities by resource ID');
  }
  const role = spec.object('systemAssignedIdentityRole');
  if (role !== undefined && Object.keys(role.takeAll()).length > 0) {
    report.noEquivalent(role.path, 'assigns a role to the system-assigned identity');
  }
  if (spec.string('roleAssignmentName') !== undefined) {
    report.noEquivalent(spec.pathOf('roleAssignmentName'), 'names a role assignment');
  }
  const extensions = spec.items('vmExtensions');
  if (extensions !== undefined && extensions.length > 0) {
    report.noEquivalent(spec.pathOf('vmExtensions'), 'installs VM extensions');
  }
  if (spec.boolean('disableExtensionOperations') === true) {
    report.noEquivalent(
      spec.pathOf('disableExtensionOperations'),
      'forbids extension operations on the VMs',
    );
  }
}

function readSshPublicKey(spec: ObjectReader, report: TemplateReport): string | undefined {
  const key = spec.string('sshPublicKey');
  if (key === undefined || isOpenSshPublicKeyBase64(key)) return key;
  report.error(
    spec.pathOf('sshPublicKey'),
    'is not a base64-encoded OpenSSH public key, which Machine API needs; encode the key line (ssh-ed25519 AAAA...) with base64.',
  );
  return undefined;
}
