// Run by `npm run build` once compiled: writes dist/kubectl-mapi_capi_sync, the executable oc
// and kubectl find on PATH as the plugin `mapi-capi-sync`. It starts the compiled plugin
// (dist/cli/plugin/main.js); node follows a symlink to it first, so linking it into a
// directory on PATH works. It lives in src/ because the image build compiles src/ alone.
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const LAUNCHER_NAME = 'kubectl-mapi_capi_sync';

/** The launcher's text: a node script importing main.js from where it sits in dist/. */
export const LAUNCHER_SOURCE = "#!/usr/bin/env node\nimport './cli/plugin/main.js';\n";

const dist = join(import.meta.dirname, '..', '..');
const launcher = join(dist, LAUNCHER_NAME);
await writeFile(launcher, LAUNCHER_SOURCE);
await chmod(launcher, 0o755);
