// Our controller as the image runs it: the compiled program, `node dist/main.js`, a process of its
// own (so that its CPU and memory are its own), restarted with SIGTERM like a pod.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Phase } from './cli.js';
import { imageEnvironment, imageNodeFlags } from '../image-entrypoint.js';
import { parseReconcileTotals } from './metrics.js';
import { readProcessUsage } from './process-usage.js';
import type { Subject, SubjectUsage } from './subject.js';

const REPO_ROOT = resolve(import.meta.dirname, '../..');
const READY_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 30_000;

/** `npm run build`: dist/ as the image has it. */
export function buildProgram(): void {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
}

export interface ControllerProcessOptions {
  kubeconfigPath: string;
  mapiNamespace: string;
  capiNamespace: string;
  workers: number;
  /** Where its logs go, one file per start. */
  logDir: string;
}

export class ControllerProcess implements Subject {
  readonly name = 'ours';
  readonly label: string;
  private child: ChildProcess | undefined;
  private probePort: Promise<number> | undefined;
  private metricsPort: Promise<number> | undefined;
  private starts = 0;
  private failed: Error | undefined;

  constructor(private readonly options: ControllerProcessOptions) {
    this.label = [
      ...Object.entries(imageEnvironment()).map(([key, value]) => `${key}=${value}`),
      'node',
      ...imageNodeFlags(),
      'dist/main.js',
      `--workers ${options.workers}`,
    ].join(' ');
  }

  async begin(phase: Phase): Promise<void> {
    if (phase === 'initial') this.start();
    if (phase === 'restart') {
      await this.stop();
      this.start();
    }
  }

  private start(): void {
    const { kubeconfigPath, mapiNamespace, capiNamespace, workers, logDir } = this.options;
    this.starts += 1;
    const logPath = join(logDir, `controller-${this.starts}.log`);
    // The program writes its log straight into the file, as into a container runtime's pipe that
    // is always read: a busy bench process must never hold up its writes.
    const logFd = openSync(logPath, 'w');
    // setpriv --pdeathsig: the controller dies with the bench, even if the bench is SIGKILLed.
    const child = spawn(
      'setpriv',
      [
        '--pdeathsig',
        'KILL',
        '--',
        process.execPath,
        ...nodeFlags(),
        join(REPO_ROOT, 'dist', 'main.js'),
        `--kubeconfig=${kubeconfigPath}`,
        `--mapi-namespace=${mapiNamespace}`,
        `--capi-namespace=${capiNamespace}`,
        `--workers=${workers}`,
        '--metrics-bind-address=127.0.0.1:0',
        '--health-probe-bind-address=127.0.0.1:0',
        '--log-format=json',
      ],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, ...imageEnvironment() },
        stdio: ['ignore', logFd, logFd],
      },
    );
    closeSync(logFd);
    this.child = child;
    child.once('exit', (code, signal) => {
      // stop() forgets the child before it ends it: only an exit of its own is a failure.
      if (this.child === child) {
        this.failed = new Error(`the controller exited (${code ?? signal}); see ${logPath}`);
      }
    });
    const ports = portsFrom(logPath, child);
    this.probePort = ports.then((p) => p.probePort);
    this.metricsPort = ports.then((p) => p.metricsPort);
    this.metricsPort.catch(() => undefined);
    // Seen by ready(); without a reader an early exit would be an unhandled rejection.
    this.probePort.catch(() => undefined);
  }

  async ready(): Promise<void> {
    if (!this.probePort) throw new Error('the controller has not been started');
    const deadline = Date.now() + READY_TIMEOUT_MS;
    const port = await Promise.race([
      this.probePort,
      sleep(READY_TIMEOUT_MS, undefined, { ref: false }).then(() => {
        throw new Error(
          `the controller did not serve its probes within ${READY_TIMEOUT_MS / 1000} s`,
        );
      }),
    ]);
    while (Date.now() < deadline) {
      if (this.child?.exitCode !== null) throw new Error('the controller exited');
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`, {
        signal: AbortSignal.timeout(5000),
      }).then(
        (res) => res.ok,
        () => false,
      );
      if (ok) return;
      await sleep(100);
    }
    throw new Error(`the controller was not ready within ${READY_TIMEOUT_MS / 1000} s`);
  }

  finished(): Promise<void> {
    return Promise.resolve();
  }

  failure(): Error | undefined {
    return this.failed;
  }

  /**
   * Reconciles so far in this process, per controller (`controller_runtime_reconcile_total` summed
   * over results): what the process did with the events it received.
   */
  async reconciles(): Promise<Record<string, number>> {
    if (!this.metricsPort) return {};
    const port = await this.metricsPort;
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
      signal: AbortSignal.timeout(10_000),
    });
    return parseReconcileTotals(await res.text());
  }

  usage(): SubjectUsage | undefined {
    const pid = this.child?.pid;
    const usage = pid === undefined ? undefined : readProcessUsage(pid);
    return usage && { process: this.starts, ...usage };
  }

  /** SIGTERM, as the kubelet does; SIGKILL if it has not gone after the grace period. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
  }
}

/** The ports the program logs once it serves (its line "serving metrics and probes"). */
async function portsFrom(
  logPath: string,
  child: ChildProcess,
): Promise<{ probePort: number; metricsPort: number }> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `the controller exited (${child.exitCode ?? child.signalCode}) before serving; see ${logPath}`,
      );
    }
    const text = await readFile(logPath, 'utf8');
    const line = text.split('\n').find((l) => l.includes('serving metrics and probes'));
    const ports = line && (JSON.parse(line) as { probePort?: number; metricsPort?: number });
    if (ports && ports.probePort && ports.metricsPort) {
      return { probePort: ports.probePort, metricsPort: ports.metricsPort };
    }
    await sleep(100);
  }
}

/**
 * The image's node flags, then any extra ones for this run, e.g.
 * BENCH_NODE_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof'.
 */
function nodeFlags(): string[] {
  const extra = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  return [...imageNodeFlags(), ...extra];
}
