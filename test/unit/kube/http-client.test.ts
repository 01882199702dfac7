// KubeClient against a local HTTP server that answers, refuses, stalls before the headers,
// stalls in the middle of the body, throttles (429/5xx with Retry-After), or drops a kept-alive
// connection under a request.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { expect } from 'chai';
import type { ClusterAccess } from '../../../src/kube/cluster-access.js';
import { isConflict, isNotFound } from '../../../src/kube/errors.js';
import {
  ApiError,
  IDLE_SOCKET_TIMEOUT_MS,
  KubeClient,
  RequestTimeoutError,
  type KubeClientOptions,
} from '../../../src/kube/http-client.js';

const LEASE = { kind: 'Lease', metadata: { name: 'l', namespace: 'ns', resourceVersion: '7' } };
const LEASE_PATH = '/apis/coordination.k8s.io/v1/namespaces/ns/leases/l';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface Seen {
  at: number;
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

  const client = (
    timeoutMs = 5000,
    userAgent?: string,
    options: Omit<KubeClientOptions, 'timeoutMs' | 'userAgent'> = {},
  ): KubeClient => {
    const created = new KubeClient(access, {
      timeoutMs,
      ...(userAgent ? { userAgent } : {}),
      ...options,
    });
    clients.push(created);
    return created;
  };
  /** Answers the given statuses in turn (with their headers), then 200 with the Lease. */
  const inTurn = (...answers: [number, Record<string, string>][]): Handler => {
    return (req, res, body) => {
      const next = answers.shift();
      if (!next) return answer(200, LEASE)(req, res, body);
      const [status, headers] = next;
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      res.end(JSON.stringify({ kind: 'Status', code: status, message: `answer ${status}` }));
    };
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
        seen.push({
          at: Date.now(),
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body,
        });
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

  it('waits as a 429 Retry-After asks and sends the request again: the caller sees the answer', async () => {
    handler = inTurn([429, { 'Retry-After': '1' }]);
    const answered = await client().request('GET', LEASE_PATH);
    expect(answered).to.deep.equal(LEASE);
    expect(seen).to.have.length(2);
    expect(seen[1]!.at - seen[0]!.at, 'waited the second asked for').to.be.at.least(900);
  });

  it('sends a write again when a 5xx carries Retry-After, and not when an error carries none', async () => {
    handler = inTurn([503, { 'Retry-After': '0' }], [500, { 'Retry-After': '0' }]);
    const body = { metadata: { labels: { a: 'b' } } };
    const patched = await client().request('PATCH', LEASE_PATH, {
      body,
      contentType: 'application/merge-patch+json',
    });
    expect(patched).to.deep.equal(LEASE);
    expect(seen.map((s) => [s.method, JSON.parse(s.body) as unknown])).to.deep.equal([
      ['PATCH', body],
      ['PATCH', body],
      ['PATCH', body],
    ]);

    for (const status of [429, 500, 503]) {
      seen = [];
      handler = inTurn([status, {}]);
      const err = await failure(client().request('POST', '/apis/x/v1/things', { body }));
      expect((err as ApiError).code, `${status} without Retry-After`).to.equal(status);
      expect(seen).to.have.length(1);
    }
    seen = [];
    handler = inTurn([409, { 'Retry-After': '0' }]);
    expect(((await failure(client().request('GET', LEASE_PATH))) as ApiError).code).to.equal(409);
    expect(seen, 'only 429 and 5xx are retried').to.have.length(1);
  });

  it('retries at most 10 times, caps the wait, and gives up at once when the wait outlasts the budget', async () => {
    handler = (_req, res) => {
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '0' });
      res.end(JSON.stringify({ kind: 'Status', code: 429, message: 'too many requests' }));
    };
    const err = await failure(client().request('GET', LEASE_PATH));
    expect(err).to.be.instanceOf(ApiError);
    expect((err as ApiError).code).to.equal(429);
    expect(seen, 'the first request and 10 retries').to.have.length(11);

    seen = [];
    handler = inTurn([429, { 'Retry-After': '3600' }]);
    const capped = client(5000, undefined, { maxRetryWaitMs: 50 });
    expect(await capped.request('GET', LEASE_PATH)).to.deep.equal(LEASE);
    expect(seen).to.have.length(2);

    seen = [];
    handler = inTurn([429, { 'Retry-After': '5' }]);
    const started = Date.now();
    const late = await failure(client(1000).request('GET', LEASE_PATH));
    expect(late, 'the server answer, not a timeout').to.be.instanceOf(ApiError);
    expect((late as ApiError).code).to.equal(429);
    expect(seen).to.have.length(1);
    expect(Date.now() - started).to.be.lessThan(900);
  });

  it('stops waiting for a retry when the caller aborts', async () => {
    handler = inTurn([429, { 'Retry-After': '5' }]);
    const controller = new AbortController();
    const pending = failure(
      client(10_000).request('GET', LEASE_PATH, { signal: controller.signal }),
    );
    setTimeout(() => controller.abort(new Error('shutting down')), 50);
    const err = await pending;
    expect((err as Error).message).to.equal('shutting down');
    expect(seen).to.have.length(1);
  });

  it('sends an idempotent request again once when its kept-alive socket is reset before any answer', async () => {
    let drop = 0;
    handler = (req, res, body) => {
      // The server closes the connection under the request, without a byte of answer.
      if (drop > 0 && seen.length > 1) {
        drop -= 1;
        req.socket.destroy();
        return;
      }
      answer(200, LEASE)(req, res, body);
    };
    const api = client();
    await api.request('GET', LEASE_PATH);
    drop = 1;
    expect(await api.request('GET', LEASE_PATH)).to.deep.equal(LEASE);
    expect(seen).to.have.length(3);
    expect(connections, 'the retry went over a new connection').to.equal(2);

    drop = 2; // reset twice in a row: retried once only
    const twice = await failure(api.request('PUT', LEASE_PATH, { body: LEASE }));
    expect(twice).to.be.instanceOf(Error).and.not.instanceOf(ApiError);
    expect((twice as NodeJS.ErrnoException).code).to.equal('ECONNRESET');

    // A POST may have been processed before the reset: it is not sent again.
    await api.request('GET', LEASE_PATH);
    const before = seen.length;
    drop = 1;
    const post = await failure(api.request('POST', '/apis/x/v1/things', { body: LEASE }));
    expect((post as NodeJS.ErrnoException).code).to.equal('ECONNRESET');
    expect(seen.length - before).to.equal(1);

    // Part of an answer came before the reset: the server did answer, so no retry.
    await api.request('GET', LEASE_PATH);
    const answered = seen.length;
    handler = (req) => req.socket.end('HTTP/1.1 200 OK\r\nContent-Type: appl');
    expect(await failure(api.request('GET', LEASE_PATH))).to.be.instanceOf(Error);
    expect(seen.length - answered).to.equal(1);
  });

  it('closes a kept-alive socket idle for longer than its idle timeout, below the API server’s 90 s', async () => {
    expect(IDLE_SOCKET_TIMEOUT_MS).to.be.greaterThan(0).and.lessThan(90_000);
    handler = answer(200, LEASE);
    await client(5000, undefined, { idleSocketTimeoutMs: 50 }).request('GET', LEASE_PATH);
    await socketsClosed();
  });

  it('keeps a quiet watch open past the idle socket timeout, and never sends it again', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED"}\n');
      setTimeout(() => res.end('{"type":"DELETED"}\n'), 300);
    };
    const lines: string[] = [];
    const api = client(5000, undefined, { idleSocketTimeoutMs: 50 });
    await api.stream('/watch', {}, new AbortController().signal, (line) => lines.push(line));
    expect(lines).to.deep.equal(['{"type":"ADDED"}', '{"type":"DELETED"}']);

    handler = inTurn([429, { 'Retry-After': '0' }]);
    const err = await failure(api.stream('/watch', {}, new AbortController().signal, () => {}));
    expect((err as ApiError).code).to.equal(429);
    expect(seen).to.have.length(2);
  });

  it('rejects a timeout that is not a positive number', () => {
    for (const timeoutMs of [0, -1, Number.NaN]) {
      expect(() => new KubeClient(access, { timeoutMs })).to.throw(RangeError);
    }
  });
});
