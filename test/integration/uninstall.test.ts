// The documented uninstall step: with the controller gone, hack/release-finalizers.sh releases
// its finalizer from both sides, leaves every other finalizer alone, and deletions then finish.
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import type { CapiMachineSet, MapiMachineSet } from '../../src/api/types.js';
import { FINALIZER } from '../../src/model/markers.js';
import { controlPlane } from '../support/cluster.js';
import {
  awsMachineSet,
  CAPI,
  customObjects,
  DEFAULT_INFRASTRUCTURE,
  MAPI,
  setInfrastructure,
  startTestController,
} from '../support/controller.js';
import { eventually } from '../support/eventually.js';

const SCRIPT = resolve(import.meta.dirname, '..', '..', 'hack', 'release-finalizers.sh');
const OTHER_FINALIZER = 'example.com/keep-me';

/** Runs the script as an administrator would, with the test cluster's kubectl. */
function releaseFinalizers(mapiNamespace: string, capiNamespace: string) {
  return promisify(execFile)(SCRIPT, [mapiNamespace, capiNamespace], {
    env: {
      ...process.env,
      KUBECONFIG: controlPlane().kubeconfigPath,
      KUBECTL: join(controlPlane().binDir, 'kubectl'),
    },
  });
}

function isNotFound(err: unknown): boolean {
  return (err as { code?: number }).code === 404;
}

describe('uninstall: hack/release-finalizers.sh', function () {
  this.timeout(120_000);

  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('releases only our finalizer on both sides, so that deletions finish without the controller', async () => {
    const c = await startTestController();
    const api = customObjects();
    const plain = awsMachineSet('worker-plain', c.mapiNamespace);
    const shared = awsMachineSet('worker-shared', c.mapiNamespace);
    // another controller's finalizer first, so ours is not at index 0
    shared.metadata.finalizers = [OTHER_FINALIZER];
    for (const body of [plain, shared]) {
      await api.createNamespacedCustomObject({ ...MAPI, namespace: c.mapiNamespace, body });
      await eventually(async () => {
        const current = (await api.getNamespacedCustomObject({
          ...MAPI,
          namespace: c.mapiNamespace,
          name: body.metadata.name,
        })) as MapiMachineSet;
        await api.replaceNamespacedCustomObjectStatus({
          ...MAPI,
          namespace: c.mapiNamespace,
          name: body.metadata.name,
          body: { ...current, status: { ...current.status, authoritativeAPI: 'MachineAPI' } },
        });
      });
    }
    const getMapi = async (name: string) =>
      (await api.getNamespacedCustomObject({
        ...MAPI,
        namespace: c.mapiNamespace,
        name,
      })) as MapiMachineSet;
    const getMirror = async (name: string) =>
      (await api.getNamespacedCustomObject({
        ...CAPI,
        namespace: c.capiNamespace,
        name,
      })) as CapiMachineSet;
    for (const name of ['worker-plain', 'worker-shared']) {
      await eventually(async () => {
        expect((await getMapi(name)).metadata.finalizers).to.include(FINALIZER);
        expect((await getMirror(name)).metadata.finalizers).to.include(FINALIZER);
      });
    }
    expect((await getMapi('worker-shared')).metadata.finalizers).to.deep.equal([
      OTHER_FINALIZER,
      FINALIZER,
    ]);
    await c.stop();

    const { stdout } = await releaseFinalizers(c.mapiNamespace, c.capiNamespace);
    expect(stdout.match(/patched/g), stdout).to.have.length(4);

    expect((await getMapi('worker-plain')).metadata.finalizers ?? []).to.deep.equal([]);
    expect((await getMirror('worker-plain')).metadata.finalizers ?? []).to.deep.equal([]);
    expect((await getMapi('worker-shared')).metadata.finalizers).to.deep.equal([OTHER_FINALIZER]);
    expect((await getMirror('worker-shared')).metadata.finalizers ?? []).to.deep.equal([]);

    // with the controller stopped, deletion completes only because the finalizer is gone
    await api.deleteNamespacedCustomObject({
      ...MAPI,
      namespace: c.mapiNamespace,
      name: 'worker-plain',
    });
    await eventually(async () => {
      const gone = await getMapi('worker-plain').then(
        () => false,
        (err: unknown) => {
          if (isNotFound(err)) return true;
          throw err;
        },
      );
      expect(gone, 'MAPI MachineSet deleted').to.equal(true);
    });

    // a second run has nothing left to do
    const again = await releaseFinalizers(c.mapiNamespace, c.capiNamespace);
    expect(again.stdout).to.equal('');
  });
});
