// The child of kubeconfig-apart.ts: reads the loader's options as JSON on stdin, prints the
// current context (or the loader's error) as JSON on stdout.
import { readFileSync } from 'node:fs';
import type { ApartAnswer } from './kubeconfig-apart.js';
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

process.stdout.write(JSON.stringify(answer()));
