// The oc/kubectl plugin against the real control plane, next to the controller, Cluster API and
// machine-api-operator: what it shows is what the objects say, each side's Paused as its owner
// reports it.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import type { MapiCondition } from '../../src/api/types.js';
import { runPlugin, type PluginIO } from '../../src/cli/plugin/command.js';
import { createCapiCluster } from '../support/capi-cluster.js';
import { adminObjects, controlPlane, testNamespace } from '../support/cluster.js';
import {
  awsMachineSet,
  createMachineSet,
  DEFAULT_INFRASTRUCTURE,
  MAPI,
  setInfrastructure,
  startTestController,
  type TestController,
} from '../support/controller.js';
import { eventually } from '../support/eventually.js';
import { getCapi, getMapi } from '../support/machine-sets.js';
import { capiMachines, mapiMachines } from '../support/machines.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const WAIT = { timeoutMs: 90_000 };

function condition(object: { status?: { conditions?: MapiCondition[] } }, type: string) {
  return object.status?.conditions?.find((c) => c.type === type);
}

/** The rows of a table as header → cell, cut at the header's column starts. */
function parseTable(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trimEnd().split('\n');
  const columns = [...header!.matchAll(/\S+/g)].map((m) => ({ name: m[0], start: m.index }));
  return lines.map((line) =>
    Object.fromEntries(
      columns.map((c, i) => [c.name, line.slice(c.start, columns[i + 1]?.start).trim()]),
    ),
  );
}

async function plugin(
  argv: string[],
  extra: Partial<PluginIO> = {},
): Promise<{ code: number; out: string; err: string }> {
  const captured = { out: '', err: '' };
  const code = await runPlugin(argv, {
    stdout: { write: (text: string) => (captured.out += text), isTTY: false },
    stderr: { write: (text: string) => (captured.err += text) },
    env: {},
    home: '/nonexistent',
    ...extra,
  });
  return { code, ...captured };
}

const where = (c: { mapiNamespace: string; capiNamespace: string }) => [
  '-n',
  c.mapiNamespace,
  '--capi-namespace',
  c.capiNamespace,
  '--kubeconfig',
  controlPlane().kubeconfigPath,
];

/** A MachineSet and its Machine mirrored, and each side's owner reporting Paused. */
async function mirrored(c: TestController, name: string) {
  return eventually(async () => {
    const mapi = (await getMapi(c, name))!;
    expect(condition(mapi, 'Synchronized'), 'Synchronized').to.include({ status: 'True' });
    expect(mapi.status?.synchronizedGeneration).to.equal(mapi.metadata.generation);
    // machine-api-operator's word on MAPI, Cluster API's on CAPI
    expect(condition(mapi, 'Paused'), 'MAPI Paused').to.include({ status: 'False' });
    const capi = (await getCapi(c, name))!;
    expect(capi.status?.conditions?.find((x) => x.type === 'Paused')).to.include({
      status: 'True',
    });
    const [machine] = await mapiMachines(c);
    expect(machine && condition(machine, 'Synchronized'), 'Machine').to.include({ status: 'True' });
    // provisioned (machine-api-operator's providerID) and mirrored at that generation
    expect(machine!.spec.providerID, 'providerID').to.be.a('string');
    expect(machine!.status?.synchronizedGeneration).to.equal(machine!.metadata.generation);
    const [capiMachine] = await capiMachines(c);
    expect(capiMachine?.status?.conditions?.find((x) => x.type === 'Paused')).to.include({
      status: 'True',
    });
    return { mapi, capi, machine: machine!, capiMachine: capiMachine! };
  }, WAIT);
}

describe('the oc/kubectl plugin (kubectl-mapi_capi_sync)', function () {
  this.timeout(240_000);
  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('status and machines: a synchronized MachineSet, its paused mirror and template, its Machine', async () => {
    const c = await startTestController();
    await createCapiCluster(c.capiNamespace);
    await createMachineSet(
      c.mapiNamespace,
      awsMachineSet('plugin-a', c.mapiNamespace, { replicas: 1 }),
    );
    const { mapi, capi, machine } = await mirrored(c, 'plugin-a');

    const status = await plugin(['status', ...where(c)]);
    expect(status.err).to.equal('');
    expect(status.code).to.equal(0);
    const rows = parseTable(status.out);
    expect(rows).to.have.length(1);
    const generation = mapi.metadata.generation;
    expect(rows[0]).to.include({
      NAME: 'plugin-a',
      AUTHORITY: 'MachineAPI',
      SYNCHRONIZED: 'True',
      GENERATION: `${generation}/${generation}`,
      MIRROR: 'plugin-a',
      // Cluster API's Paused=True on the mirror; machine-api-operator's Paused=False on MAPI
      PAUSED: 'CAPI',
      TEMPLATE: capi.spec.template.spec.infrastructureRef.name,
      STEP: '-',
    });
    expect(rows[0]!.TEMPLATE).to.match(/^plugin-a-[0-9a-f]{10}$/);
    expect(rows[0]!.REPLICAS).to.match(/^1\/1 ready \d\/\d$/);
    expect(rows[0]!.AGE).to.match(/^\d+s$/);

    const machines = await plugin(['machines', 'plugin-a', ...where(c)]);
    expect(machines.code).to.equal(0);
    const [row] = parseTable(machines.out);
    expect(row).to.include({
      NAME: machine.metadata.name,
      MACHINESET: 'plugin-a',
      AUTHORITY: 'MachineAPI',
      SYNCHRONIZED: 'True',
      PROVIDERID: machine.spec.providerID,
      PAUSED: 'CAPI',
    });
    expect(row!.PHASE).to.match(/^\w+\/\w+$/);
    expect(row!.PROVIDERID).to.match(/^aws:\/\/\/us-east-1a\/i-[0-9a-f]{17}$/);

    // A MachineSet asked for by name that is not there: the others' rows, and exit code 1.
    const missing = await plugin(['status', 'plugin-a', 'absent', ...where(c)]);
    expect(missing.code).to.equal(1);
    expect(parseTable(missing.out).map((r) => r.NAME)).to.deep.equal(['plugin-a']);
    expect(missing.err).to.equal(
      `error: MachineSet "absent" not found in namespace ${c.mapiNamespace}\n`,
    );
  });

  it('--watch appends the table when it changes, and ends with 0 when interrupted', async () => {
    const c = {
      mapiNamespace: await testNamespace('mapi'),
      capiNamespace: await testNamespace('capi'),
    };
    const create = (name: string) =>
      adminObjects().create(
        { ...MAPI, namespace: c.mapiNamespace },
        awsMachineSet(name, c.mapiNamespace, { replicas: 0 }),
      );
    await create('watched-a');
    const stop = new AbortController();
    const captured = { out: '', err: '' };
    const watching = runPlugin(['status', '-w', ...where(c)], {
      stdout: { write: (text: string) => (captured.out += text), isTTY: false },
      stderr: { write: (text: string) => (captured.err += text) },
      env: {},
      home: '/nonexistent',
      signal: stop.signal,
      refreshMs: 200,
    });
    await eventually(() => expect(captured.out).to.match(/^NAME .*\nwatched-a /));
    await create('watched-b');
    await eventually(() => {
      const tables = captured.out.split('\n\n');
      expect(parseTable(tables.at(-1)!).map((r) => r.NAME)).to.deep.equal([
        'watched-a',
        'watched-b',
      ]);
    });
    stop.abort();
    expect(await watching).to.equal(0);
    expect(captured.err).to.equal('');
  });

  it('as a program: $KUBECONFIG as kubectl reads it; exit 1 for an unreachable cluster, 2 for a bad flag', async () => {
    const mapiNamespace = await testNamespace('mapi');
    await adminObjects().create(
      { ...MAPI, namespace: mapiNamespace },
      awsMachineSet('program-a', mapiNamespace, { replicas: 0 }),
    );
    const run = async (args: string[], kubeconfig: string) => {
      try {
        const { stdout, stderr } = await promisify(execFile)(
          process.execPath,
          ['--import', 'tsx', 'src/cli/plugin/main.ts', ...args],
          { cwd: ROOT, env: { ...process.env, KUBECONFIG: kubeconfig, HOME: '/nonexistent' } },
        );
        return { code: 0, stdout, stderr };
      } catch (err) {
        const failed = err as { code: number; stdout: string; stderr: string };
        return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
      }
    };
    const ok = await run(['status', '-n', mapiNamespace], controlPlane().kubeconfigPath);
    expect(ok.stderr).to.equal('');
    expect(ok.code).to.equal(0);
    expect(parseTable(ok.stdout)[0]).to.include({ NAME: 'program-a', MIRROR: '-' });

    // The same kubeconfig with the API server's port closed.
    const dir = await mkdtemp(join(tmpdir(), 'plugin-kubeconfig-'));
    const closed = join(dir, 'config');
    const text = await readFile(controlPlane().kubeconfigPath, 'utf8');
    expect(text).to.include(controlPlane().server);
    await writeFile(closed, text.replaceAll(controlPlane().server, 'https://127.0.0.1:1'));
    const unreachable = await run(['status', '-n', mapiNamespace], closed).finally(() =>
      rm(dir, { recursive: true, force: true }),
    );
    expect(unreachable.code).to.equal(1);
    expect(unreachable.stdout).to.equal('');
    expect(unreachable.stderr).to.match(
      /^error: cannot reach the cluster at https:\/\/127\.0\.0\.1:1: .*ECONNREFUSED.*\n$/,
    );

    const bad = await run(['status', '--colour'], controlPlane().kubeconfigPath);
    expect(bad.code).to.equal(2);
    expect(bad.stderr.split('\n')[0]).to.equal("error: Unknown option '--colour'");
  });
});
