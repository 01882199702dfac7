// Counting the controller's accepted writes (its onWrite hook), for tests and the benchmark.
import type { KubeObject } from '../../src/api/types.js';

export interface WriteSummary {
  objects: number;
  writes: number;
  /** The most writes to any one object. */
  most: number;
}

/** Accepted writes by `<kind> <verb>`, and the largest number of writes to any one object. */
export class WriteLog {
  private counts = new Map<string, number>();
  /** Per object and verb: what each write was for. */
  private perObject = new Map<string, string[]>();
  /** performance.now() of the last write recorded. */
  lastWriteAt = performance.now();

  record = ({ verb, object, note }: { verb: string; object: KubeObject; note: string }): void => {
    this.lastWriteAt = performance.now();
    const what = `${object.kind === 'MachineSet' ? object.apiVersion.split('.')[0] : object.kind} ${verb}`;
    this.counts.set(what, (this.counts.get(what) ?? 0) + 1);
    const key = `${object.apiVersion}/${object.kind} ${verb} ${object.metadata.name}`;
    this.perObject.set(key, [...(this.perObject.get(key) ?? []), note]);
  };

  /** Per `<apiVersion>/<kind> <verb>`: objects written, writes, the most to one object. */
  summary(): Record<string, WriteSummary> {
    const summary: Record<string, WriteSummary> = {};
    for (const [key, notes] of this.perObject) {
      const what = key.slice(0, key.lastIndexOf(' '));
      const entry = (summary[what] ??= { objects: 0, writes: 0, most: 0 });
      entry.objects++;
      entry.writes += notes.length;
      entry.most = Math.max(entry.most, notes.length);
    }
    return summary;
  }

  /** What was written since the last call; resets. */
  take(): {
    counts: Record<string, number>;
    mostPerObject: Record<string, number>;
    /** For each kind and verb, the notes of the object written most often. */
    busiest: Record<string, string[]>;
  } {
    const counts = Object.fromEntries(this.counts);
    const mostPerObject: Record<string, number> = {};
    const busiest: Record<string, string[]> = {};
    for (const [key, notes] of this.perObject) {
      const what = key.slice(0, key.lastIndexOf(' '));
      if (notes.length > (mostPerObject[what] ?? 0)) {
        mostPerObject[what] = notes.length;
        busiest[what] = notes;
      }
    }
    this.counts.clear();
    this.perObject.clear();
    return { counts, mostPerObject, busiest };
  }
}

/**
 * How long a test that proves nothing is written watches. A write that answers a write, ours or
 * a neighbour's, follows within a round trip, well under a second: ten seconds hold many rounds
 * of any such loop.
 */
export const QUIET_WINDOW_MS = 10_000;

/** Resolves once `log` has recorded no write for `quietMs` (at most `timeoutMs`, then rejects). */
export async function writesQuiet(
  log: WriteLog,
  quietMs: number,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() - log.lastWriteAt < quietMs) {
    if (performance.now() > deadline) throw new Error(`writes went on for ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
