// The kubeconfig loader (kubeconfig.ts) run in a short-lived node process of its own, for the
// controller. client-node parses kubeconfig files well, but loading it brings every generated API
// model into memory, some 55 MiB of resident set that a process keeps for good (modules are never
// unloaded). The child loads, answers with the current context as plain data, and exits.
import { execFileSync } from 'node:child_process';
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

/** `loadKubeConfig(options)`'s current context, read by the loader in a process of its own. */
export function loadKubeConfigApart(options: LoadKubeConfigOptions): CurrentContext {
  // The child is this module's sibling, run as this process runs its modules (compiled, or
  // TypeScript through the loader in execArgv).
  const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  const child = fileURLToPath(new URL(`./kubeconfig-child.${extension}`, import.meta.url));
  let output: string;
  try {
    output = execFileSync(process.execPath, [...process.execArgv, child], {
      input: JSON.stringify(options),
      encoding: 'utf8',
      timeout: TIMEOUT_MS,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  } catch (err) {
    const { stderr } = err as { stderr?: string };
    throw new Error(
      `reading the kubeconfig failed: ${(err as Error).message.split('\n')[0]}${stderr?.trim() ? `: ${stderr.trim().slice(0, 500)}` : ''}`,
      { cause: err },
    );
  }
  const answer = JSON.parse(output) as ApartAnswer;
  if ('error' in answer) throw new KubeConfigError(answer.error.message, answer.error.reason);
  return answer.context;
}
