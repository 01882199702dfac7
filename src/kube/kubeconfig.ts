// Which kubeconfig to use, read into client-node's KubeConfig: the one loader of the controller,
// the CLIs, the tests and the benchmark. The files are chosen as kubectl and client-go choose them
// (--kubeconfig, else every file of $KUBECONFIG merged, else ~/.kube/config where the caller
// reads it, else the pod's service account); client-node parses them. What client-node's parser
// drops and client-go honours (`tokenFile`, `as-groups`, `as-uid`, `as-user-extra`) is kept on
// the side, per user, for the transport (cluster-access.ts).
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { KubeConfig, type User } from '@kubernetes/client-node';
import { load } from 'js-yaml';
import {
  KubeConfigError,
  NO_CLUSTER_MESSAGE,
  SERVICE_ACCOUNT_DIR,
  type CurrentContext,
  type LoadKubeConfigOptions,
  type UserExtras,
} from './current-context.js';

// What the loader hands over and how it fails, for the loader's callers.
export * from './current-context.js';

const extras = new WeakMap<User, UserExtras>();
const sources = new WeakMap<KubeConfig, string>();

/** The fields of `user` that client-node does not parse, when the loader read them. */
function userExtras(user: User): UserExtras {
  return extras.get(user) ?? {};
}

/** Where `kubeConfig` came from, for a log line (files and context, or the service account). */
function kubeConfigSource(kubeConfig: KubeConfig): string {
  return sources.get(kubeConfig) ?? `context ${kubeConfig.getCurrentContext()}`;
}

/** `loadKubeConfig` in this process, for what loads client-node anyway (CLIs, tests). */
export function readKubeConfigHere(options: LoadKubeConfigOptions): CurrentContext {
  return currentContext(loadKubeConfig(options));
}

/** The current context of a loaded kubeconfig, as plain data. */
export function currentContext(kubeConfig: KubeConfig): CurrentContext {
  const cluster = kubeConfig.getCurrentCluster();
  const user = kubeConfig.getCurrentUser();
  return {
    source: kubeConfigSource(kubeConfig),
    ...(cluster ? { cluster } : {}),
    ...(user ? { user } : {}),
    userExtras: user ? userExtras(user) : {},
  };
}

/**
 * The kubeconfig to use: `path` alone; else the files listed in $KUBECONFIG, merged as kubectl
 * merges them (the first definition of a name and the first current-context win; listed files
 * that do not exist are skipped); else `home`/.kube/config when a home is given and the file
 * exists; else the pod's service account. `context` then replaces the current context. Fails
 * with a KubeConfigError unless the current context names a cluster that is defined.
 */
export function loadKubeConfig(options: LoadKubeConfigOptions): KubeConfig {
  const { path, env, home } = options;
  const listed = (env.KUBECONFIG ?? '').split(delimiter).filter((file) => file !== '');
  const homeFile = home ? join(home, '.kube', 'config') : undefined;
  let kubeConfig: KubeConfig;
  let source: string;
  if (path) {
    if (!existsSync(path)) throw new KubeConfigError(`kubeconfig ${path} does not exist`);
    kubeConfig = loadFile(path);
    source = `kubeconfig ${path}`;
  } else if (listed.length > 0) {
    const present = listed.filter((file) => existsSync(file));
    if (present.length === 0) {
      throw new KubeConfigError(
        `none of the files in KUBECONFIG exists: ${listed.join(delimiter)}`,
        'missing',
      );
    }
    kubeConfig = loadFile(present[0]!);
    for (const file of present.slice(1)) mergeFirstWins(kubeConfig, loadFile(file));
    source = `kubeconfig ${present.join(delimiter)}`;
  } else if (homeFile && existsSync(homeFile)) {
    kubeConfig = loadFile(homeFile);
    source = `kubeconfig ${homeFile}`;
  } else if (env.KUBERNETES_SERVICE_HOST && env.KUBERNETES_SERVICE_PORT) {
    kubeConfig = inCluster(
      env.KUBERNETES_SERVICE_HOST,
      env.KUBERNETES_SERVICE_PORT,
      options.serviceAccountDir ?? SERVICE_ACCOUNT_DIR,
    );
    source = 'in-cluster service account';
  } else {
    throw new KubeConfigError(NO_CLUSTER_MESSAGE, 'missing');
  }

  if (options.context) {
    if (!kubeConfig.getContextObject(options.context)) {
      throw new KubeConfigError(`context "${options.context}" is not in the kubeconfig`);
    }
    kubeConfig.setCurrentContext(options.context);
  }
  const contextName = kubeConfig.getCurrentContext();
  if (!contextName) throw new KubeConfigError(`${source}: no current-context (pass --context)`);
  const context = kubeConfig.getContextObject(contextName);
  if (!context) {
    throw new KubeConfigError(
      `${source}: context "${contextName}" (current-context) is not defined`,
    );
  }
  if (!kubeConfig.getCluster(context.cluster)) {
    throw new KubeConfigError(
      `${source}: cluster "${context.cluster}" (context "${contextName}") is not defined`,
    );
  }
  if (context.user && !kubeConfig.getUser(context.user)) {
    throw new KubeConfigError(
      `${source}: user "${context.user}" (context "${contextName}") is not defined`,
    );
  }
  sources.set(
    kubeConfig,
    source === 'in-cluster service account' ? source : `${source} (context ${contextName})`,
  );
  return kubeConfig;
}

/** One kubeconfig file through client-node's parser, plus the user fields it drops. */
function loadFile(path: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  let raw: unknown;
  try {
    const text = readFileSync(path, 'utf8');
    raw = load(text);
    kubeConfig.loadFromString(text);
  } catch (err) {
    // A YAML error's first line says what and where; the rest is a picture of the line.
    const firstLine = ((err as Error).message.split('\n')[0] ?? '').trim();
    throw new KubeConfigError(`cannot read kubeconfig ${path}: ${firstLine}`);
  }
  // Relative file names are relative to the kubeconfig, as in loadFromFile.
  kubeConfig.makePathsAbsolute(dirname(path));
  const rawUsers = isEntry(raw) && Array.isArray(raw.users) ? (raw.users as unknown[]) : [];
  for (const user of kubeConfig.users) {
    const entry = rawUsers.find((u) => isEntry(u) && u.name === user.name);
    const fields = isEntry(entry) && isEntry(entry.user) ? entry.user : {};
    const found: UserExtras = {};
    if (typeof fields.tokenFile === 'string' && fields.tokenFile) {
      found.tokenFile = isAbsolute(fields.tokenFile)
        ? fields.tokenFile
        : join(dirname(path), fields.tokenFile);
    }
    if (Array.isArray(fields['as-groups'])) {
      found.impersonateGroups = fields['as-groups'].map(String);
    }
    if (typeof fields['as-uid'] === 'string' && fields['as-uid']) {
      found.impersonateUid = fields['as-uid'];
    }
    const extra = fields['as-user-extra'];
    if (isEntry(extra)) {
      found.impersonateExtra = Object.fromEntries(
        Object.entries(extra).map(([key, values]) => [
          key,
          Array.isArray(values) ? values.map(String) : [String(values)],
        ]),
      );
    }
    if (Object.keys(found).length > 0) extras.set(user, found);
  }
  return kubeConfig;
}

/**
 * Adds what `next` names that `into` does not, as kubectl merges the files of $KUBECONFIG: the
 * first definition of a name wins, and so does the first current context set. (client-node's
 * own merge refuses a name defined twice, which real kubeconfig files often do, and lets the
 * last file's current context win.)
 */
function mergeFirstWins(into: KubeConfig, next: KubeConfig): void {
  const add = <T extends { name: string }>(list: T[], more: T[]) => {
    for (const item of more) if (!list.some((known) => known.name === item.name)) list.push(item);
  };
  add(into.clusters, next.clusters);
  add(into.users, next.users);
  add(into.contexts, next.contexts);
  if (!into.currentContext && next.currentContext) into.currentContext = next.currentContext;
}

/**
 * The configuration client-node's `loadFromCluster` builds (same names, a tokenFile user), from
 * the environment and directory given rather than the process's.
 */
function inCluster(host: string, port: string, dir: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const namespaceFile = join(dir, 'namespace');
  const namespace = existsSync(namespaceFile)
    ? readFileSync(namespaceFile, 'utf8').trim()
    : undefined;
  kubeConfig.loadFromOptions({
    clusters: [
      {
        name: 'inCluster',
        server: `https://${hostPart}:${port}`,
        caFile: join(dir, 'ca.crt'),
        skipTLSVerify: false,
      },
    ],
    users: [
      {
        name: 'inClusterUser',
        authProvider: { name: 'tokenFile', config: { tokenFile: join(dir, 'token') } },
      },
    ],
    contexts: [
      {
        name: 'inClusterContext',
        cluster: 'inCluster',
        user: 'inClusterUser',
        ...(namespace ? { namespace } : {}),
      },
    ],
    currentContext: 'inClusterContext',
  });
  return kubeConfig;
}

function isEntry(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
