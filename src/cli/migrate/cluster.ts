// What `migrate` reads and writes beyond the plugin's lists: the Infrastructure (for the checks,
// read as `check` reads it), the ClusterOperator, and its one write, a MachineSet's
// spec.authoritativeAPI. Every request goes through the controller's transport and is bounded in
// time; a failure is one line (PluginError).
import type { KubeConfig } from '@kubernetes/client-node';
import type { Infrastructure, MapiCondition } from '../../api/types.js';
import { CLUSTER_OPERATOR } from '../../kube/builtin-resources.js';
import {
  describeError,
  isConflict,
  isNotFound,
  isUnappliedJsonPatch,
  statusCode,
} from '../../kube/errors.js';
import { ObjectClient } from '../../kube/objects.js';
import { INFRASTRUCTURE, MAPI_MACHINE_SET } from '../../kube/resources.js';
import type { BootstrapSecrets } from '../check/bootstrap-secret.js';
import { getInfrastructure, missingSecrets } from '../check/cluster.js';
import { describeReadError, pluginClient, PluginError } from '../plugin/cluster.js';
import type { Authority } from './flags.js';
import type { OperatorState } from './plan.js';

export interface MigrateClient {
  infrastructure(): Promise<Infrastructure | undefined>;
  /** Which of the named Secrets `namespace` lacks, or why that could not be read. */
  missingSecrets(namespace: string, names: readonly string[]): Promise<BootstrapSecrets>;
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

export function migrateClient(
  kubeConfig: KubeConfig,
  env: Record<string, string | undefined> = process.env,
): MigrateClient {
  const client = pluginClient(kubeConfig, env);
  const objects = new ObjectClient(client);
  const server = client.server;
  return {
    async infrastructure() {
      try {
        return await getInfrastructure(client);
      } catch (err) {
        throw new PluginError(describeReadError(err, INFRASTRUCTURE, server), { cause: err });
      }
    },
    async missingSecrets(namespace, names) {
      return { namespace, ...(await missingSecrets(client, namespace, names)) };
    },
    async operator(name) {
      if (name === '') return { kind: 'unchecked' };
      let object: { status?: { conditions?: MapiCondition[] } };
      try {
        object = await objects.get<typeof object>({ ...CLUSTER_OPERATOR, name });
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
        await objects.patch(
          { ...MAPI_MACHINE_SET, namespace, name },
          {
            type: 'json',
            operations: [
              { op: 'test', path: '/metadata/resourceVersion', value: resourceVersion },
              { op: 'add', path: '/spec/authoritativeAPI', value: target },
            ],
          },
        );
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
