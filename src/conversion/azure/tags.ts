// The Azure providerSpec's tags: a map on both sides, joined by the tags Machine API's provider
// gives every VM (../common/cluster-tags.ts).
import type { Infrastructure } from '../../api/types.js';
import { tagMap, type ClusterTags } from '../common/cluster-tags.js';
import {
  describeValue,
  isJsonObject,
  type ConversionReport,
  type ObjectReader,
} from '../common/field-reader.js';
import { keyPath } from '../common/quote.js';

/**
 * What Machine API's Azure provider tags every VM with and CAPZ does not: the Infrastructure's
 * resource tags, and the ownership tag `kubernetes.io_cluster.<infrastructure name>: owned` (CAPZ
 * writes `kubernetes.io_cluster_<name>`, with an underscore).
 */
export function azureClusterTags(infrastructure: Infrastructure): ClusterTags {
  const name = infrastructure.status?.infrastructureName;
  return {
    resource: tagMap(infrastructure.status?.platformStatus?.azure?.resourceTags),
    ownership: name ? { [`kubernetes.io_cluster.${name}`]: 'owned' } : {},
  };
}

export function readTags(
  spec: ObjectReader,
  report: ConversionReport,
): Record<string, string> | undefined {
  const tags = spec.raw('tags');
  if (tags === undefined) return undefined;
  const path = spec.pathOf('tags');
  if (!isJsonObject(tags)) {
    report.error(path, `must be a map of tag names to values, but is ${describeValue(tags)}.`);
    return undefined;
  }
  const converted: [string, string][] = [];
  for (const [name, value] of Object.entries(tags)) {
    if (typeof value === 'string') converted.push([name, value]);
    else report.error(keyPath(path, name), `must be a string, but is ${describeValue(value)}.`);
  }
  // fromEntries defines own properties, so a key such as __proto__ stays an ordinary key.
  return converted.length > 0 ? Object.fromEntries(converted) : undefined;
}
