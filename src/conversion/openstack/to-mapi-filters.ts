// CAPO → MAPI for the references to OpenStack resources: a CAPO NetworkParam, SubnetParam or
// SecurityGroupParam (an `id` or a `filter` with tag lists) becomes MAPI's `uuid` or `filter`
// (tags as comma-separated strings, Neutron's spelling of the field names). Also the wording of
// errors shared by every part of the reverse conversion.
import type { JsonObject, ObjectReader } from '../common/field-reader.js';
import {
  readNameAndDescription,
  readSubnetFilterFields,
  requireUuid,
  TAG_FIELDS,
} from './filters.js';
import { quote } from '../common/quote.js';

/** The fix offered for everything Machine API cannot hold. */
export const KEEP_ON_CLUSTER_API =
  'remove it from the template or keep the MachineSet on Cluster API';

/** Reports each of `keys` that is set as a field Machine API has no equivalent for. */
export function rejectFields(reader: ObjectReader, keys: readonly string[], why = ''): void {
  for (const key of keys) {
    if (reader.raw(key) === undefined) continue;
    reader.report.error(
      reader.pathOf(key),
      `has no Machine API equivalent${why}; ${KEEP_ON_CLUSTER_API}.`,
    );
  }
}

/** A CAPO tag list → a MAPI comma-separated tag query; undefined when empty or not expressible. */
function joinTags(filter: ObjectReader, key: string): string | undefined {
  const items = filter.strings(key);
  if (items === undefined || items.length === 0) return undefined;
  const bad = items.find((tag) => tag === '' || tag.includes(','));
  if (bad !== undefined) {
    filter.report.error(
      filter.pathOf(key),
      `holds the tag ${quote(bad)}, which Machine API cannot hold: its tag queries are ` +
        `comma-separated strings of non-empty tags; rename the tag or ${KEEP_ON_CLUSTER_API}.`,
    );
    return undefined;
  }
  return items.join(',');
}

/** The fields every CAPO Neutron filter shares, in MAPI's spelling. */
function readCommonFilter(filter: ObjectReader): JsonObject {
  const converted = readNameAndDescription(filter);
  const projectId = filter.string('projectID');
  if (projectId !== undefined) converted.projectId = projectId;
  for (const key of TAG_FIELDS) {
    const tags = joinTags(filter, key);
    if (tags !== undefined) converted[key] = tags;
  }
  return converted;
}

function readSubnetFilter(filter: ObjectReader): JsonObject {
  const converted = readCommonFilter(filter);
  readSubnetFilterFields(filter, converted, 'mapi');
  return converted;
}

export type ResourceKind = 'network' | 'subnet' | 'security group';

/** A CAPO reference read back: the UUID, or MAPI's query fields (never both). */
export type MapiReference = { uuid: string } | { filter: JsonObject };

/**
 * A CAPO `{id}` or `{filter}` → `{uuid}` or `{filter}` in MAPI's spelling; undefined (with an
 * error) when it names nothing, names both ways, or holds what MAPI cannot.
 */
export function readReference(reader: ObjectReader, kind: ResourceKind): MapiReference | undefined {
  const report = reader.report;
  const errorsBefore = report.errors.length;
  const id = reader.string('id');
  const filterReader = reader.object('filter');
  let filter: JsonObject = {};
  if (filterReader !== undefined) {
    filter = kind === 'subnet' ? readSubnetFilter(filterReader) : readCommonFilter(filterReader);
    filterReader.finishToMachineApi({ orKeepOnClusterApi: true });
  }
  reader.finishToMachineApi({ orKeepOnClusterApi: true });
  if (report.errors.length > errorsBefore) return undefined;
  const hasFilter = Object.keys(filter).length > 0;
  if (id !== undefined && hasFilter) {
    report.error(
      reader.path,
      `identifies the ${kind} both by id and by a filter, which Cluster API does not allow; ` +
        'keep one of them.',
    );
    return undefined;
  }
  if (id !== undefined) {
    const uuid = requireUuid(id, reader.pathOf('id'), `the ${kind}`, report);
    return uuid === undefined ? undefined : { uuid };
  }
  if (hasFilter) return { filter };
  report.error(reader.path, `names no ${kind}; set its id or a filter, or remove the entry.`);
  return undefined;
}

/** A machine security group: `{uuid}`, or its name as MAPI's `name` beside the other filters. */
export function readMachineSecurityGroup(reader: ObjectReader): JsonObject | undefined {
  const reference = readReference(reader, 'security group');
  if (reference === undefined || 'uuid' in reference) return reference;
  const { name, ...rest } = reference.filter;
  const group: JsonObject = {};
  if (name !== undefined) group.name = name;
  if (Object.keys(rest).length > 0) group.filter = rest;
  return group;
}
