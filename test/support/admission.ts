// The project's admission policies (manifests/admission-policies.yaml) installed for a test's own
// namespaces, as cluster-scoped objects of their own, and removed after the test.
import { adminObjects } from './cluster.js';
import { loadManifests, rewriteManifests, type ManifestObject } from './manifests.js';

const POLICY_KINDS = new Set(['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding']);
const installed: ManifestObject[] = [];

/** The policies and bindings of manifests/, rewritten for these namespaces. */
export async function admissionPolicies(options: {
  mapiNamespace: string;
  capiNamespace: string;
  controllerUser?: string;
}): Promise<ManifestObject[]> {
  const policies = (await loadManifests()).filter((o) => POLICY_KINDS.has(o.kind));
  return rewriteManifests(policies, {
    mapiNamespace: options.mapiNamespace,
    capiNamespace: options.capiNamespace,
    // one set per pair of namespaces: a controller restarted on them finds its set in place
    suffix: options.capiNamespace,
    ...(options.controllerUser ? { controllerUser: options.controllerUser } : {}),
  });
}

/**
 * Installs the project's admission policies for a pair of namespaces (idempotent); they are
 * deleted after the current test. A policy takes effect once the API server's admission plugin
 * has seen it, a moment later: tests that assert a refusal wait for it.
 */
export async function installAdmissionPolicies(options: {
  mapiNamespace: string;
  capiNamespace: string;
  /** The user the controller runs as, exempted in place of its ServiceAccount's. */
  controllerUser?: string;
}): Promise<ManifestObject[]> {
  const objects = await admissionPolicies(options);
  await installForTheTest(objects);
  return objects;
}

/**
 * Creates policies and bindings (in the order given: policies first), deleted after the current
 * test; one that exists already is left as it is, to whoever created it.
 */
export async function installForTheTest(objects: ManifestObject[]): Promise<void> {
  const client = adminObjects();
  for (const object of objects) {
    try {
      await client.create(await client.locate(object), object);
      installed.push(object);
    } catch (err) {
      if ((err as { code?: number }).code !== 409) throw err;
    }
  }
}

/** Deletes the policies installed since the last call. */
export async function deleteAdmissionPolicies(): Promise<void> {
  const client = adminObjects();
  const objects = installed.splice(0);
  const remove = (object: ManifestObject) =>
    client
      .locate(object)
      .then((at) => client.delete(at))
      .catch((err: { code?: number }) => {
        if (err.code !== 404) throw err;
      });
  // bindings first: a binding without its policy is an error the API server logs
  const isBinding = (object: ManifestObject) => object.kind.endsWith('Binding');
  await Promise.all(objects.filter(isBinding).map(remove));
  await Promise.all(objects.filter((object) => !isBinding(object)).map(remove));
}
