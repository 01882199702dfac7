// What `migrate` reads and writes beyond the plugin's lists: the Infrastructure (for the checks),
// the ClusterOperator, and its one write, a MachineSet's spec.authoritativeAPI. Every request is
// bounded in time; a failure is one line (PluginError).
import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import type { Infrastructure, MapiCondition } from '../../api/types.js';
import { createApiClient } from '../../kube/api-client.js';
import {
  describeError,
  isConflict,
  isNotFound,
  isUnappliedJsonPatch,
  statusCode,
} from '../../kube/errors.js';
import {
  INFRASTRUCTURE,
  INFRASTRUCTURE_NAME,
  MAPI_MACHINE_SET,
  type Resource,
} from '../../kube/resources.js';
import { describeReadError, PluginError } from '../plugin/cluster.js';
import type { Authority } from './flags.js';
import type { OperatorState } from './plan.js';

const REQUEST_TIMEOUT_MS = 20_000;

const CLUSTER_OPERATOR: Resource = {
  group: 'config.openshift.io',
  version: 'v1',
  plural: 'clusteroperators',
  kind: 'ClusterOperator',
  namespaced: false,
};

export interface MigrateClient {
  infrastructure(): Promise<Infrastructure | undefined>;
  /** The ClusterOperator's Degraded condition as the run judges it ('' names none). */
  operator(name: string): Promise<OperatorState>;
  /**
   * Sets spec.authoritativeAPI of a MAPI MachineSet, conditional on the resourceVersion read
   * (a JSON patch whose `test` fails with 422 when the object changed since).
   */
  setAuthority(
    namespace: string,
    name: string,
    resourceVersion: string,
    target: Authority,
  ): Promise<void>;
}

export function migrateClient(kubeConfig: KubeConfig): MigrateClient {
  const api = createApiClient(kubeConfig, CustomObjectsApi, { timeoutMs: REQUEST_TIMEOUT_MS });
  const server = kubeConfig.getCurrentCluster()?.server ?? '(no server)';
  return {
    async infrastructure() {
      try {
        return (await api.getClusterCustomObject({
          group: INFRASTRUCTURE.group,
          version: INFRASTRUCTURE.version,
          plural: INFRASTRUCTURE.plural,
          name: INFRASTRUCTURE_NAME,
        })) as Infrastructure;
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw new PluginError(describeReadError(err, INFRASTRUCTURE, server), { cause: err });
      }
    },
    async operator(name) {
      if (name === '') return { kind: 'unchecked' };
      let object: { status?: { conditions?: MapiCondition[] } };
      try {
        object = (await api.getClusterCustomObject({
          group: CLUSTER_OPERATOR.group,
          version: CLUSTER_OPERATOR.version,
          plural: CLUSTER_OPERATOR.plural,
          name,
        })) as typeof object;
      } catch (err) {
        if (isNotFound(err)) return { kind: 'absent' };
        return { kind: 'unreadable', message: describeReadError(err, CLUSTER_OPERATOR, server) };
      }
      const degraded = object.status?.conditions?.find((c) => c.type === 'Degraded');
      if (degraded?.status !== 'True') return { kind: 'healthy' };
      return {
        kind: 'degraded',
        message: `${degraded.reason ?? 'no reason'}: ${degraded.message ?? ''}`.trim(),
      };
    },
    async setAuthority(namespace, name, resourceVersion, target) {
      try {
        await api.patchNamespacedCustomObject({
          group: MAPI_MACHINE_SET.group,
          version: MAPI_MACHINE_SET.version,
          plural: MAPI_MACHINE_SET.plural,
          namespace,
          name,
          body: [
            { op: 'test', path: '/metadata/resourceVersion', value: resourceVersion },
            { op: 'add', path: '/spec/authoritativeAPI', value: target },
          ],
        });
      } catch (err) {
        const code = statusCode(err);
        const why =
          code === undefined
            ? describeReadError(err, MAPI_MACHINE_SET, server)
            : describeError(err);
        const changed = isConflict(err) || isUnappliedJsonPatch(err);
        throw new PatchError(
          `setting spec.authoritativeAPI of MachineSet ${name} failed: ${why}`,
          changed,
          { cause: err },
        );
      }
    },
  };
}

/** A refused or failed patch of spec.authoritativeAPI. */
export class PatchError extends PluginError {
  override name = 'PatchError';
  constructor(
    message: string,
    /** The object changed since it was read (a failed `test`, or a 409): read again, retry. */
    readonly conflict: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
