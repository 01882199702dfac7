// Runs the controller program as a separate process, as it runs in a pod.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import type { MapiMachineSet } from '../../src/api/types.js';
import { adminObjects, controlPlane } from './cluster.js';
import { awsMachineSet, MAPI } from './controller.js';
import { eventually } from './eventually.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** How the program is started: node's arguments up to the program's own, and where. */
export interface ProgramEntry {
  nodeArgs: string[];
  cwd: string;
}

/** From source, as `npm start` runs it. */
export const FROM_SOURCE: ProgramEntry = {
  nodeArgs: ['--import', 'tsx', 'src/main.ts'],
  cwd: ROOT,
};

export interface LogLine {
  level: string;
  message: string;
  [key: string]: unknown;
}

export class ProgramProcess {
  readonly child: ChildProcess;
  private output = '';

  constructor(args: string[], env: Record<string, string> = {}, entry: ProgramEntry = FROM_SOURCE) {
    this.child = spawn(
      process.execPath,
      [
        ...entry.nodeArgs,
        '--log-format=json',
        '--metrics-bind-address=127.0.0.1:0',
        '--health-probe-bind-address=127.0.0.1:0',
        ...args,
      ],
      {
        cwd: entry.cwd,
        env: {
          ...process.env,
          KUBECONFIG: controlPlane().identityKubeconfigPaths['mapi-capi-sync'],
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  get text(): string {
    return this.output;
  }

  logs(): LogLine[] {
    return this.output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
  }

  /** The ports the process reports serving on. */
  async ports(): Promise<{ metricsPort: number; probePort: number }> {
    return eventually(() => {
      const line = this.logs().find((l) => l.message === 'serving metrics and probes');
      if (!line) throw new Error(`not serving yet:\n${this.output}`);
      return line as unknown as { metricsPort: number; probePort: number };
    });
  }

  /** Resolves with the exit code; kills and rejects if it has not exited within timeoutMs. */
  async exit(timeoutMs: number): Promise<number | null> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        once(this.child, 'exit').then(([code]) => code as number | null),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            this.child.kill('SIGKILL');
            reject(new Error(`did not exit within ${timeoutMs} ms:\n${this.output}`));
          }, timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  kill(signal: NodeJS.Signals): void {
    if (this.child.exitCode === null) this.child.kill(signal);
  }
}

const started: ProgramProcess[] = [];

export function startProgram(
  args: string[],
  env?: Record<string, string>,
  entry?: ProgramEntry,
): ProgramProcess {
  const program = new ProgramProcess(args, env, entry);
  started.push(program);
  return program;
}

/** Kills every program a test started (root hook, after each test). */
export async function killPrograms(): Promise<void> {
  await Promise.all(
    started.splice(0).map(async (p) => {
      p.kill('SIGKILL');
      await p.exit(10_000).catch(() => undefined);
    }),
  );
}

/** Creates an AWS MachineSet with status.authoritativeAPI MachineAPI. */
export async function createAwsMachineSet(namespace: string, name: string): Promise<void> {
  await adminObjects().create({ ...MAPI, namespace }, awsMachineSet(name, namespace));
  await adminObjects().patch(
    { ...MAPI, namespace, name },
    {
      type: 'json',
      operations: [{ op: 'add', path: '/status', value: { authoritativeAPI: 'MachineAPI' } }],
    },
    { subresource: 'status' },
  );
}

export async function synchronizedStatus(
  namespace: string,
  name: string,
): Promise<string | undefined> {
  const mapi = await adminObjects().get<MapiMachineSet>({ ...MAPI, namespace, name });
  return mapi.status?.conditions?.find((c) => c.type === 'Synchronized')?.status;
}
