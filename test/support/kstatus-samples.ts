// Judging watch samples with kstatus: which samples of a MAPI MachineSet read Current before the
// MachineSet is synchronized, and a readable timeline of what each object read.
import type { MapiCondition } from '../../src/api/types.js';
import { kstatusOf, type KstatusResult } from './kstatus.js';
import type { Sample, SampledObject } from './object-samples.js';

export interface Judged extends Sample {
  kstatus: KstatusResult;
}

export async function judge(samples: readonly Sample[]): Promise<Judged[]> {
  const verdicts = await kstatusOf(samples.map((s) => s.object));
  return samples.map((sample, i) => ({ ...sample, kstatus: verdicts[i]! }));
}

interface MapiStatus {
  observedGeneration?: number;
  authoritativeAPI?: string;
  synchronizedGeneration?: number;
  conditions?: MapiCondition[];
}

const mapiStatus = (o: SampledObject) => (o.status ?? {}) as MapiStatus;

interface ManagedFieldsEntry {
  manager?: string;
  fieldsV1?: { 'f:status'?: Record<string, unknown> };
}

/** The field managers that own `status.observedGeneration`: who wrote it. */
function observedGenerationManagers(o: SampledObject): string[] {
  const entries = (o.metadata as { managedFields?: ManagedFieldsEntry[] }).managedFields ?? [];
  return entries
    .filter((e) => e.fieldsV1?.['f:status']?.['f:observedGeneration'] !== undefined)
    .map((e) => e.manager ?? '?');
}

function observedGenerationOwners(o: SampledObject): string {
  const owners = observedGenerationManagers(o);
  return owners.length > 0 ? ` (by ${owners.join(', ')})` : '';
}

/** The field manager machine-api-operator writes with (its binary's name). */
const MACHINE_API_OPERATOR = 'machine-api-operator';

/**
 * Whether an early Current sample is one no write of ours could have prevented: a MachineSet
 * with no observedGeneration yet (just created: the API server drops status on create), or whose
 * observedGeneration is machine-api-operator's alone (it sets it within milliseconds of an edit).
 */
function earlyByOthers(o: SampledObject): boolean {
  const managers = observedGenerationManagers(o);
  return (
    mapiStatus(o).observedGeneration === undefined ||
    (managers.length > 0 && managers.every((m) => m === MACHINE_API_OPERATOR))
  );
}
const synchronized = (o: SampledObject) =>
  mapiStatus(o).conditions?.find((c) => c.type === 'Synchronized');

/**
 * Whether a MAPI MachineSet is done: `Synchronized=True` with `synchronizedGeneration` at the
 * generation of the authoritative object — its own under MachineAPI, the CAPI MachineSet's under
 * ClusterAPI (product.md, "Status on the MAPI object"). Never while Migrating or before the
 * authority is known.
 */
export function isSynchronized(mapi: SampledObject, capiGeneration: number | undefined): boolean {
  const status = mapiStatus(mapi);
  const authoritativeGeneration =
    status.authoritativeAPI === 'MachineAPI'
      ? mapi.metadata.generation
      : status.authoritativeAPI === 'ClusterAPI'
        ? capiGeneration
        : undefined;
  return (
    synchronized(mapi)?.status === 'True' &&
    authoritativeGeneration !== undefined &&
    status.synchronizedGeneration === authoritativeGeneration
  );
}

/** One line per MAPI MachineSet sample: what kstatus reads it by and what it read. */
function describeMapiSample(s: Judged, capiGeneration: number | undefined): string {
  const status = mapiStatus(s.object);
  const condition = synchronized(s.object);
  return [
    `+${s.at}ms`,
    s.event,
    `rv=${s.object.metadata.resourceVersion}`,
    `generation=${s.object.metadata.generation}`,
    `observedGeneration=${status.observedGeneration ?? '-'}${observedGenerationOwners(s.object)}`,
    `authority=${status.authoritativeAPI ?? '-'}`,
    `Synchronized=${condition ? `${condition.status}/${condition.reason}` : '-'}`,
    `synchronizedGeneration=${status.synchronizedGeneration ?? '-'}`,
    `capiGeneration=${capiGeneration ?? '-'}`,
    `→ ${s.kstatus.status} (${s.kstatus.message})`,
  ].join(' ');
}

export interface MapiVerdicts {
  /** Samples that read Current while the MachineSet was not synchronized. */
  early: string[];
  /**
   * Those of them taken once a migration had said so on the object (MigrationProgressing=True):
   * from then on the controller's own Reconciling condition must keep it InProgress.
   */
  earlyWhileMigrating: string[];
  /** Early samples whose observedGeneration someone other than machine-api-operator wrote. */
  earlyNotByOthers: string[];
  /** Every sample of the MachineSet, described. */
  timeline: string[];
}

/**
 * Walks the samples in delivery order, pairing each sample of the MAPI MachineSet `name` with
 * the generation of the CAPI MachineSet of that name last seen before it.
 */
export function mapiVerdicts(judged: readonly Judged[], name: string): MapiVerdicts {
  const early: string[] = [];
  const earlyWhileMigrating: string[] = [];
  const earlyNotByOthers: string[] = [];
  const timeline: string[] = [];
  let capiGeneration: number | undefined;
  let migrationAnnounced = false;
  for (const s of judged) {
    if (s.object.metadata.name !== name) continue;
    if (s.object.apiVersion.startsWith('cluster.x-k8s.io/') && s.object.kind === 'MachineSet') {
      capiGeneration = s.object.metadata.generation;
    }
    if (s.object.apiVersion.startsWith('machine.openshift.io/') && s.object.kind === 'MachineSet') {
      const line = describeMapiSample(s, capiGeneration);
      timeline.push(line);
      migrationAnnounced ||=
        mapiStatus(s.object).conditions?.some(
          (c) => c.type === 'MigrationProgressing' && c.status === 'True',
        ) ?? false;
      if (s.kstatus.status === 'Current' && !isSynchronized(s.object, capiGeneration)) {
        early.push(line);
        if (migrationAnnounced) earlyWhileMigrating.push(line);
        if (!earlyByOthers(s.object)) earlyNotByOthers.push(line);
      }
    }
  }
  return { early, earlyWhileMigrating, earlyNotByOthers, timeline };
}

/**
 * What each object read over time, one line per object: its kind and name, then each change of
 * verdict with the time it was first seen.
 */
export function verdictTimelines(judged: readonly Judged[]): string[] {
  const byObject = new Map<string, string[]>();
  const last = new Map<string, string>();
  for (const s of judged) {
    const key = `${s.object.apiVersion.split('/')[0]} ${s.object.kind}/${s.object.metadata.name}`;
    const verdict = `${s.kstatus.status} (${s.kstatus.message})`;
    if (last.get(key) === verdict) continue;
    last.set(key, verdict);
    byObject.set(key, [...(byObject.get(key) ?? []), `+${s.at}ms ${verdict}`]);
  }
  return [...byObject].map(([key, changes]) => `${key}: ${changes.join(' → ')}`);
}

/**
 * The verdict of each object, keyed `<group> <Kind>` (Machines have generated names), as
 * `Status: message`, one entry per object of that kind.
 */
export async function verdictsByKind(
  objects: readonly SampledObject[],
): Promise<Record<string, string[]>> {
  const verdicts = await kstatusOf(objects);
  const byKind: Record<string, string[]> = {};
  objects.forEach((o, i) => {
    const key = `${o.apiVersion.split('/')[0]} ${o.kind}`;
    (byKind[key] ??= []).push(`${verdicts[i]!.status}: ${verdicts[i]!.message}`);
  });
  return byKind;
}
