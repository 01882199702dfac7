// What the plugin's commands (status, machines, migrate) share of a terminal and a process.

export interface PluginIO {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
  /** Where ~/.kube/config is looked for. */
  home: string;
  now?: () => Date;
  /** Ends a watch (exit code 0). */
  signal?: AbortSignal;
  /** Time between two reads of a watch. */
  refreshMs?: number;
}

export const REFRESH_MS = 2000;

/** Clears a terminal and moves the cursor home. */
export const CLEAR_SCREEN = '\x1b[H\x1b[2J';
