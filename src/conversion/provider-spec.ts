// How every platform converter opens a providerSpec: it must be an object of the platform's kind
// and apiVersion, and its own `metadata` is dropped. What is left is read field by field.
import { ConversionReport, describeValue, isJsonObject, ObjectReader } from './field-reader.js';
import type { ConversionContext, FieldError } from './types.js';

export interface ProviderSpecType {
  /** The platform as an administrator names it, e.g. `AWS`. */
  platform: string;
  /** e.g. `AWSMachineProviderConfig` */
  kind: string;
  /** The accepted apiVersions, the current one first. */
  apiVersions: readonly string[];
  /** The CAPI template kind, for messages. */
  templateKind: string;
}

export type OpenedProviderSpec =
  { ok: true; spec: ObjectReader; report: ConversionReport } | { ok: false; errors: FieldError[] };

export function openProviderSpec(
  providerSpec: unknown,
  context: ConversionContext,
  type: ProviderSpecType,
): OpenedProviderSpec {
  const report = new ConversionReport();
  if (!isJsonObject(providerSpec)) {
    const message =
      `must be ${withArticle(type.kind)} object, but is ${describeValue(providerSpec)}; ` +
      `set the ${type.platform} machine settings there.`;
    return { ok: false, errors: [{ path: context.path, message }] };
  }
  const spec = ObjectReader.of(providerSpec, context.path, report);
  if (spec === undefined) return { ok: false, errors: report.errors };
  // Another platform's providerSpec: its fields would only bury the one error that matters.
  if (!checkTypeMeta(spec, type, report)) return { ok: false, errors: report.errors };
  dropMetadata(spec, type, report);
  return { ok: true, spec, report };
}

function withArticle(word: string): string {
  return `${/^[AEIOU]/i.test(word) ? 'an' : 'a'} ${word}`;
}

/** Reports a missing or wrong kind and apiVersion; false when the kind is another platform's. */
function checkTypeMeta(spec: ObjectReader, type: ProviderSpecType, report: ConversionReport) {
  const kind = spec.raw('kind');
  if (kind !== type.kind) {
    const found =
      kind === undefined
        ? 'is missing'
        : `is ${typeof kind === 'string' ? kind : describeValue(kind)}`;
    report.error(
      spec.pathOf('kind'),
      `${found}, but the cluster runs on ${type.platform}, where the providerSpec must be ` +
        `${withArticle(type.kind)}; set kind to ${type.kind}.`,
    );
    if (kind !== undefined) return false;
  }
  const apiVersion = spec.raw('apiVersion');
  if (typeof apiVersion !== 'string' || !type.apiVersions.includes(apiVersion)) {
    const [current, ...older] = type.apiVersions;
    const fix =
      older.length === 0
        ? `set it to ${current}, the only version of ${type.kind}.`
        : `set it to ${current} (or the older ${older.join(', ')}).`;
    const found = apiVersion === undefined ? 'is missing' : `is ${describeValue(apiVersion)}`;
    report.error(spec.pathOf('apiVersion'), `${found}; ${fix}`);
  }
  return true;
}

/** The providerSpec's own metadata is read by no machine controller. */
function dropMetadata(spec: ObjectReader, type: ProviderSpecType, report: ConversionReport) {
  const metadata = spec.object('metadata');
  if (metadata === undefined) return;
  // Serialised Go objects carry `metadata: {creationTimestamp: null}`, which says nothing.
  if (Object.keys(metadata.takeAll()).length > 0) {
    report.warn(
      `${metadata.path} is not used by any machine controller and has no place in ` +
        `${withArticle(type.templateKind)}, so it is not converted.`,
    );
  }
}

/** The name of `userDataSecret` where it is a LocalObjectReference (name only). */
export function readUserDataSecretName(spec: ObjectReader): string | undefined {
  const secret = spec.object('userDataSecret');
  const name = secret?.string('name');
  secret?.finish();
  return name;
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
    `is ${JSON.stringify(name)}, but ${why}; set the name to ${defaultName} or remove credentialsSecret.`,
  );
}
