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
import { IDENTITIES } from '../environment/control-plane.js';
import { installForTheTest } from './admission.js';
import { rewriteManifests, type ManifestObject } from './manifests.js';

/** The directory of the policies: default/ and aws/ inside it. */
const OPENSHIFT_POLICIES_DIR = resolve(
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

interface Policy extends ManifestObject {
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
  const objects: Policy[] = [];
  for (const set of POLICY_SETS) {
    const dir = join(OPENSHIFT_POLICIES_DIR, set);
    const files = (await readdir(dir)).filter(
      (f) => f.endsWith('.yaml') && f !== 'kustomization.yaml',
    );
    for (const file of files.sort()) {
      for (const doc of loadAll(await readFile(join(dir, file), 'utf8'))) {
        const object = doc as Policy | null;
        if (!object?.kind?.startsWith('ValidatingAdmissionPolicy')) continue;
        // some of their names end in a space, which the API server would refuse once suffixed
        object.metadata.name = object.metadata.name.trim();
        if (object.spec?.policyName) object.spec.policyName = object.spec.policyName.trim();
        objects.push(object);
      }
    }
  }
  // their namespaces replaced by the test's, one set of names per pair of namespaces
  const rewritten = rewriteManifests(objects, {
    mapiNamespace: options.mapiNamespace,
    capiNamespace: options.capiNamespace,
    suffix: options.capiNamespace,
  }) as Policy[];
  if (options.exemptController) {
    for (const policy of rewritten) {
      const condition = policy.spec?.matchConditions?.find((c) => c.name === EXEMPTION);
      if (!condition) continue;
      if (!condition.expression.includes(CAPI_CONTROLLERS)) {
        throw new Error(
          `${policy.metadata.name}: ${EXEMPTION} no longer names ${CAPI_CONTROLLERS}`,
        );
      }
      condition.expression = condition.expression.replace(
        CAPI_CONTROLLERS,
        `${CAPI_CONTROLLERS}, "${controllerUser}"`,
      );
    }
  }
  if (rewritten.length === 0) throw new Error(`no policies in ${OPENSHIFT_POLICIES_DIR}`);
  // policies before their bindings
  return [
    ...rewritten.filter((o) => o.kind === 'ValidatingAdmissionPolicy'),
    ...rewritten.filter((o) => o.kind !== 'ValidatingAdmissionPolicy'),
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
  await installForTheTest(objects);
  return objects;
}
