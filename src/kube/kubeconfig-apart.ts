// The kubeconfig loader (kubeconfig.ts) run in a short-lived node process of its own, for the
// controller. client-node parses kubeconfig files well, but loading it brings every generated API
// model into memory, some 55 MiB of resident set that a process keeps for good (modules are never
// unloaded). The child loads, answers with the current context as plain data, and exits.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  KubeConfigError,
  type CurrentContext,
  type LoadKubeConfigOptions,
} from './current-context.js';

/** What the child prints: the context, or the loader's error. */
export type ApartAnswer =
  { context: CurrentContext } | { error: { message: string; reason: KubeConfigError['reason'] } };

const TIMEOUT_MS = 30_000;
/** The child's answer; kubeconfig-child.ts writes it there. */
export const ANSWER_FD = 3;

/**
 * The flags of this process the child needs to load its modules as this one does (a TypeScript
 * loader, say), without the diagnostic ones (a CPU profile, a GC trace, an inspector port) that
 * would run again in the child.
 */
export function moduleLoadingFlags(execArgv: readonly string[]): string[] {
  const withValue = new Set([
    '--import',
    '--require',
    '-r',
    '--loader',
    '--experimental-loader',
    '--conditions',
    '-C',
  ]);
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i]!;
    const name = flag.split('=')[0]!;
    if (!withValue.has(name)) continue;
    kept.push(flag);
    if (!flag.includes('=') && i + 1 < execArgv.length) kept.push(execArgv[++i]!);
  }
  return kept;
}

/** `loadKubeConfig(options)`'s current context, read by the loader in a process of its own. */
export function loadKubeConfigApart(options: LoadKubeConfigOptions): CurrentContext {
  // The child is this module's sibling, run as this process runs its modules (compiled, or
  // TypeScript through the loader in execArgv).
  const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  const child = fileURLToPath(new URL(`./kubeconfig-child.${extension}`, import.meta.url));
  // The answer comes on fd 3: stdout may carry what node itself prints (NODE_OPTIONS=--trace-gc).
  const run = spawnSync(process.execPath, [...moduleLoadingFlags(process.execArgv), child], {
    input: JSON.stringify(options),
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
    stdio: ['pipe', 'ignore', 'pipe', 'pipe'],
  });
  const answer = run.output?.[ANSWER_FD];
  if (run.error || run.status !== 0 || !answer) {
    const why =
      run.error?.message ?? (run.signal ? `killed by ${run.signal}` : `exit code ${run.status}`);
    const stderr = run.stderr?.trim();
    throw new Error(
      `reading the kubeconfig failed: ${why}${stderr ? `: ${stderr.slice(0, 500)}` : ''}`,
      { cause: run.error },
    );
  }
  const parsed = JSON.parse(answer) as ApartAnswer;
  if ('error' in parsed) throw new KubeConfigError(parsed.error.message, parsed.error.reason);
  return parsed.context;
}
