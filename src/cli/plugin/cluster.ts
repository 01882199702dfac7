// The plugin's connection to the cluster: which kubeconfig (as kubectl chooses it), reading
// both sides' objects, and one clear line when that fails.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '../../api/types.js';
import { createApiClient } from '../../kube/api-client.js';
import { describeError, oneLine, statusCode } from '../../kube/errors.js';
import type { Resource } from '../../kube/resources.js';
import type { PluginFlags } from './flags.js';

/** A failure to reach or read the cluster: exit code 1, one line, no stack. */
export class PluginError extends Error {
  override name = 'PluginError';
}

/** Each request of the plugin: long enough for a big list, short enough for a person waiting. */
const REQUEST_TIMEOUT_MS = 20_000;
const PAGE_SIZE = 500;

function loadFile(kubeConfig: KubeConfig, path: string): void {
  if (!existsSync(path)) throw new PluginError(`kubeconfig ${path} does not exist`);
  try {
    kubeConfig.loadFromFile(path);
  } catch (err) {
    // A YAML error's first line says what and where; the rest is a picture of the line.
    const firstLine = (err as Error).message.split('\n')[0] ?? '';
    throw new PluginError(`cannot read kubeconfig ${path}: ${oneLine(firstLine)}`);
  }
}

/**
 * Adds what `next` names that `into` does not, as kubectl merges the files of $KUBECONFIG: the
 * first definition of a name wins, and so does the first current context set. (client-node's
 * own merge refuses a name defined twice, which real kubeconfig files often do.)
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
 * The kubeconfig kubectl would use: --kubeconfig, else the files listed in $KUBECONFIG (merged,
 * the first one's current context winning), else ~/.kube/config, else the pod's service account.
 */
export function loadKubeConfig(
  flags: Pick<PluginFlags, 'kubeconfig' | 'context'>,
  env: Record<string, string | undefined>,
  home: string,
): KubeConfig {
  const kubeConfig = new KubeConfig();
  const listed = (env.KUBECONFIG ?? '').split(delimiter).filter((path) => path !== '');
  const defaultPath = join(home, '.kube', 'config');
  if (flags.kubeconfig) {
    loadFile(kubeConfig, flags.kubeconfig);
  } else if (listed.length > 0) {
    const [first, ...others] = listed;
    loadFile(kubeConfig, first!);
    for (const path of others) {
      const next = new KubeConfig();
      loadFile(next, path);
      mergeFirstWins(kubeConfig, next);
    }
  } else if (existsSync(defaultPath)) {
    loadFile(kubeConfig, defaultPath);
  } else if (env.KUBERNETES_SERVICE_HOST && env.KUBERNETES_SERVICE_PORT) {
    kubeConfig.loadFromCluster();
  } else {
    throw new PluginError(
      'no kubeconfig: pass --kubeconfig, set KUBECONFIG, or log in (oc login) to create ~/.kube/config',
    );
  }
  if (flags.context) {
    if (!kubeConfig.getContextObject(flags.context)) {
      throw new PluginError(`context "${flags.context}" is not in the kubeconfig`);
    }
    kubeConfig.setCurrentContext(flags.context);
  }
  if (!kubeConfig.getCurrentCluster()) {
    throw new PluginError('the kubeconfig has no current context with a cluster: pass --context');
  }
  return kubeConfig;
}

const resourceName = (r: Resource) => `${r.plural}.${r.group}/${r.version}`;

/** One line saying why reading `resource` from `server` failed, and what to check. */
export function describeReadError(err: unknown, resource: Resource, server: string): string {
  const code = statusCode(err);
  if (code === 404) {
    return `the server at ${server} does not serve ${resourceName(resource)}: is its CRD installed?`;
  }
  if (code === 401) {
    return `the server at ${server} refused the credentials (401 Unauthorized): log in again`;
  }
  if (code === 403) return `forbidden: ${describeError(err)}`;
  if (code !== undefined) {
    return `reading ${resourceName(resource)} failed (${code}): ${describeError(err)}`;
  }
  // No HTTP answer at all: the connection failed; node's own reason says how.
  const message = describeError(err);
  const reason = /reason: (.*)$/.exec(message)?.[1] ?? message;
  return `cannot reach the cluster at ${server}: ${reason}`;
}

export interface ClusterReader {
  /** Every object of `resource` in `namespace`, page by page. */
  list<T extends KubeObject>(resource: Resource, namespace: string): Promise<T[]>;
  server: string;
}

export function clusterReader(kubeConfig: KubeConfig): ClusterReader {
  const api = createApiClient(kubeConfig, CustomObjectsApi, { timeoutMs: REQUEST_TIMEOUT_MS });
  const server = kubeConfig.getCurrentCluster()?.server ?? '(no server)';
  return {
    server,
    async list<T extends KubeObject>(resource: Resource, namespace: string): Promise<T[]> {
      const items: T[] = [];
      let next: string | undefined;
      do {
        let page: { items: T[]; metadata?: { continue?: string } };
        try {
          page = (await api.listNamespacedCustomObject({
            group: resource.group,
            version: resource.version,
            plural: resource.plural,
            namespace,
            limit: PAGE_SIZE,
            ...(next ? { _continue: next } : {}),
          })) as typeof page;
        } catch (err) {
          throw new PluginError(describeReadError(err, resource, server), { cause: err });
        }
        items.push(...page.items);
        next = page.metadata?.continue || undefined;
      } while (next);
      return items;
    },
  };
}
