// CAPA `rootVolume` and `nonRootVolumes` → MAPI `blockDevices`: the root volume is the entry
// without a deviceName, so it comes first, and every other volume must name its device.
import type { ConversionReport, JsonObject, ObjectReader } from '../common/field-reader.js';
import { VOLUME_TYPES } from './block-devices.js';
import { REMOVE_OR_STAY } from './template-reader.js';

export function volumesToMapi(spec: ObjectReader, report: ConversionReport): JsonObject[] {
  const devices: JsonObject[] = [];
  const root = spec.object('rootVolume');
  if (root !== undefined) {
    if (root.string('deviceName') !== undefined) {
      report.error(
        root.pathOf('deviceName'),
        'names the root device, which Machine API always takes from the AMI; ' + REMOVE_OR_STAY,
      );
    }
    const ebs = volumeToEbs(root, report);
    if (ebs !== undefined) devices.push({ ebs });
  }
  for (const volume of spec.objects('nonRootVolumes') ?? []) {
    const deviceName = volume.requiredString(
      'deviceName',
      'Machine API takes a block device without a name for the root volume; set the device name, e.g. /dev/xvdb.',
    );
    const ebs = volumeToEbs(volume, report);
    if (deviceName !== undefined && ebs !== undefined) devices.push({ deviceName, ebs });
  }
  return devices;
}

/** The MAPI `ebs` block of one CAPA volume; undefined when it cannot be converted. */
function volumeToEbs(volume: ObjectReader, report: ConversionReport): JsonObject | undefined {
  const errorsBefore = report.errors.length;
  const size = volume.integer('size');
  if (size === undefined && volume.raw('size') === undefined) {
    report.error(volume.pathOf('size'), 'is required; set the size of the volume in GiB.');
  }
  const type = volume.enumeration('type', VOLUME_TYPES);
  const iops = volume.integer('iops');
  const throughput = volume.integer('throughput');
  const encrypted = volume.boolean('encrypted');
  const encryptionKey = volume.string('encryptionKey');
  volume.finishToMachineApi();
  for (const [key, value] of [
    ['iops', iops],
    ['throughput', throughput],
  ] as const) {
    if (value !== undefined && value < 0) {
      report.error(volume.pathOf(key), 'must not be negative; remove it or set a positive number.');
    }
  }
  if (report.errors.length > errorsBefore) return undefined;
  const ebs: JsonObject = { volumeSize: size };
  if (type !== undefined) ebs.volumeType = type;
  // CAPA reads iops 0 as "not set", as MAPI does.
  if (iops) ebs.iops = iops;
  if (throughput !== undefined) ebs.throughputMib = throughput;
  if (encrypted !== undefined) ebs.encrypted = encrypted;
  // CAPA takes a key ID or ARN in one string; MAPI names which one it is.
  if (encryptionKey !== undefined) {
    ebs.kmsKey = encryptionKey.startsWith('arn:') ? { arn: encryptionKey } : { id: encryptionKey };
  }
  return ebs;
}
