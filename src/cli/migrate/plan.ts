// The decisions of a fleet migration: which MachineSets, in which waves, and whether a wave is
// done, failed or still waiting. Pure: every input is read from the objects, the time is given.
import type { MapiMachineSet } from '../../api/types.js';
import type { Problem } from '../check/report.js';
import type { Authority, Selection } from './flags.js';
import { matches } from './selector.js';
import {
  failureOf,
  machineChanges,
  objectsOf,
  progressOf,
  type Fleet,
  type MachineSnapshot,
  type Phase,
} from './state.js';

/** The selected MachineSets' names (sorted), and names asked for that do not exist. */
export function selectMachineSets(
  machineSets: MapiMachineSet[],
  selection: Selection,
): { selected: string[]; missing: string[] } {
  const names = machineSets.map((m) => m.metadata.name);
  if (selection.kind === 'names') {
    const present = new Set(names);
    return {
      selected: selection.names.filter((n) => present.has(n)).sort(),
      missing: selection.names.filter((n) => !present.has(n)),
    };
  }
  const selected =
    selection.kind === 'all'
      ? machineSets
      : machineSets.filter((m) => matches(selection.selector, m.metadata.labels));
  return { selected: selected.map((m) => m.metadata.name).sort(), missing: [] };
}

/** One selected MachineSet as the plan sees it. */
export interface Candidate {
  name: string;
  phase: Phase;
  /** `spec→status` when the plan was made. */
  authority: string;
  /** What `check` finds in the way (pending MachineSets only). */
  blocking: Problem[];
}

/** What a wave does with one MachineSet: patch spec.authoritativeAPI (a cancel too), or wait. */
export interface WaveStep {
  name: string;
  action: 'patch' | 'cancel' | 'wait';
  /** `spec→status` when the plan was made. */
  from: string;
}

export interface Plan {
  target: Authority;
  waves: WaveStep[][];
  /** Already on the target: nothing to do. */
  done: string[];
  /** Cannot migrate, with every field in the way; skipped with --skip-blocked. */
  blocked: { name: string; blocking: Problem[] }[];
  /** Some cannot migrate and --skip-blocked was not given: nothing is written. */
  refused: boolean;
}

/**
 * The waves: first every MachineSet already moving to the target (an interrupted run's wave, or
 * someone's edit: they are in flight already, whatever --max-in-flight says), topped up with
 * pending ones; then the others, at most `maxInFlight` at a time, in name order.
 */
export function planMigration(
  candidates: Candidate[],
  target: Authority,
  maxInFlight: number,
  skipBlocked: boolean,
): Plan {
  const blocked = candidates
    .filter((c) => c.phase === 'pending' && c.blocking.length > 0)
    .map(({ name, blocking }) => ({ name, blocking }));
  const isBlocked = new Set(blocked.map((b) => b.name));
  const step = (c: Candidate): WaveStep => ({
    name: c.name,
    action: c.phase === 'moving' ? 'wait' : c.phase === 'cancel' ? 'cancel' : 'patch',
    from: c.authority,
  });
  const moving = candidates.filter((c) => c.phase === 'moving').map(step);
  const toStart = candidates
    .filter((c) => (c.phase === 'pending' && !isBlocked.has(c.name)) || c.phase === 'cancel')
    .map(step);
  const waves: WaveStep[][] = [];
  const first = [...moving, ...toStart.splice(0, Math.max(0, maxInFlight - moving.length))];
  if (first.length > 0) waves.push(first);
  while (toStart.length > 0) waves.push(toStart.splice(0, maxInFlight));
  return {
    target,
    waves,
    done: candidates.filter((c) => c.phase === 'done').map((c) => c.name),
    blocked,
    refused: blocked.length > 0 && !skipBlocked,
  };
}

/** A MachineSet of the wave under way: since when the run waits for it, its Machines then. */
export interface InFlight {
  name: string;
  /** ms since the epoch, when the run started waiting for it (its patch, or its first read). */
  since: number;
  machines: MachineSnapshot;
}

/** The ClusterOperator's word, as read. */
export type OperatorState =
  | { kind: 'unchecked' }
  | { kind: 'absent' }
  | { kind: 'unreadable'; message: string }
  | { kind: 'healthy' }
  | { kind: 'degraded'; message: string };

/**
 * The ClusterOperator as a wave judges it: Degraded with the message it already had when the
 * wave started is not the wave's doing (a MachineSet broken before the run degrades it for
 * good), so it counts as healthy; a new or changed Degraded is waited for.
 */
export function operatorForWave(atStart: OperatorState, now: OperatorState): OperatorState {
  if (now.kind === 'degraded' && atStart.kind === 'degraded' && now.message === atStart.message) {
    return { kind: 'healthy' };
  }
  return now;
}

export type Verdict =
  | { kind: 'done' }
  | { kind: 'failed'; name?: string; message: string }
  | { kind: 'waiting'; reason: string };

const seconds = (ms: number) => `${Math.round(ms / 1000)}s`;

/**
 * The wave is done when every MachineSet of it has arrived (see `arrived`) with its Machines
 * unchanged, and the ClusterOperator is not Degraded; failed at the first MachineSet that will
 * not get there by itself, whose Machines changed, or that has not arrived in `timeoutMs`.
 */
export function judgeWave(
  wave: InFlight[],
  fleet: Fleet,
  target: Authority,
  operator: OperatorState,
  now: number,
  timeoutMs: number,
): Verdict {
  const waiting: string[] = [];
  for (const member of wave) {
    const objects = objectsOf(fleet, member.name);
    const failure = failureOf(objects, target);
    if (failure || !objects) {
      return { kind: 'failed', name: member.name, message: failure ?? '' };
    }
    const changes = machineChanges(member.machines, objects);
    if (changes.length > 0) {
      return {
        kind: 'failed',
        name: member.name,
        message: `a machine was created or deleted during its migration: ${changes.join('; ')}`,
      };
    }
    const progress = progressOf(objects, target);
    if (progress.arrived) continue;
    if (now - member.since > timeoutMs) {
      const { onTarget, total } = progress.machines;
      return {
        kind: 'failed',
        name: member.name,
        message: `not on ${target} after ${seconds(timeoutMs)} (--timeout): authority ${progress.authority}, step ${progress.step}, Machines ${onTarget}/${total} on ${target}, Synchronized ${progress.synchronized}`,
      };
    }
    waiting.push(member.name);
  }
  if (waiting.length > 0) return { kind: 'waiting', reason: `waiting for ${waiting.join(', ')}` };
  if (operator.kind === 'degraded') {
    const latest = Math.max(...wave.map((m) => m.since));
    if (now - latest > timeoutMs) {
      return {
        kind: 'failed',
        message: `the ClusterOperator is still Degraded after ${seconds(timeoutMs)} (--timeout): ${operator.message}`,
      };
    }
    return { kind: 'waiting', reason: `the ClusterOperator is Degraded: ${operator.message}` };
  }
  return { kind: 'done' };
}
