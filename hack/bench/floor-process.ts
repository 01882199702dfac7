// The floor script driven phase by phase: one pass (floor-main.ts, a process of its own) for each
// phase that has something to write or to check — initial, rotation, and restart (a fresh pass
// that finds everything synchronized); nothing at all while idle.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Phase } from './cli.js';
import type { Subject, SubjectUsage } from './subject.js';

const REPO_ROOT = resolve(import.meta.dirname, '../..');

export interface FloorProcessOptions {
  kubeconfigPath: string;
  mapiNamespace: string;
  capiNamespace: string;
  concurrency: number;
  logDir: string;
}

interface PassReport {
  machineSets: number;
  /** CPU of the pass itself, without node's start and the TypeScript loader. */
  cpuSeconds: number;
}

export class FloorProcess implements Subject {
  readonly name = 'floor';
  readonly label: string;
  private pass: Promise<PassReport> | undefined;
  private report: PassReport | undefined;
  private passes = 0;
  private failed: Error | undefined;

  constructor(private readonly options: FloorProcessOptions) {
    this.label = `floor script, ${options.concurrency} at a time`;
  }

  begin(phase: Phase): Promise<void> {
    this.report = undefined;
    this.pass = phase === 'idle' ? undefined : this.runPass();
    // Seen by finished(); a failure before then must not be an unhandled rejection.
    this.pass?.catch((err: Error) => (this.failed = err));
    return Promise.resolve();
  }

  private async runPass(): Promise<PassReport> {
    const { kubeconfigPath, mapiNamespace, capiNamespace, concurrency, logDir } = this.options;
    this.passes += 1;
    const logPath = join(logDir, `floor-${this.passes}.log`);
    const log = createWriteStream(logPath);
    const child = spawn(
      'setpriv',
      [
        '--pdeathsig',
        'KILL',
        '--',
        process.execPath,
        '--import',
        'tsx',
        join(REPO_ROOT, 'hack', 'bench', 'floor-main.ts'),
        `--kubeconfig=${kubeconfigPath}`,
        `--mapi-namespace=${mapiNamespace}`,
        `--capi-namespace=${capiNamespace}`,
        `--concurrency=${concurrency}`,
      ],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.pipe(log);
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`the floor script exited with ${code}; see ${logPath}`);
    const last = stdout.trim().split('\n').pop() ?? '';
    return JSON.parse(last) as PassReport;
  }

  ready(): Promise<void> {
    return Promise.resolve();
  }

  async finished(): Promise<void> {
    if (this.pass) this.report = await this.pass;
  }

  failure(): Error | undefined {
    return this.failed;
  }

  usage(): SubjectUsage | undefined {
    return this.report && { process: this.passes, ...this.report };
  }

  async stop(): Promise<void> {
    await this.pass?.catch(() => undefined);
  }
}
