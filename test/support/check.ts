// Runs the `check` command in-process, as the CLI would, and collects what it prints.
import { Readable, Writable } from 'node:stream';
import { runCheck } from '../../src/cli/check/command.js';

export async function check(
  argv: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const sink = (key: keyof typeof out) =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        out[key] += chunk.toString();
        done();
      },
    });
  const code = await runCheck(argv, {
    stdin: Readable.from([]),
    stdout: sink('stdout'),
    stderr: sink('stderr'),
    env: {},
  });
  return { code, ...out };
}
