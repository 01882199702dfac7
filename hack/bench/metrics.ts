// kube-apiserver's own count of requests (`apiserver_request_total`, Prometheus text format):
// the writes, by resource, and their differences between two scrapes; and the controller's count
// of reconciles. Pure.

/** The verbs of `apiserver_request_total` that change something. */
const WRITE_VERBS = ['POST', 'PUT', 'PATCH', 'APPLY', 'DELETE', 'DELETECOLLECTION'] as const;

/**
 * Writes the API server makes to itself and not on anyone's behalf that matters here: its own
 * identity and lease heartbeats (coordination.k8s.io Leases, every few seconds).
 */
const BACKGROUND_GROUPS = new Set(['coordination.k8s.io']);

/** Write counts keyed `VERB resource[/subresource][.group]`, e.g. `PATCH machinesets/status.machine.openshift.io`. */
export type WriteCounts = Record<string, number>;

const SAMPLE = /^apiserver_request_total\{([^}]*)\}\s+(\S+)/;
const RECONCILES = /^controller_runtime_reconcile_total\{([^}]*)\}\s+(\S+)/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

function labelsOf(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [, key, value] of text.matchAll(LABEL)) {
    if (key !== undefined && value !== undefined) labels[key] = value.replace(/\\(.)/g, '$1');
  }
  return labels;
}

/** The key a write is counted under. */
export function writeKey(labels: {
  verb: string;
  resource: string;
  subresource?: string;
  group?: string;
}): string {
  const sub = labels.subresource ? `/${labels.subresource}` : '';
  const group = labels.group ? `.${labels.group}` : '';
  return `${labels.verb} ${labels.resource}${sub}${group}`;
}

/**
 * The writes counted in a /metrics scrape, summed over response codes (a refused write costs the
 * server too), without the server's background lease writes.
 */
export function parseWriteCounts(metricsText: string): WriteCounts {
  const counts: WriteCounts = {};
  for (const line of metricsText.split('\n')) {
    const match = SAMPLE.exec(line);
    if (!match?.[1] || match[2] === undefined) continue;
    const labels = labelsOf(match[1]);
    const verb = labels.verb ?? '';
    if (!(WRITE_VERBS as readonly string[]).includes(verb)) continue;
    if (labels.dry_run) continue;
    if (BACKGROUND_GROUPS.has(labels.group ?? '')) continue;
    const value = Number(match[2]);
    if (!Number.isFinite(value)) continue;
    const key = writeKey({
      verb,
      resource: labels.resource ?? '',
      subresource: labels.subresource ?? '',
      group: labels.group ?? '',
    });
    counts[key] = (counts[key] ?? 0) + value;
  }
  return counts;
}

/**
 * What happened between two scrapes, less the writes the bench itself made in between (they
 * are not the subject's); keys whose difference is zero are left out.
 */
export function writeDelta(
  before: WriteCounts,
  after: WriteCounts,
  ownWrites: WriteCounts = {},
): WriteCounts {
  const delta: WriteCounts = {};
  for (const key of new Set([...Object.keys(after), ...Object.keys(ownWrites)])) {
    const n = (after[key] ?? 0) - (before[key] ?? 0) - (ownWrites[key] ?? 0);
    if (n !== 0) delta[key] = n;
  }
  return Object.fromEntries(Object.entries(delta).sort(([a], [b]) => a.localeCompare(b)));
}

export function totalWrites(counts: WriteCounts): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

/** Adds `n` writes under `key` (the bench's own bookkeeping). */
export function countWrite(counts: WriteCounts, key: string, n = 1): void {
  counts[key] = (counts[key] ?? 0) + n;
}

/** The controller's reconciles in a /metrics scrape, per controller, summed over results. */
export function parseReconcileTotals(metricsText: string): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const line of metricsText.split('\n')) {
    const match = RECONCILES.exec(line);
    const controller = match?.[1] && labelsOf(match[1]).controller;
    const value = Number(match?.[2]);
    if (controller && Number.isFinite(value))
      totals[controller] = (totals[controller] ?? 0) + value;
  }
  return totals;
}
