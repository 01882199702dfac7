// The controller's own API client: JSON over one keep-alive connection pool to the API server.
// client-node's generated clients open a fresh connection (and TLS handshake) per request and
// load every API model on import (~70 MiB); a controller that makes thousands of small writes
// needs neither. Every request is bounded in time, from authentication to the last body byte,
// retries included: like client-go, a request is sent again when the server asks for it
// (429 or 5xx with Retry-After), once when a reused keep-alive socket turns out to be closed
// before any answer came, and once with a fresh credential when the server refused the one sent
// (401; an expired exec credential, a rotated token file). Watches (`stream`) are otherwise never
// retried here; their informer restarts them. Credentials and impersonation come from the
// kubeconfig through ClusterAccess; a cluster's proxy-url is honoured by the pool's agent.
import http from 'node:http';
import https from 'node:https';
import { HttpProxyAgent, HttpsProxyAgent } from 'hpagent';
import { SocksProxyAgent } from 'socks-proxy-agent';
import type { ClusterAccess } from './cluster-access.js';

/** What every API request may take unless told otherwise (the --request-timeout default). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * How long a kept-alive connection may stay idle in the pool before we close it: below the API
 * server's own idle timeout (90 s, k8s.io/apiserver's secure serving), so that the server never
 * closes a socket under a request we are sending on it.
 */
export const IDLE_SOCKET_TIMEOUT_MS = 60_000;

/** client-go's default: a request answered with Retry-After is sent again at most 10 times. */
const DEFAULT_MAX_RETRIES = 10;

/** The longest wait a Retry-After answer may impose on one retry (the server's ask is capped). */
const DEFAULT_MAX_RETRY_WAIT_MS = 10_000;

/**
 * Methods whose repetition has the effect of one request (RFC 9110, 9.2.2): sent again when the
 * socket was reset before an answer, even though the server may have processed the first one.
 * POST and PATCH are not: they are sent again only when the server asks for it (Retry-After).
 */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

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
  /** How often a request answered 429/5xx with Retry-After is sent again (default 10). */
  maxRetries?: number;
  /** The longest wait for one retry, whatever Retry-After says (default 10 s). */
  maxRetryWaitMs?: number;
  /** How long an idle kept-alive socket stays in the pool (default 60 s; keep it below 90 s). */
  idleSocketTimeoutMs?: number;
  /** Hears the Warning header of every answer that carries one (deprecations, policy warnings). */
  onWarning?: (warning: string) => void;
}

export class KubeClient {
  readonly server: string;
  readonly timeoutMs: number;
  private readonly agent: http.Agent;
  private readonly userAgent: string;
  private readonly maxRetries: number;
  private readonly maxRetryWaitMs: number;
  private readonly onWarning: ((warning: string) => void) | undefined;

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
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.maxRetryWaitMs = options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
    this.onWarning = options.onWarning;
    const { ca, cert, key, rejectUnauthorized, servername } = access.tls;
    // `timeout` closes a socket idle in the pool (Node's agent sets it when a socket is freed); on
    // a socket in use it only emits 'timeout', which nothing here acts on: requests have their
    // own deadline, and a quiet watch stays open.
    const pool = {
      keepAlive: true,
      timeout: options.idleSocketTimeoutMs ?? IDLE_SOCKET_TIMEOUT_MS,
    };
    const tls = {
      rejectUnauthorized,
      ...(ca ? { ca } : {}),
      ...(cert ? { cert } : {}),
      ...(key ? { key } : {}),
      ...(servername ? { servername } : {}),
    };
    const secure = !access.server.startsWith('http:');
    this.agent = access.proxyUrl
      ? proxyAgent(access.proxyUrl, secure, pool, tls)
      : secure
        ? new https.Agent({ ...pool, ...tls })
        : new http.Agent(pool);
  }

  /**
   * One request; resolves to the parsed JSON answer (undefined for an empty one). Sent again,
   * within the same time budget, when the server answers 429 or 5xx with Retry-After (at most
   * `maxRetries` times, each wait capped), and once when a reused socket is reset before any
   * answer and the method is idempotent.
   */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const deadline = this.deadline(method, path, options.timeoutMs, options.signal);
    try {
      let retries = 0;
      let resetRetried = false;
      let credentialRefreshed = false;
      for (;;) {
        let response: http.IncomingMessage;
        let token: string | undefined;
        try {
          ({ response, token } = await this.open(method, path, options, deadline.signal));
        } catch (err) {
          if (!(err instanceof ResetBeforeAnswer)) throw err;
          // A reset before any answer: sent again once, if the method is idempotent and time is left.
          if (resetRetried || !IDEMPOTENT_METHODS.has(method) || deadline.signal.aborted) {
            throw err.cause;
          }
          resetRetried = true;
          continue;
        }
        const text = await readBody(response);
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          if (!text) return undefined as T;
          try {
            return JSON.parse(text) as T;
          } catch (err) {
            throw new Error(`${method} ${path}: the answer is not JSON`, { cause: err });
          }
        }
        const error = new ApiError(status, text, method, path);
        if (status === 401 && !credentialRefreshed && this.access.refresh?.(token)) {
          credentialRefreshed = true;
          continue;
        }
        const wait = retryAfterMs(response);
        if (
          wait === undefined ||
          retries >= this.maxRetries ||
          Math.min(wait, this.maxRetryWaitMs) >= deadline.remainingMs()
        ) {
          throw error;
        }
        retries += 1;
        // Aborted while waiting: by the caller, with its reason; by the deadline, with this answer.
        await delay(Math.min(wait, this.maxRetryWaitMs), deadline.signal, () =>
          options.signal?.aborted ? toError(options.signal.reason) : error,
        );
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
   * A status other than 200 rejects with an ApiError, after one more try with a fresh credential
   * when it is a 401. `onOpen` hears when the server accepted the watch (its 200 arrived).
   */
  async stream(
    path: string,
    query: Record<string, string>,
    signal: AbortSignal,
    onLine: (line: string) => void,
    onOpen?: () => void,
  ): Promise<void> {
    const first = await this.open('GET', path, { query }, signal);
    let response = first.response;
    if (response.statusCode === 401 && this.access.refresh?.(first.token)) {
      await readBody(response);
      ({ response } = await this.open('GET', path, { query }, signal));
    }
    if (response.statusCode !== 200) {
      throw new ApiError(response.statusCode ?? 0, await readBody(response), 'GET', path);
    }
    response.socket.setKeepAlive(true, 30_000);
    onOpen?.();
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
  ): Promise<{ response: http.IncomingMessage; token: string | undefined }> {
    const url = new URL(this.server + path);
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value);
    const token = await raceSignal(this.access.token(), abort);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: http.OutgoingHttpHeaders = {
      ...this.access.headers,
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
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = client.request(url, { method, headers, agent: this.agent, signal: abort });
      let socket: { bytesRead: number } | undefined;
      let readBefore = 0;
      request.on('socket', (s) => {
        socket = s;
        readBefore = s.bytesRead;
      });
      request.on('response', (response: http.IncomingMessage) => {
        const warning = response.headers.warning;
        if (warning && this.onWarning) this.onWarning(warning);
        resolve(response);
      });
      request.on('error', (err: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed while this request was on its way: not a byte
        // of answer came, and a fresh connection may well get one.
        const reset = err.code === 'ECONNRESET' || err.code === 'EPIPE';
        const unanswered = request.reusedSocket && socket?.bytesRead === readBefore;
        reject(reset && unanswered && !abort.aborted ? new ResetBeforeAnswer(err) : err);
      });
      request.end(payload);
    });
    return { response, token };
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
    const end = Date.now() + timeoutMs;
    return {
      signal: controller.signal,
      remainingMs: () => end - Date.now(),
      reason: (cause) => new RequestTimeoutError(method, path, timeoutMs, { cause }),
      clear: () => {
        clearTimeout(timer);
        outer?.removeEventListener('abort', onOuter);
      },
    };
  }
}

/**
 * The pool's agent through the cluster's proxy-url, as client-node and client-go use it: CONNECT
 * through an http(s) proxy, or a SOCKS proxy.
 */
function proxyAgent(
  proxyUrl: string,
  secure: boolean,
  pool: http.AgentOptions,
  tls: https.AgentOptions,
): http.Agent {
  if (proxyUrl.startsWith('socks')) return new SocksProxyAgent(proxyUrl, { ...pool, ...tls });
  if (!/^https?:/.test(proxyUrl)) {
    throw new Error(`proxy-url ${proxyUrl}: only http, https and socks proxies are supported`);
  }
  return secure
    ? new HttpsProxyAgent({ ...pool, ...tls, proxy: proxyUrl })
    : new HttpProxyAgent({ ...pool, proxy: proxyUrl });
}

interface Deadline {
  signal: AbortSignal;
  /** What is left of the budget, in ms. */
  remainingMs(): number;
  reason(cause: unknown): Error;
  clear(): void;
}

/** A reused socket reset before any answer byte; `cause` is the socket's error. */
class ResetBeforeAnswer extends Error {
  constructor(override readonly cause: NodeJS.ErrnoException) {
    super('reused socket reset before an answer', { cause });
  }
}

/**
 * The wait a 429 or 5xx answer asks for in Retry-After (whole seconds, as client-go reads it),
 * or undefined when it asks for none: then the answer stands.
 */
function retryAfterMs(response: http.IncomingMessage): number | undefined {
  const status = response.statusCode ?? 0;
  if (status !== 429 && status < 500) return undefined;
  const header = response.headers['retry-after'];
  if (typeof header !== 'string' || !/^\s*\d+\s*$/.test(header)) return undefined;
  return Number(header) * 1000;
}

/** Waits `ms`, or rejects with `aborted()` when `signal` aborts first. */
function delay(ms: number, signal: AbortSignal, aborted: () => Error): Promise<void> {
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Settles like `promise` unless `signal` aborts first, then rejects with the signal's reason; a
 * failure after the abort (a request torn down by it) is reported as the abort, too.
 */
function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
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

/**
 * The whole body as text; rejects when the connection closes before the end. Its listeners go
 * once it settles: node's https agent keeps the first request of a kept-alive TLS connection (and
 * so its response) for the connection's life, and a listener left on that response would keep
 * this promise and its text, a whole list of the fleet, alive as long.
 */
function readBody(response: http.IncomingMessage): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const settle = (outcome: () => void) => {
      response.off('data', onData).off('close', onClose).off('end', onEnd);
      // An error after the end still has a listener, one that holds nothing.
      response.off('error', onError).on('error', ignoreError);
      outcome();
    };
    const onError = (err: Error) => settle(() => reject(err));
    const onClose = () => {
      if (!response.complete) settle(() => reject(new Error('connection closed mid-response')));
    };
    const onEnd = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      settle(() => resolve(text));
    };
    response.on('data', onData).on('error', onError).on('close', onClose).on('end', onEnd);
  });
}

function ignoreError(): void {}

function summary(body: string): string {
  try {
    const status = JSON.parse(body) as { message?: unknown };
    if (typeof status.message === 'string') return status.message;
  } catch {
    // not a Status: the text itself
  }
  return body.slice(0, 500).replace(/\s*\n\s*/g, ' ');
}
