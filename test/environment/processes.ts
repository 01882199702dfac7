// The processes of the test environment and how it waits for them: free loopback ports, probes
// that never throw, polling until a check passes while the component still runs, and each
// component's process with its own log file, attached to this Node process or detached from it.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

export interface Probe {
  status: number;
  body: string;
}

/** A request (GET unless a body is given) that never throws: connection errors come back as status 0. */
export async function probe(
  url: string,
  opts: { ca?: Buffer; token?: string; insecure?: boolean; method?: string; body?: unknown } = {},
): Promise<Probe> {
  const doRequest = url.startsWith('https:') ? httpsRequest : httpRequest;
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolveProbe) => {
    const req = doRequest(
      url,
      {
        method: opts.method ?? (payload === undefined ? 'GET' : 'POST'),
        ca: opts.ca,
        rejectUnauthorized: !opts.insecure,
        headers: {
          ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}),
          ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        timeout: 5000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolveProbe({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolveProbe({ status: 0, body: String(err) }));
    req.end(payload);
  });
}

export async function waitFor(
  what: string,
  timeoutMs: number,
  check: () => Promise<boolean>,
  alive: () => void,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    alive();
    if (await check()) return;
    await sleep(200);
  }
  throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
}

async function tail(file: string, lines = 30): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM, then SIGKILL after the grace period; resolves when every pid is gone. */
export async function killAll(pids: number[], graceMs = 10_000): Promise<void> {
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (pids.some(isAlive) && Date.now() < deadline) await sleep(100);
  for (const pid of pids.filter(isAlive)) signal(pid, 'SIGKILL');
  while (pids.some(isAlive)) await sleep(50);
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** What a component's starter needs of the processes: to launch its own and to watch it. */
export interface Launcher<Name extends string> {
  /** Starts the binary `name` (from the control plane's binaries unless `fromDir`). */
  launch(name: Name, args: string[], fromDir?: string): void;
  /** A check that throws, naming its log, once the component has exited. */
  ensureRunning(name: Name): () => void;
}

/**
 * The components' processes, each logging to `<dir>/logs/<name>.log`. Detached processes outlive
 * this Node process (the local-cluster command); attached ones are killed when it dies, even by
 * SIGKILL.
 */
export class Processes<Name extends string> implements Launcher<Name> {
  private readonly children: Partial<Record<Name, ChildProcess>> = {};
  private readonly killSync = (): void => this.allPids().forEach((pid) => signal(pid, 'SIGKILL'));

  constructor(
    private readonly dir: string,
    private readonly binDir: string,
    private readonly detached: boolean,
  ) {
    if (!detached) process.on('exit', this.killSync);
  }

  launch(name: Name, args: string[], fromDir = this.binDir): void {
    // The log file is the child's own stdout/stderr: no pipe through this process.
    const out = openSync(this.logFile(name), 'w');
    const binary = join(fromDir, name);
    // setpriv --pdeathsig: an attached component dies with us even if we are SIGKILLed.
    const [cmd, argv] = this.detached
      ? [binary, args]
      : ['setpriv', ['--pdeathsig', 'KILL', '--', binary, ...args]];
    const child = spawn(cmd, argv, { detached: this.detached, stdio: ['ignore', out, out] });
    closeSync(out);
    if (this.detached) child.unref();
    this.children[name] = child;
  }

  ensureRunning(name: Name): () => void {
    return () => {
      const child = this.children[name];
      if (child && (child.exitCode !== null || child.signalCode !== null)) {
        const how =
          child.exitCode !== null ? `code ${child.exitCode}` : `signal ${child.signalCode}`;
        throw new Error(`${name} exited with ${how}; see ${this.dir}/logs/${name}.log`);
      }
    };
  }

  /** Every launched component's pid, in start order. */
  pids(): Partial<Record<Name, number>> {
    const pids: Partial<Record<Name, number>> = {};
    for (const [name, child] of this.entries()) {
      if (child.pid !== undefined) pids[name] = child.pid;
    }
    return pids;
  }

  /** The last lines of every launched component's log, for an error message. */
  async logTails(): Promise<string[]> {
    return Promise.all(
      this.entries().map(async ([name]) => `--- ${name} ---\n${await tail(this.logFile(name))}`),
    );
  }

  /** Stops every component (SIGTERM, then SIGKILL) and forgets them at exit. */
  async stop(): Promise<void> {
    await killAll(this.allPids());
    process.off('exit', this.killSync);
  }

  private allPids(): number[] {
    return this.entries().flatMap(([, child]) => (child.pid === undefined ? [] : [child.pid]));
  }

  private entries(): [Name, ChildProcess][] {
    return Object.entries(this.children) as [Name, ChildProcess][];
  }

  private logFile(name: Name): string {
    return join(this.dir, 'logs', `${name}.log`);
  }
}
