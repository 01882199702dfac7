// What KubeClient keeps after an answer, over TLS as against an API server: node's https agent
// keeps the first request of a kept-alive connection (for its TLS session) as long as the
// connection lives, so whatever that request's response references lives as long.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'chai';
import { KubeClient } from '../../../src/kube/http-client.js';

/** A full collection, also without --expose-gc. */
function collect(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

function retainedBytes(): number {
  collect();
  collect();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

describe('KubeClient over TLS: what an answer leaves behind', () => {
  let dir: string;
  let server: Server;
  let client: KubeClient;
  const BODY_BYTES = 16 * 1024 * 1024;
  // One list of many items, as the first request of an informer is.
  const body = JSON.stringify({
    kind: 'List',
    items: Array.from({ length: BODY_BYTES / 1024 }, (_, i) => ({
      name: `item-${i}`,
      pad: 'x'.repeat(1000),
    })),
  });

  before(async function () {
    this.timeout(30_000);
    dir = mkdtempSync(join(tmpdir(), 'http-client-tls-'));
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = new KubeClient(
      {
        server: `https://127.0.0.1:${port}`,
        tls: { ca: readFileSync(cert), rejectUnauthorized: true },
        token: () => Promise.resolve(undefined),
        source: 'test',
      },
      { timeoutMs: 20_000 },
    );
  });

  after(async () => {
    client.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps neither the text nor the objects of a large answer once its caller is done', async function () {
    this.timeout(30_000);
    const before = retainedBytes();
    const items = async () =>
      (await client.request<{ items: unknown[] }>('GET', '/api/v1/things')).items.length;
    expect(await items()).to.equal(BODY_BYTES / 1024);
    // The connection stays open (kept alive), as an informer's does between its list and its watch.
    const kept = retainedBytes() - before;
    expect(kept, `bytes still held after a ${BODY_BYTES}-byte answer`).to.be.below(BODY_BYTES / 4);
  });
});
