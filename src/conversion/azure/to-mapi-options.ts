// CAPZ `image`, `securityProfile`, `spotVMOptions` and `diagnostics` → their MAPI counterparts.
// Where CAPZ leaves a choice to a default (its machine webhook's boot diagnostics and eviction
// policy, Azure's UEFI switches), the MAPI field is written with the value CAPZ would use.
import { describeValue, type JsonObject, type ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';
import { canonicalDecimalQuantity } from './quantity.js';
import { KEEP_ON_CLUSTER_API, type TemplateReport } from './template-report.js';

const MARKETPLACE_FIELDS = ['publisher', 'offer', 'sku', 'version'] as const;

export function reverseImage(spec: ObjectReader, report: TemplateReport): JsonObject | undefined {
  const image = spec.object('image');
  if (image === undefined) {
    if (spec.raw('image') === undefined) {
      report.error(
        spec.pathOf('image'),
        'is not set, so CAPZ boots its own reference image, which Machine API cannot name; set image.marketplace to the image to boot, e.g. RHCOS of publisher azureopenshift.',
      );
    }
    return undefined;
  }
  if (image.raw('id') !== undefined) {
    report.error(
      image.pathOf('id'),
      'names the image by a full resource ID, but Machine API names images relative to the subscription of its credentials, which the cluster does not name; use a Marketplace image (image.marketplace), or keep the MachineSet on Cluster API.',
    );
  }
  for (const gallery of ['sharedGallery', 'computeGallery']) {
    if (image.raw(gallery) === undefined) continue;
    report.error(
      image.pathOf(gallery),
      `names a gallery image, which Machine API cannot boot (it boots Marketplace images); use a Marketplace image (image.marketplace), or keep the MachineSet on Cluster API.`,
    );
  }
  const marketplace = image.object('marketplace');
  image.finishToMachineApi({ orKeepOnClusterApi: true });
  if (marketplace === undefined) return undefined;
  const fields: JsonObject = {};
  for (const field of MARKETPLACE_FIELDS) {
    fields[field] = marketplace.requiredString(
      field,
      'Machine API needs publisher, offer, sku and version of a Marketplace image.',
    );
  }
  // Machine API sends a purchase plan exactly for MarketplaceWithPlan, as CAPZ does for
  // third-party images; false is CAPZ's CRD default.
  const thirdParty = marketplace.boolean('thirdPartyImage') ?? false;
  marketplace.finishToMachineApi({ orKeepOnClusterApi: true });
  return { ...fields, type: thirdParty ? 'MarketplaceWithPlan' : 'MarketplaceNoPlan' };
}

function policy(enabled: boolean | undefined): 'Enabled' | 'Disabled' {
  // An unset UEFI switch is off in Azure.
  return enabled === true ? 'Enabled' : 'Disabled';
}

export function reverseSecurityProfile(
  spec: ObjectReader,
  report: TemplateReport,
): JsonObject | undefined {
  const profile = spec.object('securityProfile');
  if (profile === undefined) return undefined;
  const encryptionAtHost = profile.boolean('encryptionAtHost');
  const securityType = profile.enumeration('securityType', [
    'ConfidentialVM',
    'TrustedLaunch',
  ] as const);
  const uefi = profile.object('uefiSettings');
  const secureBoot = uefi?.boolean('secureBootEnabled');
  const vTpm = uefi?.boolean('vTpmEnabled');
  uefi?.finishToMachineApi({ orKeepOnClusterApi: true });
  profile.finishToMachineApi({ orKeepOnClusterApi: true });
  const uefiPath = uefi?.path ?? profile.pathOf('uefiSettings');

  const converted: JsonObject = {};
  if (encryptionAtHost !== undefined) converted.encryptionAtHost = encryptionAtHost;
  if (securityType === undefined) {
    if (secureBoot !== undefined || vTpm !== undefined) {
      report.error(
        uefiPath,
        'is set without a securityType, but Machine API sets UEFI switches only for a security type; set securityType to TrustedLaunch or ConfidentialVM, or remove uefiSettings.',
      );
    }
  } else if (securityType === 'TrustedLaunch') {
    if (secureBoot !== true && vTpm !== true) {
      report.error(
        profile.pathOf('securityType'),
        'is TrustedLaunch with neither secure boot nor vTPM enabled, but Machine API creates such VMs without a security type; enable uefiSettings.secureBootEnabled or vTpmEnabled, or remove securityType.',
      );
    }
    const uefiSettings = {
      secureBoot: policy(secureBoot),
      virtualizedTrustedPlatformModule: policy(vTpm),
    };
    converted.settings = { securityType, trustedLaunch: { uefiSettings } };
  } else {
    if (vTpm !== true) {
      report.error(
        `${uefiPath}.vTpmEnabled`,
        'is not true, but Machine API always enables the vTPM of a Confidential VM (Azure requires it); set vTpmEnabled to true.',
      );
    }
    const uefiSettings = {
      secureBoot: policy(secureBoot),
      virtualizedTrustedPlatformModule: 'Enabled',
    };
    converted.settings = { securityType, confidentialVM: { uefiSettings } };
  }
  return Object.keys(converted).length > 0 ? converted : undefined;
}

export function reverseSpotVMOptions(
  spec: ObjectReader,
  ephemeralOsDisk: boolean,
  report: TemplateReport,
): JsonObject | undefined {
  const spot = spec.object('spotVMOptions');
  if (spot === undefined) return undefined;
  const maxPrice = readMaxPrice(spot, report);
  // CAPZ's machine webhook: Delete for an ephemeral OS disk, Deallocate otherwise.
  const evictionPolicy =
    spot.enumeration('evictionPolicy', ['Deallocate', 'Delete'] as const) ??
    (ephemeralOsDisk ? 'Delete' : 'Deallocate');
  spot.finishToMachineApi({ orKeepOnClusterApi: true });
  if (evictionPolicy === 'Delete' && !ephemeralOsDisk) {
    report.error(
      spot.pathOf('evictionPolicy'),
      `is Delete, but Machine API deallocates evicted Spot VMs (it deletes only those with an ephemeral OS disk); set evictionPolicy to Deallocate, or ${KEEP_ON_CLUSTER_API}.`,
    );
  }
  if (evictionPolicy === 'Deallocate' && ephemeralOsDisk) {
    report.error(
      spot.pathOf('evictionPolicy'),
      'is Deallocate, but Azure cannot deallocate a VM with an ephemeral OS disk, so Machine API deletes it; set evictionPolicy to Delete.',
    );
  }
  return maxPrice === undefined ? {} : { maxPrice };
}

function readMaxPrice(spot: ObjectReader, report: TemplateReport): string | undefined {
  const value = spot.raw('maxPrice');
  if (value === undefined) return undefined;
  const path = spot.pathOf('maxPrice');
  if (typeof value !== 'string' && typeof value !== 'number') {
    report.error(path, `must be a price such as "50m" or -1, but is ${describeValue(value)}.`);
    return undefined;
  }
  const canonical = canonicalDecimalQuantity(value);
  if (!canonical.ok) {
    report.error(
      path,
      `is ${quote(value)}, which ${canonical.problem}; write the price in US dollars per hour such as "0.05", or -1 to cap at the on-demand price.`,
    );
    return undefined;
  }
  return canonical.value;
}

export function reverseDiagnostics(
  spec: ObjectReader,
  report: TemplateReport,
): JsonObject | undefined {
  const diagnostics = spec.object('diagnostics');
  const boot = diagnostics?.object('boot');
  diagnostics?.finishToMachineApi({ orKeepOnClusterApi: true });
  // CAPZ's machine webhook turns Azure-managed boot diagnostics on for a machine without them.
  if (boot === undefined) return { boot: { storageAccountType: 'AzureManaged' } };
  const type = boot.enumeration('storageAccountType', [
    'Managed',
    'UserManaged',
    'Disabled',
  ] as const);
  const userManaged = boot.object('userManaged');
  const uri = userManaged?.string('storageAccountURI');
  userManaged?.finishToMachineApi({ orKeepOnClusterApi: true });
  boot.finishToMachineApi({ orKeepOnClusterApi: true });
  if (type === undefined) {
    if (boot.raw('storageAccountType') === undefined) {
      report.error(
        boot.pathOf('storageAccountType'),
        'is not set; set it to Managed, UserManaged or Disabled.',
      );
    }
    return undefined;
  }
  if (type !== 'UserManaged') {
    if (userManaged !== undefined) {
      report.error(
        userManaged.path,
        `is only used when storageAccountType is UserManaged, but it is ${type}; remove userManaged.`,
      );
    }
    // Machine API creates VMs without boot diagnostics when it has no `boot`.
    return type === 'Managed' ? { boot: { storageAccountType: 'AzureManaged' } } : undefined;
  }
  if (uri === undefined) {
    report.error(
      `${boot.pathOf('userManaged')}.storageAccountURI`,
      'is not set, but UserManaged boot diagnostics need it; set the blob endpoint of the storage account.',
    );
    return undefined;
  }
  return {
    boot: { storageAccountType: 'CustomerManaged', customerManaged: { storageAccountURI: uri } },
  };
}
