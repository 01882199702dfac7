// The plugin's connection to the cluster: which kubeconfig (as kubectl chooses it, through the
// one loader in src/kube/kubeconfig.ts), reading both sides' objects over the controller's own
// transport, and one clear line when that fails.
import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '../../api/types.js';
import { clusterAccess } from '../../kube/cluster-access.js';
import { describeError, statusCode } from '../../kube/errors.js';
import { KubeClient } from '../../kube/http-client.js';
import {
  currentContext,
  KubeConfigError,
  loadKubeConfig as loadKubeConfigFile,
} from '../../kube/kubeconfig.js';
import { resourcePath, type Resource } from '../../kube/resources.js';
import type { PluginFlags } from './flags.js';

/** A failure to reach or read the cluster: exit code 1, one line, no stack. */
export class PluginError extends Error {
  override name = 'PluginError';
}

/** Each request of the plugin: long enough for a big list, short enough for a person waiting. */
const REQUEST_TIMEOUT_MS = 20_000;
const PAGE_SIZE = 500;

/**
 * The kubeconfig kubectl would use: --kubeconfig, else the files listed in $KUBECONFIG (merged,
 * the first definition of a name and the first current context winning), else ~/.kube/config,
 * else the pod's service account; --context instead of the current context.
 */
export function loadKubeConfig(
  flags: Pick<PluginFlags, 'kubeconfig' | 'context'>,
  env: Record<string, string | undefined>,
  home: string,
): KubeConfig {
  try {
    return loadKubeConfigFile({
      ...(flags.kubeconfig ? { path: flags.kubeconfig } : {}),
      ...(flags.context ? { context: flags.context } : {}),
      env,
      home,
    });
  } catch (err) {
    if (!(err instanceof KubeConfigError)) throw err;
    throw new PluginError(
      err.reason === 'missing'
        ? 'no kubeconfig: pass --kubeconfig, set KUBECONFIG, or log in (oc login) to create ~/.kube/config'
        : err.message,
      { cause: err },
    );
  }
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
  /** Closes the kept-alive connections. */
  close(): void;
}

/** The plugin's client (`status`, `machines`, `migrate`): a kubeconfig problem is a PluginError. */
export function pluginClient(
  kubeConfig: KubeConfig,
  env: Record<string, string | undefined> = process.env,
): KubeClient {
  try {
    return new KubeClient(clusterAccess(currentContext(kubeConfig), { env }), {
      timeoutMs: REQUEST_TIMEOUT_MS,
      userAgent: 'kubectl-mapi_capi_sync',
    });
  } catch (err) {
    if (err instanceof KubeConfigError) throw new PluginError(err.message, { cause: err });
    throw err;
  }
}

export function clusterReader(
  kubeConfig: KubeConfig,
  env: Record<string, string | undefined> = process.env,
): ClusterReader {
  const client = pluginClient(kubeConfig, env);
  const server = client.server;
  return {
    server,
    close: () => client.close(),
    async list<T extends KubeObject>(resource: Resource, namespace: string): Promise<T[]> {
      const items: T[] = [];
      const path = resourcePath({ ...resource, namespace });
      let next: string | undefined;
      do {
        let page: { items?: T[]; metadata?: { continue?: string } };
        try {
          page = await client.request<typeof page>('GET', path, {
            query: { limit: String(PAGE_SIZE), ...(next ? { continue: next } : {}) },
          });
        } catch (err) {
          throw new PluginError(describeReadError(err, resource, server), { cause: err });
        }
        items.push(...(page.items ?? []));
        next = page.metadata?.continue || undefined;
      } while (next);
      return items;
    },
  };
}
