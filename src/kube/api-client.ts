// API clients whose every request is bounded in time. client-node's generated clients have no
// timeout of their own: a request to an API server that accepted the connection and then went
// silent waits forever. `createApiClient` is a drop-in for `kubeConfig.makeApiClient(Api)` whose
// requests abort after `timeoutMs`, counted from when authentication starts until the whole
// response body has arrived.
import {
  createConfiguration,
  ResponseContext,
  SelfDecodingBody,
  ServerConfiguration,
  wrapHttpLibrary,
  type Configuration,
  type KubeConfig,
  type RequestContext,
  type SecurityAuthentication,
} from '@kubernetes/client-node';
import { DEFAULT_REQUEST_TIMEOUT_MS, raceSignal, RequestTimeoutError } from './http-client.js';

export { DEFAULT_REQUEST_TIMEOUT_MS, RequestTimeoutError };

export interface ApiClientOptions {
  /** Each request (authentication, headers and the whole body) fails after this long. */
  timeoutMs: number;
}

/** Same as `kubeConfig.makeApiClient(apiClass)`, with every request bounded by `timeoutMs`. */
export function createApiClient<T>(
  kubeConfig: KubeConfig,
  apiClass: new (config: Configuration) => T,
  options: ApiClientOptions,
): T {
  return new apiClass(createTimedConfiguration(kubeConfig, options));
}

/** The configuration `createApiClient` gives its client, for clients built by hand. */
export function createTimedConfiguration(
  kubeConfig: KubeConfig,
  { timeoutMs }: ApiClientOptions,
): Configuration {
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new RangeError(`request timeout must be a positive number of ms, got ${timeoutMs}`);
  }
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new Error('No active cluster!');
  const baseServer = new ServerConfiguration<Record<string, string>>(cluster.server, {});
  // The default library (node-fetch) honours the request's signal, also while the body streams.
  const inner = createConfiguration({ baseServer }).httpApi;
  /** Each request's deadline, started when its authentication starts. */
  const deadlines = new WeakMap<RequestContext, Deadline>();
  const deadlineOf = (request: RequestContext): Deadline => {
    let deadline = deadlines.get(request);
    if (!deadline) {
      deadline = new Deadline(request, timeoutMs);
      deadlines.set(request, deadline);
    }
    return deadline;
  };

  const auth: SecurityAuthentication = {
    getName: () => 'default',
    async applySecurityAuthentication(request: RequestContext): Promise<void> {
      const deadline = deadlineOf(request);
      // An exec credential plugin or a token file read must not hang the request either.
      await deadline.race(Promise.resolve(kubeConfig.applySecurityAuthentication(request)));
    },
  };

  const httpApi = wrapHttpLibrary({
    async send(request: RequestContext): Promise<ResponseContext> {
      const deadline = deadlineOf(request);
      const outer = request.getSignal();
      request.setSignal(outer ? AbortSignal.any([outer, deadline.signal]) : deadline.signal);
      try {
        const response = await deadline.race(inner.send(request).toPromise());
        // Read the body while the deadline still applies: a server that sends headers and then
        // stalls is as stuck as one that sends nothing.
        const body = await deadline.race(response.body.binary());
        return new ResponseContext(
          response.httpStatusCode,
          response.headers,
          new SelfDecodingBody(Promise.resolve(body)),
        );
      } finally {
        deadline.clear();
      }
    },
  });

  return createConfiguration({ baseServer, httpApi, authMethods: { default: auth } });
}

/** One request's time budget: a signal that aborts when it runs out, and a race against it. */
class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  readonly signal = this.controller.signal;

  constructor(request: RequestContext, timeoutMs: number) {
    this.timer = setTimeout(() => {
      this.controller.abort(
        new RequestTimeoutError(request.getHttpMethod(), pathOf(request), timeoutMs),
      );
    }, timeoutMs);
    // A request that never reaches `send` must not keep the process alive for its budget.
    this.timer.unref();
  }

  /** Settles like `promise`, or rejects with the timeout error once the deadline passes. */
  race<T>(promise: Promise<T>): Promise<T> {
    // node-fetch reports an abort as "The user aborted a request."; this says why instead.
    return raceSignal(promise, this.signal);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

/** The request's path and query, without the server (for messages). */
function pathOf(request: RequestContext): string {
  const url = new URL(request.getUrl());
  return `${url.pathname}${url.search}`;
}
