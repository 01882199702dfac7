// A loopback TCP proxy in front of the API server that can pass traffic, hang every connection
// (old and new: bytes are held, nothing is closed, as with a dead network path), hang only new
// requests (open watches keep flowing while every new request hangs, on a new connection or on a
// kept-alive one), or cut them.
// TLS passes through untouched, so clients keep verifying the API server's certificate.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';

export type FaultMode = 'pass' | 'hang' | 'hang-new' | 'cut';

/** One proxied connection. While held, bytes are read (so a close is still noticed) but kept. */
interface Connection {
  client: Socket;
  upstream: Socket;
  held: boolean;
  /** Becomes held as soon as the client sends anything (a new request on a kept-alive connection). */
  holdOnRequest: boolean;
  /** The server side closed while held: the client learns it on release. */
  upstreamClosed: boolean;
  /** Bytes read while held, per direction, with a pending end. */
  toUpstream: { chunks: Buffer[]; ended: boolean };
  toClient: { chunks: Buffer[]; ended: boolean };
}

export class FaultProxy {
  private readonly server: Server;
  private readonly connections = new Set<Connection>();
  private mode: FaultMode = 'pass';
  private accepted = 0;

  private constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
    server: Server,
  ) {
    this.server = server;
  }

  /** Listens on 127.0.0.1 on a free port, forwarding to the target. */
  static async start(target: { host: string; port: number }): Promise<FaultProxy> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const proxy = new FaultProxy(target, (server.address() as AddressInfo).port, server);
    server.on('connection', (client) => proxy.accept(client));
    return proxy;
  }

  /** A proxy in front of the API server of `kubeConfig`, and a copy of it that goes through. */
  static async inFrontOf(
    kubeConfig: KubeConfig,
  ): Promise<{ proxy: FaultProxy; kubeConfig: KubeConfig }> {
    const cluster = kubeConfig.getCurrentCluster();
    const user = kubeConfig.getCurrentUser();
    if (!cluster || !user) throw new Error('kubeconfig has no current cluster or user');
    const url = new URL(cluster.server);
    const proxy = await FaultProxy.start({
      host: url.hostname,
      port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    });
    const proxied = new KubeConfig();
    proxied.loadFromOptions({
      clusters: [
        {
          ...cluster,
          server: `${url.protocol}//127.0.0.1:${proxy.port}`,
          // The certificate names the real address; the proxy is transparent to TLS.
          ...(url.hostname !== '127.0.0.1' ? { tlsServerName: url.hostname } : {}),
        },
      ],
      users: [user],
      contexts: [{ name: 'through-proxy', cluster: cluster.name, user: user.name }],
      currentContext: 'through-proxy',
    });
    return { proxy, kubeConfig: proxied };
  }

  /** Connections currently open through the proxy. */
  openConnections(): number {
    return this.connections.size;
  }

  /** Connections accepted since the proxy started. */
  acceptedConnections(): number {
    return this.accepted;
  }

  /** Forwards traffic again; hung connections resume where they stopped. */
  pass(): void {
    this.mode = 'pass';
    for (const connection of this.connections) {
      connection.holdOnRequest = false;
      this.release(connection);
    }
  }

  /** Holds every byte in both directions, on open and new connections; closes nothing. */
  hang(): void {
    this.mode = 'hang';
    for (const connection of this.connections) connection.held = true;
  }

  /**
   * Lets open streams flow (a watch's client sends nothing after its request), and holds every new
   * request: every new connection, and every open one the moment its client sends a request.
   */
  hangNew(): void {
    this.mode = 'hang-new';
    for (const connection of this.connections) connection.holdOnRequest = true;
  }

  /** Resets every open connection, and every new one until `pass`. */
  cut(): void {
    this.mode = 'cut';
    for (const connection of [...this.connections]) this.destroy(connection);
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    this.accepted++;
    if (this.mode === 'cut') {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(this.target.port, this.target.host);
    const connection: Connection = {
      client,
      upstream,
      held: this.mode === 'hang' || this.mode === 'hang-new',
      holdOnRequest: false,
      upstreamClosed: false,
      toUpstream: { chunks: [], ended: false },
      toClient: { chunks: [], ended: false },
    };
    this.connections.add(connection);
    this.forward(connection, client, upstream, connection.toUpstream);
    this.forward(connection, upstream, client, connection.toClient);
    const end = (): void => this.destroy(connection);
    client.on('error', end);
    client.on('close', end);
    // While held, the client must not learn anything, not even that the server hung up.
    const upstreamEnd = (): void => {
      if (connection.held) connection.upstreamClosed = true;
      else end();
    };
    upstream.on('error', upstreamEnd);
    upstream.on('close', upstreamEnd);
  }

  private forward(
    connection: Connection,
    from: Socket,
    to: Socket,
    held: { chunks: Buffer[]; ended: boolean },
  ): void {
    from.on('data', (chunk: Buffer) => {
      if (from === connection.client && connection.holdOnRequest) connection.held = true;
      if (connection.held) held.chunks.push(chunk);
      else if (!to.destroyed) to.write(chunk);
    });
    from.on('end', () => {
      if (connection.held) held.ended = true;
      else if (!to.destroyed) to.end();
    });
  }

  private release(connection: Connection): void {
    if (!connection.held) return;
    connection.held = false;
    for (const [held, to] of [
      [connection.toUpstream, connection.upstream],
      [connection.toClient, connection.client],
    ] as const) {
      if (to.destroyed) continue;
      for (const chunk of held.chunks.splice(0)) to.write(chunk);
      if (held.ended) to.end();
    }
    if (connection.upstreamClosed) this.destroy(connection);
  }

  private destroy(connection: Connection): void {
    if (!this.connections.delete(connection)) return;
    if (!connection.client.destroyed) connection.client.resetAndDestroy();
    connection.upstream.destroy();
  }
}
