// OpenShift's own ValidatingAdmissionPolicies for the Machine API migration (cluster-capi-operator,
// admission-policies/default), installed for a test's namespaces as an operator of ours would
// configure them: the namespaces they name replaced by the test's, cluster-scoped names made
// unique, and, when asked, this controller's user added to the accounts they exempt.
// cluster-capi-operator is not served by the Go module proxy, so the policies cannot be fetched
// like the CRDs: they are read from OPENSHIFT_ADMISSION_POLICIES (a directory of their YAML, e.g.
// admission-policies/default of a cluster-capi-operator checkout), and the tests that need them
// say so and are skipped without it.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { IDENTITIES } from '../../hack/control-plane.js';
import type { KubeObject } from '../../src/api/types.js';
import { adminObjects } from './cluster.js';
import { CAPI_NAMESPACE, MAPI_NAMESPACE } from './manifests.js';

export const OPENSHIFT_POLICIES_DIR = process.env.OPENSHIFT_ADMISSION_POLICIES;

/** The match condition by which OpenShift's policies exempt its controllers. */
const EXEMPTION = 'check-only-non-service-account-requests';
const CAPI_CONTROLLERS = `"${IDENTITIES['cluster-api']}"`;

interface Policy extends KubeObject {
  spec?: {
    policyName?: string;
    matchConditions?: { name: string; expression: string }[];
  };
}

export async function installOpenShiftPolicies(options: {
  mapiNamespace: string;
  capiNamespace: string;
  /** Add this controller's user to their exemptions. */
  exemptController: boolean;
}): Promise<KubeObject[]> {
  if (!OPENSHIFT_POLICIES_DIR) throw new Error('OPENSHIFT_ADMISSION_POLICIES is not set');
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
  const files = (await readdir(OPENSHIFT_POLICIES_DIR)).filter(
    (f) => f.endsWith('.yaml') && f !== 'kustomization.yaml',
  );
  for (const file of files.sort()) {
    for (const doc of loadAll(await readFile(join(OPENSHIFT_POLICIES_DIR, file), 'utf8'))) {
      const object = rewrite(doc) as Policy | null;
      if (!object?.kind?.startsWith('ValidatingAdmissionPolicy')) continue;
      object.metadata = { ...object.metadata, name: `${object.metadata?.name}-${suffix}` };
      if (object.spec?.policyName) object.spec.policyName = `${object.spec.policyName}-${suffix}`;
      for (const condition of object.spec?.matchConditions ?? []) {
        if (options.exemptController && condition.name === EXEMPTION) {
          if (!condition.expression.includes(CAPI_CONTROLLERS)) {
            throw new Error(`${file}: ${EXEMPTION} no longer names ${CAPI_CONTROLLERS}`);
          }
          condition.expression = condition.expression.replace(
            CAPI_CONTROLLERS,
            `${CAPI_CONTROLLERS}, "${IDENTITIES['mapi-capi-sync']}"`,
          );
        }
      }
      objects.push(object);
    }
  }
  if (objects.length === 0) throw new Error(`no policies in ${OPENSHIFT_POLICIES_DIR}`);
  const client = adminObjects();
  for (const object of objects) await client.create(await client.locate(object), object);
  return objects;
}

export async function deleteObjects(objects: KubeObject[]): Promise<void> {
  const client = adminObjects();
  for (const object of [...objects].reverse()) {
    await client
      .locate(object)
      .then((at) => client.delete(at))
      .catch((err: { code?: number }) => {
        if (err.code !== 404) throw err;
      });
  }
}
