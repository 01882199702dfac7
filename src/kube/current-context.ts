// What the loader (kubeconfig.ts) hands the transport (cluster-access.ts), and how it fails. No
// client-node code here, only its types: the controller reads this, never client-node itself.
import type { Cluster, User } from '@kubernetes/client-node';

/** The kubeconfig cannot be found or used; the message says why and where, on one line. */
export class KubeConfigError extends Error {
  override name = 'KubeConfigError';
  constructor(
    message: string,
    /** `missing`: there is no kubeconfig at all (each CLI says how to get one its own way). */
    readonly reason: 'missing' | 'invalid' = 'invalid',
  ) {
    super(message);
  }
}

export const NO_CLUSTER_MESSAGE =
  'no cluster to connect to: pass --kubeconfig, set KUBECONFIG, or run in a pod with a service account';

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface LoadKubeConfigOptions {
  /** --kubeconfig: this one file, alone. */
  path?: string;
  /** --context: used instead of the files' current-context. */
  context?: string;
  /** KUBECONFIG, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are read from here. */
  env: Record<string, string | undefined>;
  /**
   * A home directory whose .kube/config is read when neither --kubeconfig nor $KUBECONFIG names a
   * file, before the service account (kubectl's order). The controller passes none: like
   * controller-runtime's, it runs in a pod or is told where its kubeconfig is.
   */
  home?: string;
  /** Default: the pod's service account directory. */
  serviceAccountDir?: string;
}

/** What client-go reads from a kubeconfig user and client-node's parser leaves out. */
export interface UserExtras {
  /** `tokenFile`, made absolute: a bearer token read from this file, read again as it rotates. */
  tokenFile?: string;
  /** `as-groups`: Impersonate-Group, one header per group. */
  impersonateGroups?: string[];
  /** `as-uid`: Impersonate-Uid. */
  impersonateUid?: string;
  /** `as-user-extra`: Impersonate-Extra-<key>, one header per value. */
  impersonateExtra?: Record<string, string[]>;
}

/**
 * What the transport takes from a kubeconfig: its current context's cluster and user, with the
 * user fields client-node's parser drops. Plain data, so that it can cross a process boundary
 * (kubeconfig-apart.ts).
 */
export interface CurrentContext {
  /** Where it came from, for a log line. */
  source: string;
  /** Undefined when the current context names no cluster. */
  cluster?: Cluster;
  user?: User;
  userExtras: UserExtras;
}
