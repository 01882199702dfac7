// CAPO `rootVolume` and `additionalBlockDevices` → MAPI's. A CAPO volume zone `{from: Machine}`
// is MAPI's empty zone (the machine's zone) and `{from: Name, name}` its zone name; an absent
// CAPO zone means "no zone at all", which MAPI cannot say, so it is an error.
import type { JsonObject, ObjectReader } from '../common/field-reader.js';
import { KEEP_ON_CLUSTER_API } from './to-mapi-filters.js';
import { quote } from '../common/quote.js';

const ROOT_VOLUME_NAME = 'root';
const BLOCK_DEVICE_TYPES = ['Volume', 'Local'] as const;

interface ReadZone {
  /** The MAPI zone name; undefined for the machine's zone. */
  name?: string;
  ok: boolean;
}

/** A CAPO VolumeAvailabilityZone at `key` of `volume`. */
function readZone(volume: ObjectReader, key: string): ReadZone {
  const report = volume.report;
  const errorsBefore = report.errors.length;
  const zone = volume.object(key);
  if (zone === undefined) {
    if (report.errors.length > errorsBefore) return { ok: false };
    report.error(
      volume.pathOf(key),
      'is not set, which in Cluster API creates the volume in no availability zone, but Machine ' +
        "API creates it in the machine's zone when the zone is empty; set availabilityZone.from " +
        `to Machine, or name the zone, or ${KEEP_ON_CLUSTER_API}.`,
    );
    return { ok: false };
  }
  const from = zone.enumeration('from', ['Name', 'Machine'] as const) ?? 'Name';
  const name = zone.string('name');
  zone.finishToMachineApi({ orKeepOnClusterApi: true });
  if (report.errors.length > errorsBefore) return { ok: false };
  if (from === 'Machine') {
    if (name === undefined) return { ok: true };
    report.error(
      zone.pathOf('name'),
      'is set with from Machine; remove the name or set from to Name.',
    );
    return { ok: false };
  }
  if (name === undefined) {
    report.error(zone.pathOf('name'), 'is required with from Name; name the availability zone.');
    return { ok: false };
  }
  if (name.includes(' ')) {
    report.error(
      zone.pathOf('name'),
      `is ${quote(name)}, but a volume availability zone name may not contain spaces; ` +
        'use the name of the Cinder availability zone.',
    );
    return { ok: false };
  }
  return { name, ok: true };
}

/** A size in GiB that must be 1 or more. */
function readSize(reader: ObjectReader, key: string): number | undefined {
  const report = reader.report;
  const errorsBefore = report.errors.length;
  const size = reader.integer(key);
  if (report.errors.length > errorsBefore) return undefined;
  if (size === undefined || size < 1) {
    report.error(
      reader.pathOf(key),
      `${size === undefined ? 'is required' : `is ${size}`}; set the size in GiB (1 or more).`,
    );
    return undefined;
  }
  return size;
}

/** CAPO `rootVolume` → MAPI `rootVolume` without `sourceUUID` (the image name is added later). */
export function reverseRootVolume(reader: ObjectReader): JsonObject | undefined {
  const errorsBefore = reader.report.errors.length;
  const size = readSize(reader, 'sizeGiB');
  const type = reader.string('type');
  const zone = readZone(reader, 'availabilityZone');
  reader.finishToMachineApi({ orKeepOnClusterApi: true });
  if (reader.report.errors.length > errorsBefore || size === undefined || !zone.ok)
    return undefined;
  const rootVolume: JsonObject = { diskSize: size };
  if (type !== undefined) rootVolume.volumeType = type;
  if (zone.name !== undefined) rootVolume.availabilityZone = zone.name;
  return rootVolume;
}

export function reverseAdditionalBlockDevices(devices: ObjectReader[]): JsonObject[] {
  const seen = new Map<string, string>();
  const converted: JsonObject[] = [];
  for (const device of devices) {
    const report = device.report;
    const errorsBefore = report.errors.length;
    const name = readName(device, seen);
    const size = readSize(device, 'sizeGiB');
    const storageReader = device.object('storage');
    if (storageReader === undefined && report.errors.length === errorsBefore) {
      report.error(device.pathOf('storage'), 'is required; set storage.type to Volume or Local.');
    }
    const storage = storageReader && reverseStorage(storageReader);
    device.finishToMachineApi({ orKeepOnClusterApi: true });
    if (report.errors.length > errorsBefore || name === undefined || size === undefined) continue;
    if (storage === undefined) continue;
    converted.push({ name, sizeGiB: size, storage });
  }
  return converted;
}

function readName(device: ObjectReader, seen: Map<string, string>): string | undefined {
  const report = device.report;
  const name = device.requiredString('name', 'give every additional block device a name.');
  if (name === undefined) return undefined;
  if (name === ROOT_VOLUME_NAME) {
    report.error(
      device.pathOf('name'),
      `is "${ROOT_VOLUME_NAME}", which is reserved for the root volume; rename the device.`,
    );
    return undefined;
  }
  const previous = seen.get(name);
  if (previous !== undefined) {
    report.error(
      device.pathOf('name'),
      `is ${quote(name)}, which ${previous} already uses; give every device its own name.`,
    );
    return undefined;
  }
  seen.set(name, device.path);
  return name;
}

function reverseStorage(storage: ObjectReader): JsonObject | undefined {
  const report = storage.report;
  const errorsBefore = report.errors.length;
  const type = storage.enumeration('type', BLOCK_DEVICE_TYPES);
  if (type === undefined && report.errors.length === errorsBefore) {
    report.error(storage.pathOf('type'), 'is required; set it to Volume or Local.');
  }
  const volume = storage.object('volume');
  let converted: JsonObject | undefined;
  if (type === 'Local') {
    if (volume !== undefined) {
      report.error(
        storage.pathOf('volume'),
        'only applies to storage type Volume; remove it or set storage.type to Volume.',
      );
    }
    converted = { type };
  } else if (type === 'Volume') {
    const volumeErrors = report.errors.length;
    const zone = volume === undefined ? undefined : readZone(volume, 'availabilityZone');
    const volumeType = volume?.string('type');
    if (volume !== undefined) volume.finishToMachineApi({ orKeepOnClusterApi: true });
    if (volume === undefined && report.errors.length === volumeErrors) {
      report.error(
        storage.pathOf('volume'),
        'is not set, which in Cluster API creates the volume in no availability zone, but ' +
          "Machine API creates it in the machine's zone; set volume.availabilityZone.from to " +
          `Machine, or name the zone, or ${KEEP_ON_CLUSTER_API}.`,
      );
    }
    const mapiVolume: JsonObject = {};
    if (volumeType !== undefined) mapiVolume.type = volumeType;
    if (zone?.name !== undefined) mapiVolume.availabilityZone = zone.name;
    // An absent MAPI volume already means "the machine's zone, the default volume type".
    converted = Object.keys(mapiVolume).length > 0 ? { type, volume: mapiVolume } : { type };
  }
  storage.finishToMachineApi({ orKeepOnClusterApi: true });
  return report.errors.length > errorsBefore ? undefined : converted;
}
