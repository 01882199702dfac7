// loadClusterAccess on kubeconfig files and service account directories written to a temporary
// directory, with exec credential plugins as small shell scripts.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import {
  KubeConfigError,
  loadClusterAccess,
  NO_CLUSTER_MESSAGE,
} from '../../../src/kube/cluster-access.js';
import { loadKubeConfigApart, moduleLoadingFlags } from '../../../src/kube/kubeconfig-apart.js';
import { readKubeConfigHere } from '../../../src/kube/kubeconfig.js';

const CA = Buffer.from('-----BEGIN CERTIFICATE-----\nca\n-----END CERTIFICATE-----\n');
const CERT = Buffer.from('-----BEGIN CERTIFICATE-----\ncert\n-----END CERTIFICATE-----\n');
const KEY = Buffer.from('-----BEGIN PRIVATE KEY-----\nkey\n-----END PRIVATE KEY-----\n');

interface Parts {
  cluster?: Record<string, unknown>;
  user?: Record<string, unknown>;
  currentContext?: string;
}

describe('loadClusterAccess', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cluster-access-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes a kubeconfig (JSON is YAML) with one context "work" and returns its path. */
  function kubeconfig({ cluster = {}, user = {}, currentContext = 'work' }: Parts): string {
    const path = join(dir, 'config');
    writeFileSync(
      path,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        'current-context': currentContext,
        contexts: [{ name: 'work', context: { cluster: 'c', user: 'u' } }],
        clusters: [{ name: 'c', cluster: { server: 'https://api.example:6443', ...cluster } }],
        users: [{ name: 'u', user }],
      }),
    );
    return path;
  }

  function failure(run: () => unknown): Error {
    try {
      run();
    } catch (err) {
      return err as Error;
    }
    throw new Error('did not fail');
  }

  it('reads a token user and the CA data, and says where from', async () => {
    const access = loadClusterAccess({
      read: readKubeConfigHere,
      kubeconfigPath: kubeconfig({
        cluster: {
          'certificate-authority-data': CA.toString('base64'),
          server: 'https://a:6443//',
        },
        user: { token: 'tok' },
      }),
      env: {},
    });
    expect(access.server).to.equal('https://a:6443');
    expect(access.tls.ca?.equals(CA)).to.equal(true);
    expect(access.tls.rejectUnauthorized).to.equal(true);
    expect(access.tls).to.not.have.property('cert');
    expect(await access.token()).to.equal('tok');
    expect(access.source).to.equal(`kubeconfig ${join(dir, 'config')} (context work)`);
  });

  it('reads client certificates from data and from files relative to the kubeconfig', async () => {
    mkdirSync(join(dir, 'pki'));
    writeFileSync(join(dir, 'pki', 'ca.crt'), CA);
    writeFileSync(join(dir, 'pki', 'client.key'), KEY);
    const access = loadClusterAccess({
      read: readKubeConfigHere,
      kubeconfigPath: kubeconfig({
        cluster: { 'certificate-authority': 'pki/ca.crt', 'tls-server-name': 'kubernetes' },
        user: {
          'client-certificate-data': CERT.toString('base64'),
          'client-key': 'pki/client.key',
        },
      }),
      env: {},
    });
    expect(access.tls.ca?.equals(CA)).to.equal(true);
    expect(access.tls.cert?.equals(CERT)).to.equal(true);
    expect(access.tls.key?.equals(KEY)).to.equal(true);
    expect(access.tls.servername).to.equal('kubernetes');
    expect(await access.token()).to.equal(undefined);
  });

  it('honours insecure-skip-tls-verify', () => {
    const access = loadClusterAccess({
      read: readKubeConfigHere,
      kubeconfigPath: kubeconfig({ cluster: { 'insecure-skip-tls-verify': true } }),
      env: {},
    });
    expect(access.tls.rejectUnauthorized).to.equal(false);
  });

  it('names the file and what is missing or unsupported', () => {
    const cases: [Parts, string][] = [
      [{ currentContext: '' }, 'no current-context'],
      [{ currentContext: 'elsewhere' }, 'context "elsewhere" (current-context) is not defined'],
      [{ user: { username: 'a', password: 'b' } }, 'username and password are not supported'],
      [{ cluster: { 'proxy-url': 'ftp://proxy:21' } }, 'only http, https and socks proxies'],
      [{ cluster: { 'certificate-authority': 'missing.crt' } }, 'certificate-authority'],
    ];
    for (const [parts, message] of cases) {
      const path = kubeconfig(parts);
      const err = failure(() =>
        loadClusterAccess({ read: readKubeConfigHere, kubeconfigPath: path, env: {} }),
      );
      expect(err, message).to.be.instanceOf(KubeConfigError);
      expect(err.message).to.contain(`kubeconfig ${path}`).and.to.contain(message);
    }
    const unknownUser = join(dir, 'config');
    writeFileSync(
      unknownUser,
      JSON.stringify({
        'current-context': 'x',
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'nobody' } }],
        clusters: [{ name: 'c', cluster: { server: 'https://a' } }],
      }),
    );
    expect(
      failure(() =>
        loadClusterAccess({ read: readKubeConfigHere, kubeconfigPath: unknownUser, env: {} }),
      ).message,
    ).to.contain('user "nobody" (context "x") is not defined');
    writeFileSync(unknownUser, '{ not: [yaml');
    expect(
      failure(() =>
        loadClusterAccess({ read: readKubeConfigHere, kubeconfigPath: unknownUser, env: {} }),
      ),
    ).to.be.instanceOf(KubeConfigError);
  });

  it('reads a tokenFile again once it is a minute old', async () => {
    let now = 0;
    writeFileSync(join(dir, 'token'), 'one\n');
    const access = loadClusterAccess({
      read: readKubeConfigHere,
      kubeconfigPath: kubeconfig({ user: { tokenFile: 'token' } }),
      env: {},
      now: () => now,
    });
    writeFileSync(join(dir, 'token'), 'two\n');
    now = 59_000;
    expect(await access.token()).to.equal('one');
    now = 60_000;
    expect(await access.token()).to.equal('two');
  });

  it('runs an exec credential plugin once per credential, with KUBERNETES_EXEC_INFO and its env', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const script = join(dir, 'plugin.sh');
    writeFileSync(
      script,
      [
        '#!/bin/sh',
        `echo run >> "${dir}/runs"`,
        `printf '%s' "$KUBERNETES_EXEC_INFO" > "${dir}/info"`,
        `printf '%s' "$EXTRA" > "${dir}/extra"`,
        'n=$(wc -l < "' + dir + '/runs" | tr -d " ")',
        'printf \'{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",' +
          '"status":{"token":"tok-%s","expirationTimestamp":"2030-01-01T01:00:00Z"}}\' "$n"',
      ].join('\n'),
    );
    chmodSync(script, 0o755);
    const access = loadClusterAccess({
      read: readKubeConfigHere,
      kubeconfigPath: kubeconfig({
        user: {
          exec: {
            apiVersion: 'client.authentication.k8s.io/v1',
            command: script,
            env: [{ name: 'EXTRA', value: 'set' }],
          },
        },
      }),
      env: { PATH: process.env.PATH },
      now: () => now,
    });
    const [first, second] = await Promise.all([access.token(), access.token()]);
    expect([first, second]).to.deep.equal(['tok-1', 'tok-1']);
    expect(await access.token()).to.equal('tok-1');
    expect(readFileSync(join(dir, 'runs'), 'utf8').trim().split('\n')).to.have.length(1);
    expect(JSON.parse(readFileSync(join(dir, 'info'), 'utf8'))).to.deep.include({
      apiVersion: 'client.authentication.k8s.io/v1',
      kind: 'ExecCredential',
      spec: { interactive: false },
    });
    expect(readFileSync(join(dir, 'extra'), 'utf8')).to.equal('set');
    now = Date.parse('2030-01-01T01:00:01Z');
    expect(await access.token()).to.equal('tok-2');
  });

  it('reports a failing exec plugin with its stderr', async () => {
    const script = join(dir, 'broken.sh');
    writeFileSync(script, '#!/bin/sh\necho "please log in" >&2\nexit 3\n');
    chmodSync(script, 0o755);
    const access = loadClusterAccess({
      read: readKubeConfigHere,
      kubeconfigPath: kubeconfig({ user: { exec: { command: script } } }),
      env: {},
    });
    const err = await access.token().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).to.contain(script).and.to.contain('please log in');
  });

  it('uses the service account in a pod: server from the environment, CA and rotating token', async () => {
    let now = 0;
    writeFileSync(join(dir, 'ca.crt'), CA);
    writeFileSync(join(dir, 'token'), 'sa-1');
    const access = loadClusterAccess({
      read: readKubeConfigHere,
      env: { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' },
      serviceAccountDir: dir,
      now: () => now,
    });
    expect(access.server).to.equal('https://[fd00::1]:443');
    expect(access.tls.ca?.equals(CA)).to.equal(true);
    expect(await access.token()).to.equal('sa-1');
    writeFileSync(join(dir, 'token'), 'sa-2');
    now = 61_000;
    expect(await access.token()).to.equal('sa-2');
    expect(access.source).to.equal('in-cluster service account');
  });

  it('prefers the kubeconfig over the service account, and says how to connect when there is neither', () => {
    const path = kubeconfig({ user: { token: 't' } });
    const env = { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' };
    expect(
      loadClusterAccess({ read: readKubeConfigHere, kubeconfigPath: path, env }).server,
    ).to.equal('https://api.example:6443');
    const err = failure(() => loadClusterAccess({ read: readKubeConfigHere, env: {} }));
    expect(err).to.be.instanceOf(KubeConfigError);
    expect(err.message).to.equal(NO_CLUSTER_MESSAGE);
  });

  describe('the loader run apart, as the controller runs it', function () {
    // A node process of its own per load; slow under a TypeScript loader on a busy machine.
    this.timeout(60_000);

    it('gives the current context the loader gives in this process, as plain data', () => {
      const path = kubeconfig({
        cluster: { 'certificate-authority-data': CA.toString('base64') },
        user: { token: 't', as: 'someone', 'as-groups': ['a', 'b'] },
      });
      const apart = loadKubeConfigApart({ path, env: {} });
      // Fields left undefined here do not cross the process boundary; nothing reads them.
      const here = JSON.parse(JSON.stringify(readKubeConfigHere({ path, env: {} }))) as unknown;
      expect(apart).to.deep.equal(here);
      expect(apart.userExtras).to.deep.equal({ impersonateGroups: ['a', 'b'] });
      expect(loadClusterAccess({ kubeconfigPath: path, env: {} }).headers).to.deep.equal({
        'Impersonate-User': 'someone',
        'Impersonate-Group': ['a', 'b'],
      });
    });

    it('answers beside whatever else the child prints (a preload in NODE_OPTIONS)', () => {
      const path = kubeconfig({ cluster: {}, user: { token: 't' } });
      const noisy = join(dir, 'noisy.cjs');
      writeFileSync(noisy, 'process.stdout.write("a preload talking\\n");\n');
      const before = process.env.NODE_OPTIONS;
      process.env.NODE_OPTIONS = `${before ?? ''} --require ${noisy}`;
      try {
        expect(loadKubeConfigApart({ path, env: {} }).cluster?.server).to.equal(
          readKubeConfigHere({ path, env: {} }).cluster?.server,
        );
      } finally {
        if (before === undefined) delete process.env.NODE_OPTIONS;
        else process.env.NODE_OPTIONS = before;
      }
    });

    it('runs the child with this process’s module loaders only, not its diagnostics', () => {
      expect(
        moduleLoadingFlags([
          '--require',
          '/x/preflight.cjs',
          '--import',
          'file:///x/loader.mjs',
          '--cpu-prof',
          '--cpu-prof-dir=/tmp/prof',
          '--trace-gc',
          '--max-semi-space-size=8',
          '--import=tsx',
          '--inspect=9229',
          '-r',
          'y',
          '--conditions=development',
        ]),
      ).to.deep.equal([
        '--require',
        '/x/preflight.cjs',
        '--import',
        'file:///x/loader.mjs',
        '--import=tsx',
        '-r',
        'y',
        '--conditions=development',
      ]);
    });

    it('fails with the loader’s own error and reason', () => {
      const err = failure(() => loadClusterAccess({ env: {} }));
      expect(err).to.be.instanceOf(KubeConfigError);
      expect(err.message).to.equal(NO_CLUSTER_MESSAGE);
      expect((err as KubeConfigError).reason).to.equal('missing');
    });
  });
});
