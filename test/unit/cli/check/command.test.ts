import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { dumpYaml, loadAllYaml } from '@kubernetes/client-node';
import { expect } from 'chai';
import type { MapiMachineSet } from '../../../../src/api/types.js';
import { runCheck } from '../../../../src/cli/check/command.js';
import type { CheckDocument } from '../../../../src/cli/check/render.js';
import { platformCorpus } from './corpus.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function sink(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

async function check(argv: string[], stdin = '', env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const stdout = sink();
  const stderr = sink();
  const code = await runCheck(argv, {
    stdin: Readable.from([Buffer.from(stdin)]),
    stdout: stdout.stream,
    stderr: stderr.stream,
    env,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

const yaml = (machineSets: MapiMachineSet[]) => machineSets.map((m) => dumpYaml(m)).join('---\n');
const corpus = platformCorpus();

describe('check: the command', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'check-test-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const c of corpus) {
    it(`${c.platform}: exits 1 and names every blocking field of the bad MachineSet with its fix`, async () => {
      const file = join(dir, `${c.platform}.yaml`);
      await writeFile(file, yaml([c.good(), c.bad()]));
      const { code, stdout, stderr } = await check(['-f', file]);
      expect(stderr).to.equal('');
      expect(code).to.equal(1);
      const lines = stdout.split('\n');
      expect(lines[0]).to.match(/^NAME +PLATFORM +MIRROR +MIGRATE$/);
      const row = (name: string) => lines.find((l) => l.startsWith(`${name} `))?.split(/ +/);
      expect(row(c.good().metadata.name)).to.deep.equal([
        c.good().metadata.name,
        c.platform,
        'yes',
        'yes',
      ]);
      expect(row(c.bad().metadata.name)).to.deep.equal([
        c.bad().metadata.name,
        c.platform,
        'no',
        'no',
      ]);
      const below = lines.slice(lines.findIndex((l) => l.startsWith(c.bad().metadata.name)) + 1);
      for (const path of c.badPaths) {
        expect(below, path).to.satisfy((ls: string[]) =>
          ls.some((l) => l.startsWith(`    blocking: ${path}: `) && /; .*\.$/.test(l)),
        );
      }
      expect(lines).to.include('2 MachineSets: 1 can migrate, 1 cannot (1 cannot be mirrored)');
    });

    it(`${c.platform}: exits 0 when every MachineSet can migrate, read from stdin`, async () => {
      const { code, stdout } = await check(['-f', '-'], yaml([c.good('x'), c.good('y')]));
      expect(code).to.equal(0);
      expect(stdout).to.match(/\n2 MachineSets: 2 can migrate, 0 cannot\n/);
    });
  }

  it('marks warnings as such under their MachineSet', async () => {
    const aws = corpus.find((c) => c.platform === 'AWS')!;
    const { stdout } = await check(['-f', '-'], yaml([aws.good('w')]));
    expect(stdout.split('\n')[2]).to.match(
      /^ {4}warning: spec\.template\.spec\.providerSpec\.value\.placement\.region /,
    );
    expect(stdout).to.include(
      '\n1 MachineSet: 1 can migrate, 0 cannot\nRead from files: the migration gate',
    );
  });

  it('-o yaml and -o json give a report per MachineSet with the CAPI objects it would create', async () => {
    const input = corpus.flatMap((c) => [c.good(), c.bad()]);
    const asYaml = await check(['-f', '-', '-o', 'yaml', '--capi-namespace', 'capi'], yaml(input));
    const asJson = await check(['-f', '-', '-o', 'json', '--capi-namespace', 'capi'], yaml(input));
    expect([asYaml.code, asJson.code]).to.deep.equal([1, 1]);
    const fromYaml = loadAllYaml(asYaml.stdout) as CheckDocument[];
    expect(fromYaml).to.have.length(1);
    const document = JSON.parse(asJson.stdout) as CheckDocument;
    expect(JSON.parse(JSON.stringify(fromYaml[0]))).to.deep.equal(document);
    expect(document.readFrom).to.equal('files');
    expect(document.summary).to.deep.equal({
      machineSets: 2 * corpus.length,
      canMirror: corpus.length,
      canMigrate: corpus.length,
    });
    for (const c of corpus) {
      const good = document.machineSets.find((m) => m.name === c.good().metadata.name)!;
      expect(good).to.deep.include({
        namespace: 'openshift-machine-api',
        platform: c.platform,
        canMirror: true,
        canMigrate: true,
        blocking: [],
      });
      expect(
        good.capiObjects.map((o) => [o.apiVersion.split('/')[0], o.kind, o.metadata.namespace]),
      ).to.deep.equal([
        ['infrastructure.cluster.x-k8s.io', c.templateKind, 'capi'],
        ['cluster.x-k8s.io', 'MachineSet', 'capi'],
      ]);
      const bad = document.machineSets.find((m) => m.name === c.bad().metadata.name)!;
      expect(bad).to.deep.include({ canMirror: false, canMigrate: false, capiObjects: [] });
      expect(bad.blocking.map((p) => p.path)).to.have.members(c.badPaths);
      expect(bad.blocking.every((p) => p.stage === 'mirror' && p.message.length > 0)).to.equal(
        true,
      );
    }
    expect(asYaml.stdout).to.not.match(/[&*]ref_\d/);
  });

  it('reports no MachineSets as such, and exits 0', async () => {
    const { code, stdout } = await check(['-f', '-'], 'apiVersion: v1\nkind: List\nitems: []\n');
    expect([code, stdout]).to.deep.equal([0, '0 MachineSets\n']);
  });

  it('prints usage for --help and exits 0', async () => {
    const { code, stdout } = await check(['--help']);
    expect(code).to.equal(0);
    expect(stdout).to.match(/^Usage: mapi-capi-sync check \[flags\]/);
    expect(stdout).to.include(
      'Exit codes: 0 every MachineSet can migrate; 1 some cannot; 2 bad input',
    );
  });

  describe('bad input: exit 2 and one line on stderr, no stack', () => {
    const cases: [string, () => Promise<Run>, RegExp][] = [
      ['an unknown flag', () => check(['--bogus']), /Unknown option '--bogus'/],
      [
        'a missing file',
        () => check(['-f', join(dir, 'absent.yaml')]),
        /cannot read .*absent\.yaml: no such file$/,
      ],
      ['a directory', () => check(['-f', dir]), /cannot read .*: it is a directory$/],
      [
        'text that is not YAML',
        () => check(['-f', '-'], 'kind: [oops\n'),
        /^mapi-capi-sync check: stdin:2: not valid YAML or JSON: /,
      ],
      [
        'an object that is not a MachineSet',
        () => check(['-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n'),
        /stdin: document 1 is a v1 ConfigMap, not a Machine API MachineSet/,
      ],
      ['no cluster and no file', () => check([], '', {}), /no cluster to read: pass -f FILE/],
      [
        'an unreadable kubeconfig',
        () => check(['--kubeconfig', join(dir, 'none')]),
        /kubeconfig .*none does not exist$/,
      ],
    ];
    for (const [what, run, message] of cases) {
      it(what, async () => {
        const { code, stdout, stderr } = await run();
        expect(code).to.equal(2);
        expect(stdout).to.equal('');
        expect(stderr).to.match(/^mapi-capi-sync check: /);
        expect(stderr.trimEnd()).to.match(message);
        expect(stderr.trimEnd().split('\n')).to.have.length(1);
        expect(stderr).to.not.match(/\n\s+at /);
      });
    }

    it('a bad document among good ones refuses the whole input, printing no report', async () => {
      const aws = corpus[0]!;
      const { code, stdout } = await check(['-f', '-'], `${yaml([aws.good()])}---\n- 1\n`);
      expect([code, stdout]).to.deep.equal([2, '']);
    });
  });
});
