// The program as an administrator runs it: flags, exit codes, logs, and a real sync.
import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { testNamespace } from '../support/cluster.js';
import { DEFAULT_INFRASTRUCTURE, setInfrastructure } from '../support/controller.js';
import { eventually } from '../support/eventually.js';
import {
  createAwsMachineSet,
  FROM_SOURCE,
  startProgram,
  synchronizedStatus,
} from '../support/program.js';

function run(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [...FROM_SOURCE.nodeArgs, ...args], {
    cwd: FROM_SOURCE.cwd,
    encoding: 'utf8',
    env: { ...process.env, KUBECONFIG: '', ...env },
    timeout: 30_000,
  });
}

describe('the program', function () {
  this.timeout(120_000);

  it('documents every flag in --help and exits 0', () => {
    const result = run(['--help']);
    expect(result.status).to.equal(0);
    for (const flag of [
      '--kubeconfig',
      '--mapi-namespace',
      '--capi-namespace',
      '--platform',
      '--workers',
      '--log-level',
      '--log-format',
      '--request-timeout',
      '--health-stall-threshold',
    ]) {
      expect(result.stdout).to.contain(flag);
    }
  });

  for (const [args, message] of [
    [['--workers=0'], '--workers must be a whole number'],
    [['--no-such-flag'], 'no-such-flag'],
    [['--platform=Nutanix'], '--platform "Nutanix" is not supported'],
  ] as const) {
    it(`exits 2 with a clear message on ${args.join(' ')}`, () => {
      const result = run([...args]);
      expect(result.status).to.equal(2);
      expect(result.stderr).to.contain(message);
      expect(result.stderr).to.contain('Usage:');
    });
  }

  it('says how to connect when there is no kubeconfig and no in-cluster config', () => {
    const result = run([], { KUBERNETES_SERVICE_HOST: '', KUBERNETES_SERVICE_PORT: '' });
    expect(result.status).to.equal(1);
    expect(result.stderr).to.contain('--kubeconfig');
  });

  it('synchronizes a MachineSet, logs JSON, and exits 0 on SIGTERM', async () => {
    await setInfrastructure(DEFAULT_INFRASTRUCTURE);
    const mapiNamespace = await testNamespace('mapi');
    const capiNamespace = await testNamespace('capi');
    const program = startProgram([
      `--mapi-namespace=${mapiNamespace}`,
      `--capi-namespace=${capiNamespace}`,
    ]);
    await createAwsMachineSet(mapiNamespace, 'from-program');
    await eventually(async () => {
      expect(await synchronizedStatus(mapiNamespace, 'from-program'), program.text).to.equal(
        'True',
      );
    });
    program.kill('SIGTERM');
    expect(await program.exit(30_000), program.text).to.equal(0);
    // every line is a JSON object
    const lines = program.text.trim().split('\n');
    const parsed = lines.map((line) => JSON.parse(line) as { level: string; message: string });
    expect(parsed.map((l) => l.message)).to.include.members([
      'starting',
      'creating paused CAPI machine set',
      'stopped',
    ]);
  });
});
