// The executable `kubectl-mapi_capi_sync`, which oc and kubectl run as `oc mapi-capi-sync`.
import { homedir } from 'node:os';
import { runPlugin } from './command.js';

const interrupted = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A watch ends cleanly at once; a read in flight is not waited for long.
    interrupted.abort();
    setTimeout(() => process.exit(130), 1000).unref();
  });
}
// Output piped into a command that stopped reading (`| head`) is not an error of ours.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  process.exit(err.code === 'EPIPE' ? 0 : 1);
});

process.exitCode = await runPlugin(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  home: homedir(),
  signal: interrupted.signal,
});
