// MAPI names a PowerVS resource as {type, id, name, regex}: `type` says which one of the three
// Machine API uses, and it ignores the others. CAPIBM's IBMPowerVSResourceReference has no type
// and accepts exactly one of id, name and regex. This reads the MAPI shape and converts what
// Cluster API can look up the same way.
import type { ConversionReport, ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';

export type PowerVsResourceType = 'ID' | 'Name' | 'RegEx';

export type CapibmResourceReference = { id: string } | { name: string } | { regex: string };

type ReferenceField = 'id' | 'name' | 'regex';

const RESOURCE_TYPES: readonly PowerVsResourceType[] = ['ID', 'Name', 'RegEx'];
const FIELD_OF_TYPE: Record<PowerVsResourceType, ReferenceField> = {
  ID: 'id',
  Name: 'name',
  RegEx: 'regex',
};
const FIELDS: readonly ReferenceField[] = ['id', 'name', 'regex'];

/** How one providerSpec reference (serviceInstance, image, network) converts. */
export interface ReferenceRules {
  /** The sentence after `is required; ` when the reference is missing, ending with a period. */
  required: string;
  /** For each type Cluster API resolves like Machine API: what the value must name. */
  supported: Partial<Record<PowerVsResourceType, string>>;
  /** For each type it cannot: why, and what to do instead (after `is <type>, but `). */
  unsupported: Partial<Record<PowerVsResourceType, string>>;
}

/**
 * Converts `parent[key]`, recording an error for anything Cluster API cannot resolve the same
 * way, and a warning for each field Machine API ignores because `type` names another one.
 */
export function convertResourceReference(
  parent: ObjectReader,
  key: string,
  rules: ReferenceRules,
  report: ConversionReport,
): CapibmResourceReference | undefined {
  const reader = parent.object(key);
  if (reader === undefined) {
    if (parent.raw(key) === undefined)
      report.error(parent.pathOf(key), `is required; ${rules.required}`);
    return undefined;
  }
  const errorsBeforeType = report.errors.length;
  const type = reader.string('type');
  const typeInvalid = report.errors.length > errorsBeforeType;
  const values: Record<ReferenceField, string | undefined> = {
    id: reader.string('id'),
    name: reader.string('name'),
    regex: reader.string('regex'),
  };
  reader.finish();
  if (typeInvalid) return undefined;

  const resourceType = checkType(reader, type, rules, report);
  if (resourceType === undefined) return undefined;
  const field = FIELD_OF_TYPE[resourceType];
  const value = values[field];
  if (value === undefined) {
    // A value of the wrong type has been reported already.
    if (!report.errors.some((e) => e.path === reader.pathOf(field))) {
      report.error(
        reader.pathOf(field),
        `is required when type is ${resourceType}; set it to ${rules.supported[resourceType]}.`,
      );
    }
    return undefined;
  }
  for (const other of FIELDS) {
    if (other === field || values[other] === undefined) continue;
    report.warn(
      `${reader.pathOf(other)} is not converted: type is ${resourceType}, so Machine API uses ` +
        `only ${field} and ignores ${other}, and Cluster API accepts only one of id, name and regex.`,
    );
  }
  return { [field]: value } as CapibmResourceReference;
}

function checkType(
  reader: ObjectReader,
  type: string | undefined,
  rules: ReferenceRules,
  report: ConversionReport,
): PowerVsResourceType | undefined {
  const supported = RESOURCE_TYPES.filter((t) => rules.supported[t] !== undefined);
  const choices = supported.map((t) => `${t} (with ${FIELD_OF_TYPE[t]})`).join(' or ');
  if (type === undefined) {
    report.error(
      reader.pathOf('type'),
      `is required, because Machine API uses only the field that type names; set type to ${choices}.`,
    );
    return undefined;
  }
  if (!(RESOURCE_TYPES as readonly string[]).includes(type)) {
    report.error(
      reader.pathOf('type'),
      `is ${quote(type)}, which is not a PowerVS resource type; set it to ${choices}.`,
    );
    return undefined;
  }
  const resourceType = type as PowerVsResourceType;
  const unsupported = rules.unsupported[resourceType];
  if (unsupported !== undefined) {
    report.error(reader.pathOf('type'), `is ${resourceType}, but ${unsupported}`);
    return undefined;
  }
  return resourceType;
}
