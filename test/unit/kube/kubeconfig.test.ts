// The one loader feeding the one transport: kubeconfig files written to a temporary directory,
// KubeClient requests to a local HTTP server that records what it was sent — merged $KUBECONFIG
// lists, impersonation, exec credentials (a small shell script counting its runs), refreshed
// after expiry and after a 401, and a cluster's proxy-url.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { expect } from 'chai';
import { clusterAccess, loadClusterAccess } from '../../../src/kube/cluster-access.js';
import { ApiError, KubeClient } from '../../../src/kube/http-client.js';
import {
  currentContext,
  KubeConfigError,
  loadKubeConfig,
  readKubeConfigHere,
} from '../../../src/kube/kubeconfig.js';

const LEASE = { kind: 'Lease', metadata: { name: 'l', namespace: 'ns' } };
const LEASE_PATH = '/apis/coordination.k8s.io/v1/namespaces/ns/leases/l';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

describe('one loader, one transport: kubeconfig to KubeClient', () => {
  let dir: string;
  let server: Server;
  let url: string;
  let seen: IncomingMessage[];
  let handler: Handler;
  const sockets = new Set<Socket>();
  const clients: KubeClient[] = [];

  const ok: Handler = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(LEASE));
  };
  /** 401 to every token but `accepted`. */
  const acceptOnly =
    (...accepted: string[]): Handler =>
    (req, res) => {
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (accepted.includes(token)) return ok(req, res);
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', code: 401, message: 'Unauthorized' }));
    };
  const tokensSeen = () => seen.map((req) => req.headers.authorization);

  function write(name: string, config: Record<string, unknown>): string {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify({ apiVersion: 'v1', kind: 'Config', ...config }));
    return path;
  }
  /** One file with one context "work" on the test server, for `user`. */
  function kubeconfig(user: Record<string, unknown>, cluster: Record<string, unknown> = {}) {
    return write('config', {
      'current-context': 'work',
      contexts: [{ name: 'work', context: { cluster: 'c', user: 'u' } }],
      clusters: [{ name: 'c', cluster: { server: url, ...cluster } }],
      users: [{ name: 'u', user }],
    });
  }
  function client(access: ReturnType<typeof loadClusterAccess>): KubeClient {
    const created = new KubeClient(access, { timeoutMs: 5000 });
    clients.push(created);
    return created;
  }
  const get = (c: KubeClient) => c.request<typeof LEASE>('GET', LEASE_PATH);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubeconfig-'));
    seen = [];
    handler = ok;
    server = createServer((req, res) => {
      seen.push(req);
      req.resume();
      req.on('end', () => handler(req, res));
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    for (const created of clients.splice(0)) created.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  describe('$KUBECONFIG lists', () => {
    it('merges the listed files: the context and cluster of one, the user of another', async () => {
      const a = write('a', {
        'current-context': 'work',
        contexts: [{ name: 'work', context: { cluster: 'c', user: 'from-b' } }],
        clusters: [{ name: 'c', cluster: { server: url } }],
      });
      const b = write('b', {
        'current-context': 'elsewhere',
        contexts: [{ name: 'elsewhere', context: { cluster: 'other', user: 'from-b' } }],
        clusters: [{ name: 'other', cluster: { server: 'https://other.invalid:6443' } }],
        users: [{ name: 'from-b', user: { token: 'token-from-b' } }],
      });
      const access = loadClusterAccess({
        read: readKubeConfigHere,
        env: { KUBECONFIG: [a, b].join(delimiter) },
      });
      expect(access.server).to.equal(url);
      expect(access.source).to.equal(`kubeconfig ${a}${delimiter}${b} (context work)`);
      expect(await get(client(access))).to.deep.equal(LEASE);
      expect(tokensSeen()).to.deep.equal(['Bearer token-from-b']);
    });

    it('skips listed files that do not exist, and says so when none does', () => {
      const path = kubeconfig({ token: 't' });
      const missing = join(dir, 'missing');
      expect(
        loadKubeConfig({ env: { KUBECONFIG: [missing, path].join(delimiter) } }).currentContext,
      ).to.equal('work');
      expect(() => loadKubeConfig({ env: { KUBECONFIG: missing } }))
        .to.throw(KubeConfigError, `none of the files in KUBECONFIG exists: ${missing}`)
        .with.property('reason', 'missing');
    });

    it('--kubeconfig wins over $KUBECONFIG, and --context over the current-context', () => {
      const path = kubeconfig({ token: 't' });
      const other = write('other', {
        'current-context': 'x',
        contexts: [
          { name: 'x', context: { cluster: 'x' } },
          { name: 'y', context: { cluster: 'y' } },
        ],
        clusters: [
          { name: 'x', cluster: { server: 'https://x:6443' } },
          { name: 'y', cluster: { server: 'https://y:6443' } },
        ],
      });
      const env = { KUBECONFIG: path };
      expect(
        loadClusterAccess({ read: readKubeConfigHere, kubeconfigPath: other, env }).server,
      ).to.equal('https://x:6443');
      expect(
        loadClusterAccess({ read: readKubeConfigHere, kubeconfigPath: other, context: 'y', env })
          .server,
      ).to.equal('https://y:6443');
    });
  });

  it('sends the impersonation of the kubeconfig user: as, as-groups, as-uid, as-user-extra', async () => {
    const access = loadClusterAccess({
      read: readKubeConfigHere,
      kubeconfigPath: kubeconfig({
        token: 'admin',
        as: 'jane',
        'as-groups': ['developers', 'system:authenticated'],
        'as-uid': '42',
        'as-user-extra': { scopes: ['view', 'edit'] },
      }),
      env: {},
    });
    await get(client(access));
    const [req] = seen;
    expect(req?.headers.authorization).to.equal('Bearer admin');
    expect(req?.headers['impersonate-user']).to.equal('jane');
    expect(req?.headersDistinct['impersonate-group']).to.deep.equal([
      'developers',
      'system:authenticated',
    ]);
    expect(req?.headers['impersonate-uid']).to.equal('42');
    expect(req?.headersDistinct['impersonate-extra-scopes']).to.deep.equal(['view', 'edit']);
  });

  it('re-reads a tokenFile after a 401 and sends the request again with the new token', async () => {
    writeFileSync(join(dir, 'token'), 'old\n');
    const access = loadClusterAccess({
      read: readKubeConfigHere,
      kubeconfigPath: kubeconfig({ tokenFile: 'token' }),
      env: {},
    });
    writeFileSync(join(dir, 'token'), 'rotated\n');
    handler = acceptOnly('rotated');
    expect(await get(client(access))).to.deep.equal(LEASE);
    expect(tokensSeen()).to.deep.equal(['Bearer old', 'Bearer rotated']);
  });

  it('does not send a request again after a 401 to a static token: nothing would change', async () => {
    handler = acceptOnly('good');
    const access = loadClusterAccess({
      read: readKubeConfigHere,
      kubeconfigPath: kubeconfig({ token: 'bad' }),
      env: {},
    });
    const err = await get(client(access)).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ApiError).with.property('code', 401);
    expect(tokensSeen()).to.deep.equal(['Bearer bad']);
  });

  describe('exec credentials', () => {
    let now: number;
    const runs = () => readFileSync(join(dir, 'runs'), 'utf8').trim().split('\n').length;

    /** A plugin printing token tok-<run> that expires at `expires`, counting its runs. */
    function plugin(expires: string | undefined): Record<string, unknown> {
      const script = join(dir, 'plugin.sh');
      const expiry = expires ? `,"expirationTimestamp":"${expires}"` : '';
      writeFileSync(
        script,
        [
          '#!/bin/sh',
          `echo run >> "${dir}/runs"`,
          `n=$(wc -l < "${dir}/runs" | tr -d " ")`,
          `printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"tok-%s"${expiry}}}' "$n"`,
        ].join('\n'),
      );
      chmodSync(script, 0o755);
      return { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: script } };
    }
    const load = (user: Record<string, unknown>) =>
      clusterAccess(currentContext(loadKubeConfig({ path: kubeconfig(user), env: {} })), {
        env: { PATH: process.env.PATH },
        now: () => now,
      });

    beforeEach(() => {
      now = Date.parse('2030-01-01T00:00:00Z');
    });

    it('uses the credential until it expires, then runs the plugin again', async () => {
      const c = client(load(plugin('2030-01-01T01:00:00Z')));
      await Promise.all([get(c), get(c)]);
      await get(c);
      expect(runs()).to.equal(1);
      now = Date.parse('2030-01-01T01:00:01Z');
      await get(c);
      expect(runs()).to.equal(2);
      expect(tokensSeen()).to.deep.equal([
        'Bearer tok-1',
        'Bearer tok-1',
        'Bearer tok-1',
        'Bearer tok-2',
      ]);
    });

    it('keeps a credential without expirationTimestamp until the server refuses it', async () => {
      const c = client(load(plugin(undefined)));
      for (let i = 0; i < 5; i++) await get(c);
      expect(runs()).to.equal(1);
    });

    it('after a 401, runs the plugin once more and sends the request again with the new token', async () => {
      const c = client(load(plugin('2030-01-01T01:00:00Z')));
      await get(c);
      // The server stops accepting tok-1 before it expires (revoked, clock skew).
      handler = acceptOnly('tok-2');
      expect(await get(c)).to.deep.equal(LEASE);
      expect(runs()).to.equal(2);
      expect(tokensSeen()).to.deep.equal(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
    });

    it('tries a fresh credential only once: a second 401 is the answer', async () => {
      handler = acceptOnly();
      const c = client(load(plugin('2030-01-01T01:00:00Z')));
      const err = await get(c).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(ApiError).with.property('code', 401);
      expect(tokensSeen()).to.deep.equal(['Bearer tok-1', 'Bearer tok-2']);
      expect(runs()).to.equal(2);
    });

    it('concurrent requests refused together run the plugin once more, not once each', async () => {
      const c = client(load(plugin('2030-01-01T01:00:00Z')));
      await get(c);
      handler = acceptOnly('tok-2');
      await Promise.all([get(c), get(c), get(c)]);
      expect(runs()).to.equal(2);
    });

    it('opens a refused watch once more with a fresh credential', async () => {
      handler = (req, res) => {
        if (req.headers.authorization !== 'Bearer tok-2') return acceptOnly()(req, res);
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"type":"ADDED"}\n');
      };
      const c = client(load(plugin('2030-01-01T01:00:00Z')));
      const lines: string[] = [];
      await c.stream(LEASE_PATH, { watch: 'true' }, new AbortController().signal, (line) =>
        lines.push(line),
      );
      expect(lines).to.deep.equal(['{"type":"ADDED"}']);
      expect(tokensSeen()).to.deep.equal(['Bearer tok-1', 'Bearer tok-2']);
    });
  });

  it('connects through the cluster’s proxy-url (CONNECT), on one kept-alive tunnel', async () => {
    const tunnels: string[] = [];
    const proxy = createServer();
    proxy.on('connect', (req: IncomingMessage, inbound: Socket, head: Buffer) => {
      tunnels.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host, () => {
        inbound.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(inbound);
        inbound.pipe(upstream);
      });
      upstream.on('error', () => inbound.destroy());
      inbound.on('error', () => upstream.destroy());
      sockets.add(inbound);
      inbound.on('close', () => sockets.delete(inbound));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const access = loadClusterAccess({
        read: readKubeConfigHere,
        kubeconfigPath: kubeconfig({ token: 't' }, { 'proxy-url': proxyUrl }),
        env: {},
      });
      expect(access.proxyUrl).to.equal(proxyUrl);
      const c = client(access);
      await get(c);
      await get(c);
      expect(tunnels).to.deep.equal([url.replace('http://', '')]);
      expect(seen).to.have.length(2);
    } finally {
      for (const created of clients.splice(0)) created.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('reads the service account in a pod through client-node’s in-cluster shape', async () => {
    writeFileSync(
      join(dir, 'ca.crt'),
      '-----BEGIN CERTIFICATE-----\nca\n-----END CERTIFICATE-----\n',
    );
    writeFileSync(join(dir, 'token'), 'sa-token');
    writeFileSync(join(dir, 'namespace'), 'openshift-cluster-api');
    const kubeConfig = loadKubeConfig({
      env: { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' },
      serviceAccountDir: dir,
    });
    expect(kubeConfig.getContextObject(kubeConfig.currentContext)?.namespace).to.equal(
      'openshift-cluster-api',
    );
    const access = clusterAccess(currentContext(kubeConfig));
    expect(access.server).to.equal('https://10.0.0.1:443');
    expect(await access.token()).to.equal('sa-token');
    expect(access.source).to.equal('in-cluster service account');
  });
});
