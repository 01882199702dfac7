// The container image, as far as it can be checked without a container engine: the Containerfile
// declares what the deployment relies on, and its runtime stage's contents (production
// dependencies from the lockfile plus the build output, nothing else) run the controller.
import { execFile } from 'node:child_process';
import { access, copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import {
  entrypointNodeFlags,
  imageEnvironment,
  imageNodeFlags,
} from '../../hack/image-entrypoint.js';
import { testNamespace } from '../support/cluster.js';
import { DEFAULT_INFRASTRUCTURE, setInfrastructure } from '../support/controller.js';
import { eventually } from '../support/eventually.js';
import { createAwsMachineSet, startProgram, synchronizedStatus } from '../support/program.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);

/** The instructions of the Containerfile's last stage (the image that ships). */
async function runtimeStage(): Promise<string[]> {
  const lines = (await readFile(join(ROOT, 'Containerfile'), 'utf8'))
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const from = lines.map((l, i) => (l.startsWith('FROM ') ? i : -1)).filter((i) => i >= 0);
  expect(from, 'FROM lines').to.have.length.greaterThan(0);
  return lines.slice(from.at(-1));
}

describe('the container image (Containerfile)', function () {
  this.timeout(300_000);

  let imageRoot: string | undefined;
  after(async () => {
    if (imageRoot) await rm(imageRoot, { recursive: true, force: true });
  });

  it('ships a non-root UBI Node.js runtime with production dependencies and node dist/main.js', async () => {
    const stage = await runtimeStage();
    expect(stage[0]).to.match(/^FROM registry\.access\.redhat\.com\/ubi\d+\/nodejs-\d+/);
    // the tests run on the major the image runs (hack/test.sh brings it where the machine's differs)
    const imageMajor = /nodejs-(\d+)/.exec(stage[0]!)![1];
    expect(process.versions.node.split('.')[0], 'the Node.js major running the tests').to.equal(
      imageMajor,
    );
    const user = stage.filter((l) => l.startsWith('USER ')).at(-1);
    expect(user, 'USER').to.match(/^USER [1-9]\d*$/);
    // node dist/main.js, with whatever node flags the image chose (it throws otherwise)
    entrypointNodeFlags(stage.join('\n'));
    expect(
      stage.some((l) => /^RUN npm ci .*--omit=dev/.test(l)),
      'npm ci --omit=dev',
    ).to.equal(true);
    expect(
      stage.some((l) => /^COPY --from=\S+ .*dist\/ dist\/$/.test(l)),
      'COPY dist/',
    ).to.equal(true);
  });

  it('runs the controller from the build output and production dependencies alone', async () => {
    // the runtime stage's file system: package*.json, `npm ci --omit=dev`, dist/
    imageRoot = await mkdtemp(join(tmpdir(), 'mapi-capi-sync-image-'));
    for (const file of ['package.json', 'package-lock.json']) {
      await copyFile(join(ROOT, file), join(imageRoot, file));
    }
    await run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: imageRoot,
      env: { ...process.env, NODE_ENV: 'production' },
    });
    await run(
      join(ROOT, 'node_modules', '.bin', 'tsc'),
      ['-p', 'tsconfig.build.json', '--outDir', join(imageRoot, 'dist')],
      { cwd: ROOT },
    );
    await access(join(imageRoot, 'dist', 'main.js'));
    for (const devOnly of ['typescript', 'tsx', 'mocha']) {
      const present = await access(join(imageRoot, 'node_modules', devOnly)).then(
        () => true,
        () => false,
      );
      expect(present, `${devOnly} in the image's node_modules`).to.equal(false);
    }

    await setInfrastructure(DEFAULT_INFRASTRUCTURE);
    const mapiNamespace = await testNamespace('mapi');
    const capiNamespace = await testNamespace('capi');
    const program = startProgram(
      [`--mapi-namespace=${mapiNamespace}`, `--capi-namespace=${capiNamespace}`],
      imageEnvironment(),
      { nodeArgs: [...imageNodeFlags(), 'dist/main.js'], cwd: imageRoot },
    );
    await createAwsMachineSet(mapiNamespace, 'from-image');
    await eventually(async () => {
      expect(await synchronizedStatus(mapiNamespace, 'from-image'), program.text).to.equal('True');
    });
    program.kill('SIGTERM');
    expect(await program.exit(30_000), program.text).to.equal(0);
  });
});
