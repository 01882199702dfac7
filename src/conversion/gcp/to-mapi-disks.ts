// CAPG's boot disk fields (`image` or `imageFamily`, `rootDeviceSize`, `rootDeviceType`,
// `rootDiskEncryptionKey`) and `additionalDisks[]` → MAPI `disks[]`, the boot disk first. What
// CAPG does without being told is written out, so the Machine API machines get the same disks:
// every disk is deleted with its machine, the boot disk carries the instance labels, a disk
// without a type is pd-standard, an additional disk without a size has 30 GB, and an additional
// disk that names a key is encrypted with the boot disk's key.
import { isDeepStrictEqual } from 'node:util';
import type { ConversionReport, ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';
import { KEEP_ON_CLUSTER_API } from './template-errors.js';

interface MapiEncryptionKey {
  kmsKey: { name: string; keyRing: string; projectID: string; location: string };
  kmsKeyServiceAccount?: string;
}

export interface MapiDisk {
  autoDelete: true;
  boot: boolean;
  sizeGb?: number;
  type: string;
  image?: string;
  labels?: Record<string, string>;
  encryptionKey?: MapiEncryptionKey;
}

/** The disk types Machine API's admission webhook accepts. */
const MAPI_DISK_TYPES = ['pd-standard', 'pd-ssd', 'pd-balanced', 'hyperdisk-balanced'];
const CAPG_DEFAULT_DISK_TYPE = 'pd-standard';
const CAPG_DEFAULT_ADDITIONAL_DISK_SIZE_GB = 30;
/** Machine API's admission webhook: a disk size, when set, is 16 to 65536 GB. */
const MIN_DISK_SIZE_GB = 16;
const MAX_DISK_SIZE_GB = 65536;
const KMS_SEGMENT = '([-_[A-Za-z0-9]+)';
const KMS_KEY_NAME = new RegExp(
  `^projects/${KMS_SEGMENT}/locations/${KMS_SEGMENT}/keyRings/${KMS_SEGMENT}/cryptoKeys/${KMS_SEGMENT}$`,
);

interface BootDisk {
  disk: MapiDisk;
  /** False when the template's root disk key could not be converted (an error was recorded). */
  keyValid: boolean;
}

export function disksToMapi(
  spec: ObjectReader,
  instanceLabels: Record<string, string> | undefined,
  report: ConversionReport,
): MapiDisk[] {
  const boot = bootDiskToMapi(spec, instanceLabels, report);
  const additional = (spec.objects('additionalDisks') ?? []).flatMap(
    (reader) => additionalDiskToMapi(reader, spec, boot, report) ?? [],
  );
  return [boot.disk, ...additional];
}

function bootDiskToMapi(
  spec: ObjectReader,
  instanceLabels: Record<string, string> | undefined,
  report: ConversionReport,
): BootDisk {
  const disk: MapiDisk = { autoDelete: true, boot: true, type: diskType(spec, 'rootDeviceType') };
  const image = imageToMapi(spec);
  if (image !== undefined) disk.image = image;
  // 0 and absent both mean "as large as the image", in CAPG and in MAPI.
  const size = diskSize(spec, 'rootDeviceSize');
  if (size !== undefined && size !== 0) disk.sizeGb = size;
  // CAPG labels the boot disk with the instance labels; MAPI only with the disk's own.
  if (instanceLabels !== undefined)
    disk.labels = Object.fromEntries(Object.entries(instanceLabels));
  const errorsBefore = report.errors.length;
  const keyReader = spec.object('rootDiskEncryptionKey');
  const key = keyReader && encryptionKeyToMapi(keyReader);
  if (key !== undefined) disk.encryptionKey = key;
  return { disk, keyValid: report.errors.length === errorsBefore };
}

/** CAPG prefers `image` to `imageFamily`; MAPI's image takes a family path as well. */
function imageToMapi(spec: ObjectReader): string | undefined {
  const image = spec.string('image');
  const family = spec.string('imageFamily');
  if (image !== undefined) {
    if (family !== undefined) {
      spec.report.warn(
        `${spec.pathOf('imageFamily')} is not converted: Cluster API starts the machines from ` +
          `${spec.pathOf('image')}, which takes precedence over it.`,
      );
    }
    return image;
  }
  if (family !== undefined) return family;
  spec.report.error(
    spec.pathOf('image'),
    'is required, because without image or imageFamily Cluster API starts the machines from its ' +
      'own default image family, which Machine API cannot name; set the image the machines start ' +
      'from, e.g. projects/rhcos-cloud/global/images/<rhcos image>.',
  );
  return undefined;
}

function diskType(reader: ObjectReader, key: string): string {
  const type = reader.string(key) ?? CAPG_DEFAULT_DISK_TYPE;
  if (MAPI_DISK_TYPES.includes(type)) return type;
  reader.report.error(
    reader.pathOf(key),
    type === 'local-ssd'
      ? 'is local-ssd, which Cluster API attaches as a 375 GB scratch disk that loses its data ' +
          'when the machine stops, and Machine API cannot create such a disk; use a persistent ' +
          `disk type ${KEEP_ON_CLUSTER_API}.`
      : `is ${quote(type)}, which Machine API does not accept as a disk type; use one of ` +
          `${MAPI_DISK_TYPES.join(', ')} ${KEEP_ON_CLUSTER_API}.`,
  );
  return type;
}

/** A disk size in GB; 0 is only returned for the boot disk (the image's size). */
function diskSize(reader: ObjectReader, key: string): number | undefined {
  const size = reader.integer(key);
  if (size === undefined || (size === 0 && key === 'rootDeviceSize')) return size;
  if (size >= MIN_DISK_SIZE_GB && size <= MAX_DISK_SIZE_GB) return size;
  reader.report.error(
    reader.pathOf(key),
    `is ${size}, but Machine API accepts disk sizes from ${MIN_DISK_SIZE_GB} to ` +
      `${MAX_DISK_SIZE_GB} GB; set a size in that range ${KEEP_ON_CLUSTER_API}.`,
  );
  return undefined;
}

function additionalDiskToMapi(
  reader: ObjectReader,
  spec: ObjectReader,
  boot: BootDisk,
  report: ConversionReport,
): MapiDisk | undefined {
  const errorsBefore = report.errors.length;
  const type = diskType(reader, 'deviceType');
  const size = diskSize(reader, 'size') ?? CAPG_DEFAULT_ADDITIONAL_DISK_SIZE_GB;
  const keyReader = reader.object('encryptionKey');
  const key = keyReader && encryptionKeyToMapi(keyReader);
  reader.finishToMachineApi();
  if (report.errors.length > errorsBefore) return undefined;
  const disk: MapiDisk = { autoDelete: true, boot: false, type, sizeGb: size };
  if (key === undefined) return disk;
  const bootKey = boot.disk.encryptionKey;
  if (bootKey === undefined) {
    if (!boot.keyValid) return undefined;
    report.error(
      reader.pathOf('encryptionKey'),
      `is set, but ${spec.pathOf('rootDiskEncryptionKey')} is not, and Cluster API encrypts an ` +
        "additional disk only with the boot disk's key, so it cannot create this disk; set " +
        'rootDiskEncryptionKey or remove this key.',
    );
    return undefined;
  }
  if (!isDeepStrictEqual(key, bootKey)) {
    report.warn(
      `${reader.pathOf('encryptionKey')} differs from ${spec.pathOf('rootDiskEncryptionKey')}, ` +
        "but Cluster API encrypts every additional disk that has a key with the boot disk's " +
        "key, so the Machine API disk gets the boot disk's key.",
    );
  }
  disk.encryptionKey = structuredClone(bootKey);
  return disk;
}

/** CAPG's customer-managed key → a MAPI KMS key reference, every part of its name written out. */
function encryptionKeyToMapi(reader: ObjectReader): MapiEncryptionKey | undefined {
  const { report } = reader;
  const errorsBefore = report.errors.length;
  const keyType = reader.enumeration('keyType', ['Managed', 'Supplied']);
  const managedKey = reader.object('managedKey');
  const kmsKeyName = managedKey?.string('kmsKeyName');
  managedKey?.finishToMachineApi();
  const serviceAccount = reader.string('kmsKeyServiceAccount');
  if (reader.raw('suppliedKey') !== undefined) {
    report.error(
      reader.pathOf('suppliedKey'),
      'is a customer-supplied key, which has no Machine API equivalent (Machine API encrypts ' +
        `disks only with Cloud KMS keys); use a Managed key ${KEEP_ON_CLUSTER_API}.`,
    );
  }
  reader.finishToMachineApi();
  if (keyType === 'Supplied') {
    report.error(
      reader.pathOf('keyType'),
      `is Supplied, but Machine API encrypts disks only with Cloud KMS keys; use a Managed key ${KEEP_ON_CLUSTER_API}.`,
    );
  } else if (keyType === undefined && report.errors.length === errorsBefore) {
    report.error(
      reader.pathOf('keyType'),
      'is required; set it to Managed and name the Cloud KMS key in managedKey.kmsKeyName.',
    );
  }
  if (keyType !== 'Managed') return undefined;
  const namePath = `${reader.pathOf('managedKey')}.kmsKeyName`;
  if (kmsKeyName === undefined) {
    if (report.errors.length === errorsBefore) {
      report.error(
        namePath,
        'is required when keyType is Managed; set the full name of the Cloud KMS key, e.g. ' +
          'projects/<project>/locations/<location>/keyRings/<key ring>/cryptoKeys/<key>.',
      );
    }
    return undefined;
  }
  const parts = KMS_KEY_NAME.exec(kmsKeyName);
  if (parts === null) {
    report.error(
      namePath,
      `is ${quote(kmsKeyName)}, which is not a Cloud KMS key name of the form ` +
        'projects/<project>/locations/<location>/keyRings/<key ring>/cryptoKeys/<key>; correct it.',
    );
    return undefined;
  }
  if (report.errors.length > errorsBefore) return undefined;
  const [, projectID = '', location = '', keyRing = '', name = ''] = parts;
  const key: MapiEncryptionKey = { kmsKey: { name, keyRing, projectID, location } };
  if (serviceAccount !== undefined) key.kmsKeyServiceAccount = serviceAccount;
  return key;
}
