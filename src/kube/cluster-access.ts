// Where the API server is and how to authenticate to it: from a kubeconfig file or from the
// pod's service account, as kubectl and client-go read them. Our own, so that the controller
// does not load client-node's whole API surface to read a few fields.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { load } from 'js-yaml';

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
  /** The bearer token for the next request, if the user has one. Cheap per request: cached. */
  token(): Promise<string | undefined>;
  /** Where the settings came from, for a log line. */
  readonly source: string;
}

/** The kubeconfig or the service account cannot be used; the message says why and where. */
export class ClusterAccessError extends Error {
  override name = 'ClusterAccessError';
}

export const NO_CLUSTER_MESSAGE =
  'no cluster to connect to: pass --kubeconfig, set KUBECONFIG, or run in a pod with a service account';

const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
/** Token files are read again after this long: projected service account tokens rotate. */
const TOKEN_FILE_TTL_MS = 60_000;
const EXEC_TIMEOUT_MS = 30_000;

export interface LoadClusterAccessOptions {
  kubeconfigPath?: string;
  env: NodeJS.ProcessEnv;
  /** Default: the pod's service account directory. */
  serviceAccountDir?: string;
  /** Default: Date.now. */
  now?: () => number;
}

export function loadClusterAccess(options: LoadClusterAccessOptions): ClusterAccess {
  const now = options.now ?? Date.now;
  if (options.kubeconfigPath) return fromKubeconfig(options.kubeconfigPath, options.env, now);
  const { KUBERNETES_SERVICE_HOST: host, KUBERNETES_SERVICE_PORT: port } = options.env;
  if (host && port)
    return inCluster(host, port, options.serviceAccountDir ?? SERVICE_ACCOUNT_DIR, now);
  throw new ClusterAccessError(NO_CLUSTER_MESSAGE);
}

function inCluster(host: string, port: string, dir: string, now: () => number): ClusterAccess {
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const where = 'in-cluster service account';
  return {
    server: `https://${hostPart}:${port}`,
    tls: { ca: readRequired(join(dir, 'ca.crt'), `${where}: CA`), rejectUnauthorized: true },
    token: tokenFileSource(join(dir, 'token'), `${where}: token`, now),
    source: where,
  };
}

type Entry = Record<string, unknown>;

function fromKubeconfig(path: string, env: NodeJS.ProcessEnv, now: () => number): ClusterAccess {
  const fail = (what: string): never => {
    throw new ClusterAccessError(`kubeconfig ${path}: ${what}`);
  };
  let config: Entry;
  try {
    const parsed = load(readFileSync(path, 'utf8'));
    config = isEntry(parsed) ? parsed : fail('not a kubeconfig (no mapping at the top)');
  } catch (err) {
    if (err instanceof ClusterAccessError) throw err;
    return fail(`cannot be read: ${(err as Error).message}`);
  }
  const contextName = stringField(config, 'current-context') ?? fail('no current-context');
  const named = (list: string, name: string, by: string): Entry => {
    const entries = Array.isArray(config[list]) ? (config[list] as unknown[]) : [];
    const found = entries.find((e) => isEntry(e) && e.name === name) as Entry | undefined;
    const body = found?.[list.slice(0, -1)];
    return isEntry(body) ? body : fail(`${list.slice(0, -1)} "${name}" (${by}) is not defined`);
  };
  const context = named('contexts', contextName, 'current-context');
  const clusterName =
    stringField(context, 'cluster') ?? fail(`context "${contextName}" names no cluster`);
  const cluster = named('clusters', clusterName, `context "${contextName}"`);
  const userName = stringField(context, 'user');
  const user = userName ? named('users', userName, `context "${contextName}"`) : {};

  const server = (
    stringField(cluster, 'server') ?? fail(`cluster "${clusterName}" has no server`)
  ).replace(/\/+$/, '');
  if (cluster['proxy-url']) fail(`cluster "${clusterName}": proxy-url is not supported`);
  for (const field of ['auth-provider', 'username', 'password']) {
    if (user[field] !== undefined) {
      fail(
        `user "${userName}": ${field} is not supported; use a token, a client certificate or an exec credential plugin`,
      );
    }
  }
  const base = dirname(path);
  const material = (entry: Entry, field: string, owner: string): Buffer | undefined => {
    const data = stringField(entry, `${field}-data`);
    if (data) return Buffer.from(data, 'base64');
    const file = stringField(entry, field);
    if (!file) return undefined;
    const resolved = isAbsolute(file) ? file : join(base, file);
    return readRequired(resolved, `kubeconfig ${path}: ${owner} ${field}`);
  };
  const ca = material(cluster, 'certificate-authority', `cluster "${clusterName}"`);
  const cert = material(user, 'client-certificate', `user "${userName}"`);
  const key = material(user, 'client-key', `user "${userName}"`);
  const servername = stringField(cluster, 'tls-server-name');

  let token: () => Promise<string | undefined> = () => Promise.resolve(undefined);
  const staticToken = stringField(user, 'token');
  const tokenFile = stringField(user, 'tokenFile');
  if (staticToken) {
    token = () => Promise.resolve(staticToken);
  } else if (tokenFile) {
    const resolved = isAbsolute(tokenFile) ? tokenFile : join(base, tokenFile);
    token = tokenFileSource(resolved, `kubeconfig ${path}: user "${userName}" tokenFile`, now);
  } else if (isEntry(user.exec)) {
    token = execSource(user.exec, env, now, `kubeconfig ${path}: user "${userName}" exec`);
  }
  return {
    server,
    tls: {
      rejectUnauthorized: cluster['insecure-skip-tls-verify'] !== true,
      ...(ca ? { ca } : {}),
      ...(cert ? { cert } : {}),
      ...(key ? { key } : {}),
      ...(servername ? { servername } : {}),
    },
    token,
    source: `kubeconfig ${path} (context ${contextName})`,
  };
}

/** A token read from a file, read again once it is older than a minute. */
function tokenFileSource(
  path: string,
  what: string,
  now: () => number,
): () => Promise<string | undefined> {
  let cached = readRequired(path, what).toString('utf8').trim();
  let readAt = now();
  return () => {
    if (now() - readAt >= TOKEN_FILE_TTL_MS) {
      try {
        cached = readFileSync(path, 'utf8').trim();
        readAt = now();
      } catch {
        // Mid-rotation: the token we have is still good for a while; try again next request.
      }
    }
    return Promise.resolve(cached);
  };
}

/** A token from an exec credential plugin, run again when the credential expires. */
function execSource(
  exec: Entry,
  env: NodeJS.ProcessEnv,
  now: () => number,
  what: string,
): () => Promise<string | undefined> {
  const command = stringField(exec, 'command');
  if (!command) throw new ClusterAccessError(`${what}: no command`);
  const args = Array.isArray(exec.args) ? exec.args.map(String) : [];
  const apiVersion = stringField(exec, 'apiVersion') ?? 'client.authentication.k8s.io/v1';
  const extraEnv = Array.isArray(exec.env) ? (exec.env as unknown[]).filter(isEntry) : [];
  const childEnv: NodeJS.ProcessEnv = {
    ...env,
    ...Object.fromEntries(extraEnv.map((e) => [String(e.name), String(e.value)])),
    KUBERNETES_EXEC_INFO: JSON.stringify({
      apiVersion,
      kind: 'ExecCredential',
      spec: { interactive: false },
    }),
  };
  let cached: { token: string; expiresAt: number } | undefined;
  let running: Promise<string> | undefined;
  const run = (): Promise<string> =>
    new Promise((resolve, reject) => {
      execFile(
        command,
        args,
        { env: childEnv, timeout: EXEC_TIMEOUT_MS, encoding: 'utf8' },
        (err, stdout, stderr) => {
          const why = (text: string) =>
            new Error(
              `${what}: ${command}: ${text}${stderr.trim() ? `: ${stderr.trim().slice(0, 500)}` : ''}`,
            );
          if (err) return reject(why(err.message.split('\n')[0] ?? 'failed'));
          let status: {
            token?: unknown;
            expirationTimestamp?: unknown;
            clientCertificateData?: unknown;
          };
          try {
            status = (JSON.parse(stdout) as { status?: unknown }).status ?? {};
          } catch {
            return reject(why('did not print an ExecCredential'));
          }
          if (typeof status.token !== 'string' || !status.token) {
            return reject(
              why(
                status.clientCertificateData
                  ? 'exec credentials with client certificates are not supported'
                  : 'the ExecCredential has no status.token',
              ),
            );
          }
          const expires =
            typeof status.expirationTimestamp === 'string'
              ? Date.parse(status.expirationTimestamp)
              : Number.POSITIVE_INFINITY;
          cached = { token: status.token, expiresAt: Number.isNaN(expires) ? 0 : expires };
          resolve(status.token);
        },
      );
    });
  return () => {
    if (cached && now() < cached.expiresAt) return Promise.resolve(cached.token);
    running ??= run().finally(() => (running = undefined));
    return running;
  };
}

function readRequired(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new ClusterAccessError(`${what}: cannot read ${path}: ${(err as Error).message}`);
  }
}

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringField(entry: Entry, field: string): string | undefined {
  const value = entry[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
