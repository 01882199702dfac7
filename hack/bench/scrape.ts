// Scrapes kube-apiserver's /metrics with the admin kubeconfig and counts the writes in it.
import { request } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { parseWriteCounts, type WriteCounts } from './metrics.js';

/** The text of the API server's /metrics. */
async function scrapeApiServer(kubeConfig: KubeConfig): Promise<string> {
  const cluster = kubeConfig.getCurrentCluster();
  const token = kubeConfig.getCurrentUser()?.token;
  if (!cluster || !token) throw new Error('the admin kubeconfig has no cluster or no token');
  const ca = cluster.caData ? Buffer.from(cluster.caData, 'base64') : undefined;
  return new Promise((resolve, reject) => {
    const req = request(
      `${cluster.server}/metrics`,
      { ca, headers: { Authorization: `Bearer ${token}` }, timeout: 30_000 },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(body)
            : reject(new Error(`GET /metrics: HTTP ${res.statusCode}: ${body.slice(0, 200)}`)),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('GET /metrics timed out')));
    req.on('error', reject);
    req.end();
  });
}

export async function scrapeWrites(kubeConfig: KubeConfig): Promise<WriteCounts> {
  return parseWriteCounts(await scrapeApiServer(kubeConfig));
}
