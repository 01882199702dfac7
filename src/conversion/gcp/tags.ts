// The GCP providerSpec's key/value collections: instance labels, network tags, instance
// metadata items and Resource Manager tags. They map one to one onto CAPG's fields, but CAPG
// (and its CRD) holds them in slightly different shapes and rejects some values, so those
// rules are checked here to name the MAPI field instead of failing the template write later.
import type { Infrastructure } from '../../api/types.js';
import { tagMap, type ClusterTags } from '../common/cluster-tags.js';
import type { ConversionContext, FieldError } from '../types.js';
import { describeValue, isJsonObject, type ObjectReader } from '../common/field-reader.js';
import { quote, shorten } from '../common/quote.js';

export interface MetadataItem {
  key: string;
  value?: string;
}

export interface ResourceManagerTag {
  parentID: string;
  key: string;
  value: string;
}

/** CAPG adds the bootstrap data (the MAPI user data secret) under this metadata key itself. */
const USER_DATA_METADATA_KEY = 'user-data';
const MAX_RESOURCE_MANAGER_TAGS = 50;
// The CRD's patterns (Go's RE2 \s spelt out: JavaScript's \s also matches Unicode spaces).
const TAG_PARENT_ID = /^(?:[1-9][0-9]{0,31}|[a-z][a-z0-9-]{4,28}[a-z0-9])$/;
const TAG_KEY = /^[a-zA-Z0-9]([0-9A-Za-z_.-]{0,61}[a-zA-Z0-9])?$/;
const TAG_VALUE = /^[a-zA-Z0-9]([0-9A-Za-z_.@%=+:,*#&()[\]{}\-\t\n\f\r ]{0,61}[a-zA-Z0-9])?$/;

/**
 * A map of strings such as `labels`, in the order of its keys; undefined when absent or empty.
 * Values of another type are reported; `null` counts as absent.
 */
export function readStringMap(
  reader: ObjectReader,
  key: string,
): Record<string, string> | undefined {
  const value = reader.raw(key);
  if (value === undefined) return undefined;
  const path = reader.pathOf(key);
  if (!isJsonObject(value)) {
    reader.report.error(path, `must be a map of strings, but is ${describeValue(value)}.`);
    return undefined;
  }
  const entries: [string, string][] = [];
  for (const [name, item] of Object.entries(value)) {
    if (typeof item === 'string') entries.push([name, item]);
    else
      reader.report.error(
        `${path}.${shorten(name)}`,
        `must be a string, but is ${describeValue(item)}.`,
      );
  }
  // fromEntries defines own properties, so a key such as __proto__ stays an ordinary key.
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** Where metadata items are read from, and who fills the `user-data` key on that side's target. */
export interface MetadataItemsSource {
  field: string;
  /** The items come from a template and go to Machine API (rather than the other way round). */
  toMachineApi?: boolean;
  /** Completes "is user-data, which …" in the message on that key. */
  userDataMessage: string;
}

const MAPI_METADATA: MetadataItemsSource = {
  field: 'gcpMetadata',
  userDataMessage:
    'Cluster API fills with the bootstrap data from userDataSecret; put the user data into ' +
    'that secret and remove this metadata item.',
};

/**
 * Metadata items, `{key, value?}` on both sides: MAPI `gcpMetadata[]` → CAPG's
 * `additionalMetadata[]` by default; undefined when there is none.
 */
export function convertMetadataItems(
  spec: ObjectReader,
  source: MetadataItemsSource = MAPI_METADATA,
): MetadataItem[] | undefined {
  const items = spec.objects(source.field);
  if (items === undefined || items.length === 0) return undefined;
  const converted: MetadataItem[] = [];
  const seen = new Map<string, string>();
  for (const item of items) {
    const key = item.string('key');
    const value = item.string('value', { keepEmpty: true });
    finishItem(item, source.toMachineApi);
    if (key === undefined) {
      item.report.error(item.pathOf('key'), 'is required; give every metadata item a key.');
      continue;
    }
    if (key === USER_DATA_METADATA_KEY) {
      item.report.error(item.pathOf('key'), `is user-data, which ${source.userDataMessage}`);
      continue;
    }
    const first = seen.get(key);
    if (first !== undefined) {
      item.report.error(
        item.pathOf('key'),
        `repeats the key ${quote(key)} of ${first}, and Compute Engine accepts each ` +
          'metadata key once; keep one of the two items.',
      );
      continue;
    }
    seen.set(key, item.path);
    converted.push(value === undefined ? { key } : { key, value });
  }
  return converted.length > 0 ? converted : undefined;
}

/**
 * `resourceManagerTags[]` → the CAPG field of the same name, checked against the CRD's rules;
 * the other way round, from a template to Machine API, with `toMachineApi`.
 */
export function convertResourceManagerTags(
  spec: ObjectReader,
  { toMachineApi = false } = {},
): ResourceManagerTag[] | undefined {
  const tags = spec.objects('resourceManagerTags');
  if (tags === undefined || tags.length === 0) return undefined;
  const converted: ResourceManagerTag[] = [];
  const seen = new Map<string, string>();
  for (const tag of tags) {
    const parentID = tag.string('parentID');
    const key = tag.string('key');
    const value = tag.string('value');
    finishItem(tag, toMachineApi);
    const problems: [field: string, message: string][] = [];
    if (parentID === undefined) {
      problems.push([
        'parentID',
        'is required; set the organization or project ID the tag key belongs to.',
      ]);
    } else if (!TAG_PARENT_ID.test(parentID)) {
      problems.push([
        'parentID',
        `is ${quote(parentID)}, which is neither an organization ID (decimal digits) nor ` +
          'a project ID (6 to 30 lowercase letters, digits and hyphens); correct it.',
      ]);
    }
    if (key === undefined) {
      problems.push(['key', 'is required; set the short name of the tag key.']);
    } else if (!TAG_KEY.test(key)) {
      problems.push([
        'key',
        `is ${quote(key)}, but a tag key must be 1 to 63 letters, digits, _ . or -, ` +
          'starting and ending with a letter or digit; correct it.',
      ]);
    }
    if (value === undefined) {
      problems.push(['value', 'is required; set the short name of the tag value.']);
    } else if (!TAG_VALUE.test(value)) {
      problems.push([
        'value',
        `is ${quote(value)}, but a tag value must be 1 to 63 characters, starting and ` +
          'ending with a letter or digit; correct it.',
      ]);
    }
    for (const [field, message] of problems) tag.report.error(tag.pathOf(field), message);
    if (problems.length > 0 || parentID === undefined || key === undefined || value === undefined)
      continue;
    const identity = `${parentID}/${key}`;
    const first = seen.get(identity);
    if (first !== undefined) {
      tag.report.error(
        tag.path,
        `repeats the tag key ${quote(identity)} of ${first}, and a resource holds one ` +
          'value per tag key; keep one of the two entries.',
      );
      continue;
    }
    seen.set(identity, tag.path);
    converted.push({ parentID, key, value });
  }
  if (tags.length > MAX_RESOURCE_MANAGER_TAGS) {
    spec.report.error(
      spec.pathOf('resourceManagerTags'),
      `has ${tags.length} tags, but Google Cloud accepts at most ${MAX_RESOURCE_MANAGER_TAGS} per resource; remove some tags.`,
    );
  }
  return converted.length > 0 ? converted : undefined;
}

/** Reports the fields of an item nobody read, worded for the direction of the conversion. */
function finishItem(item: ObjectReader, toMachineApi = false): void {
  if (toMachineApi) item.finishToMachineApi();
  else item.finish();
}

/**
 * What Machine API's GCP provider labels every instance with and CAPG does not: the
 * Infrastructure's resource labels, and the ownership label `kubernetes-io-cluster-<infrastructure
 * name>: owned` that `openshift-install destroy` finds instances by (CAPG labels them
 * `capg-cluster-<name>` only).
 */
export function gcpClusterLabels(infrastructure: Infrastructure): ClusterTags {
  const name = infrastructure.status?.infrastructureName;
  return {
    resource: tagMap(infrastructure.status?.platformStatus?.gcp?.resourceLabels),
    ownership: name ? { [`kubernetes-io-cluster-${name}`]: 'owned' } : {},
  };
}

/**
 * The Infrastructure's resource manager tags the providerSpec does not list. Machine API's GCP
 * provider binds them to every instance it creates, CAPG binds only the template's, and a
 * GCPMachine's are immutable (so they cannot be merged into the mirrors, as labels are): the
 * providerSpec must list them before Cluster API creates its machines.
 */
export function missingClusterResourceTags(
  providerSpec: unknown,
  context: ConversionContext,
): FieldError[] {
  const cluster = context.infrastructure.status?.platformStatus?.gcp?.resourceTags ?? [];
  const listed = isJsonObject(providerSpec) ? providerSpec.resourceManagerTags : undefined;
  const own = new Set(
    (Array.isArray(listed) ? listed : [])
      .filter(isJsonObject)
      .map((t) => `${String(t.parentID)}/${String(t.key)}`),
  );
  const missing = cluster.filter((t) => !own.has(`${t.parentID}/${t.key}`));
  if (missing.length === 0) return [];
  const named = missing.map((t) => `${t.parentID}/${t.key}=${t.value}`).join(', ');
  return [
    {
      path: `${context.path}.resourceManagerTags`,
      message: `lacks the Infrastructure's resource tags ${named} (status.platformStatus.gcp.resourceTags), which Machine API binds to every instance it creates and Cluster API does not; add them here (Machine API's machines are bound to them either way), then migrate.`,
    },
  ];
}
