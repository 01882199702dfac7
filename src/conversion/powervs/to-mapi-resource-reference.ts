// CAPIBM's IBMPowerVSResourceReference {id | name | regex} back to Machine API's typed
// {type, id, name, regex}, each as CAPIBM resolves it at run time: the workspace by ID only
// (serviceInstanceID first), the boot image by ID or name, the network by ID, name or regex.
import type { ConversionReport, ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';
import type { PowerVsResourceType } from './resource-reference.js';

/** The fields of CAPIBM's IBMPowerVSResourceReference. */
const REFERENCE_FIELDS = ['id', 'name', 'regex'] as const;
type ReferenceField = (typeof REFERENCE_FIELDS)[number];
type ReferenceValues = Partial<Record<ReferenceField, string>>;

/** A Machine API PowerVSResource: `type` and the one field it names. */
export type MapiResourceReference = { type: PowerVsResourceType } & ReferenceValues;

const TYPE_OF_FIELD: Record<ReferenceField, PowerVsResourceType> = {
  id: 'ID',
  name: 'Name',
  regex: 'RegEx',
};

interface ReadReference {
  reader: ObjectReader;
  values: ReferenceValues;
}

/** `parent[key]`'s fields; 'absent', or 'invalid' once its problems are recorded. */
function readReference(
  parent: ObjectReader,
  key: string,
  report: ConversionReport,
): ReadReference | 'absent' | 'invalid' {
  if (parent.raw(key) === undefined) return 'absent';
  const errorsBefore = report.errors.length;
  const reader = parent.object(key);
  if (reader === undefined) return 'invalid';
  // "" counts as unset: the CRD requires at least one character.
  const values: ReferenceValues = {};
  for (const field of REFERENCE_FIELDS) {
    const value = reader.string(field);
    if (value !== undefined) values[field] = value;
  }
  reader.finishToMachineApi({ orKeepOnClusterApi: true });
  return report.errors.length > errorsBefore ? 'invalid' : { reader, values };
}

function mapiReference(field: ReferenceField, value: string): MapiResourceReference {
  return { type: TYPE_OF_FIELD[field], [field]: value };
}

/**
 * The workspace: CAPIBM takes the deprecated serviceInstanceID first, then serviceInstance.id;
 * without either it uses the IBMPowerVSCluster's workspace, which a providerSpec cannot name.
 */
export function workspaceToMapi(
  spec: ObjectReader,
  report: ConversionReport,
): MapiResourceReference | undefined {
  const errorsBefore = report.errors.length;
  const serviceInstanceID = spec.string('serviceInstanceID');
  const read = readReference(spec, 'serviceInstance', report);
  if (read === 'invalid' || report.errors.length > errorsBefore) return undefined;
  const values = read === 'absent' ? {} : read.values;
  const id = serviceInstanceID ?? values.id;
  if (id === undefined) {
    const ignored =
      read === 'absent' ? undefined : (['name', 'regex'] as const).find((f) => values[f]);
    if (read !== 'absent' && ignored !== undefined) {
      report.error(
        read.reader.pathOf(ignored),
        `is ${quote(values[ignored] ?? '')}, but Cluster API's IBMPowerVSMachine ignores a ` +
          `workspace's ${ignored} and uses the IBMPowerVSCluster's workspace, which Machine API ` +
          'cannot name; set serviceInstance.id to the GUID of the PowerVS workspace instead.',
      );
    } else {
      report.error(
        spec.pathOf('serviceInstance'),
        "names no workspace, so Cluster API uses the IBMPowerVSCluster's, which Machine API " +
          'cannot name; set serviceInstance.id to the GUID of the PowerVS workspace (service instance).',
      );
    }
    return undefined;
  }
  if (read !== 'absent') {
    for (const field of REFERENCE_FIELDS) {
      const value = values[field];
      if (value === undefined || (field === 'id' && value === id)) continue;
      const why =
        field === 'id'
          ? 'Cluster API uses serviceInstanceID, which takes precedence'
          : `Cluster API uses the workspace's ID and ignores its ${field}`;
      report.warn(`${read.reader.pathOf(field)} is not converted: ${why}.`);
    }
  }
  return mapiReference('id', id);
}

/** The boot image: CAPIBM looks it up by ID or name, never by regex; imageRef is read elsewhere. */
export function imageToMapi(
  spec: ObjectReader,
  report: ConversionReport,
): MapiResourceReference | undefined {
  const read = readReference(spec, 'image', report);
  if (read === 'invalid') return undefined;
  if (read === 'absent') {
    // With imageRef set, its own error says what to do.
    if (spec.raw('imageRef') === undefined) {
      report.error(
        spec.pathOf('image'),
        'is required, because Machine API names the boot image in the providerSpec; set image.name or image.id.',
      );
    }
    return undefined;
  }
  const { reader, values } = read;
  if (values.id !== undefined && values.name !== undefined) {
    report.error(
      reader.path,
      'names the boot image by both id and name, which Cluster API refuses; keep only one of them.',
    );
    return undefined;
  }
  const field = values.id !== undefined ? 'id' : values.name !== undefined ? 'name' : undefined;
  if (field === undefined) {
    if (values.regex !== undefined) {
      report.error(
        reader.pathOf('regex'),
        `is ${quote(values.regex)}, but neither Cluster API nor Machine API looks a boot image up ` +
          'by regular expression; set image.name or image.id instead.',
      );
    } else {
      report.error(reader.path, 'names no boot image; set image.name or image.id.');
    }
    return undefined;
  }
  if (values.regex !== undefined) {
    report.warn(
      `${reader.pathOf('regex')} is not converted: Cluster API looks the boot image up by ` +
        `${field} and ignores regex.`,
    );
  }
  return mapiReference(field, values[field] ?? '');
}

/** The network: exactly one of id, name and regex, as CAPIBM's webhook requires. */
export function networkToMapi(
  spec: ObjectReader,
  report: ConversionReport,
): MapiResourceReference | undefined {
  const read = readReference(spec, 'network', report);
  if (read === 'invalid') return undefined;
  if (read === 'absent') {
    report.error(
      spec.pathOf('network'),
      'is required; name the network with network.name, network.id or network.regex.',
    );
    return undefined;
  }
  const { reader, values } = read;
  const set = REFERENCE_FIELDS.filter((f) => values[f] !== undefined);
  const [field] = set;
  if (set.length > 1) {
    report.error(
      reader.path,
      `names the network by ${set.join(' and ')}, which Cluster API refuses; keep only one of them.`,
    );
    return undefined;
  }
  if (field === undefined) {
    report.error(
      reader.path,
      'names no network; set one of network.id, network.name and network.regex.',
    );
    return undefined;
  }
  return mapiReference(field, values[field] ?? '');
}

/**
 * The fields of `current` (the providerSpec's reference now) that its type does not name, which
 * Machine API ignores, added to `reference` when both name the same resource the same way.
 */
export function withIgnoredFieldsOf(
  reference: MapiResourceReference,
  current: unknown,
): MapiResourceReference {
  if (typeof current !== 'object' || current === null || Array.isArray(current)) return reference;
  const currentFields = current as Record<string, unknown>;
  const named = REFERENCE_FIELDS.find((f) => TYPE_OF_FIELD[f] === reference.type);
  if (named === undefined || currentFields.type !== reference.type) return reference;
  if (currentFields[named] !== reference[named]) return reference;
  const kept: MapiResourceReference = { ...reference };
  for (const field of REFERENCE_FIELDS) {
    const value = currentFields[field];
    if (field !== named && typeof value === 'string') kept[field] = value;
  }
  return kept;
}
