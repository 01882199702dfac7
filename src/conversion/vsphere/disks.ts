// Both ways: the data disks added to a VM beside its template's disk. Both sides add them on the
// controller of the template's disk, with the same provisioning modes and the same fields; the
// limits are Machine API's webhook's, and names are unique as CAPV's CRD (a list map keyed by
// name) requires.
import type { JsonObject, ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';
import {
  MAX_DATA_DISK_GIB,
  MAX_DATA_DISK_NAME,
  MAX_DATA_DISKS,
  PROVISIONING_MODES,
} from './names.js';

const DISK_NAME = /^[a-zA-Z0-9]([-_a-zA-Z0-9]*[a-zA-Z0-9])?$/;

/**
 * The data disks, the same on both sides; `finish` reports a disk's unread fields in the words of
 * the direction.
 */
export function convertDataDisks(
  spec: ObjectReader,
  finish: (disk: ObjectReader) => void = (disk) => disk.finish(),
): JsonObject[] | undefined {
  const disks = spec.objects('dataDisks');
  if (disks === undefined || disks.length === 0) return undefined;
  if (disks.length > MAX_DATA_DISKS) {
    spec.report.error(
      spec.pathOf('dataDisks'),
      `has ${disks.length} disks, more than the ${MAX_DATA_DISKS} a VM can have beside its own; remove some.`,
    );
  }
  const seen = new Set<string>();
  return disks.map((disk) => convertDataDisk(disk, seen, finish));
}

function convertDataDisk(
  disk: ObjectReader,
  seen: Set<string>,
  finish: (disk: ObjectReader) => void,
): JsonObject {
  const name = diskName(disk, seen);
  const sizeGiB = disk.integer('sizeGiB');
  if (sizeGiB === undefined || sizeGiB < 1 || sizeGiB > MAX_DATA_DISK_GIB) {
    if (!disk.report.errors.some((e) => e.path === disk.pathOf('sizeGiB'))) {
      disk.report.error(
        disk.pathOf('sizeGiB'),
        `${sizeGiB === undefined ? 'is required' : `is ${sizeGiB}`}; set the disk's size, from 1 to ${MAX_DATA_DISK_GIB} GiB.`,
      );
    }
  }
  const provisioningMode = disk.enumeration('provisioningMode', PROVISIONING_MODES);
  finish(disk);
  return {
    name,
    sizeGiB,
    ...(provisioningMode !== undefined ? { provisioningMode } : {}),
  };
}

function diskName(disk: ObjectReader, seen: Set<string>): string | undefined {
  const name = disk.requiredString('name', 'name the disk (letters, digits, - and _).');
  if (name === undefined) return undefined;
  if (name.length > MAX_DATA_DISK_NAME || !DISK_NAME.test(name)) {
    disk.report.error(
      disk.pathOf('name'),
      `is ${quote(name)}; a disk name has at most ${MAX_DATA_DISK_NAME} letters, digits, - and _, ` +
        'and starts and ends with a letter or digit, so correct it.',
    );
  } else if (seen.has(name)) {
    disk.report.error(
      disk.pathOf('name'),
      `is ${quote(name)}, the name of another data disk; give each disk its own name.`,
    );
  }
  seen.add(name);
  return name;
}
