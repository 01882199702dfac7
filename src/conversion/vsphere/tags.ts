// Both ways: the vCenter tags attached to each VM. Both sides attach the tagIDs, by URN; Machine
// API also attaches, by name, the cluster's own tag (the infrastructure name, in the category
// openshift-<infrastructure name>), which `openshift-install destroy` finds the VMs by, and CAPV
// does not: a MachineSet must list that tag's URN before Cluster API creates its machines.
import { isJsonObject, type ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';
import type { ConversionContext, FieldError } from '../types.js';
import { MAX_TAG_IDS } from './names.js';

/** Machine API's webhook's pattern: CAPV attaches tags by URN only. */
const TAG_URN =
  /^urn:vmomi:InventoryServiceTag:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}:[^:]+$/;

export function convertTagIds(spec: ObjectReader): string[] | undefined {
  const items = spec.items('tagIDs');
  if (items === undefined || items.length === 0) return undefined;
  if (items.length > MAX_TAG_IDS) {
    spec.report.error(
      spec.pathOf('tagIDs'),
      `has ${items.length} tags, more than the ${MAX_TAG_IDS} Machine API attaches; remove some.`,
    );
  }
  const tags: string[] = [];
  for (const { value, path } of items) {
    if (typeof value === 'string' && TAG_URN.test(value)) tags.push(value);
    else {
      const what = typeof value === 'string' ? quote(value) : 'not a string';
      spec.report.error(
        path,
        `is ${what}, which is not a tag URN; write it as ` +
          'urn:vmomi:InventoryServiceTag:<UUID>:GLOBAL (govc tags.info shows the ID).',
      );
    }
  }
  return tags;
}

/** Without any tagIDs, the machines Cluster API creates would lack the cluster's tag. */
export function clusterTagBlockers(
  providerSpec: unknown,
  context: ConversionContext,
): FieldError[] {
  const tagIDs = isJsonObject(providerSpec) ? providerSpec.tagIDs : undefined;
  if (Array.isArray(tagIDs) && tagIDs.length > 0) return [];
  const cluster = context.infrastructure.status?.infrastructureName || '<infrastructure name>';
  return [
    {
      path: `${context.path}.tagIDs`,
      message:
        `lists no tag, but Machine API attaches the cluster's tag ${quote(cluster)} (category ` +
        `openshift-${cluster}) to every VM it creates, which openshift-install destroy finds ` +
        "the VMs by, and Cluster API's vSphere provider attaches only the tags listed here; add " +
        `that tag's URN (govc tags.info ${cluster}), then migrate.`,
    },
  ];
}
