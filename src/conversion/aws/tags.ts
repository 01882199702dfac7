// MAPI lists instance tags as {name, value}; CAPA holds them as a map, and its admission
// webhook accepts at most 50 tags, keys up to 128 and values up to 256 characters, a
// restricted character set and no `aws:` prefix. Checking those rules here turns a write
// the API would reject later into a field error the administrator can act on.
import type { Infrastructure } from '../../api/types.js';
import { tagMap, withClusterTags, type ClusterTags } from '../common/cluster-tags.js';
import type { ConversionReport, ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';

const MAX_TAGS = 50;
const MAX_KEY_LENGTH = 128;
const MAX_VALUE_LENGTH = 256;
// CAPA's rule, with RE2's \s spelt out (JavaScript's \s also matches Unicode spaces).
const ALLOWED_CHARACTERS = /^[a-zA-Z0-9\t\n\f\r _.:=+\-@/]*$/;
const ALLOWED_DESCRIPTION = 'letters, digits, spaces and _ . : / = + - @';

/**
 * What Machine API's AWS provider adds to every instance (status.platformStatus.aws.resourceTags)
 * and CAPA does not. The ownership tag (kubernetes.io/cluster/<infrastructure name>: owned) CAPA
 * adds itself, from the CAPI Cluster's name, which is the infrastructure name.
 */
export function awsClusterTags(infrastructure: Infrastructure): ClusterTags {
  return {
    resource: tagMap(infrastructure.status?.platformStatus?.aws?.resourceTags),
    ownership: {},
  };
}

/**
 * The `tags` list as CAPA's `additionalTags` map, with the Infrastructure's resource tags
 * (undefined when there are none).
 */
export function convertTagsForCluster(
  tags: ObjectReader[] | undefined,
  listPath: string,
  infrastructure: Infrastructure,
  report: ConversionReport,
): Record<string, string> | undefined {
  const own = convertTags(tags, listPath, report);
  const merged = withClusterTags(own, awsClusterTags(infrastructure));
  const count = Object.keys(merged ?? {}).length;
  if (count > MAX_TAGS && Object.keys(own ?? {}).length <= MAX_TAGS) {
    report.error(
      listPath,
      `has ${count} distinct tags with the Infrastructure's status.platformStatus.aws.resourceTags, which every instance carries, but Cluster API accepts at most ${MAX_TAGS}; remove some tags.`,
    );
  }
  return merged;
}

/** Converts the `tags` list to CAPA's `additionalTags` map (undefined when there are none). */
export function convertTags(
  tags: ObjectReader[] | undefined,
  listPath: string,
  report: ConversionReport,
): Record<string, string> | undefined {
  if (tags === undefined || tags.length === 0) return undefined;
  const converted = new Map<string, string>();
  for (const tag of tags) {
    const name = tag.string('name');
    const value = tag.string('value', { keepEmpty: true }) ?? '';
    tag.finish();
    if (name === undefined) {
      report.error(tag.pathOf('name'), 'is required; give every tag a non-empty name.');
      continue;
    }
    if (!isValidTag(tag, name, value)) continue;
    const previous = converted.get(name);
    if (previous !== undefined && previous !== value) {
      report.warn(
        `${listPath} lists the tag ${quote(name)} more than once; only the last value, ` +
          `${quote(value)}, is kept.`,
      );
    }
    // Re-inserting keeps the first position, so the map's order stays that of the list.
    converted.set(name, value);
  }
  if (converted.size > MAX_TAGS) {
    report.error(
      listPath,
      `has ${converted.size} distinct tags, but Cluster API accepts at most ${MAX_TAGS}; remove some tags.`,
    );
  }
  return converted.size > 0 ? Object.fromEntries(converted) : undefined;
}

function isValidTag(tag: ObjectReader, name: string, value: string): boolean {
  const problems: [string, string][] = [];
  if (name.length > MAX_KEY_LENGTH)
    problems.push(['name', `is longer than ${MAX_KEY_LENGTH} characters; shorten it.`]);
  if (name.startsWith('aws:'))
    problems.push(['name', 'starts with "aws:", which AWS reserves for its own tags; rename it.']);
  if (!ALLOWED_CHARACTERS.test(name))
    problems.push(['name', `may only contain ${ALLOWED_DESCRIPTION} in Cluster API; rename it.`]);
  if (value.length > MAX_VALUE_LENGTH)
    problems.push(['value', `is longer than ${MAX_VALUE_LENGTH} characters; shorten it.`]);
  if (!ALLOWED_CHARACTERS.test(value))
    problems.push(['value', `may only contain ${ALLOWED_DESCRIPTION} in Cluster API; change it.`]);
  for (const [field, message] of problems) tag.report.error(tag.pathOf(field), message);
  return problems.length === 0;
}
