// What the environment runs, built or fetched by the hack/ scripts into a cache outside the
// repository, each skipped when already there.
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

/** Runs a hack/ script that prints a directory on its last line; returns that directory. */
export function runHackScript(script: string, args: readonly string[] = []): string {
  const out = execFileSync('bash', [join(REPO_ROOT, 'hack', script), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  const dir = out.trim().split('\n').pop();
  if (!dir) throw new Error(`hack/${script} printed no directory`);
  return dir;
}

export function ensureBinaries(): string {
  return runHackScript('build-controlplane.sh');
}

export function ensureCrds(): string {
  return runHackScript('fetch-crds.sh');
}
