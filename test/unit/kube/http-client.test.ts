// KubeClient against a local HTTP server that answers, refuses, stalls before the headers, or
// stalls in the middle of the body.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { expect } from 'chai';
import type { ClusterAccess } from '../../../src/kube/cluster-access.js';
import { isConflict, isNotFound } from '../../../src/kube/errors.js';
import { ApiError, KubeClient, RequestTimeoutError } from '../../../src/kube/http-client.js';

const LEASE = { kind: 'Lease', metadata: { name: 'l', namespace: 'ns', resourceVersion: '7' } };
const LEASE_PATH = '/apis/coordination.k8s.io/v1/namespaces/ns/leases/l';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

describe('KubeClient', () => {
  let server: Server;
  let sockets: Set<Socket>;
  let connections: number;
  let handler: Handler;
  let seen: Seen[];
  let access: ClusterAccess;
  let tokens: string[];
  const clients: KubeClient[] = [];

  const client = (timeoutMs = 5000, userAgent?: string): KubeClient => {
    const created = new KubeClient(access, { timeoutMs, ...(userAgent ? { userAgent } : {}) });
    clients.push(created);
    return created;
  };
  const answer = (status: number, body: unknown): Handler => {
    return (_req, res) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
  };
  const failure = (promise: Promise<unknown>): Promise<unknown> =>
    promise.then(
      () => 'answered',
      (err: unknown) => err,
    );

  beforeEach(async () => {
    seen = [];
    sockets = new Set();
    connections = 0;
    tokens = ['first-token', 'second-token'];
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        handler(req, res, body);
      });
    });
    server.on('connection', (socket) => {
      connections += 1;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    let calls = 0;
    access = {
      server: `http://127.0.0.1:${port}`,
      tls: { rejectUnauthorized: true },
      // A token source that rotates: each request must ask it anew.
      token: () => Promise.resolve(tokens[Math.min(calls++, tokens.length - 1)]),
      source: 'test',
    };
  });

  afterEach(async () => {
    for (const created of clients.splice(0)) created.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Waits (bounded) until the server saw every client socket close. */
  async function socketsClosed(): Promise<void> {
    for (let i = 0; i < 200 && sockets.size > 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(sockets.size, 'the client closed its connection').to.equal(0);
  }

  it('sends JSON with the token of the moment, its User-Agent and the query, and decodes the answer', async () => {
    handler = answer(201, LEASE);
    const api = client(5000, 'mapi-capi-sync/1.2.3');
    const created = await api.request<typeof LEASE>('POST', '/apis/x/v1/things', {
      query: { fieldValidation: 'Strict' },
      body: { spec: { n: 1 } },
    });
    expect(created).to.deep.equal(LEASE);
    await api.request('GET', LEASE_PATH);
    expect(seen[0]).to.include({ method: 'POST', url: '/apis/x/v1/things?fieldValidation=Strict' });
    expect(JSON.parse(seen[0]?.body ?? '')).to.deep.equal({ spec: { n: 1 } });
    expect(seen[0]?.headers).to.include({
      authorization: 'Bearer first-token',
      'content-type': 'application/json',
      'user-agent': 'mapi-capi-sync/1.2.3',
      accept: 'application/json',
    });
    expect(seen[1]?.headers.authorization).to.equal('Bearer second-token');
    expect(seen[1]?.body).to.equal('');
  });

  it('names the patch kind in Content-Type', async () => {
    handler = answer(200, LEASE);
    await client().request('PATCH', LEASE_PATH, {
      body: { metadata: { labels: { a: 'b' } } },
      contentType: 'application/merge-patch+json',
    });
    expect(seen[0]?.headers['content-type']).to.equal('application/merge-patch+json');
    expect(seen[0]?.headers['user-agent'], 'the default User-Agent').to.equal('mapi-capi-sync');
  });

  it('reuses one connection for requests in sequence (no handshake per request)', async () => {
    handler = answer(200, LEASE);
    const api = client();
    for (let i = 0; i < 5; i++) await api.request('GET', LEASE_PATH);
    expect(seen).to.have.length(5);
    expect(connections).to.equal(1);
    api.close();
    await socketsClosed();
  });

  it('fails with the status code and the server Status, as the error classifiers read them', async () => {
    handler = answer(409, { kind: 'Status', code: 409, reason: 'Conflict', message: 'changed' });
    const err = await failure(client().request('PUT', LEASE_PATH, { body: LEASE }));
    expect(err).to.be.instanceOf(ApiError);
    expect(isConflict(err)).to.equal(true);
    expect((err as ApiError).message).to.equal(`PUT ${LEASE_PATH}: HTTP 409: changed`);
    expect(JSON.parse((err as ApiError).body)).to.include({ reason: 'Conflict' });
    handler = answer(404, { kind: 'Status', code: 404, reason: 'NotFound', message: 'gone' });
    expect(isNotFound(await failure(client().request('GET', LEASE_PATH)))).to.equal(true);
  });

  it('fails a request whose answer never comes, and closes its connection', async () => {
    handler = () => undefined; // accepts the request, never answers
    const err = await failure(client(100).request('GET', LEASE_PATH));
    expect(err).to.be.instanceOf(RequestTimeoutError);
    expect((err as Error).message).to.equal(`GET ${LEASE_PATH}: no complete answer within 100 ms`);
    expect((err as { code?: unknown }).code, 'not mistaken for an HTTP status').to.equal(undefined);
    await socketsClosed();
  });

  it('fails a request whose body stalls after the headers', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(JSON.stringify(LEASE).slice(0, 20)); // and never the rest
    };
    expect(await failure(client(100).request('GET', LEASE_PATH))).to.be.instanceOf(
      RequestTimeoutError,
    );
    await socketsClosed();
  });

  it('gives every request its own budget, and honours a budget given per request', async () => {
    let answering = false;
    handler = (req, res, body) => {
      if (answering) answer(200, LEASE)(req, res, body);
    };
    const api = client(5000);
    const started = Date.now();
    expect(await failure(api.request('GET', LEASE_PATH, { timeoutMs: 100 }))).to.be.instanceOf(
      RequestTimeoutError,
    );
    expect(Date.now() - started).to.be.lessThan(4000);
    answering = true;
    expect(await api.request('GET', LEASE_PATH)).to.deep.equal(LEASE);
  });

  it('gives up at once when the caller aborts, without calling it a timeout', async () => {
    handler = () => undefined;
    const controller = new AbortController();
    const pending = failure(client().request('GET', LEASE_PATH, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    const err = await pending;
    expect(err).to.be.instanceOf(Error);
    expect(err).to.not.be.instanceOf(RequestTimeoutError);
    await socketsClosed();
  });

  it('streams a watch line by line until the server ends it, and reports a refused watch', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED"}\n{"type":');
      setTimeout(() => res.end('"MODIFIED"}\n{"type":"DELETED"}'), 20);
    };
    const lines: string[] = [];
    await client().stream('/watch', { watch: 'true' }, new AbortController().signal, (line) =>
      lines.push(line),
    );
    expect(lines).to.deep.equal(['{"type":"ADDED"}', '{"type":"MODIFIED"}', '{"type":"DELETED"}']);
    expect(seen[0]?.url).to.equal('/watch?watch=true');

    handler = answer(403, { kind: 'Status', code: 403, message: 'forbidden' });
    const err = await failure(
      client().stream('/watch', {}, new AbortController().signal, () => undefined),
    );
    expect(err).to.be.instanceOf(ApiError);
    expect((err as ApiError).code).to.equal(403);
  });

  it('rejects a timeout that is not a positive number', () => {
    for (const timeoutMs of [0, -1, Number.NaN]) {
      expect(() => new KubeClient(access, { timeoutMs })).to.throw(RangeError);
    }
  });
});
