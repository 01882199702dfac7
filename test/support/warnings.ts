// A client that hands every warning the API server sends (the Warning header) to a callback.
import {
  createConfiguration,
  KubernetesObjectApi,
  ServerConfiguration,
} from '@kubernetes/client-node';
import { adminConfig } from './cluster.js';

/** An administrator's generic client; `onWarning` hears each warning header. */
export function warningClient(onWarning: (warning: string) => void): KubernetesObjectApi {
  const kubeConfig = adminConfig();
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new Error('admin kubeconfig has no cluster');
  return new KubernetesObjectApi(
    createConfiguration({
      baseServer: new ServerConfiguration(cluster.server, {}),
      authMethods: { default: kubeConfig },
      promiseMiddleware: [
        {
          pre: (context) => Promise.resolve(context),
          post: (response) => {
            const warning = response.headers.warning;
            if (warning) onWarning(warning);
            return Promise.resolve(response);
          },
        },
      ],
    }),
  );
}
