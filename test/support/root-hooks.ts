// Mocha root hooks: one real control plane per integration test run, always torn down.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startControlPlane, type ControlPlane } from '../environment/control-plane.js';
import { deleteAdmissionPolicies } from './admission.js';
import { auditLogEnd, controllerDenialsSince } from './audit.js';
import { deleteTestNamespaces, setControlPlane, terminatingTestNamespaces } from './cluster.js';
import { controllerLogs, stopTestControllers } from './controller.js';
import { killPrograms } from './program.js';

let plane: ControlPlane | undefined;
let dir: string | undefined;
/** Where the audit log stood when the current test began. */
let auditFrom = 0;

async function teardown(): Promise<void> {
  const current = plane;
  plane = undefined;
  setControlPlane(undefined);
  await current?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}

// Interrupted runs still stop the control plane (children also carry a parent-death signal).
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    void teardown().finally(() => process.exit(130));
  });
}

export const mochaHooks = {
  async beforeAll(this: Mocha.Context): Promise<void> {
    this.timeout(0); // a cold first run builds the binaries
    dir = await mkdtemp(join(tmpdir(), 'mapi-capi-sync-test-'));
    plane = await startControlPlane({
      dir,
      log: (m) => process.stderr.write(`  [control plane] ${m}\n`),
    });
    setControlPlane(plane);
  },
  async beforeEach(): Promise<void> {
    auditFrom = await auditLogEnd();
  },
  async afterEach(this: Mocha.Context): Promise<void> {
    if (this.currentTest?.state === 'failed') {
      process.stderr.write(`  [controller logs of the failed test]\n${controllerLogs()}\n`);
    }
    await stopTestControllers();
    await killPrograms();
    // Policies first: they guard the objects the namespaces' deletion lets go of.
    await deleteAdmissionPolicies();
    await deleteTestNamespaces();
    // The controller is exempt from both sets of admission policies and has the RBAC it needs: a
    // denial is a defect of a policy, of the exemption or of manifests/, whatever the test asserted.
    const denials = await controllerDenialsSince(auditFrom);
    if (denials.length > 0) {
      throw new Error(`the API server refused the controller:\n${denials.join('\n')}`);
    }
  },
  async afterAll(this: Mocha.Context): Promise<void> {
    this.timeout(60_000);
    // Each stuck namespace is work for the namespace controller until the end: say how many.
    const stuck = await terminatingTestNamespaces().catch(() => undefined);
    if (stuck !== undefined) {
      process.stderr.write(`  [control plane] test namespaces still terminating: ${stuck}\n`);
    }
    await teardown();
  },
};
