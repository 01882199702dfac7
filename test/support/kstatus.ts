// What kstatus (sigs.k8s.io/cli-utils, the library Flux and Argo CD judge readiness with) reads
// for objects, computed by the real library: the checker built by hack/build-kstatus.sh from
// test/environment/kstatus/. One checker process serves the whole test run, fed over stdin: a
// batch costs well under a millisecond that way, against about 5 ms for a process per batch.
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** status.Compute's statuses, and Error for an object the checker could not read. */
type KstatusStatus =
  'Current' | 'InProgress' | 'Failed' | 'Terminating' | 'NotFound' | 'Unknown' | 'Error';

export interface KstatusResult {
  kind: string;
  name: string;
  namespace: string;
  generation: number;
  status: KstatusStatus;
  message: string;
}

interface Checker {
  child: ChildProcessWithoutNullStreams;
  /** Callers waiting for their next output line, in the order they wrote their objects. */
  waiting: { resolve: (line: string) => void; reject: (err: Error) => void }[];
  failure?: Error;
}

let checker: Checker | undefined;

/** Builds the checker when missing (a second or so; skipped once built); returns its path. */
function checkerBinary(): string {
  const out = execFileSync('bash', [join(REPO_ROOT, 'hack', 'build-kstatus.sh')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  const dir = out.trim().split('\n').pop();
  if (!dir) throw new Error('hack/build-kstatus.sh printed no directory');
  return join(dir, 'kstatus');
}

function startChecker(): Checker {
  const child = spawn(checkerBinary(), [], { stdio: ['pipe', 'pipe', 'pipe'] });
  const started: Checker = { child, waiting: [] };
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    started.waiting.shift()?.resolve(line);
  });
  const fail = (err: Error) => {
    started.failure ??= err;
    for (const w of started.waiting.splice(0)) w.reject(started.failure);
    if (checker === started) checker = undefined;
  };
  child.on('error', fail);
  child.on('close', (code, signal) =>
    fail(new Error(`the kstatus checker exited (${signal ?? code}): ${stderr.trim()}`)),
  );
  // An idle checker must not keep the test run alive; it ends with this process.
  child.unref();
  process.once('exit', () => child.kill('SIGKILL'));
  return started;
}

/** The checker's answer for each object, in order, Error included. */
export async function computeKstatus(objects: readonly unknown[]): Promise<KstatusResult[]> {
  checker ??= startChecker();
  const current = checker;
  const lines = objects.map(
    (object) =>
      new Promise<string>((resolveLine, rejectLine) => {
        if (current.failure) return rejectLine(current.failure);
        current.waiting.push({ resolve: resolveLine, reject: rejectLine });
        current.child.stdin.write(`${JSON.stringify(object)}\n`);
      }),
  );
  return (await Promise.all(lines)).map((line) => JSON.parse(line) as KstatusResult);
}

/**
 * What kstatus reads for each object, in order. Each object needs its apiVersion and kind (list
 * items from the API server lack them: add them first). An object the checker cannot read
 * throws, so that a test never mistakes a bad sample for a verdict.
 */
export async function kstatusOf(objects: readonly object[]): Promise<KstatusResult[]> {
  const results = await computeKstatus(objects);
  const unreadable = results.findIndex((r) => r.status === 'Error');
  if (unreadable >= 0) {
    throw new Error(
      `kstatus could not read object ${unreadable}: ${results[unreadable]!.message}: ${JSON.stringify(objects[unreadable]).slice(0, 500)}`,
    );
  }
  return results;
}

/** Stops the checker (the next kstatusOf starts another). */
export async function stopKstatus(): Promise<void> {
  const current = checker;
  checker = undefined;
  if (!current || current.child.exitCode !== null) return;
  const exited = new Promise((resolveExit) => current.child.once('close', resolveExit));
  current.child.stdin.end();
  await exited;
}
