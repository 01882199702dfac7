// The controller's own API client: JSON over one keep-alive connection pool to the API server.
// client-node's generated clients open a fresh connection (and TLS handshake) per request and
// load every API model on import (~70 MiB); a controller that makes thousands of small writes
// needs neither. Every request is bounded in time, from authentication to the last body byte.
import http from 'node:http';
import https from 'node:https';
import type { ClusterAccess } from './cluster-access.js';

/** What every API request may take unless told otherwise (the --request-timeout default). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** The error a request fails with when it ran out of time. */
export class RequestTimeoutError extends Error {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly timeoutMs: number,
    options?: ErrorOptions,
  ) {
    super(`${method} ${url}: no complete answer within ${timeoutMs} ms`, options);
    this.name = 'RequestTimeoutError';
  }
}

/** The API server answered with a status other than 2xx; `body` is its answer (a Status, usually). */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly body: string,
    method: string,
    path: string,
  ) {
    super(`${method} ${path}: HTTP ${code}: ${summary(body)}`);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  query?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Default application/json; patches name their kind. */
  contentType?: string;
  signal?: AbortSignal;
  /** This request's time budget, instead of the client's. */
  timeoutMs?: number;
}

export interface KubeClientOptions {
  /** Each request (authentication, headers and the whole body) fails after this long. */
  timeoutMs?: number;
  /**
   * Sent as User-Agent (default: mapi-capi-sync); the API server names the field manager of our
   * writes after it (the part before '/').
   */
  userAgent?: string;
}

export class KubeClient {
  readonly server: string;
  readonly timeoutMs: number;
  private readonly agent: http.Agent;
  private readonly userAgent: string;

  constructor(
    private readonly access: ClusterAccess,
    options: KubeClientOptions = {},
  ) {
    const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
      throw new RangeError(`request timeout must be a positive number of ms, got ${timeoutMs}`);
    }
    this.timeoutMs = timeoutMs;
    this.server = access.server;
    this.userAgent = options.userAgent ?? 'mapi-capi-sync';
    const { ca, cert, key, rejectUnauthorized, servername } = access.tls;
    this.agent = access.server.startsWith('http:')
      ? new http.Agent({ keepAlive: true })
      : new https.Agent({
          keepAlive: true,
          rejectUnauthorized,
          ...(ca ? { ca } : {}),
          ...(cert ? { cert } : {}),
          ...(key ? { key } : {}),
          ...(servername ? { servername } : {}),
        });
  }

  /** One request; resolves to the parsed JSON answer (undefined for an empty one). */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const deadline = this.deadline(method, path, options.timeoutMs, options.signal);
    try {
      const response = await this.open(method, path, options, deadline.signal);
      const text = await readBody(response);
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) throw new ApiError(status, text, method, path);
      if (!text) return undefined as T;
      try {
        return JSON.parse(text) as T;
      } catch (err) {
        throw new Error(`${method} ${path}: the answer is not JSON`, { cause: err });
      }
    } catch (err) {
      throw deadline.signal.aborted && !options.signal?.aborted ? deadline.reason(err) : err;
    } finally {
      deadline.clear();
    }
  }

  /**
   * A streamed GET (a watch): `onLine` gets each line of the body until the server ends it
   * (resolves) or it fails or `signal` aborts (rejects). No deadline: a watch is long by design.
   * A status other than 200 rejects with an ApiError.
   */
  async stream(
    path: string,
    query: Record<string, string>,
    signal: AbortSignal,
    onLine: (line: string) => void,
  ): Promise<void> {
    const response = await this.open('GET', path, { query }, signal);
    if (response.statusCode !== 200) {
      throw new ApiError(response.statusCode ?? 0, await readBody(response), 'GET', path);
    }
    response.socket.setKeepAlive(true, 30_000);
    await new Promise<void>((resolve, reject) => {
      let pending = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        pending += chunk;
        let newline: number;
        while ((newline = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, newline).trim();
          pending = pending.slice(newline + 1);
          if (line) onLine(line);
        }
      });
      response.on('error', reject);
      response.on('end', () => {
        if (pending.trim()) onLine(pending.trim());
        resolve();
      });
      response.on('close', () => {
        if (!response.complete) reject(new Error(`GET ${path}: watch connection closed`));
      });
    });
  }

  /** Closes the idle connections; requests still running finish. */
  close(): void {
    this.agent.destroy();
  }

  private async open(
    method: string,
    path: string,
    { query, body, contentType, signal }: RequestOptions,
    abort: AbortSignal,
  ): Promise<http.IncomingMessage> {
    const url = new URL(this.server + path);
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value);
    const token = await raceSignal(this.access.token(), abort);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: http.OutgoingHttpHeaders = {
      Accept: 'application/json',
      'User-Agent': this.userAgent,
    };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (payload) {
      headers['Content-Type'] = contentType ?? 'application/json';
      headers['Content-Length'] = payload.length;
    }
    signal?.throwIfAborted();
    const client = url.protocol === 'http:' ? http : https;
    return new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = client.request(url, { method, headers, agent: this.agent, signal: abort });
      request.on('response', resolve);
      request.on('error', reject);
      request.end(payload);
    });
  }

  private deadline(
    method: string,
    path: string,
    timeoutMs = this.timeoutMs,
    outer?: AbortSignal,
  ): Deadline {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const onOuter = (): void => controller.abort(outer?.reason);
    outer?.addEventListener('abort', onOuter, { once: true });
    if (outer?.aborted) controller.abort(outer.reason);
    return {
      signal: controller.signal,
      reason: (cause) => new RequestTimeoutError(method, path, timeoutMs, { cause }),
      clear: () => {
        clearTimeout(timer);
        outer?.removeEventListener('abort', onOuter);
      },
    };
  }
}

interface Deadline {
  signal: AbortSignal;
  reason(cause: unknown): Error;
  clear(): void;
}

/**
 * Settles like `promise` unless `signal` aborts first, then rejects with the signal's reason; a
 * failure after the abort (a request torn down by it) is reported as the abort, too.
 */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  const reason = (): Error => toError(signal.reason ?? new Error('aborted'));
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(reason());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(reason());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? reason() : toError(err));
      },
    );
  });
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/** The whole body as text; rejects when the connection closes before the end. */
function readBody(response: http.IncomingMessage): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('error', reject);
    response.on('close', () => {
      if (!response.complete) reject(new Error('connection closed mid-response'));
    });
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function summary(body: string): string {
  try {
    const status = JSON.parse(body) as { message?: unknown };
    if (typeof status.message === 'string') return status.message;
  } catch {
    // not a Status: the text itself
  }
  return body.slice(0, 500).replace(/\s*\n\s*/g, ' ');
}
