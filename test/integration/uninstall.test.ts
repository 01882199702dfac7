// The documented uninstall step: with the controller gone, hack/release-finalizers.sh releases
// its finalizer from the MachineSets and Machines of both sides, leaves every other finalizer
// alone (machine-api-operator's on its Machines among them), and deletions then finish, next to
// machine-api-operator and Cluster API.
import { expect } from 'chai';
import type { CapiMachineSet, KubeObject, MapiMachineSet } from '../../src/api/types.js';
import {
  FINALIZER,
  MAPI_MACHINE_FINALIZER,
  MIRROR_UID_ANNOTATION,
} from '../../src/model/markers.js';
import { adminObjects, controlPlane } from '../support/cluster.js';
import {
  AWS_TEMPLATES,
  awsMachineSet,
  CAPI,
  DEFAULT_INFRASTRUCTURE,
  MAPI,
  setInfrastructure,
  startTestController,
} from '../support/controller.js';
import { check } from '../support/check.js';
import { releaseFinalizers } from '../support/release-finalizers.js';
import { eventually } from '../support/eventually.js';
import {
  awsMachines,
  CAPI_MACHINES,
  capiMachines,
  MAPI_MACHINES,
  mapiMachines,
  names,
} from '../support/machines.js';

const OTHER_FINALIZER = 'example.com/keep-me';

function isNotFound(err: unknown): boolean {
  return (err as { code?: number }).code === 404;
}

/** name → finalizers, of every object listed. */
const finalizersByName = (objects: KubeObject[]) =>
  Object.fromEntries(objects.map((o) => [o.metadata.name, o.metadata.finalizers ?? []]));

describe('uninstall: hack/release-finalizers.sh', function () {
  this.timeout(240_000);

  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('releases only our finalizer from MachineSets and Machines on both sides, so that deletions finish without the controller', async () => {
    const c = await startTestController();
    const api = adminObjects();
    const plain = awsMachineSet('worker-plain', c.mapiNamespace);
    const shared = awsMachineSet('worker-shared', c.mapiNamespace);
    // another controller's finalizer first, so ours is not at index 0
    shared.metadata.finalizers = [OTHER_FINALIZER];
    for (const body of [plain, shared]) {
      await api.create({ ...MAPI, namespace: c.mapiNamespace }, body);
      await eventually(async () => {
        const current = await api.get<MapiMachineSet>({
          ...MAPI,
          namespace: c.mapiNamespace,
          name: body.metadata.name,
        });
        await api.replace(
          { ...MAPI, namespace: c.mapiNamespace, name: body.metadata.name },
          { ...current, status: { ...current.status, authoritativeAPI: 'MachineAPI' } },
          { subresource: 'status' },
        );
      });
    }
    const getMapi = async (name: string) =>
      await api.get<MapiMachineSet>({ ...MAPI, namespace: c.mapiNamespace, name });
    const getMirror = async (name: string) =>
      await api.get<CapiMachineSet>({ ...CAPI, namespace: c.capiNamespace, name });
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
    // machine-api-operator made 2 Machines per MachineSet; the controller mirrored each of them
    // and put its finalizer on both sides (beside machine-api-operator's on the MAPI Machine).
    const machines = await eventually(
      async () => {
        const mapi = await mapiMachines(c);
        const capi = await capiMachines(c);
        const seen = JSON.stringify([finalizersByName(mapi), finalizersByName(capi)]);
        expect(mapi, seen).to.have.length(4);
        expect(capi.map((m) => m.metadata.name).sort(), seen).to.deep.equal(
          mapi.map((m) => m.metadata.name).sort(),
        );
        // Everyone's finalizers are on before the snapshot: ours on both sides, and
        // machine-api-operator's on the MAPI Machine (Cluster API adds none to a paused Machine
        // it has never reconciled).
        for (const machine of mapi) {
          expect(machine.metadata.finalizers, seen).to.include.members([
            FINALIZER,
            MAPI_MACHINE_FINALIZER,
          ]);
        }
        for (const machine of capi) expect(machine.metadata.finalizers, seen).to.include(FINALIZER);
        return { mapi: finalizersByName(mapi), capi: finalizersByName(capi) };
      },
      { timeoutMs: 90_000 },
    );
    await c.stop();

    const { stdout } = await releaseFinalizers(c.mapiNamespace, c.capiNamespace);
    expect(stdout.match(/patched/g), stdout).to.have.length(4 + 4 + 4);
    const withoutOurs = (byName: Record<string, string[]>) =>
      Object.fromEntries(
        Object.entries(byName).map(([name, list]) => [name, list.filter((f) => f !== FINALIZER)]),
      );
    expect(finalizersByName(await mapiMachines(c)), 'MAPI Machines').to.deep.equal(
      withoutOurs(machines.mapi),
    );
    expect(finalizersByName(await capiMachines(c)), 'CAPI Machines').to.deep.equal(
      withoutOurs(machines.capi),
    );
    for (const list of Object.values(machines.mapi)) {
      expect(list.length, "machine-api-operator's finalizer is left").to.be.greaterThan(1);
    }

    expect((await getMapi('worker-plain')).metadata.finalizers ?? []).to.deep.equal([]);
    expect((await getMirror('worker-plain')).metadata.finalizers ?? []).to.deep.equal([]);
    expect((await getMapi('worker-shared')).metadata.finalizers).to.deep.equal([OTHER_FINALIZER]);
    expect((await getMirror('worker-shared')).metadata.finalizers ?? []).to.deep.equal([]);

    // with the controller stopped, deletion completes only because the finalizer is gone
    await api.delete({ ...MAPI, namespace: c.mapiNamespace, name: 'worker-plain' });
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

    // deleting a Machine of either side finishes too
    const [mapiMachine, capiMachine] = Object.keys(machines.mapi)
      .filter((name) => name.startsWith('worker-shared'))
      .sort();
    const gone = async (where: typeof MAPI_MACHINES, namespace: string, name: string) =>
      api.get({ ...where, namespace, name }).then(
        () => false,
        (err: unknown) => {
          if (isNotFound(err)) return true;
          throw err;
        },
      );
    expect(mapiMachine && capiMachine, JSON.stringify(machines.mapi)).to.be.a('string');
    await api.delete({ ...MAPI_MACHINES, namespace: c.mapiNamespace, name: mapiMachine! });
    await api.delete({ ...CAPI_MACHINES, namespace: c.capiNamespace, name: capiMachine! });
    await eventually(
      async () => {
        expect(await gone(MAPI_MACHINES, c.mapiNamespace, mapiMachine!), 'MAPI Machine').to.equal(
          true,
        );
        expect(await gone(CAPI_MACHINES, c.capiNamespace, capiMachine!), 'CAPI Machine').to.equal(
          true,
        );
        // and the Machines of the deleted MachineSet, which the garbage collector deletes
        const left = (await mapiMachines(c)).filter((m) => m.metadata.name in machines.mapi);
        expect(
          left.map((m) => m.metadata.name).filter((n) => n.startsWith('worker-plain')),
        ).to.deep.equal([]);
      },
      { timeoutMs: 90_000 },
    );

    // a second run has nothing left to do
    const again = await releaseFinalizers(c.mapiNamespace, c.capiNamespace);
    expect(again.stdout).to.equal('');
  });

  it('a MachineSet deleted while the controller is away is followed at the reinstall; a copy of a mirror is left alone', async () => {
    const c = await startTestController();
    const api = adminObjects();
    for (const name of ['worker-gone', 'worker-kept']) {
      await api.create(
        { ...MAPI, namespace: c.mapiNamespace },
        awsMachineSet(name, c.mapiNamespace),
      );
    }
    const getMirror = (name: string) =>
      api.get<CapiMachineSet>({ ...CAPI, namespace: c.capiNamespace, name });
    // Mirrored, Machines too; no mirror records its own uid while the controller holds it.
    const mirrors = async () => [
      ...(await Promise.all(['worker-gone', 'worker-kept'].map(getMirror))),
      ...(await capiMachines(c)),
    ];
    await eventually(
      async () => {
        const all = await mirrors();
        expect(all, 'mirrors').to.have.length(2 + 4);
        for (const mirror of all) {
          expect(mirror.metadata.annotations, mirror.metadata.name).to.not.have.property(
            MIRROR_UID_ANNOTATION,
          );
        }
      },
      { timeoutMs: 90_000 },
    );
    // A person copies a mirror under another name (as `oc get -o yaml`, renamed, `oc create`).
    const original = await getMirror('worker-kept');
    const {
      uid: _uid,
      resourceVersion: _rv,
      creationTimestamp: _created,
      ...metadata
    } = original.metadata;
    await api.create(
      { ...CAPI, namespace: c.capiNamespace },
      { ...original, metadata: { ...metadata, name: 'worker-copy' }, status: undefined },
    );
    await c.stop();
    await releaseFinalizers(c.mapiNamespace, c.capiNamespace);
    // The uninstall recorded each mirror's own uid as it let it go; not the copy's, whose name no
    // MAPI MachineSet has.
    for (const mirror of await mirrors()) {
      expect(mirror.metadata.annotations?.[MIRROR_UID_ANNOTATION], mirror.metadata.name).to.equal(
        mirror.metadata.uid,
      );
    }
    expect((await getMirror('worker-copy')).metadata.annotations).to.not.have.property(
      MIRROR_UID_ANNOTATION,
    );
    await api.delete({ ...MAPI, namespace: c.mapiNamespace, name: 'worker-gone' });
    // machine-api-operator deletes its Machines (the garbage collector asks it to).
    await eventually(
      async () =>
        expect(
          names(await mapiMachines(c)).filter((n) => n.startsWith('worker-gone')),
        ).to.deep.equal([]),
      { timeoutMs: 90_000 },
    );

    await startTestController({ namespaces: { mapi: c.mapiNamespace, capi: c.capiNamespace } });
    await eventually(
      async () => {
        const left = (objects: KubeObject[]) =>
          names(objects).filter((n) => n.startsWith('worker-gone'));
        const templates = await api.list<KubeObject>({
          ...AWS_TEMPLATES,
          namespace: c.capiNamespace,
        });
        expect(await getMirror('worker-gone').catch(() => undefined), 'CAPI MachineSet').to.equal(
          undefined,
        );
        expect(left(await capiMachines(c)), 'CAPI Machines').to.deep.equal([]);
        expect(left(await awsMachines(c)), 'AWSMachines').to.deep.equal([]);
        expect(left(templates.items), 'templates').to.deep.equal([]);
      },
      { timeoutMs: 90_000 },
    );
    // The copy and the MachineSet that is still there keep their mirrors; the copy is not ours.
    const copy = await getMirror('worker-copy');
    expect(copy.metadata.deletionTimestamp).to.equal(undefined);
    expect(copy.metadata.finalizers ?? []).to.not.include(FINALIZER);
    expect((await getMirror('worker-kept')).metadata.deletionTimestamp).to.equal(undefined);
    expect(names(await capiMachines(c)).filter((n) => n.startsWith('worker-kept'))).to.have.length(
      2,
    );
    // check names the copy, left over, and how to remove it.
    const kubeconfig = controlPlane().kubeconfigPath;
    const run = await check([
      '--kubeconfig',
      kubeconfig,
      '--mapi-namespace',
      c.mapiNamespace,
      '--capi-namespace',
      c.capiNamespace,
      '-o',
      'json',
    ]);
    const { notes } = JSON.parse(run.stdout) as { notes: string[] };
    expect(
      notes.filter((n) => n.includes('paused CAPI MachineSet')),
      run.stdout,
    ).to.deep.equal([
      `the paused CAPI MachineSet worker-copy is marked as the mirror of a Machine API MachineSet that does not exist, and nobody acts on it or its Machines; it is not a mirror the controller made (a copy, or one older than its record), so the controller leaves it alone. To remove it: oc delete machinesets.cluster.x-k8s.io -n ${c.capiNamespace} worker-copy (paused, it deletes no instance; the controller releases it and its Machines).`,
    ]);
  });
});
