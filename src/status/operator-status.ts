// The controller's own health as a ClusterOperator status (config.openshift.io/v1), derived from
// what the caches hold and what the API server answered. Pure: the same facts give the same
// status, so any replica can re-derive it and nothing is stored only there.
import type { MapiMachineSet } from '../api/types.js';
import { MIGRATION_CONDITION } from '../model/markers.js';
import { synchronizedAtGeneration } from '../sync/report.js';

const CLUSTER_OPERATOR_CONDITIONS = [
  'Available',
  'Progressing',
  'Degraded',
  'Upgradeable',
] as const;

export interface OperatorCondition {
  type: (typeof CLUSTER_OPERATOR_CONDITIONS)[number];
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime: string;
}

interface RelatedObject {
  group: string;
  resource: string;
  namespace?: string;
  /** Empty: every object of the resource (in the namespace). */
  name: string;
}

export interface ClusterOperatorStatus {
  conditions: OperatorCondition[];
  versions: { name: string; version: string }[];
  relatedObjects: RelatedObject[];
}

/** A kind of write the API server refuses us (forbidden, unauthorized), not yet since accepted. */
export interface RefusedWrite {
  /** e.g. "create machinesets.cluster.x-k8s.io". */
  what: string;
  error: string;
}

/** What the controller's caches say about the cluster. */
export interface ClusterFacts {
  /** The informer caches have synced. */
  synced: boolean;
  /** False when the Infrastructure "cluster" does not exist. */
  infrastructureFound: boolean;
  /** The cluster's platform, when known; `platformSupported` says whether we convert it. */
  platform?: string;
  platformSupported: boolean;
  /** The CAPI Cluster named after the infrastructure name, when that name is known. */
  clusterName?: string;
  clusterFound: boolean;
  machineSets: MapiMachineSet[];
}

export interface OperatorFacts extends ClusterFacts {
  now: Date;
  version: string;
  mapiNamespace: string;
  capiNamespace: string;
  refusedWrites: RefusedWrite[];
  /** A MachineSet Synchronized=False for longer than this makes the operator Degraded. */
  degradedAfterMs: number;
}

const MAX_NAMED = 5;

/** "a, b, c and 4 more". */
function list(items: string[]): string {
  const named = items.slice(0, MAX_NAMED).join(', ');
  return items.length > MAX_NAMED ? `${named} and ${items.length - MAX_NAMED} more` : named;
}

/** 15m, 90s, 1h30m: a threshold as a person reads it. */
function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60 || seconds % 60) return `${seconds}s`;
  const minutes = seconds / 60;
  if (minutes < 60 || minutes % 60) {
    return minutes >= 60 ? `${Math.floor(minutes / 60)}h${minutes % 60}m` : `${minutes}m`;
  }
  return `${minutes / 60}h`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function synchronizedCondition(ms: MapiMachineSet) {
  return ms.status?.conditions?.find((c) => c.type === 'Synchronized');
}

/** A handshake under way: only `status.authoritativeAPI: Migrating` is a migration in progress. */
function isMigrating(ms: MapiMachineSet): boolean {
  return ms.status?.authoritativeAPI === 'Migrating';
}

/** Whether a time stamp lies further back than the threshold. */
function olderThanThreshold(time: string | undefined, facts: OperatorFacts): boolean {
  const since = Date.parse(time ?? '');
  return Number.isFinite(since) && facts.now.getTime() - since > facts.degradedAfterMs;
}

/** Synchronized=False since before `degradedAfterMs` ago, and not being deleted. */
function isStuck(ms: MapiMachineSet, facts: OperatorFacts): boolean {
  const condition = synchronizedCondition(ms);
  if (condition?.status !== 'False' || ms.metadata.deletionTimestamp) return false;
  return olderThanThreshold(condition.lastTransitionTime, facts);
}

/**
 * A migration request held at the gate for longer than the threshold: spec.authoritativeAPI asks
 * for the other API, no handshake has started, and either the MachineSet has been
 * Synchronized=False (it cannot be mirrored, so the gate cannot open) or the gate has been
 * waiting (MigrationProgressing=True) for that long. Says why, or undefined when it is not held.
 */
function blockedRequest(ms: MapiMachineSet, facts: OperatorFacts): string | undefined {
  const wanted = ms.spec?.authoritativeAPI;
  const current = ms.status?.authoritativeAPI;
  if (!wanted || !current || current === 'Migrating' || wanted === current) return undefined;
  if (ms.metadata.deletionTimestamp) return undefined;
  const request = `${current} → ${wanted}`;
  if (isStuck(ms, facts)) {
    return `${request}: Synchronized=False, ${synchronizedCondition(ms)?.reason ?? 'no reason'}`;
  }
  const gate = ms.status?.conditions?.find((c) => c.type === MIGRATION_CONDITION);
  if (gate?.status === 'True' && olderThanThreshold(gate.lastTransitionTime, facts)) {
    return `${request}: ${MIGRATION_CONDITION}=True, ${gate.reason ?? 'no reason'}`;
  }
  return undefined;
}

type Verdict = Pick<OperatorCondition, 'status' | 'reason' | 'message'>;

function available(facts: OperatorFacts): Verdict {
  if (!facts.synced) {
    return {
      status: 'False',
      reason: 'CachesNotSynced',
      message: 'The controller is starting: its caches of the cluster have not synced yet.',
    };
  }
  return {
    status: 'True',
    reason: 'AsExpected',
    message: `The controller runs and leads; it watches ${plural(facts.machineSets.length, 'MachineSet')} in ${facts.mapiNamespace}.`,
  };
}

function degraded(facts: OperatorFacts): Verdict {
  const problems: { reason: string; message: string }[] = [];
  if (!facts.infrastructureFound) {
    problems.push({
      reason: 'InfrastructureMissing',
      message:
        'The Infrastructure "cluster" (config.openshift.io/v1) does not exist, so nothing can be mirrored: check `oc get infrastructure cluster`.',
    });
  } else if (!facts.platformSupported) {
    problems.push({
      reason: 'PlatformUnsupported',
      message: `The platform ${facts.platform ? `"${facts.platform}"` : '(none in the Infrastructure status)'} has no conversion: MachineSets are reported, not mirrored.`,
    });
  }
  if (facts.infrastructureFound && facts.clusterName && !facts.clusterFound) {
    problems.push({
      reason: 'ClusterMissing',
      message: `The Cluster API Cluster ${facts.capiNamespace}/${facts.clusterName} does not exist; Cluster API does not act on the mirrors until it does (cluster-capi-operator creates it).`,
    });
  }
  if (facts.refusedWrites.length) {
    const refused = facts.refusedWrites.map((r) => `${r.what} (${r.error})`);
    problems.push({
      reason: 'WritesRefused',
      message: `The API server refuses the controller's writes: ${list(refused)}. Check the controller's ClusterRole and Roles (manifests/rbac-*.yaml).`,
    });
  }
  const blocked = facts.machineSets.flatMap((ms) => {
    const why = blockedRequest(ms, facts);
    return why ? [`${ms.metadata.name} (${why})`] : [];
  });
  if (blocked.length) {
    problems.push({
      reason: 'MigrationBlocked',
      message: `${plural(blocked.length, 'migration request has', 'migration requests have')} waited at the migration gate for more than ${duration(facts.degradedAfterMs)}: ${list(blocked)}. A migration starts only once the MachineSet and its Machines are synchronized: fix what the MachineSet's Synchronized or ${MIGRATION_CONDITION} condition names, or set spec.authoritativeAPI back to withdraw the request (\`oc describe machineset -n ${facts.mapiNamespace} NAME\`).`,
    });
  }
  // A MachineSet whose migration request is blocked is named once, above.
  const stuck = facts.machineSets.filter((ms) => isStuck(ms, facts) && !blockedRequest(ms, facts));
  if (stuck.length) {
    const named = stuck.map((ms) => `${ms.metadata.name} (${synchronizedCondition(ms)?.reason})`);
    problems.push({
      reason: 'MachineSetsNotSynchronized',
      message: `${plural(stuck.length, 'MachineSet has', 'MachineSets have')} been Synchronized=False for more than ${duration(facts.degradedAfterMs)}: ${list(named)}. Their Synchronized condition says what to fix (\`oc describe machineset -n ${facts.mapiNamespace} NAME\`).`,
    });
  }
  if (!problems.length) {
    return { status: 'False', reason: 'AsExpected', message: 'Nothing stops the controller.' };
  }
  return {
    status: 'True',
    reason: problems.length === 1 ? problems[0]!.reason : 'MultipleProblems',
    message: problems.map((p) => p.message).join(' '),
  };
}

function progressing(facts: OperatorFacts): Verdict {
  const migrating = facts.machineSets.filter(isMigrating).map((ms) => ms.metadata.name);
  const syncing = facts.machineSets
    .filter(
      (ms) =>
        !synchronizedAtGeneration(ms) &&
        !isStuck(ms, facts) &&
        !blockedRequest(ms, facts) &&
        !ms.metadata.deletionTimestamp,
    )
    .map((ms) => ms.metadata.name);
  const parts: string[] = [];
  if (migrating.length) {
    parts.push(
      `${plural(migrating.length, 'MachineSet is', 'MachineSets are')} migrating: ${list(migrating)}.`,
    );
  }
  if (syncing.length) {
    parts.push(
      `${plural(syncing.length, 'MachineSet is', 'MachineSets are')} not yet synchronized at their generation: ${list(syncing)}.`,
    );
  }
  if (!parts.length) {
    const total = facts.machineSets.length;
    const waiting = facts.machineSets.filter((ms) => !synchronizedAtGeneration(ms)).length;
    return {
      status: 'False',
      reason: 'AsExpected',
      message: waiting
        ? `${total - waiting} of ${plural(total, 'MachineSet')} are synchronized; the others wait for a fix (see Degraded).`
        : `All ${plural(total, 'MachineSet')} are synchronized.`,
    };
  }
  return {
    status: 'True',
    reason: migrating.length ? 'MigrationInProgress' : 'Synchronizing',
    message: parts.join(' '),
  };
}

function upgradeable(facts: OperatorFacts): Verdict {
  const migrating = facts.machineSets.filter(isMigrating).map((ms) => ms.metadata.name);
  if (migrating.length) {
    return {
      status: 'False',
      reason: 'MigrationInProgress',
      message: `Wait for the migration of ${list(migrating)} to finish (or set spec.authoritativeAPI back) before upgrading.`,
    };
  }
  return { status: 'True', reason: 'AsExpected', message: 'No migration is under way.' };
}

function relatedObjects(facts: OperatorFacts): RelatedObject[] {
  const { mapiNamespace, capiNamespace } = facts;
  return [
    { group: '', resource: 'namespaces', name: mapiNamespace },
    { group: '', resource: 'namespaces', name: capiNamespace },
    { group: 'config.openshift.io', resource: 'infrastructures', name: 'cluster' },
    { group: 'machine.openshift.io', resource: 'machinesets', namespace: mapiNamespace, name: '' },
    { group: 'machine.openshift.io', resource: 'machines', namespace: mapiNamespace, name: '' },
    { group: 'cluster.x-k8s.io', resource: 'machinesets', namespace: capiNamespace, name: '' },
    { group: 'cluster.x-k8s.io', resource: 'machines', namespace: capiNamespace, name: '' },
  ];
}

/**
 * The status the facts call for. A condition keeps its lastTransitionTime from `previous` while
 * its status stays the same.
 */
export function deriveOperatorStatus(
  facts: OperatorFacts,
  previous?: Partial<ClusterOperatorStatus>,
): ClusterOperatorStatus {
  const verdicts: Record<OperatorCondition['type'], Verdict> = {
    Available: available(facts),
    Progressing: progressing(facts),
    Degraded: degraded(facts),
    Upgradeable: upgradeable(facts),
  };
  const conditions = CLUSTER_OPERATOR_CONDITIONS.map((type): OperatorCondition => {
    const verdict = verdicts[type];
    const before = previous?.conditions?.find((c) => c.type === type);
    const lastTransitionTime =
      before?.status === verdict.status && before.lastTransitionTime
        ? before.lastTransitionTime
        : facts.now.toISOString().replace(/\.\d+Z$/, 'Z');
    return { type, ...verdict, lastTransitionTime };
  });
  return {
    conditions,
    versions: [{ name: 'operator', version: facts.version }],
    relatedObjects: relatedObjects(facts),
  };
}

/** Whether writing `next` over `current` changes anything a reader sees. */
export function operatorStatusChanged(
  current: Partial<ClusterOperatorStatus> | undefined,
  next: ClusterOperatorStatus,
): boolean {
  const normalise = (s: Partial<ClusterOperatorStatus> | undefined) =>
    JSON.stringify({
      conditions: [...(s?.conditions ?? [])]
        .sort((a, b) => a.type.localeCompare(b.type))
        .map(({ type, status, reason, message, lastTransitionTime }) => ({
          type,
          status,
          reason,
          message,
          lastTransitionTime,
        })),
      versions: s?.versions ?? [],
      relatedObjects: (s?.relatedObjects ?? []).map(({ group, resource, namespace, name }) => ({
        group,
        resource,
        namespace,
        name,
      })),
    });
  return normalise(current) !== normalise(next);
}
