// What Machine API's providers put on every instance they create and Cluster API's do not: the
// Infrastructure's resource tags (labels on GCP), which cost reports and policies find instances
// by, and the cluster's ownership tag, which `openshift-install destroy` finds them by. The
// mirror's template carries them, so that an instance Cluster API creates after a migration has
// them too; the reverse conversion takes them out again, since Machine API adds them itself.
// Precedence as in Machine API's providers: the Infrastructure's, then the providerSpec's, then
// ownership. Pure.

/** The tags a platform's Machine API provider adds to what a providerSpec lists. */
export interface ClusterTags {
  /** The Infrastructure's resource tags or labels; a providerSpec's own value wins. */
  resource: Record<string, string>;
  /** The ownership tag where the Cluster API provider does not add it; wins over all. */
  ownership: Record<string, string>;
}

/** The providerSpec's tags with the cluster's merged in; undefined when there are none. */
export function withClusterTags(
  own: Record<string, string> | undefined,
  cluster: ClusterTags,
): Record<string, string> | undefined {
  const merged = { ...cluster.resource, ...own, ...cluster.ownership };
  return Object.keys(merged).length > 0 ? merged : undefined;
}

/** A template's tags without those Machine API adds by itself; undefined when none are left. */
export function withoutClusterTags<E extends { key: string; value: string }>(
  tags: E[] | undefined,
  cluster: ClusterTags,
): E[] | undefined {
  if (tags === undefined) return undefined;
  const added = new Map(Object.entries({ ...cluster.resource, ...cluster.ownership }));
  const own = tags.filter(({ key, value }) => added.get(key) !== value);
  return own.length > 0 ? own : undefined;
}

/** The same, for tags held as a map. */
export function withoutClusterTagMap(
  tags: Record<string, string> | undefined,
  cluster: ClusterTags,
): Record<string, string> | undefined {
  const entries = tags && Object.entries(tags).map(([key, value]) => ({ key, value }));
  const own = withoutClusterTags(entries, cluster);
  return own && Object.fromEntries(own.map(({ key, value }) => [key, value]));
}

/** A list of `{key, value}` (the Infrastructure's form) as a map, later entries winning. */
export function tagMap(list: readonly { key: string; value: string }[] | undefined) {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, value]));
}
