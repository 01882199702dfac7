// The controller's kubeconfig loader and transport against the real kube-apiserver: an exec
// credential plugin (refreshed after the server refuses its first token) and impersonation by the
// admin identity (system:masters may impersonate), checked with a SelfSubjectReview.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadClusterAccess } from '../../src/kube/cluster-access.js';
import { ApiError, KubeClient } from '../../src/kube/http-client.js';
import { adminConfig, controlPlane } from '../support/cluster.js';

interface SelfSubjectReview {
  status?: { userInfo?: { username?: string; groups?: string[] } };
}

describe('kubeconfig: the controller’s loader against the API server', () => {
  let dir: string;
  const clients: KubeClient[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubeconfig-it-'));
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A kubeconfig for the control plane's server with `user`, read by the controller's loader. */
  function clientWith(user: Record<string, unknown>): KubeClient {
    const cluster = adminConfig().getCurrentCluster();
    if (!cluster?.caData) throw new Error('the admin kubeconfig has no CA data');
    const path = join(dir, 'config');
    writeFileSync(
      path,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        'current-context': 'it',
        contexts: [{ name: 'it', context: { cluster: 'local', user: 'u' } }],
        clusters: [
          {
            name: 'local',
            cluster: { server: cluster.server, 'certificate-authority-data': cluster.caData },
          },
        ],
        users: [{ name: 'u', user }],
      }),
    );
    const client = new KubeClient(loadClusterAccess({ env: { KUBECONFIG: path } }), {
      timeoutMs: 20_000,
    });
    clients.push(client);
    return client;
  }

  const whoAmI = async (client: KubeClient) =>
    (
      await client.request<SelfSubjectReview>(
        'POST',
        '/apis/authentication.k8s.io/v1/selfsubjectreviews',
        { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } },
      )
    ).status?.userInfo;

  it('authenticates with an exec credential, fetched anew once when the server refuses it', async () => {
    // The first run prints a token the server does not know; every later run, the admin's.
    const script = join(dir, 'credential.sh');
    writeFileSync(
      script,
      [
        '#!/bin/sh',
        `echo run >> "${dir}/runs"`,
        `if [ "$(wc -l < "${dir}/runs" | tr -d " ")" = 1 ]; then token=unknown; else token="${controlPlane().adminToken}"; fi`,
        `printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s","expirationTimestamp":"2099-01-01T00:00:00Z"}}' "$token"`,
      ].join('\n'),
    );
    chmodSync(script, 0o755);
    const client = clientWith({
      exec: { apiVersion: 'client.authentication.k8s.io/v1', command: script },
    });
    expect(await whoAmI(client)).to.deep.include({ username: 'admin' });
    await client.request('GET', '/api/v1/namespaces/default');
    expect(readFileSync(join(dir, 'runs'), 'utf8').trim().split('\n')).to.have.length(2);
  });

  it('impersonates the kubeconfig user’s as and as-groups', async () => {
    const client = clientWith({
      token: controlPlane().adminToken,
      as: 'jane',
      'as-groups': ['developers', 'auditors'],
    });
    const user = await whoAmI(client);
    expect(user?.username).to.equal('jane');
    expect(user?.groups).to.include.members(['developers', 'auditors']);
    // jane has no grant: the request is authorized as her, not as the admin.
    const err = await client.request('GET', '/api/v1/namespaces/default').catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ApiError).with.property('code', 403);
    expect((err as ApiError).message).to.contain('User "jane"');
  });
});
