// Explores every order in which the actors of a small cluster can take their steps, breadth
// first, each state once (by its fingerprint), and checks the promises after every step, once
// everyone is quiet, and that everyone can always become quiet (no step sequence that goes on
// for ever). A broken promise comes back as the numbered steps that lead to it.
import { Cluster, Refused, fingerprint, type State } from './cluster.js';
import { systemMoves, type Move } from './actors.js';
import { brokenByStep, brokenWhenQuiet, recordDeletions } from './invariants.js';
import { personMoves, type PersonAction } from './people.js';

export interface Scenario {
  name: string;
  start: State;
  /** What people do, in this order, between any two steps of the others. */
  script: PersonAction[];
}

export interface Exploration {
  states: number;
  /** The most steps any state is from the start. */
  depth: number;
  /** The first broken promise found: the steps to it and what broke. */
  counterexample?: { steps: string[]; broken: string[] };
  /** True when the state limit stopped the exploration. */
  truncated: boolean;
  /** Every order up to this many steps was explored (all of them when not truncated). */
  completeDepth: number;
}

interface Visit {
  /** Kept until the state's moves are taken. */
  state?: State;
  parent?: string;
  label?: string;
  depth: number;
  next: string[];
  quiet: boolean;
}

/** One move from a state: the state after it and what it broke; undefined when refused or a no-op. */
function take(state: State, move: Move): { after: State; broken: string[] } | undefined {
  const cluster = new Cluster(state);
  try {
    move.run(cluster);
  } catch (error) {
    if (error instanceof Refused) return undefined;
    throw error;
  }
  recordDeletions(state, move, cluster);
  return { after: cluster.state, broken: brokenByStep(state, move, cluster) };
}

export function explore(scenario: Scenario, maxStates = 200_000): Exploration {
  const start = fingerprint(scenario.start);
  const visits = new Map<string, Visit>([
    [start, { state: scenario.start, depth: 0, next: [], quiet: false }],
  ]);
  const queue = [start];
  let depth = 0;
  const found = (at: string, label: string | undefined, broken: string[]): Exploration => ({
    states: visits.size,
    depth,
    truncated: false,
    completeDepth: depth,
    counterexample: { steps: [...stepsTo(visits, at), ...(label ? [label] : [])], broken },
  });
  for (let head = 0; head < queue.length; head++) {
    const key = queue[head]!;
    const visit = visits.get(key)!;
    const state = visit.state!;
    visit.state = undefined;
    depth = Math.max(depth, visit.depth);
    let quiet = true;
    for (const move of [...systemMoves(state), ...personMoves(state, scenario.script)]) {
      const result = take(state, move);
      if (!result) continue;
      const after = fingerprint(result.after);
      if (after === key) continue;
      if (move.actor !== 'person') quiet = false;
      if (result.broken.length) return found(key, move.label, result.broken);
      visit.next.push(after);
      if (visits.has(after)) continue;
      if (visits.size >= maxStates) {
        return { states: visits.size, depth, truncated: true, completeDepth: visit.depth };
      }
      visits.set(after, {
        state: result.after,
        parent: key,
        label: move.label,
        depth: visit.depth + 1,
        next: [],
        quiet: false,
      });
      queue.push(after);
    }
    visit.quiet = quiet;
    if (quiet) {
      const broken = brokenWhenQuiet(state);
      if (broken.length) return found(key, undefined, broken);
    }
  }
  const endless = endlessState(visits);
  if (endless) {
    return found(endless, undefined, [
      'from here the actors can never all become quiet: some step sequence repeats for ever',
    ]);
  }
  return { states: visits.size, depth, truncated: false, completeDepth: depth };
}

/** A state from which no quiet state can be reached, if there is one. */
function endlessState(visits: Map<string, Visit>): string | undefined {
  const previous = new Map<string, string[]>();
  for (const [key, visit] of visits) {
    for (const next of visit.next) previous.set(next, [...(previous.get(next) ?? []), key]);
  }
  const canQuiet = new Set([...visits].filter(([, v]) => v.quiet).map(([k]) => k));
  const queue = [...canQuiet];
  while (queue.length) {
    for (const before of previous.get(queue.pop()!) ?? []) {
      if (!canQuiet.has(before)) {
        canQuiet.add(before);
        queue.push(before);
      }
    }
  }
  return [...visits.keys()].find((key) => !canQuiet.has(key));
}

function stepsTo(visits: Map<string, Visit>, key: string): string[] {
  const steps: string[] = [];
  for (let at = visits.get(key); at?.parent !== undefined; at = visits.get(at.parent)) {
    steps.unshift(at.label!);
  }
  return steps;
}

/** Runs the system actors (no person), always the first move that changes something, until quiet. */
export function settle(state: State, maxSteps = 500): State {
  let current = state;
  for (let i = 0; i < maxSteps; i++) {
    const next = systemMoves(current)
      .map((move) => take(current, move))
      .find((r) => r && fingerprint(r.after) !== fingerprint(current));
    if (!next) return current;
    if (next.broken.length) throw new Error(`settling broke: ${next.broken.join('; ')}`);
    current = next.after;
  }
  throw new Error('the cluster did not settle');
}

/** A counterexample as a person reads it. */
export function formatCounterexample(
  name: string,
  c: NonNullable<Exploration['counterexample']>,
): string {
  return [
    `${name}: a promise is broken after ${c.steps.length} steps:`,
    ...c.steps.map((step, i) => `  ${i + 1}. ${step}`),
    'broken:',
    ...c.broken.map((b) => `  - ${b}`),
  ].join('\n');
}
