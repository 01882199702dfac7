// Where the API server is and how to authenticate to it, from a client-node KubeConfig (see
// kubeconfig.ts for which one): what our transport (http-client.ts) needs for its connection pool
// once — server, TLS material, proxy — and per request — the credential of the moment and the
// impersonation headers. The credential is fetched anew when it expires and, once, when the
// server answers 401 to it.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { RequestOptions } from 'node:https';
// Types only: the controller never loads client-node (kubeconfig-apart.ts).
import type { Cluster, KubeConfig, User } from '@kubernetes/client-node';
import { loadKubeConfigApart } from './kubeconfig-apart.js';
import {
  KubeConfigError,
  type CurrentContext,
  type LoadKubeConfigOptions,
  type UserExtras,
} from './current-context.js';

export { KubeConfigError, NO_CLUSTER_MESSAGE } from './current-context.js';

export interface ClusterAccess {
  /** The API server's base URL without a trailing slash, e.g. https://10.0.0.1:6443 */
  readonly server: string;
  /** TLS settings for node:https (undefined members are left out). */
  readonly tls: {
    ca?: Buffer;
    cert?: Buffer;
    key?: Buffer;
    /** false only for insecure-skip-tls-verify: true */
    rejectUnauthorized: boolean;
    /** tls-server-name */
    servername?: string;
  };
  /** The cluster's proxy-url (http, https or socks), when it has one. */
  readonly proxyUrl?: string;
  /** Headers sent with every request besides Authorization: the user's impersonation. */
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
  /** The bearer token for the next request, if the user has one. Cheap per request: cached. */
  token(): Promise<string | undefined>;
  /**
   * The server answered 401 to `rejected`: forget it, so that the next `token()` fetches a fresh
   * credential. False when there is nothing to fetch anew (a static token, no credential): then
   * sending the request again would change nothing.
   */
  refresh?(rejected: string | undefined): boolean;
  /** Where the settings came from, for a log line. */
  readonly source: string;
}

/** Token files are read again after this long: projected service account tokens rotate. */
const TOKEN_FILE_TTL_MS = 60_000;
const EXEC_TIMEOUT_MS = 30_000;

export interface ClusterAccessOptions {
  /** The environment of exec credential plugins. Default: the process's. */
  env?: NodeJS.ProcessEnv;
  /** Default: Date.now. */
  now?: () => number;
}

/** `loadKubeConfig`'s options (`kubeconfigPath` is its `path`) and `clusterAccess`'s. */
export interface LoadClusterAccessOptions extends Omit<LoadKubeConfigOptions, 'path' | 'env'> {
  kubeconfigPath?: string;
  env: NodeJS.ProcessEnv;
  now?: () => number;
  /**
   * How the loader is run: by default in a short-lived process of its own (kubeconfig-apart.ts),
   * so that client-node, which parses the files, never takes up the controller's memory.
   */
  read?: (options: LoadKubeConfigOptions) => CurrentContext;
}

/** The kubeconfig chosen as `loadKubeConfig` chooses it, ready for the transport. */
export function loadClusterAccess(options: LoadClusterAccessOptions): ClusterAccess {
  const { kubeconfigPath, now, read = loadKubeConfigApart, ...rest } = options;
  const context = read({ ...rest, ...(kubeconfigPath ? { path: kubeconfigPath } : {}) });
  return clusterAccess(context, { env: options.env, ...(now ? { now } : {}) });
}

/**
 * A kubeconfig's current context (`currentContext(kubeConfig)` for one loaded here), ready for
 * the transport.
 */
export function clusterAccess(
  context: CurrentContext,
  options: ClusterAccessOptions = {},
): ClusterAccess {
  const env = options.env ?? process.env;
  const now = options.now ?? Date.now;
  const { source } = context;
  const fail = (what: string): never => {
    throw new KubeConfigError(`${source}: ${what}`);
  };
  const cluster = context.cluster ?? fail('the current context names no cluster');
  const user = context.user;
  const userName = user?.name ?? '';
  if (user?.username || user?.password) {
    fail(
      `user "${userName}": username and password are not supported; use a token, a client certificate or an exec credential plugin`,
    );
  }
  const material = (file: string | undefined, data: string | undefined, what: string) => {
    try {
      return bufferFromFileOrString(file, data);
    } catch (err) {
      return fail(`${what}: cannot read ${file}: ${(err as Error).message}`);
    }
  };
  const ca = material(
    cluster.caFile,
    cluster.caData,
    `cluster "${cluster.name}" certificate-authority`,
  );
  const cert = material(user?.certFile, user?.certData, `user "${userName}" client-certificate`);
  const key = material(user?.keyFile, user?.keyData, `user "${userName}" client-key`);
  if (cluster.proxyUrl && !/^(https?|socks[45]?h?):\/\//.test(cluster.proxyUrl)) {
    fail(
      `cluster "${cluster.name}": proxy-url ${cluster.proxyUrl}: only http, https and socks proxies are supported`,
    );
  }
  const { token, refresh } = credentialSource(context, env, now, fail);
  const headers = user ? impersonation(user, context.userExtras) : {};
  return {
    server: cluster.server.replace(/\/+$/, ''),
    tls: {
      rejectUnauthorized: !cluster.skipTLSVerify,
      ...(ca ? { ca } : {}),
      ...(cert ? { cert } : {}),
      ...(key ? { key } : {}),
      ...(cluster.tlsServerName ? { servername: cluster.tlsServerName } : {}),
    },
    ...(cluster.proxyUrl ? { proxyUrl: cluster.proxyUrl } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    token,
    ...(refresh ? { refresh } : {}),
    source,
  };
}

/** The user's `as`, `as-groups`, `as-uid` and `as-user-extra`, as client-go sends them. */
function impersonation(user: User, extras: UserExtras): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  if (user.impersonateUser) headers['Impersonate-User'] = user.impersonateUser;
  if (extras.impersonateGroups?.length) headers['Impersonate-Group'] = extras.impersonateGroups;
  if (extras.impersonateUid) headers['Impersonate-Uid'] = extras.impersonateUid;
  for (const [key, values] of Object.entries(extras.impersonateExtra ?? {})) {
    headers[`Impersonate-Extra-${encodeURIComponent(key)}`] = values;
  }
  return headers;
}

interface CredentialSource {
  token: () => Promise<string | undefined>;
  refresh?: (rejected: string | undefined) => boolean;
}

/**
 * The user's bearer token, per request. A static token as it is; `tokenFile` and the service
 * account's token file read again every minute and after a 401; an exec credential plugin run
 * once per credential (and once for concurrent requests), again when the credential expires and
 * after a 401. Other auth-providers (oidc, azure, gcp) through client-node's authenticators, on
 * each request. client-node's own exec authenticator is not used: it runs the plugin on every
 * request when the credential has no expirationTimestamp, once per concurrent request, without
 * KUBERNETES_EXEC_INFO, and its cache cannot be dropped after a 401.
 */
function credentialSource(
  context: CurrentContext,
  env: NodeJS.ProcessEnv,
  now: () => number,
  fail: (what: string) => never,
): CredentialSource {
  const { user } = context;
  if (!user) return { token: () => Promise.resolve(undefined) };
  const what = `user "${user.name}"`;
  if (user.exec) {
    return execSource(user.exec as Record<string, unknown>, context, env, now, `${what} exec`);
  }
  if (user.token) {
    const token = user.token.trim();
    return { token: () => Promise.resolve(token) };
  }
  const authProvider = user.authProvider as
    { name?: string; config?: Record<string, unknown> } | undefined | null;
  const tokenFile =
    context.userExtras.tokenFile ??
    (authProvider?.name === 'tokenFile' && typeof authProvider.config?.tokenFile === 'string'
      ? authProvider.config.tokenFile
      : undefined);
  if (tokenFile) return tokenFileSource(tokenFile, `${what} tokenFile`, now, fail);
  if (authProvider) {
    let kubeConfig: Promise<KubeConfig> | undefined;
    return {
      token: async () => {
        const request: RequestOptions = { headers: {} };
        kubeConfig ??= authProviderConfig(context);
        await (await kubeConfig).applyToHTTPSOptions(request);
        const header = (request.headers as Record<string, unknown>).Authorization;
        return typeof header === 'string' ? header.replace(/^Bearer\s+/i, '') : undefined;
      },
    };
  }
  return { token: () => Promise.resolve(undefined) };
}

/**
 * A kubeconfig of just this context, for client-node's authenticators of the auth-providers
 * (oidc, azure, gcp): client-node is loaded only for a user that has one.
 */
async function authProviderConfig({ cluster, user }: CurrentContext): Promise<KubeConfig> {
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: cluster ? [cluster] : [],
    users: user ? [user] : [],
    contexts: [{ name: 'current', cluster: cluster?.name ?? '', user: user?.name ?? '' }],
    currentContext: 'current',
  });
  return kubeConfig;
}

/** A token read from a file, read again once it is older than a minute, and after a 401. */
function tokenFileSource(
  path: string,
  what: string,
  now: () => number,
  fail: (what: string) => never,
): CredentialSource {
  const read = () => readFileSync(path, 'utf8').trim();
  let cached: string;
  try {
    cached = read();
  } catch (err) {
    return fail(`${what}: cannot read ${path}: ${(err as Error).message}`);
  }
  let readAt = now();
  const reread = (): void => {
    try {
      cached = read();
      readAt = now();
    } catch {
      // Mid-rotation: the token we have is still good for a while; try again next request.
    }
  };
  return {
    token: () => {
      if (now() - readAt >= TOKEN_FILE_TTL_MS) reread();
      return Promise.resolve(cached);
    },
    refresh: () => {
      reread();
      return true;
    },
  };
}

/** A token from an exec credential plugin, run again when the credential expires or is refused. */
function execSource(
  exec: Record<string, unknown>,
  context: CurrentContext,
  env: NodeJS.ProcessEnv,
  now: () => number,
  what: string,
): CredentialSource {
  const plugin = execPlugin(exec, context, env, what);
  let cached: ExecCredential | undefined;
  let running: Promise<string> | undefined;
  const run = () =>
    runExecPlugin(plugin, what).then((credential) => {
      cached = credential;
      return credential.token;
    });
  return {
    token: () => {
      if (cached && now() < cached.expiresAt) return Promise.resolve(cached.token);
      // Concurrent requests wait for one run of the plugin.
      running ??= run().finally(() => (running = undefined));
      return running;
    },
    refresh: (rejected) => {
      // Requests refused together drop the refused credential once, not the fresh one.
      if (cached?.token === rejected) cached = undefined;
      return true;
    },
  };
}

/** How to run an exec credential plugin. */
interface ExecPlugin {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** What the plugin printed: the token, and when it expires (0 when unreadable: fetch it anew). */
interface ExecCredential {
  token: string;
  expiresAt: number;
}

/** The kubeconfig's `exec`, with the environment client-go gives a plugin (KUBERNETES_EXEC_INFO). */
function execPlugin(
  exec: Record<string, unknown>,
  { source, cluster }: CurrentContext,
  env: NodeJS.ProcessEnv,
  what: string,
): ExecPlugin {
  const command = typeof exec.command === 'string' ? exec.command : '';
  if (!command) throw new KubeConfigError(`${source}: ${what}: no command`);
  const args = Array.isArray(exec.args) ? exec.args.map(String) : [];
  const apiVersion =
    typeof exec.apiVersion === 'string' ? exec.apiVersion : 'client.authentication.k8s.io/v1';
  const extraEnv = Array.isArray(exec.env) ? (exec.env as unknown[]).filter(isEntry) : [];
  const spec: Record<string, unknown> = { interactive: false };
  if (exec.provideClusterInfo === true && cluster) spec.cluster = execClusterInfo(cluster);
  const childEnv: NodeJS.ProcessEnv = {
    ...env,
    ...Object.fromEntries(extraEnv.map((e) => [String(e.name), String(e.value)])),
    KUBERNETES_EXEC_INFO: JSON.stringify({ apiVersion, kind: 'ExecCredential', spec }),
  };
  return { command, args, env: childEnv };
}

/** The cluster a plugin with `provideClusterInfo` is told about, in client-go's field names. */
function execClusterInfo(cluster: Cluster): Record<string, unknown> {
  const ca = bufferFromFileOrString(cluster.caFile, cluster.caData);
  return {
    server: cluster.server,
    ...(cluster.tlsServerName ? { 'tls-server-name': cluster.tlsServerName } : {}),
    ...(cluster.skipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
    ...(ca ? { 'certificate-authority-data': ca.toString('base64') } : {}),
    ...(cluster.proxyUrl ? { 'proxy-url': cluster.proxyUrl } : {}),
  };
}

/** Runs the plugin once; a failure names the plugin and quotes the start of its stderr. */
function runExecPlugin({ command, args, env }: ExecPlugin, what: string): Promise<ExecCredential> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { env, timeout: EXEC_TIMEOUT_MS, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const why = (text: string) =>
          new Error(
            `${what}: ${command}: ${text}${stderr.trim() ? `: ${stderr.trim().slice(0, 500)}` : ''}`,
          );
        if (err) return reject(why(err.message.split('\n')[0] ?? 'failed'));
        const parsed = parseExecCredential(stdout);
        if ('problem' in parsed) reject(why(parsed.problem));
        else resolve(parsed);
      },
    );
  });
}

/** The ExecCredential a plugin printed, or what is wrong with it. */
function parseExecCredential(stdout: string): ExecCredential | { problem: string } {
  let status: { token?: unknown; expirationTimestamp?: unknown; clientCertificateData?: unknown };
  try {
    status = (JSON.parse(stdout) as { status?: unknown }).status ?? {};
  } catch {
    return { problem: 'did not print an ExecCredential' };
  }
  if (typeof status.token !== 'string' || !status.token) {
    return {
      problem: status.clientCertificateData
        ? 'exec credentials with client certificates are not supported'
        : 'the ExecCredential has no status.token',
    };
  }
  // No expiry: the token is kept until the server refuses it.
  const expires =
    typeof status.expirationTimestamp === 'string'
      ? Date.parse(status.expirationTimestamp)
      : Number.POSITIVE_INFINITY;
  return { token: status.token, expiresAt: Number.isNaN(expires) ? 0 : expires };
}

/** A certificate or key: the file's content, else the base64 data (client-node's rule). */
function bufferFromFileOrString(file?: string, data?: string): Buffer | undefined {
  if (file) return readFileSync(file);
  if (data) return Buffer.from(data, 'base64');
  return undefined;
}

function isEntry(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
