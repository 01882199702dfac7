// What the bench measures: our controller or the floor script, driven phase by phase.
import type { Phase } from './cli.js';

export interface SubjectUsage {
  /** Identifies the process the figures are from: a new one starts from zero. */
  process: number;
  cpuSeconds: number;
  /** Undefined when not measured. */
  peakRssBytes?: number;
  /** The resident set now; undefined when not measured. */
  rssBytes?: number;
}

export interface Subject {
  /** 'ours' or 'floor'. */
  name: string;
  /** What runs, for the table. */
  label: string;
  /** Does what the phase asks of it (start, restart, a pass, or nothing); does not wait for the outcome. */
  begin(phase: Phase): Promise<void>;
  /** Resolves when it is ready to do its work (our controller: /readyz passes). */
  ready(): Promise<void>;
  /** Resolves when its part of the phase is over (the floor: its pass has exited; ours: at once). */
  finished(): Promise<void>;
  /** Its current process's CPU and peak memory so far; undefined when none runs or ran in this phase. */
  usage(): SubjectUsage | undefined;
  /** Why it can no longer do its part (its process ended on its own), if so: a phase then fails at once. */
  failure(): Error | undefined;
  stop(): Promise<void>;
}
