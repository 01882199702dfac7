// MAPI `diagnostics` → CAPZ `diagnostics`. Without `boot`, Machine API creates VMs with boot
// diagnostics off, while CAPZ turns Azure-managed boot diagnostics on for a machine that says
// nothing; so "off" is written out as storageAccountType Disabled.
import type { ConversionReport, ObjectReader } from '../common/field-reader.js';

const STORAGE_ACCOUNT_TYPES = ['AzureManaged', 'CustomerManaged'] as const;
const MAX_URI_LENGTH = 1024;

export interface CapzDiagnostics {
  boot: {
    storageAccountType: 'Managed' | 'UserManaged' | 'Disabled';
    userManaged?: { storageAccountURI: string };
  };
}

export function convertDiagnostics(
  spec: ObjectReader,
  report: ConversionReport,
): CapzDiagnostics | undefined {
  const errorsBefore = report.errors.length;
  const diagnostics = spec.object('diagnostics');
  const boot = diagnostics?.object('boot');
  diagnostics?.finish();
  if (report.errors.length > errorsBefore) return undefined;
  if (boot === undefined) return { boot: { storageAccountType: 'Disabled' } };

  const type = boot.enumeration('storageAccountType', STORAGE_ACCOUNT_TYPES);
  const customer = boot.object('customerManaged');
  const uri = customer?.string('storageAccountURI');
  customer?.finish();
  boot.finish();
  if (type === undefined) {
    if (report.errors.length === errorsBefore) {
      report.error(
        boot.pathOf('storageAccountType'),
        'is required; set it to AzureManaged or CustomerManaged, or remove boot to turn boot diagnostics off.',
      );
    }
    return undefined;
  }
  if (type === 'AzureManaged') {
    if (customer !== undefined) {
      report.error(
        customer.path,
        'may not be set when storageAccountType is AzureManaged; remove it or use CustomerManaged.',
      );
      return undefined;
    }
    return { boot: { storageAccountType: 'Managed' } };
  }
  const uriPath = `${boot.pathOf('customerManaged')}.storageAccountURI`;
  if (uri === undefined) {
    report.error(
      uriPath,
      'is required when storageAccountType is CustomerManaged; set the blob endpoint of the storage account, https://<account>.blob.core.windows.net/.',
    );
    return undefined;
  }
  if (!uri.startsWith('https://') || uri.length > MAX_URI_LENGTH) {
    report.error(
      uriPath,
      `must be an https:// URI of at most ${MAX_URI_LENGTH} characters; use the blob endpoint of the storage account.`,
    );
    return undefined;
  }
  return { boot: { storageAccountType: 'UserManaged', userManaged: { storageAccountURI: uri } } };
}
