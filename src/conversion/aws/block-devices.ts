// MAPI `blockDevices[]` → CAPA `rootVolume` (the one entry without a deviceName) and
// `nonRootVolumes`. Only EBS volumes exist in CAPA, and CAPA always deletes them with the
// instance, so anything else is an error rather than a silent change.
import type { ConversionReport, ObjectReader } from '../common/field-reader.js';
import { readResourceReference } from './resource-reference.js';
import { nameList } from '../common/quote.js';

interface CapaVolume {
  deviceName?: string;
  size: number;
  type?: string;
  iops?: number;
  throughput?: number;
  encrypted?: boolean;
  encryptionKey?: string;
}

export interface ConvertedVolumes {
  rootVolume?: CapaVolume;
  nonRootVolumes?: CapaVolume[];
}

export const VOLUME_TYPES = ['standard', 'io1', 'io2', 'gp2', 'gp3', 'sc1', 'st1'] as const;
const PROVISIONED_IOPS_TYPES: readonly string[] = ['io1', 'io2'];
// CAPA's CRD minimum for `size`.
const MIN_VOLUME_SIZE_GIB = 8;

export function convertBlockDevices(
  devices: ObjectReader[] | undefined,
  listPath: string,
  report: ConversionReport,
): ConvertedVolumes {
  const result: ConvertedVolumes = {};
  const rootPaths: string[] = [];
  for (const device of devices ?? []) {
    const deviceName = device.string('deviceName');
    const isRoot = deviceName === undefined;
    if (isRoot) rootPaths.push(device.path);
    const rejected = [
      rejectPresent(
        device,
        'noDevice',
        'suppresses a device of the AMI, which Cluster API cannot express; remove it.',
      ),
      rejectPresent(
        device,
        'virtualName',
        'maps an instance store volume, which Cluster API cannot express; remove the entry or use an EBS volume.',
      ),
    ].some(Boolean);
    const hasEbs = device.raw('ebs') !== undefined;
    const ebs = device.object('ebs');
    device.finish();
    if (!hasEbs && !rejected) {
      report.warn(
        `${device.path} has no ebs settings; Machine API ignores such an entry, so it is not converted.`,
      );
    }
    if (ebs === undefined) continue;
    const volume = convertEbs(ebs, isRoot, report);
    if (volume === undefined || volume === 'nothing') continue;
    if (isRoot) result.rootVolume = volume;
    else (result.nonRootVolumes ??= []).push({ deviceName, ...volume });
  }
  if (rootPaths.length > 1) {
    report.error(
      listPath,
      `has ${rootPaths.length} entries without a deviceName (${nameList(rootPaths)}), but only one ` +
        'root volume is allowed; give every other entry a deviceName.',
    );
  }
  return result;
}

/** Records an error when the field is present; true if it was. */
function rejectPresent(device: ObjectReader, key: string, message: string): boolean {
  if (device.raw(key) === undefined) return false;
  device.report.error(device.pathOf(key), message);
  return true;
}

/** What one `ebs` block sets; a field of the wrong type is reported and reads as undefined. */
interface EbsFields {
  deleteOnTermination?: boolean;
  encrypted?: boolean;
  encryptionKey?: string;
  iops?: number;
  throughput?: number;
  size?: number;
  type?: string;
}

/**
 * The CAPA volume for one `ebs` block, undefined when it cannot be converted (errors are
 * recorded), or 'nothing' for a root entry that sets nothing (the AMI's defaults apply either way).
 */
function convertEbs(
  ebs: ObjectReader,
  isRoot: boolean,
  report: ConversionReport,
): Omit<CapaVolume, 'deviceName'> | undefined | 'nothing' {
  const errorsBefore = report.errors.length;
  const fields = readEbs(ebs, report);
  checkDeleteOnTermination(ebs, fields.deleteOnTermination, isRoot, report);
  checkEncryption(ebs, fields, report);
  checkIopsAndThroughput(ebs, fields, report);
  const { size } = fields;
  if (size === undefined && isRoot && !setsSomething(fields)) return 'nothing';
  checkSize(ebs, size, isRoot, report);
  if (report.errors.length > errorsBefore || size === undefined) return undefined;
  return capaVolume({ ...fields, size });
}

function readEbs(ebs: ObjectReader, report: ConversionReport): EbsFields {
  const fields: EbsFields = {
    deleteOnTermination: ebs.boolean('deleteOnTermination'),
    encrypted: ebs.boolean('encrypted'),
  };
  const kmsKey = ebs.object('kmsKey');
  fields.encryptionKey = kmsKey && convertKmsKey(kmsKey, report);
  fields.iops = ebs.integer('iops');
  fields.throughput = ebs.integer('throughputMib');
  fields.size = ebs.integer('volumeSize');
  fields.type = ebs.enumeration('volumeType', VOLUME_TYPES);
  ebs.finish();
  return fields;
}

/** CAPA deletes every volume with the instance: keeping one is not expressible. */
function checkDeleteOnTermination(
  ebs: ObjectReader,
  deleteOnTermination: boolean | undefined,
  isRoot: boolean,
  report: ConversionReport,
): void {
  if (deleteOnTermination !== false) return;
  if (isRoot) {
    report.warn(
      `${ebs.pathOf('deleteOnTermination')} is false, which has no effect in Machine API either: ` +
        'the root volume is deleted with the instance in Cluster API too.',
    );
  } else {
    report.error(
      ebs.pathOf('deleteOnTermination'),
      'is false, but Cluster API always deletes non-root volumes with the instance; ' +
        'remove the field or set it to true, and keep data that must outlive the machine elsewhere.',
    );
  }
}

/** CAPA encrypts every volume that has a key, so a key with `encrypted: false` cannot be kept. */
function checkEncryption(ebs: ObjectReader, fields: EbsFields, report: ConversionReport): void {
  if (fields.encryptionKey !== undefined && fields.encrypted === false) {
    report.error(
      ebs.pathOf('encrypted'),
      'is false while kmsKey is set; Cluster API encrypts every volume that has a key: set encrypted to true or remove kmsKey.',
    );
  }
}

/** IOPS and throughput: only where the volume type provisions them, never negative. */
function checkIopsAndThroughput(
  ebs: ObjectReader,
  { iops, throughput, type }: EbsFields,
  report: ConversionReport,
): void {
  if (iops !== undefined && iops < 0) {
    report.error(
      ebs.pathOf('iops'),
      'must not be negative; remove it or set the IOPS to provision.',
    );
  }
  if (type !== undefined && PROVISIONED_IOPS_TYPES.includes(type) && !iops) {
    report.error(
      ebs.pathOf('iops'),
      `is required for ${type} volumes; set the number of IOPS to provision.`,
    );
  }
  if (throughput !== undefined && type !== 'gp3') {
    report.error(
      ebs.pathOf('throughputMib'),
      'is only valid for gp3 volumes; set volumeType to gp3 or remove throughputMib.',
    );
  }
  if (throughput !== undefined && throughput < 0) {
    report.error(ebs.pathOf('throughputMib'), 'must not be negative.');
  }
}

/** Whether the block sets anything a volume without a size would lose. */
function setsSomething({ encrypted, encryptionKey, iops, throughput, type }: EbsFields): boolean {
  return (
    encrypted !== undefined ||
    encryptionKey !== undefined ||
    Boolean(iops) ||
    throughput !== undefined ||
    type !== undefined
  );
}

/** CAPA requires a size, of at least its CRD minimum. */
function checkSize(
  ebs: ObjectReader,
  size: number | undefined,
  isRoot: boolean,
  report: ConversionReport,
): void {
  if (size === undefined) {
    report.error(
      ebs.pathOf('volumeSize'),
      `is required by Cluster API; set the size in GiB (at least ${MIN_VOLUME_SIZE_GIB}` +
        (isRoot ? ", and at least the AMI's root snapshot size)." : ').'),
    );
  } else if (size < MIN_VOLUME_SIZE_GIB) {
    report.error(
      ebs.pathOf('volumeSize'),
      `is ${size} GiB, but Cluster API requires at least ${MIN_VOLUME_SIZE_GIB} GiB; make the volume larger.`,
    );
  }
}

/** The CAPA volume of a block that converts, with only the fields it sets. */
function capaVolume(fields: EbsFields & { size: number }): Omit<CapaVolume, 'deviceName'> {
  const { size, type, iops, throughput, encrypted, encryptionKey } = fields;
  const volume: Omit<CapaVolume, 'deviceName'> = { size };
  if (type !== undefined) volume.type = type;
  // MAPI writes `iops: 0` for "not set"; CAPA reads 0 the same way, so it is left out.
  if (iops) volume.iops = iops;
  if (throughput !== undefined) volume.throughput = throughput;
  if (encrypted !== undefined) volume.encrypted = encrypted;
  if (encryptionKey !== undefined) volume.encryptionKey = encryptionKey;
  return volume;
}

/** CAPA takes a KMS key ID or ARN as a plain string. */
function convertKmsKey(kmsKey: ObjectReader, report: ConversionReport): string | undefined {
  const reference = readResourceReference(kmsKey);
  if (reference.filters !== undefined) {
    report.error(
      `${reference.path}.filters`,
      'cannot be used, because Cluster API cannot select a KMS key by filters; reference the key by id or arn instead.',
    );
    return undefined;
  }
  if (reference.id !== undefined && reference.arn !== undefined) {
    report.error(reference.path, 'sets both id and arn; keep only one of them.');
    return undefined;
  }
  return reference.id ?? reference.arn;
}
