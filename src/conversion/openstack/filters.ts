// MAPI names OpenStack resources (networks, subnets, security groups) by a UUID plus a Neutron
// query whose tag fields are comma-separated strings; CAPO v1beta1 takes either an `id` (a UUID)
// or a `filter` (tags as lists), never both. This module reads the MAPI shapes and produces the
// CAPO ones, turning every combination CAPO cannot hold into a field error.
import type { ConversionReport, JsonObject, ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';

/** The CRD's `format: uuid` (kube-openapi's pattern: hex digits, optional dashes, any case). */
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
/** The tag queries of a Neutron filter: comma-separated strings in MAPI, lists in CAPO. */
export const TAG_FIELDS = ['tags', 'tagsAny', 'notTags', 'notTagsAny'] as const;
/** The subnet-only query fields that are strings, in MAPI's (Neutron's) and in CAPO's spelling. */
const SUBNET_STRING_FIELDS = [
  { mapi: 'gateway_ip', capo: 'gatewayIP' },
  { mapi: 'cidr', capo: 'cidr' },
  { mapi: 'ipv6AddressMode', capo: 'ipv6AddressMode' },
  { mapi: 'ipv6RaMode', capo: 'ipv6RAMode' },
] as const;

/** A CAPO NetworkParam / SubnetParam / SecurityGroupParam: an ID or a filter (maxProperties 1). */
export type CapoReference = { id: string } | { filter: JsonObject };

type FieldKind = 'string' | 'integer' | 'boolean';

/** The deprecated fields MAPI documents as "silently ignored", by type. */
const IGNORED_QUERY_FIELDS: Record<string, FieldKind> = {
  limit: 'integer',
  marker: 'string',
  sortKey: 'string',
  sortDir: 'string',
};

function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** The value when it is a UUID; otherwise records an error naming `what` and returns undefined. */
export function requireUuid(
  value: string,
  path: string,
  what: string,
  report: ConversionReport,
): string | undefined {
  if (isUuid(value)) return value;
  report.error(
    path,
    `is ${quote(value)}, which is not a UUID; Cluster API references ${what} by ` +
      `UUID only, so set the UUID of ${what}.`,
  );
  return undefined;
}

/**
 * Reads fields that Machine API documents as deprecated and silently ignored. They carry
 * nothing, so they are not converted, but a value someone wrote is worth a warning.
 */
export function dropIgnoredFields(reader: ObjectReader, fields: Record<string, FieldKind>): void {
  for (const [key, kind] of Object.entries(fields)) {
    const value =
      kind === 'string'
        ? reader.string(key)
        : kind === 'integer'
          ? reader.integer(key)
          : reader.boolean(key);
    if (value === undefined || value === 0) continue;
    reader.report.warn(
      `${reader.pathOf(key)} is ${quote(value)}, but Machine API ignores this deprecated ` +
        'field and Cluster API has no equivalent, so it is not converted.',
    );
  }
}

/** A comma-separated MAPI tag query → CAPO's list of tags (each non-empty, no commas, unique). */
function splitTags(reader: ObjectReader, key: string): string[] | undefined {
  const value = reader.string(key);
  if (value === undefined) return undefined;
  const tags = value.split(',');
  if (tags.includes('')) {
    reader.report.error(
      reader.pathOf(key),
      `is ${quote(value)}, which contains an empty tag; separate the tags with single ` +
        'commas, e.g. "a,b".',
    );
    return undefined;
  }
  return [...new Set(tags)];
}

/**
 * The query fields every Neutron filter shares. `tenantId` is the deprecated spelling of
 * `projectId`, which wins when both are set (as Machine API documents).
 */
function readCommonFilter(filter: ObjectReader): JsonObject {
  const converted = readNameAndDescription(filter);
  const projectId = filter.string('projectId');
  const tenantId = filter.string('tenantId');
  if (projectId !== undefined) {
    converted.projectID = projectId;
    if (tenantId !== undefined && tenantId !== projectId) {
      filter.report.warn(
        `${filter.pathOf('tenantId')} is ignored because projectId is set, as in Machine API, ` +
          'so it is not converted.',
      );
    }
  } else if (tenantId !== undefined) {
    converted.projectID = tenantId;
  }
  for (const key of TAG_FIELDS) {
    const tags = splitTags(filter, key);
    if (tags !== undefined) converted[key] = tags;
  }
  return converted;
}

/** A Neutron filter's name and description: the same fields in MAPI and in CAPO. */
export function readNameAndDescription(filter: ObjectReader): JsonObject {
  const converted: JsonObject = {};
  const name = filter.string('name');
  if (name !== undefined) converted.name = name;
  const description = filter.string('description');
  if (description !== undefined) converted.description = description;
  return converted;
}

/** Reads the subnet-only query fields of `filter` into `converted`, in the spelling of `to`. */
export function readSubnetFilterFields(
  filter: ObjectReader,
  converted: JsonObject,
  to: 'mapi' | 'capo',
): void {
  // 0 is the unset value in both.
  const ipVersion = filter.integer('ipVersion');
  if (ipVersion !== undefined && ipVersion !== 0) converted.ipVersion = ipVersion;
  const from = to === 'capo' ? 'mapi' : 'capo';
  for (const spelling of SUBNET_STRING_FIELDS) {
    const value = filter.string(spelling[from]);
    if (value !== undefined) converted[spelling[to]] = value;
  }
}

interface Identification {
  /** The ID from `uuid`, or from the deprecated `filter.id` when `uuid` is empty. */
  id?: string;
  idPath?: string;
  filter: JsonObject;
}

/** Picks the ID: `uuid` wins over `filter.id`, which Machine API then ignores. */
function chooseId(
  uuid: string | undefined,
  uuidPath: string,
  filterId: string | undefined,
  filterIdPath: string,
  report: ConversionReport,
): Pick<Identification, 'id' | 'idPath'> {
  if (uuid !== undefined) {
    if (filterId !== undefined && filterId !== uuid) {
      report.warn(
        `${filterIdPath} is ignored because uuid is set, as in Machine API, so it is not converted.`,
      );
    }
    return { id: uuid, idPath: uuidPath };
  }
  if (filterId !== undefined) return { id: filterId, idPath: filterIdPath };
  return {};
}

/**
 * The CAPO reference for an identification, undefined when it names nothing or cannot be
 * converted (then an error is recorded). `what` names the resource in messages.
 */
function toReference(
  identification: Identification,
  path: string,
  what: string,
  report: ConversionReport,
): CapoReference | undefined {
  const { id, idPath, filter } = identification;
  const hasFilter = Object.keys(filter).length > 0;
  if (id !== undefined && hasFilter) {
    report.error(
      path,
      `identifies ${what} both by ID and by a query (${Object.keys(filter).join(', ')}), but ` +
        'Cluster API accepts only one of them; keep the UUID alone, or remove it and keep the query.',
    );
    return undefined;
  }
  if (id !== undefined) {
    const uuid = requireUuid(id, idPath ?? path, what, report);
    return uuid === undefined ? undefined : { id: uuid };
  }
  return hasFilter ? { filter } : undefined;
}

export interface NetworkTarget {
  network?: CapoReference;
  /** True when the entry names a network (even if it could not be converted). */
  named: boolean;
}

/** A MAPI NetworkParam's `uuid` and `filter` → a CAPO port's `network`. */
export function readNetworkTarget(network: ObjectReader): NetworkTarget {
  const report = network.report;
  const uuid = network.string('uuid');
  const filterReader = network.object('filter');
  const filterId = filterReader?.string('id');
  const filter = filterReader === undefined ? {} : readCommonFilter(filterReader);
  if (filterReader !== undefined) {
    dropIgnoredFields(filterReader, {
      ...IGNORED_QUERY_FIELDS,
      status: 'string',
      adminStateUp: 'boolean',
      shared: 'boolean',
    });
    filterReader.finish();
  }
  const identification: Identification = {
    ...chooseId(uuid, network.pathOf('uuid'), filterId, `${network.path}.filter.id`, report),
    filter,
  };
  const named = identification.id !== undefined || Object.keys(filter).length > 0;
  return { network: toReference(identification, network.path, 'the network', report), named };
}

export interface SubnetTarget {
  subnet?: CapoReference;
  portTags: string[];
}

/** A MAPI SubnetParam → a CAPO fixed IP's `subnet`, plus the tags for the port it makes. */
export function readSubnet(subnet: ObjectReader): SubnetTarget {
  const report = subnet.report;
  const errorsBefore = report.errors.length;
  const uuid = subnet.string('uuid');
  const filterReader = subnet.object('filter');
  const filterId = filterReader?.string('id');
  const filter: JsonObject = {};
  if (filterReader !== undefined) {
    Object.assign(filter, readCommonFilter(filterReader));
    readSubnetFilterFields(filterReader, filter, 'capo');
    dropIgnoredFields(filterReader, {
      ...IGNORED_QUERY_FIELDS,
      networkId: 'string',
      subnetpoolId: 'string',
      enableDhcp: 'boolean',
    });
    filterReader.finish();
  }
  const portTags = subnet.strings('portTags') ?? [];
  dropIgnoredFields(subnet, { portSecurity: 'boolean' });
  subnet.finish();
  const identification: Identification = {
    ...chooseId(uuid, subnet.pathOf('uuid'), filterId, `${subnet.path}.filter.id`, report),
    filter,
  };
  if (report.errors.length > errorsBefore) return { portTags };
  if (identification.id === undefined && Object.keys(filter).length === 0) {
    report.error(subnet.path, 'names no subnet; set uuid or a filter, or remove the entry.');
    return { portTags };
  }
  return { subnet: toReference(identification, subnet.path, 'the subnet', report), portTags };
}

/**
 * A MAPI SecurityGroupParam → a CAPO SecurityGroupParam. `uuid` and `name` win over
 * `filter.id` and `filter.name` when both are set, as they do in Machine API's query.
 */
export function readSecurityGroup(group: ObjectReader): CapoReference | undefined {
  const report = group.report;
  const errorsBefore = report.errors.length;
  const uuid = group.string('uuid');
  const name = group.string('name');
  const filterReader = group.object('filter');
  const filterId = filterReader?.string('id');
  const filter = filterReader === undefined ? {} : readCommonFilter(filterReader);
  if (filterReader !== undefined) {
    dropIgnoredFields(filterReader, IGNORED_QUERY_FIELDS);
    filterReader.finish();
  }
  group.finish();
  if (name !== undefined) {
    if (filter.name !== undefined && filter.name !== name) {
      report.warn(
        `${group.path}.filter.name is ignored because name is set, as in Machine API, so it is ` +
          'not converted.',
      );
    }
    filter.name = name;
  }
  const identification: Identification = {
    ...chooseId(uuid, group.pathOf('uuid'), filterId, `${group.path}.filter.id`, report),
    filter,
  };
  if (report.errors.length > errorsBefore) return undefined;
  if (identification.id === undefined && Object.keys(filter).length === 0) {
    report.error(
      group.path,
      'names no security group (Machine API would select every group of the project); set ' +
        'uuid, name or a filter, or remove the entry.',
    );
    return undefined;
  }
  return toReference(identification, group.path, 'the security group', report);
}

/** Removes duplicates, keeping the first occurrence (CAPO's tag lists are sets). */
export function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
