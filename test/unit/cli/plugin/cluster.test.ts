import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ApiException } from '@kubernetes/client-node';
import { expect } from 'chai';
import {
  describeReadError,
  loadKubeConfig,
  PluginError,
} from '../../../../src/cli/plugin/cluster.js';
import { MAPI_MACHINE_SET } from '../../../../src/kube/resources.js';

function kubeconfig(contexts: { name: string; server: string }[], current?: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: contexts.map((c) => ({ name: c.name, cluster: { server: c.server } })),
    users: [{ name: 'u', user: { token: 't' } }],
    contexts: contexts.map((c) => ({ name: c.name, context: { cluster: c.name, user: 'u' } })),
    ...(current ? { 'current-context': current } : {}),
  });
}

describe('plugin kubeconfig: chosen as kubectl chooses it', () => {
  let dir: string;
  let home: string;
  let flagFile: string;
  let envA: string;
  let envB: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'plugin-kubeconfig-'));
    home = join(dir, 'home');
    await mkdir(join(home, '.kube'), { recursive: true });
    flagFile = join(dir, 'flag');
    envA = join(dir, 'a');
    envB = join(dir, 'b');
    await writeFile(flagFile, kubeconfig([{ name: 'f', server: 'https://flag:6443' }], 'f'));
    await writeFile(envA, kubeconfig([{ name: 'a', server: 'https://a:6443' }], 'a'));
    await writeFile(envB, kubeconfig([{ name: 'b', server: 'https://b:6443' }], 'b'));
    await writeFile(
      join(home, '.kube', 'config'),
      kubeconfig([{ name: 'h', server: 'https://home:6443' }], 'h'),
    );
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const server = (kc: ReturnType<typeof loadKubeConfig>) => kc.getCurrentCluster()?.server;

  it('--kubeconfig first', () => {
    const env = { KUBECONFIG: envA };
    expect(server(loadKubeConfig({ kubeconfig: flagFile }, env, home))).to.equal(
      'https://flag:6443',
    );
  });

  it('then $KUBECONFIG, its files merged with the first one’s current context', () => {
    const kc = loadKubeConfig({}, { KUBECONFIG: [envA, envB].join(delimiter) }, home);
    expect(server(kc)).to.equal('https://a:6443');
    expect(kc.getContextObject('b')).to.not.equal(null);
    expect(
      server(loadKubeConfig({ context: 'b' }, { KUBECONFIG: [envA, envB].join(delimiter) }, home)),
    ).to.equal('https://b:6443');
  });

  it('$KUBECONFIG files defining a name twice: the first definition wins, as in kubectl', async () => {
    const again = join(dir, 'again');
    await writeFile(
      again,
      kubeconfig([
        { name: 'a', server: 'https://other:6443' },
        { name: 'c', server: 'https://c:6443' },
      ]),
    );
    await writeFile(envA, kubeconfig([{ name: 'a', server: 'https://a:6443' }]));
    const kc = loadKubeConfig({}, { KUBECONFIG: [envA, again, envB].join(delimiter) }, home);
    // no current context in the first two files: the first one set (envB's) is used
    expect(server(kc)).to.equal('https://b:6443');
    expect(kc.getCluster('a')?.server).to.equal('https://a:6443');
    expect(kc.getCluster('c')?.server).to.equal('https://c:6443');
  });

  it('then ~/.kube/config', () => {
    expect(server(loadKubeConfig({}, { KUBECONFIG: '' }, home))).to.equal('https://home:6443');
  });

  it('none at all: one line saying where one is looked for', () => {
    expect(() => loadKubeConfig({}, {}, join(dir, 'nohome'))).to.throw(
      PluginError,
      'no kubeconfig: pass --kubeconfig, set KUBECONFIG, or log in (oc login) to create ~/.kube/config',
    );
  });

  it('a file that is missing, unreadable YAML, a context that is not there, no current context', async () => {
    expect(() => loadKubeConfig({ kubeconfig: join(dir, 'nope') }, {}, home)).to.throw(
      PluginError,
      `kubeconfig ${join(dir, 'nope')} does not exist`,
    );
    await writeFile(join(dir, 'bad'), 'garbage: :\n  - [');
    expect(() => loadKubeConfig({ kubeconfig: join(dir, 'bad') }, {}, home))
      .to.throw(PluginError, /^cannot read kubeconfig .*bad: /)
      .with.property('message')
      .that.does.not.include('\n');
    expect(() => loadKubeConfig({ kubeconfig: flagFile, context: 'other' }, {}, home)).to.throw(
      PluginError,
      'context "other" is not in the kubeconfig',
    );
    await writeFile(join(dir, 'nocurrent'), kubeconfig([{ name: 'x', server: 'https://x' }]));
    expect(() => loadKubeConfig({ kubeconfig: join(dir, 'nocurrent') }, {}, home)).to.throw(
      PluginError,
      `kubeconfig ${join(dir, 'nocurrent')}: no current-context (pass --context)`,
    );
  });
});

describe('plugin read errors: one line saying what to check', () => {
  const server = 'https://api.example:6443';
  const apiError = (code: number, message: string) =>
    new ApiException(code, 'failed', JSON.stringify({ kind: 'Status', message }), {});

  it('404: the CRD is not served', () => {
    expect(
      describeReadError(
        apiError(404, 'the server could not find the requested resource'),
        MAPI_MACHINE_SET,
        server,
      ),
    ).to.equal(
      'the server at https://api.example:6443 does not serve machinesets.machine.openshift.io/v1beta1: is its CRD installed?',
    );
  });

  it('401 and 403', () => {
    expect(describeReadError(apiError(401, 'Unauthorized'), MAPI_MACHINE_SET, server)).to.equal(
      'the server at https://api.example:6443 refused the credentials (401 Unauthorized): log in again',
    );
    const forbidden =
      'machinesets.machine.openshift.io is forbidden: User "dev" cannot list resource "machinesets"';
    expect(describeReadError(apiError(403, forbidden), MAPI_MACHINE_SET, server)).to.equal(
      `forbidden: ${forbidden}`,
    );
  });

  it('another answer: its code and the server’s message', () => {
    expect(describeReadError(apiError(500, 'etcd\nis down'), MAPI_MACHINE_SET, server)).to.equal(
      'reading machinesets.machine.openshift.io/v1beta1 failed (500): etcd is down',
    );
  });

  it('no answer: the connection’s own reason', () => {
    const refused = new Error(
      'request to https://api.example:6443/apis/x failed, reason: connect ECONNREFUSED 10.0.0.1:6443',
    );
    expect(describeReadError(refused, MAPI_MACHINE_SET, server)).to.equal(
      'cannot reach the cluster at https://api.example:6443: connect ECONNREFUSED 10.0.0.1:6443',
    );
    expect(
      describeReadError(
        new Error('GET x: no complete answer within 20000 ms'),
        MAPI_MACHINE_SET,
        server,
      ),
    ).to.equal(
      'cannot reach the cluster at https://api.example:6443: GET x: no complete answer within 20000 ms',
    );
  });
});
