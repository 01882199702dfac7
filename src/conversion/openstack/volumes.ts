// MAPI `rootVolume` and `additionalBlockDevices[]` → CAPO `rootVolume` and
// `additionalBlockDevices`. A volume availability zone left empty in Machine API means "the
// machine's zone"; CAPO says that explicitly with `from: Machine` (an absent zone would mean
// "no zone at all"), and a named zone is written with its CRD default `from: Name`.
import type { ConversionReport, JsonObject, ObjectReader } from '../common/field-reader.js';
import { dropIgnoredFields } from './filters.js';
import { quote } from '../common/quote.js';

const BLOCK_DEVICE_TYPES = ['Volume', 'Local'] as const;
/** CAPO names the root volume "root", so no additional block device may use the name. */
const ROOT_VOLUME_NAME = 'root';

export interface ConvertedRootVolume {
  /** True when the providerSpec has a `rootVolume`: Machine API then boots from `sourceUUID`. */
  present: boolean;
  rootVolume?: JsonObject;
  /** `sourceUUID`, which, despite its name, holds the image name the installer chose. */
  imageName?: string;
  imageNamePath: string;
}

export function convertRootVolume(
  reader: ObjectReader | undefined,
  path: string,
): ConvertedRootVolume {
  const imageNamePath = `${path}.sourceUUID`;
  if (reader === undefined) return { present: false, imageNamePath };
  const report = reader.report;
  const imageName = reader.string('sourceUUID');
  const type = reader.string('volumeType');
  const size = reader.integer('diskSize');
  const zone = readZone(reader, 'availabilityZone');
  dropIgnoredFields(reader, { sourceType: 'string', deviceType: 'string' });
  reader.finish();
  const converted: ConvertedRootVolume = { present: true, imageNamePath };
  if (imageName !== undefined) converted.imageName = imageName;
  if (size === undefined || size === 0) {
    if (type !== undefined || zone.name !== undefined) {
      report.warn(
        `${reader.path} has no diskSize, so Machine API boots from the image on local disk and ` +
          'ignores volumeType and availabilityZone; no root volume is converted.',
      );
    }
    return converted;
  }
  if (size < 0) {
    report.error(
      reader.pathOf('diskSize'),
      `is ${size}; set the root volume size in GiB (1 or more).`,
    );
    return converted;
  }
  if (zone.invalid) return converted;
  converted.rootVolume = {
    sizeGiB: size,
    ...(type === undefined ? {} : { type }),
    availabilityZone: zone.capo,
  };
  return converted;
}

export function convertAdditionalBlockDevices(
  devices: ObjectReader[] | undefined,
  report: ConversionReport,
): JsonObject[] | undefined {
  if (devices === undefined || devices.length === 0) return undefined;
  const seen = new Map<string, string>();
  const converted: JsonObject[] = [];
  for (const device of devices) {
    const errorsBefore = report.errors.length;
    const name = device.string('name');
    const sizeErrors = report.errors.length;
    const size = device.integer('sizeGiB');
    const sizeIsMistyped = report.errors.length > sizeErrors;
    const storage = device.object('storage');
    const hasStorage = device.raw('storage') !== undefined;
    device.finish();
    checkName(device, name, seen);
    if (!sizeIsMistyped && (size === undefined || size < 1)) {
      report.error(
        device.pathOf('sizeGiB'),
        `${size === undefined ? 'is required' : `is ${size}`}; set the size in GiB (1 or more).`,
      );
    }
    if (!hasStorage) {
      report.error(
        device.pathOf('storage'),
        'is required; set storage.type to Volume (a Cinder volume) or Local (an ephemeral disk).',
      );
    }
    const convertedStorage = storage && convertStorage(storage);
    if (report.errors.length > errorsBefore || name === undefined || size === undefined) continue;
    if (convertedStorage === undefined) continue;
    converted.push({ name, sizeGiB: size, storage: convertedStorage });
  }
  return converted;
}

function checkName(
  device: ObjectReader,
  name: string | undefined,
  seen: Map<string, string>,
): void {
  const report = device.report;
  if (name === undefined) {
    report.error(device.pathOf('name'), 'is required; give every additional block device a name.');
    return;
  }
  if (name === ROOT_VOLUME_NAME) {
    report.error(
      device.pathOf('name'),
      `is "${ROOT_VOLUME_NAME}", which Cluster API reserves for the root volume; rename the device.`,
    );
    return;
  }
  const previous = seen.get(name);
  if (previous !== undefined) {
    report.error(
      device.pathOf('name'),
      `is ${quote(name)}, which ${previous} already uses; give every device its own name.`,
    );
    return;
  }
  seen.set(name, device.path);
}

function convertStorage(storage: ObjectReader): JsonObject | undefined {
  const report = storage.report;
  const errorsBefore = report.errors.length;
  const type = storage.enumeration('type', BLOCK_DEVICE_TYPES);
  const volume = storage.object('volume');
  storage.finish();
  if (type === undefined && report.errors.length === errorsBefore) {
    report.error(
      storage.pathOf('type'),
      'is required; set it to Volume (a Cinder volume) or Local (an ephemeral disk).',
    );
  }
  const volumeType = volume?.string('type');
  const zone = volume === undefined ? undefined : readZone(volume, 'availabilityZone');
  volume?.finish();
  if (type === 'Local') {
    if (volumeType !== undefined || zone?.name !== undefined) {
      report.error(
        storage.pathOf('volume'),
        'only applies to storage type Volume; remove it or set storage.type to Volume.',
      );
    }
    return { type };
  }
  if (type === undefined || zone?.invalid) return undefined;
  return {
    type,
    volume: {
      ...(volumeType === undefined ? {} : { type: volumeType }),
      availabilityZone: zone?.capo ?? { from: 'Machine' },
    },
  };
}

interface Zone {
  name?: string;
  invalid: boolean;
  capo: { from: 'Name'; name: string } | { from: 'Machine' };
}

/** A volume availability zone; Cinder zone names in CAPO may not contain spaces. */
function readZone(reader: ObjectReader, key: string): Zone {
  const name = reader.string(key);
  if (name === undefined) return { invalid: false, capo: { from: 'Machine' } };
  if (name.includes(' ')) {
    reader.report.error(
      reader.pathOf(key),
      `is ${quote(name)}, but a volume availability zone name may not contain spaces; ` +
        'use the name of the Cinder availability zone.',
    );
    return { name, invalid: true, capo: { from: 'Machine' } };
  }
  return { name, invalid: false, capo: { from: 'Name', name } };
}
