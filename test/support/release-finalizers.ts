// hack/release-finalizers.sh, the uninstall's step, run as an administrator would.
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { controlPlane } from './cluster.js';

const SCRIPT = resolve(import.meta.dirname, '..', '..', 'hack', 'release-finalizers.sh');

/** Runs the script with the test cluster's kubectl and an administrator's kubeconfig. */
export function releaseFinalizers(mapiNamespace: string, capiNamespace: string) {
  return promisify(execFile)(SCRIPT, [mapiNamespace, capiNamespace], {
    env: {
      ...process.env,
      KUBECONFIG: controlPlane().kubeconfigPath,
      KUBECTL: join(controlPlane().binDir, 'kubectl'),
    },
  });
}
