// CAPZ `osDisk` and `dataDisks[]` → MAPI `osDisk` and `dataDisks[]`. A default CAPZ applies to
// a field the template leaves out (its CRD's Linux and None for the OS disk, its webhook's data
// disk caching) is written out, so Machine API would build the same disks.
import type { JsonObject, ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';
import type { TemplateReport } from './template-report.js';

const OS_TYPES = ['Linux', 'Windows'] as const;
const CACHING_TYPES = ['None', 'ReadOnly', 'ReadWrite'] as const;
const ULTRA_SSD = 'UltraSSD_LRS';
/** The only deletion policy Cluster API has: a machine's data disks go with it. */
const DATA_DISK_DELETION_POLICY = 'Delete';

export interface ReversedOsDisk {
  osDisk?: JsonObject;
  /** A local (ephemeral) OS disk, which decides the Spot eviction policy. */
  ephemeral: boolean;
}

export function reverseOsDisk(spec: ObjectReader, report: TemplateReport): ReversedOsDisk {
  const disk = spec.object('osDisk');
  if (disk === undefined) {
    if (spec.raw('osDisk') === undefined) {
      report.error(
        spec.pathOf('osDisk'),
        'is not set, but Machine API needs the OS disk; set osType, diskSizeGB and managedDisk.storageAccountType.',
      );
    }
    return { ephemeral: false };
  }
  // CAPZ's CRD defaults.
  const osType = disk.enumeration('osType', OS_TYPES) ?? 'Linux';
  const cachingType = disk.enumeration('cachingType', CACHING_TYPES) ?? 'None';
  const diskSizeGB = requiredInteger(disk, 'diskSizeGB', 'set the OS disk size in GB, e.g. 128');
  const managedDisk = reverseOsManagedDisk(disk, report);
  const ephemeral = reverseDiffDiskSettings(disk, report);
  disk.finishToMachineApi({ orKeepOnClusterApi: true });
  const osDisk: JsonObject = { osType, diskSizeGB, cachingType };
  if (managedDisk !== undefined) osDisk.managedDisk = managedDisk;
  if (ephemeral) osDisk.diskSettings = { ephemeralStorageLocation: 'Local' };
  return { osDisk, ephemeral };
}

function reverseOsManagedDisk(disk: ObjectReader, report: TemplateReport): JsonObject | undefined {
  const managed = disk.object('managedDisk');
  if (managed === undefined) return undefined;
  const storageAccountType = managed.string('storageAccountType');
  const diskEncryptionSet = readDiskEncryptionSet(managed);
  const profile = managed.object('securityProfile');
  const securityEncryptionType = profile?.string('securityEncryptionType');
  const profileEncryptionSet = profile && readDiskEncryptionSet(profile);
  profile?.finishToMachineApi({ orKeepOnClusterApi: true });
  managed.finishToMachineApi({ orKeepOnClusterApi: true });

  const encrypted =
    diskEncryptionSet !== undefined ||
    securityEncryptionType !== undefined ||
    profileEncryptionSet !== undefined;
  if (storageAccountType === undefined) {
    if (encrypted && managed.raw('storageAccountType') === undefined) {
      report.error(
        managed.pathOf('storageAccountType'),
        'is not set, but Machine API only applies encryption options to a managed disk with a storage type; set it, e.g. Premium_LRS.',
      );
    }
    // Without a type both leave the choice to Azure.
    return undefined;
  }
  const converted: JsonObject = { storageAccountType };
  if (diskEncryptionSet !== undefined) converted.diskEncryptionSet = diskEncryptionSet;
  if (securityEncryptionType !== undefined || profileEncryptionSet !== undefined) {
    const securityProfile: JsonObject = {};
    if (securityEncryptionType !== undefined)
      securityProfile.securityEncryptionType = securityEncryptionType;
    if (profileEncryptionSet !== undefined)
      securityProfile.diskEncryptionSet = profileEncryptionSet;
    converted.securityProfile = securityProfile;
  }
  return converted;
}

/** True for a local (ephemeral) OS disk. */
function reverseDiffDiskSettings(disk: ObjectReader, report: TemplateReport): boolean {
  const settings = disk.object('diffDiskSettings');
  if (settings === undefined) return false;
  const option = settings.enumeration('option', ['Local'] as const);
  const placement = settings.string('placement');
  settings.finishToMachineApi({ orKeepOnClusterApi: true });
  if (placement !== undefined) {
    report.error(
      settings.pathOf('placement'),
      `is ${quote(placement)}, but Machine API cannot choose where Azure places an ephemeral ` +
        `OS disk (Azure picks by VM size); remove placement, or keep the MachineSet on Cluster API.`,
    );
  }
  return option === 'Local';
}

export function reverseDataDisks(
  spec: ObjectReader,
  report: TemplateReport,
): JsonObject[] | undefined {
  const disks = spec.objects('dataDisks');
  if (disks === undefined || disks.length === 0) return undefined;
  return disks.map((disk) => {
    const nameSuffix = disk.string('nameSuffix');
    if (nameSuffix === undefined && disk.raw('nameSuffix') === undefined) {
      report.error(disk.pathOf('nameSuffix'), 'is not set; name the disk, e.g. data.');
    }
    const diskSizeGB = requiredInteger(disk, 'diskSizeGB', 'set the disk size in GB');
    const lun = requiredInteger(
      disk,
      'lun',
      'Machine API needs the logical unit number of every data disk; set it, e.g. 0',
    );
    const managedDisk = reverseDataManagedDisk(disk, report);
    const storageAccountType = managedDisk?.storageAccountType;
    // CAPZ's webhook: no caching for Ultra disks, ReadWrite otherwise.
    const cachingType =
      disk.enumeration('cachingType', CACHING_TYPES) ??
      (storageAccountType === ULTRA_SSD ? 'None' : 'ReadWrite');
    disk.finishToMachineApi({ orKeepOnClusterApi: true });
    return {
      nameSuffix,
      diskSizeGB,
      managedDisk,
      lun,
      cachingType,
      deletionPolicy: DATA_DISK_DELETION_POLICY,
    };
  });
}

function reverseDataManagedDisk(
  disk: ObjectReader,
  report: TemplateReport,
): { storageAccountType: string; diskEncryptionSet?: JsonObject } | undefined {
  const managed = disk.object('managedDisk');
  const storageAccountType = managed?.string('storageAccountType');
  const diskEncryptionSet = managed && readDiskEncryptionSet(managed);
  const profile = managed?.object('securityProfile');
  if (profile !== undefined && Object.keys(profile.takeAll()).length > 0) {
    report.noEquivalent(
      profile.path,
      'sets a security profile on a data disk (confidential disk encryption)',
    );
  }
  managed?.finishToMachineApi({ orKeepOnClusterApi: true });
  if (storageAccountType === undefined) {
    if (managed?.raw('storageAccountType') === undefined) {
      report.error(
        `${managed?.path ?? disk.pathOf('managedDisk')}.storageAccountType`,
        'is not set, so Azure chooses the storage type, but Machine API gives such a data disk ' +
          'Premium_LRS; set the storage type, e.g. Premium_LRS.',
      );
    }
    return undefined;
  }
  return diskEncryptionSet === undefined
    ? { storageAccountType }
    : { storageAccountType, diskEncryptionSet };
}

/** An empty id means "no encryption set", on both sides. */
function readDiskEncryptionSet(reader: ObjectReader): JsonObject | undefined {
  const set = reader.object('diskEncryptionSet');
  const id = set?.string('id');
  set?.finishToMachineApi({ orKeepOnClusterApi: true });
  return id === undefined ? undefined : { id };
}

/** An integer Machine API needs; absent, it is reported as `is not set; <fix>.` */
function requiredInteger(reader: ObjectReader, key: string, fix: string): number | undefined {
  if (reader.raw(key) === undefined) {
    reader.report.error(reader.pathOf(key), `is not set; ${fix}.`);
    return undefined;
  }
  return reader.integer(key);
}
