import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { KubeObject } from '../../../../src/api/types.js';
import { PluginError, type ClusterReader } from '../../../../src/cli/plugin/cluster.js';
import { read, runPlugin, watch, type PluginIO } from '../../../../src/cli/plugin/command.js';
import { parsePluginArgs, type PluginFlags } from '../../../../src/cli/plugin/flags.js';
import type { Resource } from '../../../../src/kube/resources.js';
import { capiMachineSet, mapiMachineSet, NOW } from './objects.js';

interface Captured extends PluginIO {
  out: string;
  err: string;
}

function capture(options: { tty?: boolean; home?: string; signal?: AbortSignal } = {}): Captured {
  const io: Captured = {
    out: '',
    err: '',
    stdout: { write: (text: string) => (io.out += text), isTTY: options.tty ?? false },
    stderr: { write: (text: string) => (io.err += text) },
    env: {},
    home: options.home ?? '/nonexistent',
    now: () => NOW,
    refreshMs: 1,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  return io;
}

/** Both sides' objects by resource; `onRead` runs before each read of the MAPI side. */
function fakeReader(
  objects: Map<string, KubeObject[]>,
  onRead: (reads: number) => void = () => undefined,
): ClusterReader {
  let reads = 0;
  return {
    server: 'https://fake:6443',
    close: () => undefined,
    list<T extends KubeObject>(resource: Resource): Promise<T[]> {
      if (resource.group === 'machine.openshift.io') onRead(++reads);
      return Promise.resolve((objects.get(resource.group) ?? []) as T[]);
    },
  };
}

const flags = (argv: string[]) => parsePluginArgs(argv) as PluginFlags;

describe('plugin command', () => {
  describe('exit codes and messages', () => {
    let home: string;
    beforeEach(async () => (home = await mkdtemp(join(tmpdir(), 'plugin-home-'))));
    afterEach(() => rm(home, { recursive: true, force: true }));

    it('a bad flag: 2, the problem and where to read the usage, on stderr', async () => {
      const io = capture({ home });
      expect(await runPlugin(['status', '--nope'], io)).to.equal(2);
      expect(io.err).to.equal(
        "error: Unknown option '--nope'\nSee 'oc mapi-capi-sync --help' for usage.\n",
      );
      expect(io.out).to.equal('');
    });

    it('--help: 0, the usage on stdout', async () => {
      const io = capture({ home });
      expect(await runPlugin(['--help'], io)).to.equal(0);
      expect(io.out).to.match(/^Shows how Machine API MachineSets/);
      expect(io.out).to.include('oc mapi-capi-sync status [MACHINESET...] [flags]');
    });

    it('no kubeconfig anywhere: 1 and one line', async () => {
      const io = capture({ home });
      expect(await runPlugin(['status'], io)).to.equal(1);
      expect(io.err).to.equal(
        'error: no kubeconfig: pass --kubeconfig, set KUBECONFIG, or log in (oc login) to create ~/.kube/config\n',
      );
    });
  });

  describe('reading', () => {
    it('one row per MAPI MachineSet, sorted by name, each with its mirror', async () => {
      const objects = new Map<string, KubeObject[]>([
        ['machine.openshift.io', [mapiMachineSet('b'), mapiMachineSet('a')]],
        ['cluster.x-k8s.io', [capiMachineSet('a'), capiMachineSet('other')]],
      ]);
      const view = await read(fakeReader(objects), flags(['status']));
      const lines = view.render(NOW)!.split('\n');
      expect(lines[1]).to.match(/^a {3,}MachineAPI .* a {3,}CAPI {3,}a-0123456789 /);
      expect(lines[2]).to.match(/^b {3,}MachineAPI .* - {3,}none {3,}- /);
      expect(view.missing).to.deep.equal([]);
    });

    it('named MachineSets only, and those that do not exist are reported', async () => {
      const objects = new Map([
        ['machine.openshift.io', [mapiMachineSet('a'), mapiMachineSet('b')]],
      ]);
      const view = await read(fakeReader(objects), flags(['status', 'b', 'zzz']));
      expect(
        view
          .render(NOW)!
          .split('\n')
          .slice(1, -1)
          .map((l) => l.split(' ')[0]),
      ).to.deep.equal(['b']);
      expect(view.missing).to.deep.equal(['zzz']);
    });

    it('nothing there: no table, and a sentence naming the namespace', async () => {
      const view = await read(fakeReader(new Map()), flags(['machines', '-n', 'ns', 'a']));
      expect(view.render(NOW)).to.equal(undefined);
      expect(view.empty).to.equal('No Machines of MachineSet a found in namespace ns.');
    });
  });

  describe('--watch', () => {
    const objects = () =>
      new Map<string, KubeObject[]>([
        ['machine.openshift.io', [mapiMachineSet('a')]],
        ['cluster.x-k8s.io', [capiMachineSet('a')]],
      ]);

    it('on a pipe: the table again only when it changed, until interrupted (exit 0)', async () => {
      const stop = new AbortController();
      const world = objects();
      const reader = fakeReader(world, (reads) => {
        if (reads === 4)
          world.set('machine.openshift.io', [mapiMachineSet('a'), mapiMachineSet('b')]);
        if (reads === 8) stop.abort();
      });
      const io = capture({ signal: stop.signal });
      const f = flags(['status', '-w']);
      expect(await watch(reader, f, io, await read(reader, f))).to.equal(0);
      const tables = io.out.split('\n\n');
      expect(tables).to.have.length(2);
      expect(tables[0]!.trim().split('\n')).to.have.length(2); // header and a
      expect(tables[1]!.trim().split('\n')).to.have.length(3); // header, a and b
      expect(io.out).to.not.include('\x1b[');
    });

    it('on a terminal: cleared and redrawn at every refresh, with a header saying what and when', async () => {
      const stop = new AbortController();
      const reader = fakeReader(objects(), (reads) => reads === 3 && stop.abort());
      const io = capture({ tty: true, signal: stop.signal });
      const f = flags(['status', '-w', '-n', 'mapi']);
      expect(await watch(reader, f, io, await read(reader, f))).to.equal(0);
      const screens = io.out.split('\x1b[H\x1b[2J').slice(1);
      expect(screens).to.have.length(3);
      for (const screen of screens) {
        expect(screen).to.match(
          /^mapi-capi-sync status -n mapi \(mirrors in openshift-cluster-api\), every 0\.001s: 2026-03-01T12:00:00\.000Z\n\nNAME /,
        );
      }
    });

    it('a failed read: one line on stderr, and it keeps watching', async () => {
      const stop = new AbortController();
      const reader = fakeReader(objects(), (reads) => {
        if (reads === 2)
          throw new PluginError('cannot reach the cluster at https://fake:6443: gone');
        if (reads === 4) stop.abort();
      });
      const io = capture({ signal: stop.signal });
      const f = flags(['status', '-w']);
      expect(await watch(reader, f, io, await read(reader, f))).to.equal(0);
      expect(io.err).to.equal('error: cannot reach the cluster at https://fake:6443: gone\n');
      expect(io.out.split('\n\n')).to.have.length(1);
    });
  });
});
