// The child of kubeconfig-apart.ts: reads the loader's options as JSON on stdin, prints the
// current context (or the loader's error) as JSON on file descriptor 3.
import { readFileSync, writeSync } from 'node:fs';
import { ANSWER_FD, type ApartAnswer } from './kubeconfig-apart.js';
import {
  currentContext,
  KubeConfigError,
  loadKubeConfig,
  type LoadKubeConfigOptions,
} from './kubeconfig.js';

function answer(): ApartAnswer {
  try {
    const options = JSON.parse(readFileSync(0, 'utf8')) as LoadKubeConfigOptions;
    return { context: currentContext(loadKubeConfig(options)) };
  } catch (err) {
    if (!(err instanceof KubeConfigError)) throw err;
    return { error: { message: err.message, reason: err.reason } };
  }
}

/** Writes it all, however the pipe takes it (a write may take part, or none while the pipe is full). */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  for (let written = 0; written < bytes.length;) {
    try {
      written += writeSync(fd, bytes, written);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
    }
  }
}

writeAll(ANSWER_FD, JSON.stringify(answer()));
