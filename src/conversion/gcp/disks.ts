// MAPI `disks[]` → CAPG's boot disk fields (`image`, `rootDeviceSize`, `rootDeviceType`,
// `rootDiskEncryptionKey`) and `additionalDisks[]`. CAPG creates the boot disk from an image
// and every other disk blank, deletes them all with the machine, labels only the boot disk
// (with the instance labels) and encrypts an additional disk that names a key with the boot
// disk's key. Whatever MAPI says that CAPG would do differently is an error here.
import { isDeepStrictEqual } from 'node:util';
import type { ConversionReport, ObjectReader } from '../common/field-reader.js';
import { readStringMap } from './tags.js';
import { quote, quoteList, shorten } from '../common/quote.js';

interface CapgEncryptionKey {
  keyType: 'Managed';
  managedKey: { kmsKeyName: string };
  kmsKeyServiceAccount?: string;
}

interface CapgAdditionalDisk {
  deviceType: string;
  size: number;
  encryptionKey?: CapgEncryptionKey;
}

export interface ConvertedDisks {
  image?: string;
  rootDeviceSize?: number;
  rootDeviceType?: string;
  rootDiskEncryptionKey?: CapgEncryptionKey;
  additionalDisks?: CapgAdditionalDisk[];
}

export interface DiskContext {
  /** The project the machines run in: relative image names and KMS keys default to it. */
  project?: string;
  /** The instance labels (MAPI `labels`), which CAPG also puts on the boot disk. */
  instanceLabels?: Record<string, string>;
  /** The path of the instance labels, for messages. */
  instanceLabelsPath: string;
}

interface MapiDisk {
  reader: ObjectReader;
  boot: boolean;
  sizeGb?: number;
  type?: string;
  image?: string;
  labels?: Record<string, string>;
  encryptionKey?: CapgEncryptionKey;
  /** True when sizeGb is set but unusable (an error was recorded). */
  sizeGbInvalid: boolean;
  /** False when the encryption key could not be converted (an error was recorded). */
  encryptionKeyValid: boolean;
}

/** The disk type MAPI's admission webhook writes when a disk names none. */
const DEFAULT_DISK_TYPE = 'pd-standard';
const LOCAL_SSD = 'local-ssd';
// A disk type is a name such as pd-balanced; MAPI builds zones/<zone>/diskTypes/<type> from it.
const DISK_TYPE = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
// Every segment of a KMS key name the CRD accepts.
const KMS_SEGMENT = /^[-_[A-Za-z0-9]+$/;
const MAX_KMS_KEY_NAME_LENGTH = 160;
// The CRD's (unanchored) pattern and length limit for kmsKeyServiceAccount.
const KMS_SERVICE_ACCOUNT = /[-_[A-Za-z0-9]+@[-_[A-Za-z0-9]+.iam.gserviceaccount.com/;
const MAX_KMS_SERVICE_ACCOUNT_LENGTH = 85;

export function convertDisks(
  spec: ObjectReader,
  context: DiskContext,
  report: ConversionReport,
): ConvertedDisks {
  const listPath = spec.pathOf('disks');
  const errorsBefore = report.errors.length;
  const readers = spec.objects('disks');
  if (readers === undefined || readers.length === 0) {
    if (report.errors.length === errorsBefore) {
      report.error(
        listPath,
        'is required; list the boot disk (boot: true) with the image the machines start from.',
      );
    }
    return {};
  }
  const disks = readers.map((reader) => readDisk(reader, context.project, report));
  const bootDisks = disks.filter((disk) => disk.boot);
  if (bootDisks.length !== 1) {
    report.error(
      listPath,
      bootDisks.length === 0
        ? 'has no boot disk, but Cluster API needs one to start the machine from; set boot: true ' +
            'on the disk that holds the image.'
        : `has ${bootDisks.length} boot disks, but a machine starts from exactly one; set boot: ` +
            'true on one disk only.',
    );
  }
  const boot = bootDisks[0];
  const converted = boot ? convertBootDisk(boot, context, report) : {};
  const additionalDisks = disks
    .filter((disk) => !disk.boot)
    .flatMap((disk) => convertAdditionalDisk(disk, boot, report) ?? []);
  if (additionalDisks.length > 0) converted.additionalDisks = additionalDisks;
  return converted;
}

function readDisk(
  reader: ObjectReader,
  project: string | undefined,
  report: ConversionReport,
): MapiDisk {
  const autoDelete = reader.boolean('autoDelete');
  const boot = reader.boolean('boot') ?? false;
  const sizeErrorsBefore = report.errors.length;
  const sizeGb = reader.integer('sizeGb');
  const sizeGbInvalid = report.errors.length > sizeErrorsBefore || (sizeGb ?? 0) < 0;
  const type = reader.string('type');
  const image = reader.string('image');
  const labels = readStringMap(reader, 'labels');
  const keyReader = reader.object('encryptionKey');
  const errorsBefore = report.errors.length;
  const encryptionKey = keyReader && convertEncryptionKey(keyReader, project, report);
  const encryptionKeyValid = report.errors.length === errorsBefore;
  reader.finish();

  if (autoDelete !== true) {
    report.error(
      reader.pathOf('autoDelete'),
      `${autoDelete === undefined ? 'is not set, which means false' : 'is false'}, but Cluster API ` +
        'always deletes the disks of a machine together with it; set autoDelete to true.',
    );
  }
  if (sizeGb !== undefined && sizeGb < 0) {
    report.error(
      reader.pathOf('sizeGb'),
      `is ${sizeGb}, but a disk size must not be negative; set the size in GB.`,
    );
  }
  if (type === LOCAL_SSD) {
    report.error(
      reader.pathOf('type'),
      'is local-ssd, which Cluster API turns into a 375 GB scratch disk whose data is lost when ' +
        'the machine stops, unlike the disk Machine API asks for; use a persistent disk type such ' +
        'as pd-balanced.',
    );
  } else if (type !== undefined && !DISK_TYPE.test(type)) {
    report.error(
      reader.pathOf('type'),
      `is ${quote(type)}, which is not a Compute Engine disk type name; use one such as pd-ssd or pd-balanced.`,
    );
  }
  const disk: MapiDisk = { reader, boot, sizeGbInvalid, encryptionKeyValid };
  if (sizeGb !== undefined && sizeGb > 0) disk.sizeGb = sizeGb;
  if (type !== undefined && type !== LOCAL_SSD && DISK_TYPE.test(type)) disk.type = type;
  if (image !== undefined) disk.image = image;
  if (labels !== undefined) disk.labels = labels;
  if (encryptionKey !== undefined) disk.encryptionKey = encryptionKey;
  return disk;
}

function convertBootDisk(
  disk: MapiDisk,
  context: DiskContext,
  report: ConversionReport,
): ConvertedDisks {
  const converted: ConvertedDisks = {};
  const image = resolveImage(disk, context.project, report);
  if (image !== undefined) converted.image = image;
  if (disk.sizeGb !== undefined) converted.rootDeviceSize = disk.sizeGb;
  converted.rootDeviceType = disk.type ?? DEFAULT_DISK_TYPE;
  if (disk.encryptionKey !== undefined) converted.rootDiskEncryptionKey = disk.encryptionKey;
  checkBootDiskLabels(disk, context, report);
  return converted;
}

/**
 * MAPI resolves an image name without a slash in the machines' project; CAPG hands the value
 * to Compute Engine as it is, so such a name is written out as a path in that project.
 */
function resolveImage(
  disk: MapiDisk,
  project: string | undefined,
  report: ConversionReport,
): string | undefined {
  const path = disk.reader.pathOf('image');
  if (disk.image === undefined) {
    report.error(
      path,
      'is required on the boot disk; set the image the machines start from, e.g. ' +
        'projects/rhcos-cloud/global/images/<rhcos image>.',
    );
    return undefined;
  }
  if (disk.image.includes('/')) return disk.image;
  if (project === undefined) {
    report.error(
      path,
      `is the image name ${quote(disk.image)} without a project, and neither projectID nor ` +
        "the Infrastructure's GCP projectID says which project holds it; write the image as " +
        `projects/<project>/global/images/${shorten(disk.image)}.`,
    );
    return undefined;
  }
  return `projects/${project}/global/images/${disk.image}`;
}

/**
 * CAPG labels the boot disk with the instance labels and nothing else: a boot disk label is
 * kept only when the instance has the same label, and instance labels the disk did not have
 * are added (a warning, since it only adds labels).
 */
function checkBootDiskLabels(disk: MapiDisk, context: DiskContext, report: ConversionReport): void {
  const instanceLabels = context.instanceLabels ?? {};
  const diskLabels = disk.labels ?? {};
  const lost = Object.entries(diskLabels)
    .filter(([key, value]) => instanceLabels[key] !== value)
    .map(([key]) => key);
  if (lost.length > 0) {
    report.error(
      disk.reader.pathOf('labels'),
      `sets ${quoteKeys(lost)}, but Cluster API labels the boot disk with the instance labels ` +
        `only; add the same labels to ${context.instanceLabelsPath} or remove them from the disk.`,
    );
  }
  const added = Object.entries(instanceLabels)
    .filter(([key, value]) => diskLabels[key] !== value)
    .map(([key]) => key);
  if (added.length > 0) {
    report.warn(
      `${context.instanceLabelsPath} (${quoteKeys(added)}) will also be set on the boot disk, ` +
        `because Cluster API labels the boot disk with the instance labels; Machine API labelled it ` +
        `only with ${disk.reader.pathOf('labels')}.`,
    );
  }
}

function convertAdditionalDisk(
  disk: MapiDisk,
  boot: MapiDisk | undefined,
  report: ConversionReport,
): CapgAdditionalDisk | undefined {
  const errorsBefore = report.errors.length;
  const { reader } = disk;
  if (disk.image !== undefined) {
    report.error(
      reader.pathOf('image'),
      'cannot be used on a disk that is not the boot disk, because Cluster API creates additional ' +
        'disks blank; remove the image.',
    );
  }
  if (disk.labels !== undefined) {
    report.error(
      reader.pathOf('labels'),
      'cannot be converted, because Cluster API labels only the boot disk; remove the labels from this disk.',
    );
  }
  if (disk.sizeGb === undefined && !disk.sizeGbInvalid) {
    report.error(
      reader.pathOf('sizeGb'),
      'is required on a disk that is not the boot disk (Cluster API would create it with 30 GB); set the size in GB.',
    );
  }
  if (disk.encryptionKey !== undefined) checkSharedEncryptionKey(disk, boot, report);
  if (report.errors.length > errorsBefore || disk.sizeGb === undefined) return undefined;
  const converted: CapgAdditionalDisk = {
    deviceType: disk.type ?? DEFAULT_DISK_TYPE,
    size: disk.sizeGb,
  };
  if (disk.encryptionKey !== undefined)
    converted.encryptionKey = structuredClone(disk.encryptionKey);
  return converted;
}

/** CAPG encrypts an additional disk that names a key with the boot disk's key, whatever it names. */
function checkSharedEncryptionKey(
  disk: MapiDisk,
  boot: MapiDisk | undefined,
  report: ConversionReport,
): void {
  if (boot === undefined || !boot.encryptionKeyValid) return;
  if (isDeepStrictEqual(disk.encryptionKey, boot.encryptionKey)) return;
  report.error(
    disk.reader.pathOf('encryptionKey'),
    boot.encryptionKey === undefined
      ? 'cannot be converted, because Cluster API encrypts additional disks only with the boot ' +
          "disk's key and the boot disk has none; give the boot disk the same encryptionKey or " +
          'remove this one.'
      : "differs from the boot disk's encryptionKey, but Cluster API encrypts every additional " +
          "disk that has a key with the boot disk's key; use the same key as the boot disk or " +
          'remove this one.',
  );
}

/** A MAPI KMS key reference → CAPG's customer-managed key with its full resource name. */
function convertEncryptionKey(
  reader: ObjectReader,
  project: string | undefined,
  report: ConversionReport,
): CapgEncryptionKey | undefined {
  const kmsKey = reader.object('kmsKey');
  const serviceAccount = reader.string('kmsKeyServiceAccount');
  reader.finish();
  if (kmsKey === undefined) {
    if (serviceAccount !== undefined) {
      report.warn(
        `${reader.pathOf('kmsKeyServiceAccount')} is not converted: without kmsKey the disk is not ` +
          'encrypted with a customer-managed key, so Machine API ignores it too.',
      );
    }
    return undefined;
  }
  const errorsBefore = report.errors.length;
  const segments: [field: string, what: string, value: string | undefined][] = [
    ['projectID', 'project', kmsKey.string('projectID') ?? project],
    ['location', 'location', kmsKey.string('location')],
    ['keyRing', 'key ring', kmsKey.string('keyRing')],
    ['name', 'key', kmsKey.string('name')],
  ];
  kmsKey.finish();
  for (const [field, what, value] of segments) {
    if (value === undefined) {
      report.error(
        kmsKey.pathOf(field),
        field === 'projectID'
          ? 'is required here, because neither projectID nor the Infrastructure names the GCP ' +
              "project to default it to; set the key's project."
          : `is required; set the name of the KMS ${what}.`,
      );
    } else if (!KMS_SEGMENT.test(value)) {
      report.error(
        kmsKey.pathOf(field),
        `is ${quote(value)}, but Cluster API only accepts KMS ${what} names of letters, ` +
          'digits, - and _; use a key whose names fit.',
      );
    }
  }
  if (serviceAccount !== undefined && !isValidKmsServiceAccount(serviceAccount)) {
    report.error(
      reader.pathOf('kmsKeyServiceAccount'),
      `is ${quote(serviceAccount)}, but Cluster API only accepts a service account email ` +
        `of the form name@project.iam.gserviceaccount.com of at most ${MAX_KMS_SERVICE_ACCOUNT_LENGTH} characters; correct it.`,
    );
  }
  if (report.errors.length > errorsBefore) return undefined;
  const [projectID, location, keyRing, name] = segments.map(([, , value]) => value);
  const kmsKeyName = `projects/${projectID}/locations/${location}/keyRings/${keyRing}/cryptoKeys/${name}`;
  if (kmsKeyName.length > MAX_KMS_KEY_NAME_LENGTH) {
    report.error(
      kmsKey.path,
      `names the key ${quote(kmsKeyName)}, which is longer than the ${MAX_KMS_KEY_NAME_LENGTH} characters ` +
        'Cluster API accepts; use a key with shorter names.',
    );
    return undefined;
  }
  const converted: CapgEncryptionKey = { keyType: 'Managed', managedKey: { kmsKeyName } };
  if (serviceAccount !== undefined) converted.kmsKeyServiceAccount = serviceAccount;
  return converted;
}

function isValidKmsServiceAccount(email: string): boolean {
  return email.length <= MAX_KMS_SERVICE_ACCOUNT_LENGTH && KMS_SERVICE_ACCOUNT.test(email);
}

function quoteKeys(keys: string[]): string {
  return quoteList(keys);
}
