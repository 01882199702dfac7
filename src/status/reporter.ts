// Keeps the controller's ClusterOperator up to date: creates it when missing, and writes its
// status only when what the facts call for differs from what is stored. Runs on the leader only
// (it is started once leadership is won), every interval, one write at most per tick.
import { describeError, isConflict, isNotFound } from '../kube/errors.js';
import type { KubeClient } from '../kube/http-client.js';
import type { Logger } from '../logging.js';
import {
  deriveOperatorStatus,
  operatorStatusChanged,
  type ClusterOperatorStatus,
  type OperatorFacts,
} from './operator-status.js';

const CLUSTER_OPERATORS = '/apis/config.openshift.io/v1/clusteroperators';

interface ClusterOperator {
  apiVersion: string;
  kind: string;
  metadata: { name: string; resourceVersion?: string; [key: string]: unknown };
  spec?: object;
  status?: Partial<ClusterOperatorStatus>;
}

export interface OperatorReporterOptions {
  client: KubeClient;
  /** The ClusterOperator's name. */
  name: string;
  facts: () => OperatorFacts;
  intervalMs: number;
  requestTimeoutMs: number;
  logger: Logger;
}

export interface OperatorReporter {
  /** One round: read, derive, write if changed. Resolves true when it wrote. */
  tick(): Promise<boolean>;
  stop(): void;
}

export function startOperatorReporter(options: OperatorReporterOptions): OperatorReporter {
  const { name, logger } = options;
  const { client, requestTimeoutMs: timeoutMs } = options;
  const path = `${CLUSTER_OPERATORS}/${encodeURIComponent(name)}`;
  const log = logger.child({ clusterOperator: name });
  let lastProblem = '';

  async function read(): Promise<ClusterOperator> {
    try {
      return await client.request<ClusterOperator>('GET', path, { timeoutMs });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    const created = await client.request<ClusterOperator>('POST', CLUSTER_OPERATORS, {
      body: {
        apiVersion: 'config.openshift.io/v1',
        kind: 'ClusterOperator',
        metadata: { name, labels: { 'app.kubernetes.io/name': 'mapi-capi-sync' } },
        spec: {},
      },
      timeoutMs,
    });
    log.info('created the ClusterOperator');
    return created;
  }

  async function tick(): Promise<boolean> {
    try {
      const current = await read();
      const next = deriveOperatorStatus(options.facts(), current.status);
      if (!operatorStatusChanged(current.status, next)) return false;
      await client.request('PUT', `${path}/status`, {
        body: { ...current, status: { ...current.status, ...next } },
        timeoutMs,
      });
      log.info('reported the ClusterOperator status', {
        conditions: Object.fromEntries(next.conditions.map((c) => [c.type, c.status])),
      });
      lastProblem = '';
      return true;
    } catch (err) {
      const problem = describeError(err);
      // A race with another writer (or our own create) is tried again on the next tick.
      if (isConflict(err) || problem === lastProblem) {
        log.debug('could not report the ClusterOperator status; trying again', { error: problem });
      } else {
        log.warn('could not report the ClusterOperator status; trying again', { error: problem });
      }
      lastProblem = problem;
      return false;
    }
  }

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const loop = async () => {
    await tick();
    if (!stopped) timer = setTimeout(() => void loop(), options.intervalMs);
  };
  void loop();
  return {
    tick,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
