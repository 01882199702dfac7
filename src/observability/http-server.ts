// /healthz, /readyz and /metrics over plain HTTP, on the addresses given by
// --health-probe-bind-address and --metrics-bind-address (the same or separate ports).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { HealthStatus } from './progress.js';

export interface Endpoints {
  /** Liveness: the process serves requests and its workers make progress. */
  health(): HealthStatus;
  /** Readiness: the caches have synced. */
  ready(): boolean;
  registry?: Registry;
}

/** Parses ":8080", "127.0.0.1:8080" or "0" (disabled). */
export function parseBindAddress(value: string): { host: string; port: number } | undefined {
  if (value === '0') return undefined;
  const match = /^(.*):(\d+)$/.exec(value);
  if (!match)
    throw new Error(`bind address must look like ":8080" or "127.0.0.1:8080", got "${value}"`);
  const port = Number(match[2]);
  if (port > 65535) throw new Error(`port out of range in "${value}"`);
  return { host: match[1] || '0.0.0.0', port };
}

export async function serve(
  address: { host: string; port: number },
  routes: { probes: boolean; metrics: boolean },
  endpoints: Endpoints,
): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const reply = (status: number, body: string, type = 'text/plain; charset=utf-8') => {
      res.writeHead(status, { 'Content-Type': type });
      res.end(body);
    };
    if (routes.probes && path === '/healthz') {
      const health = endpoints.health();
      return health.healthy ? reply(200, 'ok\n') : reply(500, `unhealthy: ${health.reason}\n`);
    }
    if (routes.probes && path === '/readyz') {
      return endpoints.ready() ? reply(200, 'ok\n') : reply(503, 'caches not synced\n');
    }
    if (routes.metrics && path === '/metrics' && endpoints.registry) {
      const registry = endpoints.registry;
      registry.metrics().then(
        (text) => reply(200, text, registry.contentType),
        (err: unknown) => reply(500, `${String(err)}\n`),
      );
      return;
    }
    reply(404, 'not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
}
