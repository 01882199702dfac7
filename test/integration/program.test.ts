// The program as an administrator runs it: flags, exit codes, logs, and a real sync.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { expect } from 'chai';
import type { MapiMachineSet } from '../../src/api/types.js';
import { controlPlane, testNamespace } from '../support/cluster.js';
import {
  awsMachineSet,
  customObjects,
  DEFAULT_INFRASTRUCTURE,
  MAPI,
  setInfrastructure,
} from '../support/controller.js';
import { eventually } from '../support/eventually.js';

const ROOT = resolve(import.meta.dirname, '../..');
const PROGRAM = [process.execPath, '--import', 'tsx', 'src/main.ts'] as const;

function run(args: string[], env: Record<string, string> = {}) {
  return spawnSync(PROGRAM[0], [...PROGRAM.slice(1), ...args], {
    cwd: ROOT,
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
    const child: ChildProcess = spawn(
      PROGRAM[0],
      [
        ...PROGRAM.slice(1),
        `--mapi-namespace=${mapiNamespace}`,
        `--capi-namespace=${capiNamespace}`,
        '--log-format=json',
        '--metrics-bind-address=127.0.0.1:0',
        '--health-probe-bind-address=127.0.0.1:0',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, KUBECONFIG: controlPlane().kubeconfigPath },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let logs = '';
    child.stderr?.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    try {
      await customObjects().createNamespacedCustomObject({
        ...MAPI,
        namespace: mapiNamespace,
        body: awsMachineSet('from-program', mapiNamespace),
      });
      await customObjects().patchNamespacedCustomObjectStatus({
        ...MAPI,
        namespace: mapiNamespace,
        name: 'from-program',
        body: [{ op: 'add', path: '/status', value: { authoritativeAPI: 'MachineAPI' } }],
      });
      await eventually(async () => {
        const mapi = (await customObjects().getNamespacedCustomObject({
          ...MAPI,
          namespace: mapiNamespace,
          name: 'from-program',
        })) as MapiMachineSet;
        const condition = mapi.status?.conditions?.find((c) => c.type === 'Synchronized');
        expect(condition?.status, logs).to.equal('True');
      });
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, logs).to.equal(0);
    const lines = logs.trim().split('\n');
    const parsed = lines.map((line) => JSON.parse(line) as { level: string; message: string });
    expect(parsed.map((l) => l.message)).to.include.members([
      'starting',
      'creating paused CAPI machine set',
      'stopped',
    ]);
  });
});
