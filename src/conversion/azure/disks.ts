// MAPI `osDisk` and `dataDisks[]` → CAPZ `osDisk` and `dataDisks[]`. The shapes are close; the
// work is in the defaults. Machine API documents "None" as the caching of a disk that sets none
// and Premium_LRS as the type of a data disk that sets none, while CAPZ's webhook would pick
// ReadWrite caching: both are written out so the machines stay what the administrator had.
// Rules CAPZ's webhook enforces are checked here, so they surface as field errors.
import type { ConversionReport, ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';

const OS_TYPES = ['Linux', 'Windows'] as const;
const CACHING_TYPES = ['None', 'ReadOnly', 'ReadWrite'] as const;
const ULTRA_SSD = 'UltraSSD_LRS';
/** The disk storage types Azure (and CAPZ's webhook) know. */
const STORAGE_ACCOUNT_TYPES = [
  'Premium_LRS',
  'PremiumV2_LRS',
  'Premium_ZRS',
  'StandardSSD_LRS',
  'StandardSSD_ZRS',
  'Standard_LRS',
  ULTRA_SSD,
] as const;
const SECURITY_ENCRYPTION_TYPES = ['VMGuestStateOnly', 'DiskWithVMGuestState'] as const;
const DELETION_POLICIES = ['Delete', 'Detach'] as const;
/** Machine API's documented default for a data disk without a storage type. */
const DEFAULT_DATA_DISK_STORAGE = 'Premium_LRS';
// CAPZ's webhook limits; the OS disk limit is stricter than Machine API's (32767).
const MAX_OS_DISK_GB = 2048;
const MIN_DATA_DISK_GB = 4;
const MAX_DATA_DISK_GB = 32767;
const MAX_LUN = 63;
const MAX_NAME_SUFFIX_LENGTH = 78;
const NAME_SUFFIX = /^[a-zA-Z0-9](?:[\w.-]*[a-zA-Z0-9])?$/;

export type SecurityEncryptionType = (typeof SECURITY_ENCRYPTION_TYPES)[number];

interface DiskEncryptionSet {
  id: string;
}

interface CapzOsDisk {
  osType: string;
  diskSizeGB?: number;
  managedDisk?: {
    storageAccountType: string;
    diskEncryptionSet?: DiskEncryptionSet;
    securityProfile?: {
      securityEncryptionType: SecurityEncryptionType;
      diskEncryptionSet?: DiskEncryptionSet;
    };
  };
  diffDiskSettings?: { option: 'Local' };
  cachingType: string;
}

export interface ConvertedOsDisk {
  osDisk?: CapzOsDisk;
  ephemeral: boolean;
  securityEncryptionType?: SecurityEncryptionType;
  /** Where securityEncryptionType lives, for messages about the security profile. */
  securityEncryptionTypePath: string;
}

export interface CapzDataDisk {
  nameSuffix: string;
  diskSizeGB: number;
  managedDisk: { storageAccountType: string; diskEncryptionSet?: DiskEncryptionSet };
  lun: number;
  cachingType: string;
}

export function convertOsDisk(spec: ObjectReader, report: ConversionReport): ConvertedOsDisk {
  const securityEncryptionTypePath = `${spec.pathOf('osDisk')}.managedDisk.securityProfile.securityEncryptionType`;
  const reader = spec.object('osDisk');
  if (reader === undefined) {
    if (spec.raw('osDisk') === undefined) {
      report.error(
        spec.pathOf('osDisk'),
        'is required; set at least osType, diskSizeGB and managedDisk.storageAccountType.',
      );
    }
    return { ephemeral: false, securityEncryptionTypePath };
  }
  const osType = reader.enumeration('osType', OS_TYPES) ?? 'Linux';
  const diskSizeGB = readOsDiskSize(reader, report);
  const managed = convertOsManagedDisk(reader, report);
  const ephemeral = readEphemeral(reader);
  const cachingType = reader.enumeration('cachingType', CACHING_TYPES);
  reader.finish();

  if (ephemeral && cachingType !== 'ReadOnly') {
    report.error(
      reader.pathOf('cachingType'),
      `is ${cachingType === undefined ? 'not set' : cachingType}, but Azure supports only ReadOnly ` +
        'caching for an ephemeral OS disk; set cachingType to ReadOnly.',
    );
  }
  if (ephemeral && managed.disk?.diskEncryptionSet !== undefined) {
    report.error(
      `${reader.pathOf('managedDisk')}.diskEncryptionSet`,
      'cannot be used with an ephemeral OS disk, which is never stored in Azure Storage; ' +
        'remove diskEncryptionSet or diskSettings.ephemeralStorageLocation.',
    );
  }
  const osDisk: CapzOsDisk = { osType, cachingType: cachingType ?? 'None' };
  if (diskSizeGB !== undefined) osDisk.diskSizeGB = diskSizeGB;
  if (managed.disk !== undefined) osDisk.managedDisk = managed.disk;
  if (ephemeral) osDisk.diffDiskSettings = { option: 'Local' };
  const converted: ConvertedOsDisk = { osDisk, ephemeral, securityEncryptionTypePath };
  if (managed.securityEncryptionType !== undefined)
    converted.securityEncryptionType = managed.securityEncryptionType;
  return converted;
}

function readOsDiskSize(reader: ObjectReader, report: ConversionReport): number | undefined {
  const errorsBefore = report.errors.length;
  const size = reader.integer('diskSizeGB');
  if (size === undefined) {
    if (report.errors.length === errorsBefore) {
      report.error(
        reader.pathOf('diskSizeGB'),
        `is required; set the OS disk size in GB, between 1 and ${MAX_OS_DISK_GB}.`,
      );
    }
    return undefined;
  }
  if (size < 1 || size > MAX_OS_DISK_GB) {
    report.error(
      reader.pathOf('diskSizeGB'),
      `is ${size}, but Cluster API accepts OS disks of 1 to ${MAX_OS_DISK_GB} GB; choose a size in that range.`,
    );
    return undefined;
  }
  return size;
}

function readEphemeral(reader: ObjectReader): boolean {
  const settings = reader.object('diskSettings');
  const location = settings?.enumeration('ephemeralStorageLocation', ['Local'] as const);
  settings?.finish();
  return location === 'Local';
}

function convertOsManagedDisk(
  reader: ObjectReader,
  report: ConversionReport,
): { disk?: CapzOsDisk['managedDisk']; securityEncryptionType?: SecurityEncryptionType } {
  const managed = reader.object('managedDisk');
  if (managed === undefined) return {};
  const storageAccountType = readStorageAccountType(managed, report, { osDisk: true });
  const diskEncryptionSet = readDiskEncryptionSet(managed);
  const profile = managed.object('securityProfile');
  const securityEncryptionType = profile?.enumeration(
    'securityEncryptionType',
    SECURITY_ENCRYPTION_TYPES,
  );
  const profileEncryptionSet = profile && readDiskEncryptionSet(profile);
  profile?.finish();
  managed.finish();

  if (profileEncryptionSet !== undefined && securityEncryptionType !== 'DiskWithVMGuestState') {
    report.error(
      `${profile?.path ?? ''}.diskEncryptionSet`,
      'is only used when securityEncryptionType is DiskWithVMGuestState; set that type or ' +
        'remove the disk encryption set from the security profile.',
    );
  }
  const needsType = diskEncryptionSet !== undefined || securityEncryptionType !== undefined;
  if (storageAccountType === undefined) {
    if (needsType && managed.raw('storageAccountType') === undefined) {
      report.error(
        managed.pathOf('storageAccountType'),
        'is required when the managed disk sets encryption options; set it, e.g. Premium_LRS.',
      );
    }
    // Without a type Machine API leaves the choice to Azure, and so does Cluster API.
    return securityEncryptionType === undefined ? {} : { securityEncryptionType };
  }
  const disk: NonNullable<CapzOsDisk['managedDisk']> = { storageAccountType };
  if (diskEncryptionSet !== undefined) disk.diskEncryptionSet = diskEncryptionSet;
  if (securityEncryptionType !== undefined) {
    disk.securityProfile = { securityEncryptionType };
    if (profileEncryptionSet !== undefined)
      disk.securityProfile.diskEncryptionSet = profileEncryptionSet;
  }
  return securityEncryptionType === undefined ? { disk } : { disk, securityEncryptionType };
}

function readStorageAccountType(
  managed: ObjectReader,
  report: ConversionReport,
  { osDisk }: { osDisk: boolean },
): string | undefined {
  const type = managed.enumeration('storageAccountType', STORAGE_ACCOUNT_TYPES);
  if (osDisk && type === ULTRA_SSD) {
    report.error(
      managed.pathOf('storageAccountType'),
      'is UltraSSD_LRS, which Azure offers only for data disks; choose another type for the OS disk, e.g. Premium_LRS.',
    );
    return undefined;
  }
  return type;
}

/** An empty id means "no opinion" in Machine API, the same as no encryption set. */
function readDiskEncryptionSet(reader: ObjectReader): DiskEncryptionSet | undefined {
  const set = reader.object('diskEncryptionSet');
  const id = set?.string('id');
  set?.finish();
  return id === undefined ? undefined : { id };
}

export function convertDataDisks(
  spec: ObjectReader,
  report: ConversionReport,
): CapzDataDisk[] | undefined {
  const disks = spec.objects('dataDisks');
  if (disks === undefined || disks.length === 0) return undefined;
  const seenSuffixes = new Set<string>();
  const seenLuns = new Set<number>();
  const converted: CapzDataDisk[] = [];
  for (const disk of disks) {
    const nameSuffix = readNameSuffix(disk, seenSuffixes, report);
    const diskSizeGB = readDataDiskSize(disk, report);
    const lun = readLun(disk, seenLuns, report);
    const managed = disk.object('managedDisk');
    const storageAccountType =
      (managed && readStorageAccountType(managed, report, { osDisk: false })) ??
      DEFAULT_DATA_DISK_STORAGE;
    const diskEncryptionSet = managed && readDiskEncryptionSet(managed);
    managed?.finish();
    const cachingType = disk.enumeration('cachingType', CACHING_TYPES);
    checkDeletionPolicy(disk, report);
    disk.finish();

    if (storageAccountType === ULTRA_SSD && cachingType !== undefined && cachingType !== 'None') {
      report.error(
        disk.pathOf('cachingType'),
        `is ${cachingType}, but Ultra disks support no caching; set cachingType to None or remove it.`,
      );
    }
    if (nameSuffix === undefined || diskSizeGB === undefined || lun === undefined) continue;
    const managedDisk: CapzDataDisk['managedDisk'] = { storageAccountType };
    if (diskEncryptionSet !== undefined) managedDisk.diskEncryptionSet = diskEncryptionSet;
    converted.push({
      nameSuffix,
      diskSizeGB,
      managedDisk,
      lun,
      // Machine API's documented default; CAPZ's webhook would choose ReadWrite instead.
      cachingType: cachingType ?? 'None',
    });
  }
  return converted;
}

function readNameSuffix(
  disk: ObjectReader,
  seen: Set<string>,
  report: ConversionReport,
): string | undefined {
  const errorsBefore = report.errors.length;
  const suffix = disk.string('nameSuffix');
  const path = disk.pathOf('nameSuffix');
  if (suffix === undefined) {
    if (report.errors.length === errorsBefore) {
      report.error(path, 'is required; it names the disk <machine name>_<nameSuffix>.');
    }
    return undefined;
  }
  if (suffix.length > MAX_NAME_SUFFIX_LENGTH || !NAME_SUFFIX.test(suffix)) {
    report.error(
      path,
      `is ${quote(suffix)}; use at most ${MAX_NAME_SUFFIX_LENGTH} letters, digits, ` +
        'underscores, periods or hyphens, starting and ending with a letter or digit.',
    );
    return undefined;
  }
  if (seen.has(suffix)) {
    report.error(
      path,
      `is ${quote(suffix)}, which another data disk already uses; give every data disk its own nameSuffix.`,
    );
    return undefined;
  }
  seen.add(suffix);
  return suffix;
}

function readDataDiskSize(disk: ObjectReader, report: ConversionReport): number | undefined {
  const errorsBefore = report.errors.length;
  const size = disk.integer('diskSizeGB');
  if (size === undefined) {
    if (report.errors.length === errorsBefore) {
      report.error(
        disk.pathOf('diskSizeGB'),
        `is required; set the disk size in GB, between ${MIN_DATA_DISK_GB} and ${MAX_DATA_DISK_GB}.`,
      );
    }
    return undefined;
  }
  if (size < MIN_DATA_DISK_GB || size > MAX_DATA_DISK_GB) {
    report.error(
      disk.pathOf('diskSizeGB'),
      `is ${size}, but a data disk must have ${MIN_DATA_DISK_GB} to ${MAX_DATA_DISK_GB} GB; choose a size in that range.`,
    );
    return undefined;
  }
  return size;
}

/** A missing lun is 0, as Machine API reads it (the field is a plain integer there). */
function readLun(
  disk: ObjectReader,
  seen: Set<number>,
  report: ConversionReport,
): number | undefined {
  const errorsBefore = report.errors.length;
  const lun = disk.integer('lun') ?? 0;
  if (report.errors.length > errorsBefore) return undefined;
  const path = disk.pathOf('lun');
  if (lun < 0 || lun > MAX_LUN) {
    report.error(path, `is ${lun}, but a logical unit number must be between 0 and ${MAX_LUN}.`);
    return undefined;
  }
  if (seen.has(lun)) {
    report.error(
      path,
      `is ${lun}, which another data disk already uses; give every data disk its own lun.`,
    );
    return undefined;
  }
  seen.add(lun);
  return lun;
}

/** Cluster API deletes every data disk with its machine; only Delete has an equivalent. */
function checkDeletionPolicy(disk: ObjectReader, report: ConversionReport): void {
  const errorsBefore = report.errors.length;
  const policy = disk.enumeration('deletionPolicy', DELETION_POLICIES);
  const path = disk.pathOf('deletionPolicy');
  if (policy === 'Detach') {
    report.error(
      path,
      'is Detach, but Cluster API deletes the data disks of a machine together with it, so ' +
        'the data would be lost; set deletionPolicy to Delete, or keep this MachineSet on ' +
        'Machine API while its disks must survive.',
    );
  } else if (policy === undefined && report.errors.length === errorsBefore) {
    report.error(path, 'is required; set it to Delete, the only policy Cluster API supports.');
  }
}
