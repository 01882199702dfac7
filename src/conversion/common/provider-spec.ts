// How every platform converter opens a providerSpec: it must be an object of the platform's kind
// and apiVersion, and its own `metadata` is dropped. What is left is read field by field.
import { ConversionReport, describeValue, isJsonObject, ObjectReader } from './field-reader.js';
import type { ConversionContext, FieldError, PlatformConverter } from '../types.js';
import { quote, shorten } from './quote.js';

/** What the opening needs to know of a converter (its own fields, so nothing is said twice). */
export type ProviderSpecOwner = Pick<
  PlatformConverter,
  'platform' | 'providerSpecKind' | 'template'
>;

export type OpenedProviderSpec =
  { ok: true; spec: ObjectReader; report: ConversionReport } | { ok: false; errors: FieldError[] };

/** `apiVersions`: the ones accepted, the current one first. */
export function openProviderSpec(
  providerSpec: unknown,
  context: ConversionContext,
  owner: ProviderSpecOwner,
  apiVersions: readonly string[],
): OpenedProviderSpec {
  const report = new ConversionReport();
  if (!isJsonObject(providerSpec)) {
    const message =
      `must be ${withArticle(owner.providerSpecKind)} object, but is ${describeValue(providerSpec)}; ` +
      `set the ${owner.platform} machine settings there.`;
    return { ok: false, errors: [{ path: context.path, message }] };
  }
  const spec = ObjectReader.of(providerSpec, context.path, report);
  if (spec === undefined) return { ok: false, errors: report.errors };
  // Another platform's providerSpec: its fields would only bury the one error that matters.
  if (!checkTypeMeta(spec, owner, apiVersions, report)) return { ok: false, errors: report.errors };
  dropMetadata(spec, owner.template.kind, report);
  return { ok: true, spec, report };
}

function withArticle(word: string): string {
  return `${/^[AEIOU]/i.test(word) ? 'an' : 'a'} ${word}`;
}

/**
 * Reports a wrong kind or apiVersion; false when the kind is another platform's. Both may be
 * missing: the MAPI providers decode the providerSpec by the cluster's platform, not by its kind.
 */
function checkTypeMeta(
  spec: ObjectReader,
  owner: ProviderSpecOwner,
  apiVersions: readonly string[],
  report: ConversionReport,
) {
  const expected = owner.providerSpecKind;
  const kind = spec.raw('kind');
  if (kind !== undefined && kind !== expected) {
    const found = `is ${typeof kind === 'string' ? shorten(kind) : describeValue(kind)}`;
    report.error(
      spec.pathOf('kind'),
      `${found}, but the cluster runs on ${owner.platform}, where the providerSpec must be ` +
        `${withArticle(expected)}; set kind to ${expected}.`,
    );
    return false;
  }
  const apiVersion = spec.raw('apiVersion');
  if (
    apiVersion !== undefined &&
    (typeof apiVersion !== 'string' || !apiVersions.includes(apiVersion))
  ) {
    const [current, ...older] = apiVersions;
    const fix =
      older.length === 0
        ? `set it to ${current}, the only version of ${expected}.`
        : `set it to ${current} (or the older ${older.join(', ')}).`;
    report.error(spec.pathOf('apiVersion'), `is ${describeValue(apiVersion)}; ${fix}`);
  }
  return true;
}

/** The providerSpec's own metadata is read by no machine controller. */
function dropMetadata(spec: ObjectReader, templateKind: string, report: ConversionReport) {
  const metadata = spec.object('metadata');
  if (metadata === undefined) return;
  // Serialised Go objects carry `metadata: {creationTimestamp: null}`, which says nothing.
  if (Object.keys(metadata.takeAll()).length > 0) {
    report.warn(
      `${metadata.path} is not used by any machine controller and has no place in ` +
        `${withArticle(templateKind)}, so it is not converted.`,
    );
  }
}

/**
 * The Secret machine-api-operator's defaulting webhook names in a providerSpec without
 * `userDataSecret` (or with an empty name), on the platforms it defaults: AWS, Azure, GCP,
 * PowerVS and vSphere among those converted here.
 */
const DEFAULT_USER_DATA_SECRET = 'worker-user-data';

/**
 * The name of `userDataSecret` where it is a LocalObjectReference (name only), or the default
 * machine-api-operator gives it (see `defaultUserDataSecret`).
 */
export function readUserDataSecretName(spec: ObjectReader): string {
  const secret = spec.object('userDataSecret');
  const name = secret?.string('name');
  secret?.finish();
  return name ?? defaultUserDataSecret(spec);
}

/**
 * machine-api-operator's default for a missing user data secret, with a warning. Cluster API's
 * webhooks refuse a MachineSet or Machine without a bootstrap data secret, and the Machine API
 * machines of such a providerSpec boot from this Secret anyway: the webhook writes it into every
 * MachineSet and Machine it admits.
 */
export function defaultUserDataSecret(spec: ObjectReader): string {
  spec.report.warn(
    `${spec.pathOf('userDataSecret')} names no Secret; machine-api-operator's webhook sets it ` +
      `to ${DEFAULT_USER_DATA_SECRET}, so the Cluster API machines boot from the bootstrap data ` +
      `secret ${DEFAULT_USER_DATA_SECRET} too (Cluster API requires one).`,
  );
  return DEFAULT_USER_DATA_SECRET;
}

/**
 * A `credentialsSecret` (name only) other than the platform's default is an error: Cluster API
 * machines do not take credentials per MachineSet. `why` completes "but …" in the message.
 */
export function checkCredentialsSecretName(
  spec: ObjectReader,
  defaultName: string,
  why: string,
  report: ConversionReport,
): void {
  const secret = spec.object('credentialsSecret');
  if (secret === undefined) return;
  const name = secret.string('name');
  secret.finish();
  if (name === undefined || name === defaultName) return;
  report.error(
    secret.pathOf('name'),
    `is ${quote(name)}, but ${why}; set the name to ${defaultName} or remove credentialsSecret.`,
  );
}

/**
 * The credentialsSecret kept on the way back where Cluster API connects with credentials of its
 * own (`whose`, e.g. "the credentials of the cluster's VSphereCluster"): always `defaultName`,
 * the only one it can honour, with a warning when the current providerSpec names another.
 */
export function keptCredentialsSecret(
  current: Record<string, unknown>,
  defaultName: string,
  whose: string,
  report: ConversionReport,
): { name: string } {
  const secret = current.credentialsSecret;
  const name = isJsonObject(secret) ? secret.name : undefined;
  const unset =
    secret === undefined ||
    secret === null ||
    (isJsonObject(secret) && (name === undefined || name === null || name === ''));
  if (!unset && name !== defaultName) {
    report.warn(
      "credentialsSecret of the Machine API MachineSet's providerSpec is set to " +
        `${defaultName}: Cluster API machines are created with ${whose}.`,
    );
  }
  return { name: defaultName };
}
