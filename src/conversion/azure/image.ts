// MAPI `image` → CAPZ `image`. Machine API names an image either by Marketplace coordinates or
// by a resource ID *relative to the subscription* ("/resourceGroups/..."), which its actuator
// completes with the subscription of its credentials. CAPZ needs a full resource ID, and the
// Infrastructure object does not name the subscription, so only Marketplace images convert.
import type { ConversionReport, ObjectReader } from '../common/field-reader.js';

export interface CapzMarketplaceImage {
  publisher: string;
  offer: string;
  sku: string;
  version: string;
  /** CAPZ sends a purchase plan for third-party images; the CRD defaults this to false. */
  thirdPartyImage: boolean;
}

const IMAGE_TYPES = ['ID', 'MarketplaceNoPlan', 'MarketplaceWithPlan'] as const;
const MARKETPLACE_FIELDS = ['publisher', 'offer', 'sku', 'version'] as const;

export function convertImage(
  spec: ObjectReader,
  report: ConversionReport,
): { marketplace: CapzMarketplaceImage } | undefined {
  const image = spec.object('image');
  if (image === undefined) {
    if (spec.raw('image') === undefined) {
      report.error(
        spec.pathOf('image'),
        'is required; set publisher, offer, sku and version of the Marketplace image to boot.',
      );
    }
    return undefined;
  }
  const fields = {
    publisher: image.string('publisher'),
    offer: image.string('offer'),
    sku: image.string('sku'),
    version: image.string('version'),
  };
  const resourceID = image.string('resourceID');
  const type = image.enumeration('type', IMAGE_TYPES);
  image.finish();

  const marketplaceSet = MARKETPLACE_FIELDS.filter((f) => fields[f] !== undefined);
  if (resourceID !== undefined) {
    report.error(
      image.pathOf('resourceID'),
      'names the image relative to the subscription, which Machine API completes with the ' +
        "subscription of its credentials; Cluster API needs the image's full resource ID and the " +
        'Infrastructure object does not name the subscription, so switch the MachineSet to a ' +
        'Marketplace image (publisher, offer, sku and version), such as the RHCOS image of ' +
        'publisher azureopenshift.',
    );
    if (marketplaceSet.length > 0) {
      report.error(
        image.path,
        'sets both resourceID and Marketplace fields, but an image is named one way or the ' +
          'other; keep either resourceID or publisher, offer, sku and version.',
      );
    }
    return undefined;
  }
  if (type === 'ID') {
    report.error(
      image.pathOf('type'),
      'is ID, but no resourceID is set; set type to MarketplaceNoPlan or MarketplaceWithPlan ' +
        'for a Marketplace image.',
    );
  }
  if (marketplaceSet.length === 0) {
    report.error(
      image.path,
      'names no image; set publisher, offer, sku and version of the Marketplace image to boot.',
    );
    return undefined;
  }
  for (const field of MARKETPLACE_FIELDS) {
    if (fields[field] !== undefined) continue;
    report.error(
      image.pathOf(field),
      'is required for a Marketplace image; set it, as Cluster API needs publisher, offer, sku and version.',
    );
  }
  const { publisher, offer, sku, version } = fields;
  if (publisher === undefined || offer === undefined || sku === undefined || version === undefined)
    return undefined;
  if (type === 'ID') return undefined;
  return {
    marketplace: {
      publisher,
      offer,
      sku,
      version,
      // Machine API sends a purchase plan only for MarketplaceWithPlan (empty means no plan).
      thirdPartyImage: type === 'MarketplaceWithPlan',
    },
  };
}
