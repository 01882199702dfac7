// The node flags and environment the image runs the controller with, read from the Containerfile's
// ENTRYPOINT and its runtime stage's ENV, so that the bench measures, and the image test runs, the
// program exactly as a cluster runs it. The parsers are pure.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const CONTAINERFILE = resolve(import.meta.dirname, '../Containerfile');
const PROGRAM = 'dist/main.js';

/** The flags between `node` and `dist/main.js` in the exec-form ENTRYPOINT of a Containerfile. */
export function entrypointNodeFlags(containerfile: string): string[] {
  const lines = containerfile.split('\n').filter((line) => /^\s*ENTRYPOINT\s/i.test(line));
  const last = lines.at(-1);
  if (!last) throw new Error('the Containerfile has no ENTRYPOINT');
  let argv: unknown;
  try {
    argv = JSON.parse(last.replace(/^\s*ENTRYPOINT\s+/i, ''));
  } catch {
    throw new Error(`the Containerfile's ENTRYPOINT is not in exec form (a JSON array): ${last}`);
  }
  const words: unknown[] = Array.isArray(argv) ? argv : [];
  const program = words.indexOf(PROGRAM);
  if (!words.every((w) => typeof w === 'string') || words[0] !== 'node' || program < 0) {
    throw new Error(`the Containerfile's ENTRYPOINT does not run node ${PROGRAM}: ${last}`);
  }
  return words.slice(1, program);
}

export function imageNodeFlags(): string[] {
  return entrypointNodeFlags(readFileSync(CONTAINERFILE, 'utf8'));
}

/**
 * The variables the runtime stage (after the last FROM) sets with `ENV KEY=VALUE …` (values
 * without spaces, optionally in double quotes).
 */
export function runtimeEnvironment(containerfile: string): Record<string, string> {
  const lines = containerfile.split('\n');
  const from = lines.findLastIndex((line) => /^\s*FROM\s/i.test(line));
  const env: Record<string, string> = {};
  for (const line of lines.slice(from + 1)) {
    const match = /^\s*ENV\s+(.*)$/i.exec(line);
    if (!match?.[1]) continue;
    for (const word of match[1].trim().split(/\s+/)) {
      const pair = /^([A-Za-z_][A-Za-z0-9_]*)=(?:"([^"]*)"|(\S*))$/.exec(word);
      if (!pair?.[1]) throw new Error(`the Containerfile's ENV is not KEY=VALUE: ${line.trim()}`);
      env[pair[1]] = pair[2] ?? pair[3] ?? '';
    }
  }
  return env;
}

export function imageEnvironment(): Record<string, string> {
  return runtimeEnvironment(readFileSync(CONTAINERFILE, 'utf8'));
}
