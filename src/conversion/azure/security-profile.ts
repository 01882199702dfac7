// MAPI `securityProfile` → CAPZ `securityProfile`. Machine API nests the UEFI settings under
// the security type (`settings.confidentialVM.uefiSettings` or `settings.trustedLaunch...`)
// with Enabled/Disabled values; CAPZ has one `uefiSettings` with booleans. The VM Machine API
// creates is the reference: both UEFI switches are written out, as Machine API sends them.
import type { SecurityEncryptionType } from './disks.js';
import type { ConversionReport, ObjectReader } from '../common/field-reader.js';

const SECURITY_TYPES = ['ConfidentialVM', 'TrustedLaunch'] as const;
const POLICIES = ['Enabled', 'Disabled'] as const;
type SecurityType = (typeof SECURITY_TYPES)[number];

export interface CapzSecurityProfile {
  encryptionAtHost?: boolean;
  securityType?: SecurityType;
  uefiSettings?: { secureBootEnabled: boolean; vTpmEnabled: boolean };
}

interface UefiSettings {
  path: string;
  secureBoot: boolean;
  vTpm: boolean;
}

export interface OsDiskEncryption {
  type?: SecurityEncryptionType;
  path: string;
}

export function convertSecurityProfile(
  spec: ObjectReader,
  diskEncryption: OsDiskEncryption,
  report: ConversionReport,
): CapzSecurityProfile | undefined {
  const profile = spec.object('securityProfile');
  if (profile === undefined) {
    if (diskEncryption.type !== undefined) {
      report.error(
        spec.pathOf('securityProfile'),
        `is required when ${diskEncryption.path} is set; add settings with securityType ` +
          'ConfidentialVM and its confidentialVM.uefiSettings.',
      );
    }
    return undefined;
  }
  const encryptionAtHost = profile.boolean('encryptionAtHost');
  const settings = profile.object('settings');
  profile.finish();
  const converted: CapzSecurityProfile = {};
  if (encryptionAtHost !== undefined) converted.encryptionAtHost = encryptionAtHost;

  const errorsBefore = report.errors.length;
  const securityType = settings?.enumeration('securityType', SECURITY_TYPES);
  const confidential = settings && readUefi(settings, 'confidentialVM');
  const trusted = settings && readUefi(settings, 'trustedLaunch');
  settings?.finish();
  const valid = report.errors.length === errorsBefore;
  const settingsPath = settings?.path ?? profile.pathOf('settings');

  if (diskEncryption.type !== undefined && securityType !== 'ConfidentialVM' && valid) {
    report.error(
      `${settingsPath}.securityType`,
      `must be ConfidentialVM when ${diskEncryption.path} is set; set it and confidentialVM.uefiSettings.`,
    );
  }
  if (confidential !== undefined && securityType !== 'ConfidentialVM' && valid) {
    report.error(
      `${settingsPath}.confidentialVM`,
      'is only used when securityType is ConfidentialVM; set that type or remove confidentialVM.',
    );
  }
  if (trusted !== undefined && securityType !== 'TrustedLaunch' && valid) {
    report.error(
      `${settingsPath}.trustedLaunch`,
      'is only used when securityType is TrustedLaunch; set that type or remove trustedLaunch.',
    );
  }
  if (securityType === 'ConfidentialVM') {
    const uefi = confidentialSettings(settingsPath, confidential, diskEncryption, report);
    checkEncryptionAtHost(profile, encryptionAtHost, diskEncryption, report);
    if (uefi !== undefined) {
      converted.securityType = 'ConfidentialVM';
      converted.uefiSettings = { secureBootEnabled: uefi.secureBoot, vTpmEnabled: true };
    }
  } else if (securityType === 'TrustedLaunch') {
    if (trusted === undefined) {
      report.error(
        `${settingsPath}.trustedLaunch`,
        'is required when securityType is TrustedLaunch; set trustedLaunch.uefiSettings.',
      );
    } else if (trusted.secureBoot || trusted.vTpm) {
      converted.securityType = 'TrustedLaunch';
      converted.uefiSettings = { secureBootEnabled: trusted.secureBoot, vTpmEnabled: trusted.vTpm };
    } else {
      report.warn(
        `${settingsPath}.securityType is TrustedLaunch, but ${trusted.path} enables neither ` +
          'secureBoot nor virtualizedTrustedPlatformModule; Machine API then creates the VMs ' +
          'without a security type, and so will Cluster API.',
      );
    }
  }
  return Object.keys(converted).length > 0 ? converted : undefined;
}

/** The UEFI settings under `settings.<key>`, or undefined when that object is absent. */
function readUefi(settings: ObjectReader, key: string): UefiSettings | undefined {
  const holder = settings.object(key);
  if (holder === undefined) return undefined;
  const uefi = holder.object('uefiSettings');
  const secureBoot = uefi?.enumeration('secureBoot', POLICIES);
  const vTpm = uefi?.enumeration('virtualizedTrustedPlatformModule', POLICIES);
  uefi?.finish();
  holder.finish();
  return {
    path: uefi?.path ?? holder.pathOf('uefiSettings'),
    secureBoot: secureBoot === 'Enabled',
    vTpm: vTpm === 'Enabled',
  };
}

function confidentialSettings(
  settingsPath: string,
  uefi: UefiSettings | undefined,
  diskEncryption: OsDiskEncryption,
  report: ConversionReport,
): UefiSettings | undefined {
  let ok = true;
  if (diskEncryption.type === undefined) {
    report.error(
      diskEncryption.path,
      'is required when securityType is ConfidentialVM; set it to VMGuestStateOnly or DiskWithVMGuestState.',
    );
    ok = false;
  }
  if (uefi === undefined) {
    report.error(
      `${settingsPath}.confidentialVM`,
      'is required when securityType is ConfidentialVM; set confidentialVM.uefiSettings.',
    );
    return undefined;
  }
  if (!uefi.vTpm) {
    report.error(
      `${uefi.path}.virtualizedTrustedPlatformModule`,
      'must be Enabled for a Confidential VM; set it to Enabled.',
    );
    ok = false;
  }
  if (diskEncryption.type === 'DiskWithVMGuestState' && !uefi.secureBoot) {
    report.error(
      `${uefi.path}.secureBoot`,
      'must be Enabled when the OS disk is encrypted with DiskWithVMGuestState; set it to Enabled.',
    );
    ok = false;
  }
  return ok ? uefi : undefined;
}

function checkEncryptionAtHost(
  profile: ObjectReader,
  encryptionAtHost: boolean | undefined,
  diskEncryption: OsDiskEncryption,
  report: ConversionReport,
): void {
  if (encryptionAtHost === true && diskEncryption.type === 'DiskWithVMGuestState') {
    report.error(
      profile.pathOf('encryptionAtHost'),
      'cannot be true when the OS disk is encrypted with DiskWithVMGuestState; set it to false or remove it.',
    );
  }
}
