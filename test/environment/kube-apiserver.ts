// kube-apiserver, configured as OpenShift configures its own where it matters to our writes: RBAC,
// OpenShift's admission plugins beside the upstream defaults, and the controllers' own identities
// (static tokens, one kubeconfig each) beside an administrator's; with service-account token
// signing and an audit log of every request.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { CONTROLLER_GROUPS, CONTROLLER_USER } from './controller-rbac.js';
import { freePort, probe, waitFor, type Launcher } from './processes.js';

/**
 * The user names the controllers run as in an OpenShift cluster (their ServiceAccounts), so that
 * admission policies that exempt controllers by user name (ours in manifests/, OpenShift's) see
 * what they would see in a cluster. The neighbours' identities are in system:masters: their RBAC
 * is theirs to test. Ours is not: it has the ServiceAccount's groups and exactly the RBAC of
 * manifests/ (controller-rbac.ts), so that a permission the manifests lack, or one an admission
 * plugin demands, fails here as it would in a cluster.
 */
export const IDENTITIES = {
  'machine-api-operator': 'system:serviceaccount:openshift-machine-api:machine-api-controllers',
  'cluster-api': 'system:serviceaccount:openshift-cluster-api:capi-controllers',
  'mapi-capi-sync': CONTROLLER_USER,
} as const;

/**
 * The admission plugins OpenShift turns on beside the upstream defaults that exist upstream
 * (openshift/kubernetes, openshift-kube-apiserver/admission/admissionenablement/register.go,
 * additionalDefaultOnPlugins). OwnerReferencesPermissionEnforcement is the one our writes meet:
 * setting blockOwnerDeletion needs `update` on the owner's `finalizers`. OpenShift's own plugins
 * (image.openshift.io/ImagePolicy, security.openshift.io/*, quota.openshift.io/*, route.openshift.io/*)
 * exist only in its fork and act on pods, images, routes and quotas, none of which we write.
 */
export const OPENSHIFT_ADMISSION_PLUGINS = [
  'NodeRestriction',
  'OwnerReferencesPermissionEnforcement',
  'PodNodeSelector',
  'PodTolerationRestriction',
  'Priority',
  'StorageObjectInUseProtection',
] as const;
export type IdentityName = keyof typeof IDENTITIES;

/** The groups of an identity: the ServiceAccount's for ours, system:masters for the neighbours. */
function identityGroups(name: IdentityName): string[] {
  return name === 'mapi-capi-sync' ? CONTROLLER_GROUPS : ['system:masters'];
}

/** Level Metadata for every request; the RequestReceived stage only duplicates the others. */
const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages:
  - RequestReceived
rules:
  - level: Metadata
`;

/** The running API server, and what its clients need to reach it. */
export interface ApiServer {
  server: string;
  /** The CA of its serving certificate. */
  ca: Buffer;
  adminToken: string;
  /** An administrator's kubeconfig (user `admin`, group system:masters). */
  kubeconfigPath: string;
  /** A kubeconfig per identity (IDENTITIES). */
  identityKubeconfigPaths: Record<IdentityName, string>;
  /** JSON lines, level Metadata for every request. */
  auditLogPath: string;
  /** The administrator's, loaded. */
  kubeConfig: KubeConfig;
}

/** The tokens the API server accepts, and the key pair it signs service-account tokens with. */
interface Credentials {
  adminToken: string;
  identityTokens: Record<IdentityName, string>;
  /** The static token file: the administrator's token and each identity's, with its groups. */
  tokensFile: string;
  saKey: string;
  saPub: string;
}

/**
 * Starts kube-apiserver on a free loopback port over etcd at `etcdUrl`; resolves once it is ready,
 * serves the namespace default, and the kubeconfigs of the administrator and of each identity are
 * written.
 */
export async function startKubeApiserver(
  processes: Launcher<'kube-apiserver'>,
  opts: { dir: string; etcdUrl: string; log: (message: string) => void },
): Promise<ApiServer> {
  const { dir, etcdUrl, log } = opts;
  const credentials = await writeCredentials(dir);
  // audit: every request at level Metadata (user, verb, resource, namespace, name, response code)
  const auditPolicy = join(dir, 'audit-policy.yaml');
  const auditLogPath = join(dir, 'logs', 'audit.log');
  await writeFile(auditPolicy, AUDIT_POLICY);

  const port = await freePort();
  const server = `https://127.0.0.1:${port}`;
  const certDir = join(dir, 'certs');
  log(`starting kube-apiserver on ${server}`);
  processes.launch(
    'kube-apiserver',
    kubeApiserverArgs({ etcdUrl, port, certDir, credentials, auditPolicy, auditLogPath }),
  );
  const alive = processes.ensureRunning('kube-apiserver');
  const ca = await waitUntilServing(server, certDir, credentials.adminToken, alive);

  const kubeconfigs = await writeKubeconfigs(dir, server, ca, credentials);
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigs.kubeconfigPath);
  return {
    server,
    ca,
    adminToken: credentials.adminToken,
    ...kubeconfigs,
    auditLogPath,
    kubeConfig,
  };
}

/** An administrator's token, one per identity, and a service-account signing key pair. */
async function writeCredentials(dir: string): Promise<Credentials> {
  const adminToken = randomBytes(24).toString('hex');
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const saKey = join(dir, 'sa.key');
  const saPub = join(dir, 'sa.pub');
  await writeFile(saKey, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  await writeFile(saPub, publicKey.export({ type: 'spki', format: 'pem' }));
  const identityTokens = Object.fromEntries(
    Object.keys(IDENTITIES).map((name) => [name, randomBytes(24).toString('hex')]),
  ) as Record<IdentityName, string>;
  const tokensFile = join(dir, 'tokens.csv');
  const tokenLines = [
    `${adminToken},admin,admin,system:masters`,
    ...Object.entries(IDENTITIES).map(
      ([name, user]) =>
        `${identityTokens[name as IdentityName]},${user},${name},"${identityGroups(name as IdentityName).join(',')}"`,
    ),
  ];
  await writeFile(tokensFile, tokenLines.join('\n') + '\n', { mode: 0o600 });
  return { adminToken, identityTokens, tokensFile, saKey, saPub };
}

function kubeApiserverArgs(opts: {
  etcdUrl: string;
  port: number;
  certDir: string;
  credentials: Credentials;
  auditPolicy: string;
  auditLogPath: string;
}): string[] {
  const { credentials } = opts;
  return [
    `--etcd-servers=${opts.etcdUrl}`,
    `--cert-dir=${opts.certDir}`,
    `--secure-port=${opts.port}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    '--service-cluster-ip-range=10.0.0.0/24',
    '--authorization-mode=RBAC',
    '--service-account-issuer=https://kubernetes.default.svc',
    `--service-account-key-file=${credentials.saPub}`,
    `--service-account-signing-key-file=${credentials.saKey}`,
    `--token-auth-file=${credentials.tokensFile}`,
    `--enable-admission-plugins=${OPENSHIFT_ADMISSION_PLUGINS.join(',')}`,
    // it mounts tokens into pods, and there is no tokens controller or pod here
    '--disable-admission-plugins=ServiceAccount',
    '--enable-priority-and-fairness=false',
    // a loopback address cannot be a Service endpoint; nothing here needs the kubernetes Service
    '--endpoint-reconciler-type=none',
    `--audit-policy-file=${opts.auditPolicy}`,
    `--audit-log-path=${opts.auditLogPath}`,
    // rotated files (audit-<time>.log beside it) keep a long-running local cluster bounded
    '--audit-log-maxsize=200',
    '--audit-log-maxbackup=2',
    '--v=1',
  ];
}

/** Waits for the serving certificate, /readyz and the namespace default; returns the CA. */
async function waitUntilServing(
  server: string,
  certDir: string,
  token: string,
  alive: () => void,
): Promise<Buffer> {
  const caFile = join(certDir, 'apiserver.crt');
  await waitFor(
    'kube-apiserver serving certificate',
    60_000,
    () => Promise.resolve(existsSync(caFile)),
    alive,
  );
  const ca = await readFile(caFile);
  await waitFor(
    'kube-apiserver /readyz',
    90_000,
    async () => (await probe(`${server}/readyz`, { ca, token })).status === 200,
    alive,
  );
  await waitFor(
    'namespace default',
    60_000,
    async () => (await probe(`${server}/api/v1/namespaces/default`, { ca, token })).status === 200,
    alive,
  );
  return ca;
}

/** The administrator's kubeconfig, and one per identity. */
async function writeKubeconfigs(
  dir: string,
  server: string,
  ca: Buffer,
  credentials: Credentials,
): Promise<Pick<ApiServer, 'kubeconfigPath' | 'identityKubeconfigPaths'>> {
  const kubeconfigPath = join(dir, 'kubeconfig');
  await writeFile(kubeconfigPath, kubeconfigYaml(server, ca, 'admin', credentials.adminToken), {
    mode: 0o600,
  });
  const identityKubeconfigPaths = {} as Record<IdentityName, string>;
  for (const name of Object.keys(IDENTITIES) as IdentityName[]) {
    const path = join(dir, `kubeconfig-${name}`);
    await writeFile(path, kubeconfigYaml(server, ca, name, credentials.identityTokens[name]), {
      mode: 0o600,
    });
    identityKubeconfigPaths[name] = path;
  }
  return { kubeconfigPath, identityKubeconfigPaths };
}

function kubeconfigYaml(server: string, ca: Buffer, user: string, token: string): string {
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'local', cluster: { server, 'certificate-authority-data': ca.toString('base64') } },
    ],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: 'local', context: { cluster: 'local', user } }],
    'current-context': 'local',
  };
  return JSON.stringify(config, null, 2) + '\n';
}
