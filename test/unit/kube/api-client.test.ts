// createApiClient against a local HTTP server that answers, stalls before the headers, or stalls
// in the middle of the body.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { expect } from 'chai';
import { CoordinationV1Api, KubeConfig } from '@kubernetes/client-node';
import { createApiClient, RequestTimeoutError } from '../../../src/kube/api-client.js';

const LEASE = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'l', namespace: 'ns', resourceVersion: '7' },
  spec: { holderIdentity: 'me' },
};

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

describe('createApiClient', () => {
  let server: Server;
  let sockets: Set<Socket>;
  let handler: Handler;
  let kubeConfig: KubeConfig;
  let requests: { method: string; url: string; authorization?: string }[];

  beforeEach(async () => {
    requests = [];
    sockets = new Set();
    server = createServer((req, res) => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      });
      handler(req, res);
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
      users: [{ name: 'u', token: 'secret-token' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
  });

  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Waits (bounded) until the server saw every client socket close. */
  async function socketsClosed(): Promise<void> {
    for (let i = 0; i < 200 && sockets.size > 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(sockets.size, 'the client closed its connection').to.equal(0);
  }

  it('works as makeApiClient does: same path, same authentication, same decoded answer', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(LEASE));
    };
    const api = createApiClient(kubeConfig, CoordinationV1Api, { timeoutMs: 5000 });
    const lease = await api.readNamespacedLease({ name: 'l', namespace: 'ns' });
    expect(lease.spec?.holderIdentity).to.equal('me');
    expect(lease.metadata?.resourceVersion).to.equal('7');

    const plain = kubeConfig.makeApiClient(CoordinationV1Api);
    await plain.readNamespacedLease({ name: 'l', namespace: 'ns' });
    expect(requests[0]).to.deep.equal(requests[1]);
    expect(requests[0]).to.deep.equal({
      method: 'GET',
      url: '/apis/coordination.k8s.io/v1/namespaces/ns/leases/l',
      authorization: 'Bearer secret-token',
    });
  });

  it('keeps HTTP errors as client-node reports them (status code and server message)', async () => {
    handler = (_req, res) => {
      res.writeHead(409, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({ kind: 'Status', code: 409, reason: 'Conflict', message: 'changed' }),
      );
    };
    const failure = (api: CoordinationV1Api) =>
      api
        .replaceNamespacedLease({ name: 'l', namespace: 'ns', body: LEASE })
        .catch((e: unknown) => e) as Promise<{ code?: number; body?: unknown }>;
    const err = await failure(createApiClient(kubeConfig, CoordinationV1Api, { timeoutMs: 5000 }));
    const plain = await failure(kubeConfig.makeApiClient(CoordinationV1Api));
    expect(err.code).to.equal(409);
    expect(err.body).to.deep.equal(plain.body);
    expect(String(err.body)).to.contain('"message":"changed"');
  });

  it('fails a request whose answer never comes, and closes its connection', async () => {
    handler = () => undefined; // accepts the request, never answers
    const api = createApiClient(kubeConfig, CoordinationV1Api, { timeoutMs: 100 });
    const err = await api.readNamespacedLease({ name: 'l', namespace: 'ns' }).then(
      () => 'answered',
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(RequestTimeoutError);
    expect((err as Error).message).to.equal(
      'GET /apis/coordination.k8s.io/v1/namespaces/ns/leases/l: no complete answer within 100 ms',
    );
    expect((err as { code?: unknown }).code, 'not mistaken for an HTTP status').to.equal(undefined);
    await socketsClosed();
  });

  it('fails a request whose body stalls after the headers', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(JSON.stringify(LEASE).slice(0, 20)); // and never the rest
    };
    const api = createApiClient(kubeConfig, CoordinationV1Api, { timeoutMs: 100 });
    const err = await api.readNamespacedLease({ name: 'l', namespace: 'ns' }).then(
      () => 'answered',
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(RequestTimeoutError);
    await socketsClosed();
  });

  it('gives every request its own budget: a timeout does not affect the next request', async () => {
    let answer = false;
    handler = (_req, res) => {
      if (!answer) return;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(LEASE));
    };
    const api = createApiClient(kubeConfig, CoordinationV1Api, { timeoutMs: 100 });
    const failed = await api.readNamespacedLease({ name: 'l', namespace: 'ns' }).then(
      () => 'answered',
      (e: unknown) => e,
    );
    expect(failed).to.be.instanceOf(RequestTimeoutError);
    answer = true;
    const lease = await api.readNamespacedLease({ name: 'l', namespace: 'ns' });
    expect(lease.spec?.holderIdentity).to.equal('me');
  });

  it('rejects a timeout that is not a positive number', () => {
    for (const timeoutMs of [0, -1, Number.NaN]) {
      expect(() => createApiClient(kubeConfig, CoordinationV1Api, { timeoutMs })).to.throw(
        RangeError,
      );
    }
  });
});
