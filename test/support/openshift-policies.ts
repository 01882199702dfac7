// OpenShift's own ValidatingAdmissionPolicies for the Machine API migration (cluster-capi-operator's
// admission-policies/: default/, both sides' guard rails, and aws/, the AWSMachineTemplate fields
// Machine API cannot express), installed for a test's namespaces as an administrator running our
// controller would configure them: the namespaces they name replaced by the test's, cluster-scoped
// names made unique, and our controller's user added to the accounts they exempt
// (docs/deployment.md says the same for a cluster). The Go module proxy does not serve that
// repository: they are read from ../shared/upstream/openshift-admission-policies beside the
// project (verbatim copies, see its README), or from OPENSHIFT_ADMISSION_POLICIES.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadAll } from 'js-yaml';
import { IDENTITIES } from '../../hack/control-plane.js';
import type { KubeObject } from '../../src/api/types.js';
import { installForTheTest } from './admission.js';
import { CAPI_NAMESPACE, MAPI_NAMESPACE, type ManifestObject } from './manifests.js';

/** The directory of the policies: default/ and aws/ inside it. */
export const OPENSHIFT_POLICIES_DIR = resolve(
  process.env.OPENSHIFT_ADMISSION_POLICIES ??
    join(
      import.meta.dirname,
      '..',
      '..',
      '..',
      'shared',
      'upstream',
      'openshift-admission-policies',
    ),
);
const POLICY_SETS = ['default', 'aws'];

/** The match condition by which OpenShift's policies exempt its controllers. */
const EXEMPTION = 'check-only-non-service-account-requests';
const CAPI_CONTROLLERS = `"${IDENTITIES['cluster-api']}"`;

interface Policy extends KubeObject {
  spec?: {
    policyName?: string;
    matchConditions?: { name: string; expression: string }[];
  };
}

/** The policies and bindings, rewritten for a pair of namespaces. */
export async function openShiftPolicies(options: {
  mapiNamespace: string;
  capiNamespace: string;
  /** Add this controller's user to their exemptions (as docs/deployment.md tells). */
  exemptController: boolean;
  /** The user the controller runs as (default: its ServiceAccount's). */
  controllerUser?: string;
}): Promise<Policy[]> {
  const controllerUser = options.controllerUser ?? IDENTITIES['mapi-capi-sync'];
  if (!existsSync(OPENSHIFT_POLICIES_DIR)) {
    throw new Error(
      `OpenShift's admission policies are not at ${OPENSHIFT_POLICIES_DIR}: set OPENSHIFT_ADMISSION_POLICIES to a directory with default/ and aws/ (cluster-capi-operator's admission-policies/)`,
    );
  }
  const namespaces: Record<string, string> = {
    [MAPI_NAMESPACE]: options.mapiNamespace,
    [CAPI_NAMESPACE]: options.capiNamespace,
  };
  const rewrite = (value: unknown): unknown => {
    if (typeof value === 'string') return namespaces[value] ?? value;
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v)]));
    }
    return value;
  };
  const suffix = options.capiNamespace;
  const objects: Policy[] = [];
  for (const set of POLICY_SETS) {
    const dir = join(OPENSHIFT_POLICIES_DIR, set);
    const files = (await readdir(dir)).filter(
      (f) => f.endsWith('.yaml') && f !== 'kustomization.yaml',
    );
    for (const file of files.sort()) {
      for (const doc of loadAll(await readFile(join(dir, file), 'utf8'))) {
        const object = rewrite(doc) as Policy | null;
        if (!object?.kind?.startsWith('ValidatingAdmissionPolicy')) continue;
        const name = `${object.metadata?.name?.trim()}-${suffix}`;
        object.metadata = { ...object.metadata, name };
        if (object.spec?.policyName) {
          object.spec.policyName = `${object.spec.policyName.trim()}-${suffix}`;
        }
        for (const condition of object.spec?.matchConditions ?? []) {
          if (options.exemptController && condition.name === EXEMPTION) {
            if (!condition.expression.includes(CAPI_CONTROLLERS)) {
              throw new Error(`${set}/${file}: ${EXEMPTION} no longer names ${CAPI_CONTROLLERS}`);
            }
            condition.expression = condition.expression.replace(
              CAPI_CONTROLLERS,
              `${CAPI_CONTROLLERS}, "${controllerUser}"`,
            );
          }
        }
        objects.push(object);
      }
    }
  }
  if (objects.length === 0) throw new Error(`no policies in ${OPENSHIFT_POLICIES_DIR}`);
  // policies before their bindings
  return [
    ...objects.filter((o) => o.kind === 'ValidatingAdmissionPolicy'),
    ...objects.filter((o) => o.kind !== 'ValidatingAdmissionPolicy'),
  ];
}

/**
 * Installs OpenShift's policies for a pair of namespaces (idempotent); deleted after the current
 * test, like ours.
 */
export async function installOpenShiftPolicies(
  options: Parameters<typeof openShiftPolicies>[0],
): Promise<Policy[]> {
  const objects = await openShiftPolicies(options);
  await installForTheTest(objects as ManifestObject[]);
  return objects;
}
