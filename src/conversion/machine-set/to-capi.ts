// MAPI MachineSet → CAPI MachineSet + infrastructure machine template. Pure.
// The platform converter turns the providerSpec into the template spec; this
// module does everything that is the same on every platform.
import type {
  CapiMachineSet,
  Infrastructure,
  MachineTemplate,
  MapiMachineSet,
} from '../../api/types.js';
import {
  CLUSTER_NAME_LABEL,
  MANAGED_BY,
  MANAGED_BY_LABEL,
  PAUSED_ANNOTATION,
  PAUSED_VALUE,
  SOURCE_ANNOTATION,
  SOURCE_LABEL,
} from '../../model/markers.js';
import { machineSetLabelValue, templateName } from '../../model/naming.js';
import { CAPI_GROUP, CAPI_VERSION } from '../../model/api-groups.js';
import { ConversionReport } from '../common/field-reader.js';
import { checkSelectorMatches, type ConvertedSelector, convertSelector } from './label-selector.js';
import { type MachineSetInput, readMachineSet } from './input.js';
import { type CapiTaint, taintsToCapi } from '../common/taints.js';
import { isControlPlane } from '../common/metadata.js';
import { WrittenMap } from '../common/mirror-metadata.js';
import { scaleFromZeroToCapi } from '../common/scale-from-zero.js';
import {
  fixClusterNameLabel,
  machineAnnotations,
  machineLabels,
  type MachineMetadataTarget,
} from '../common/machine-metadata.js';
import { capiMachineSpec, type CapiMachineSpec } from '../common/machine-spec.js';
import { checkMirrorName, convertProviderSpec, isPlatformProviderSpec } from '../common/mirror.js';
import { nameList, quote, quoteList } from '../common/quote.js';
import type { Conversion, FieldError, PlatformConverter, ProviderConversion } from '../types.js';

export interface MirrorInput {
  mapi: MapiMachineSet;
  infrastructure: Infrastructure;
  converter: PlatformConverter;
  capiNamespace: string;
  /** Paused while MAPI is authoritative; unpaused for the initial sync under ClusterAPI. */
  paused: boolean;
}

export interface Mirror {
  /** The fields of the CAPI MachineSet we own: name, namespace, labels, annotations, spec. */
  machineSet: CapiMachineSet;
  /** The template, without owner references (they need the mirror's uid). */
  template: MachineTemplate;
}

const DELETE_ORDERS = ['Random', 'Newest', 'Oldest'] as const;
const PROVIDER_SPEC_PATH = 'spec.template.spec.providerSpec.value';
const MAX_DATA_SECRET_NAME = 253;
const MAX_FAILURE_DOMAIN = 256;
const SKIP_PREFLIGHT_CHECKS = 'machineset.cluster.x-k8s.io/skip-preflight-checks';
/** The preflight checks Cluster API's MachineSet webhook lets the annotation above skip. */
const PREFLIGHT_CHECKS = [
  'All',
  'KubeadmVersionSkew',
  'KubernetesVersionSkew',
  'ControlPlaneIsStable',
  'ControlPlaneVersionSkew',
];
const MACHINE_SET = 'the Cluster API MachineSet';
const TEMPLATE_METADATA: MachineMetadataTarget = {
  object: 'the Cluster API machine template',
  path: 'spec.template.metadata',
};

/**
 * The mirror of a MAPI MachineSet, or every field error found. Takes any JSON as `mapi` and never
 * throws: whatever the API server would refuse in the mirror is reported on the MAPI field.
 */
export function machineSetToCapi(input: MirrorInput): Conversion<Mirror> {
  const { infrastructure, converter } = input;
  const report = new ConversionReport();
  const clusterName = infrastructure.status?.infrastructureName ?? '';
  const mapi = readMachineSet(input.mapi, report);
  const providerSpec = mapi.template.providerSpec.value;
  if (!isPlatformProviderSpec(providerSpec, converter, PROVIDER_SPEC_PATH, 'MachineSet', report)) {
    return { ok: false, errors: report.errors };
  }
  const provider = convertProviderSpec(
    mapi.template.providerSpec,
    converter,
    { infrastructure, path: PROVIDER_SPEC_PATH, controlPlane: controlPlane(mapi) },
    report,
  );
  const fields = convertMachineSetFields(mapi, input, clusterName, report);
  if (provider?.ok) checkProviderConversion(provider.value, report);
  if (report.errors.length > 0 || !provider?.ok || !fields || !mapi.name) {
    return { ok: false, errors: report.errors };
  }

  const template = machineTemplate(mapi.name, provider.value.templateSpec, clusterName, input);
  const machineSpec = capiMachineSpec({
    clusterName,
    provider: provider.value,
    infrastructure: { kind: converter.template.kind, name: template.metadata.name },
    taints: fields.taints,
    minReadySeconds: mapi.minReadySeconds,
  });
  const machineSet = mirrorMachineSet(mapi.name, mapi.replicas, machineSpec, fields, input);
  return {
    ok: true,
    value: { machineSet, template },
    warnings: [...provider.warnings, ...report.warnings],
  };
}

/** What the MachineSet says around the providerSpec, converted; undefined when some is invalid. */
interface MachineSetFields {
  order: (typeof DELETE_ORDERS)[number];
  taints: CapiTaint[];
  metadata: MirrorMetadata;
  selector: ConvertedSelector;
}

/** Converts and checks everything but the providerSpec, reporting every error on its MAPI field. */
function convertMachineSetFields(
  mapi: MachineSetInput,
  { capiNamespace, paused }: MirrorInput,
  clusterName: string,
  report: ConversionReport,
): MachineSetFields | undefined {
  checkMachineSet(mapi, capiNamespace, report);
  const order = deletionOrder(mapi.deletePolicy, report);
  const taints = taintsToCapi(mapi.template.taints, 'spec.template.spec.taints', report);
  const metadata = convertMetadata(mapi, clusterName, paused, report);
  const selector = convertMirrorSelector(mapi, clusterName, metadata, report);
  if (!order || !selector) return undefined;
  return { order, taints, metadata, selector };
}

/**
 * The selector, with the cluster name as the mirror's machines have it; checked against the
 * template's labels only when all of them could be read, or a missing one would be blamed on it.
 */
function convertMirrorSelector(
  mapi: MachineSetInput,
  clusterName: string,
  metadata: MirrorMetadata,
  report: ConversionReport,
): ConvertedSelector | undefined {
  const selectorLabels = new WrittenMap('label', `the selector of ${MACHINE_SET}`, report);
  fixClusterNameLabel(selectorLabels, clusterName);
  const selector = mapi.selector && convertSelector(mapi.selector, selectorLabels, report);
  if (selector && metadata.templateLabelsValid) {
    checkSelectorMatches(selector, metadata.templateLabels, report);
  }
  return selector;
}

/** The infrastructure machine template, named after its spec so that a new spec is a new template. */
function machineTemplate(
  name: string,
  templateSpec: Record<string, unknown>,
  clusterName: string,
  { converter, capiNamespace, paused }: MirrorInput,
): MachineTemplate {
  const pausedAnnotation: Record<string, string> = paused
    ? { [PAUSED_ANNOTATION]: PAUSED_VALUE }
    : {};
  return {
    apiVersion: converter.template.apiVersion,
    kind: converter.template.kind,
    metadata: {
      name: templateName(name, templateSpec),
      namespace: capiNamespace,
      labels: {
        [SOURCE_LABEL]: machineSetLabelValue(name),
        [MANAGED_BY_LABEL]: MANAGED_BY,
        [CLUSTER_NAME_LABEL]: clusterName,
      },
      annotations: { [SOURCE_ANNOTATION]: name, ...pausedAnnotation },
    },
    spec: { template: { spec: templateSpec } },
  };
}

/** The CAPI MachineSet; its machine template's metadata is left out when it has none. */
function mirrorMachineSet(
  name: string,
  replicas: number | undefined,
  machineSpec: CapiMachineSpec,
  { order, metadata, selector }: MachineSetFields,
  { capiNamespace }: MirrorInput,
): CapiMachineSet {
  const { labels, annotations, templateLabels, templateAnnotations } = metadata;
  const clusterName = machineSpec.clusterName;
  const machineSet: CapiMachineSet = {
    apiVersion: `${CAPI_GROUP}/${CAPI_VERSION}`,
    kind: 'MachineSet',
    metadata: {
      name,
      namespace: capiNamespace,
      labels: labels.toObject(),
      annotations: annotations.toObject(),
    },
    spec: {
      clusterName,
      replicas: replicas ?? 1,
      selector: selector.selector,
      deletion: { order },
      template: {
        metadata: nonEmpty({
          ...(templateLabels.size > 0 ? { labels: templateLabels.toObject() } : {}),
          ...(templateAnnotations.size > 0 ? { annotations: templateAnnotations.toObject() } : {}),
        }),
        spec: machineSpec,
      },
    },
  };
  if (!machineSet.spec.template.metadata) delete machineSet.spec.template.metadata;
  return machineSet;
}

/**
 * Whether the MachineSet makes control-plane machines: the role label on the machines it makes
 * (`spec.template.metadata.labels`, where Machine API puts it), or on the MachineSet itself.
 */
function controlPlane(mapi: MachineSetInput): boolean {
  const labels = (entries: MachineSetInput['labels']) =>
    isControlPlane(Object.fromEntries(entries.map((l) => [l.key, l.value])));
  return labels(mapi.template.labels) || labels(mapi.labels);
}

function nonEmpty<T extends object>(value: T): T | undefined {
  return Object.keys(value).length > 0 ? value : undefined;
}

/** The labels and annotations of the mirror and of its machine template, as written. */
interface MirrorMetadata {
  labels: WrittenMap;
  annotations: WrittenMap;
  templateLabels: WrittenMap;
  templateAnnotations: WrittenMap;
  /** All template labels were read and are valid: the selector can be checked against them. */
  templateLabelsValid: boolean;
}

function convertMetadata(
  mapi: MachineSetInput,
  clusterName: string,
  paused: boolean,
  report: ConversionReport,
): MirrorMetadata {
  const labels = new WrittenMap('label', MACHINE_SET, report);
  fixClusterNameLabel(labels, clusterName);
  labels.addConverted(mapi.labels);
  labels.validate('metadata.labels');
  const annotations = new WrittenMap('annotation', MACHINE_SET, report);
  annotations.addConverted(mapi.annotations);
  for (const { key, value, path } of scaleFromZeroToCapi(mapi.annotations, report)) {
    annotations.add(key, value, path, true);
  }
  if (paused) annotations.override(PAUSED_ANNOTATION, PAUSED_VALUE);
  annotations.validate('metadata.annotations');
  checkSkippedPreflightChecks(mapi, report);

  // The template's metadata is its Machines', written as a Machine's is. It is never paused:
  // Cluster API copies it to every Machine it makes, which would then be born paused.
  const beforeTemplateLabels = report.errors.length;
  const templateLabels = machineLabels(mapi.template, TEMPLATE_METADATA, clusterName, report);
  const templateLabelsValid =
    mapi.templateLabelsRead && report.errors.length === beforeTemplateLabels;
  const templateAnnotations = machineAnnotations(mapi.template, TEMPLATE_METADATA, false, report);
  return { labels, annotations, templateLabels, templateAnnotations, templateLabelsValid };
}

/** What the mirror cannot carry at all. */
function checkMachineSet(mapi: MachineSetInput, capiNamespace: string, report: ConversionReport) {
  checkMirrorName(mapi.name, 'MachineSet', 'rename the MachineSet', report);
  if (mapi.owners.length > 0) {
    report.error(
      'metadata.ownerReferences',
      `this MachineSet is owned by ${nameList(mapi.owners)}; owner references resolve within one namespace, so the mirror in ${capiNamespace} cannot carry them (the garbage collector would delete it). Remove the owner references, or let the owner manage the migration.`,
    );
  }
  if (mapi.template.providerID) {
    report.error(
      'spec.template.spec.providerID',
      'must not be set on a MachineSet template: every machine gets its own; remove it.',
    );
  }
}

function deletionOrder(
  deletePolicy: string | undefined,
  report: ConversionReport,
): (typeof DELETE_ORDERS)[number] | undefined {
  if (deletePolicy === undefined) return 'Random';
  const order = DELETE_ORDERS.find((o) => o === deletePolicy);
  if (!order) {
    report.error(
      'spec.deletePolicy',
      `is ${quote(deletePolicy)}, which is not a delete policy; use Random, Newest or Oldest.`,
    );
  }
  return order;
}

/** Cluster API's MachineSet webhook refuses preflight checks it does not know. */
function checkSkippedPreflightChecks(mapi: MachineSetInput, report: ConversionReport) {
  const annotation = mapi.annotations.find((a) => a.key === SKIP_PREFLIGHT_CHECKS);
  if (!annotation || annotation.value === '') return;
  const unknown = annotation.value
    .split(',')
    .map((check) => check.trim())
    .filter((check) => !PREFLIGHT_CHECKS.includes(check));
  if (unknown.length === 0) return;
  report.error(
    annotation.path,
    `lists ${quoteList(unknown)}, which is not a Cluster API preflight check; use a comma-separated list of ${PREFLIGHT_CHECKS.join(', ')}.`,
  );
}

/** What the platform converter produced, within the limits of the Cluster API MachineSet. */
function checkProviderConversion(provider: ProviderConversion, report: ConversionReport) {
  const { userDataSecretName, failureDomain } = provider;
  if (userDataSecretName && userDataSecretName.length > MAX_DATA_SECRET_NAME) {
    report.error(
      `${PROVIDER_SPEC_PATH}.userDataSecret.name`,
      `is ${userDataSecretName.length} characters long, but Cluster API accepts a bootstrap data secret name of at most ${MAX_DATA_SECRET_NAME}; use a Secret with a shorter name.`,
    );
  }
  if (failureDomain && failureDomain.length > MAX_FAILURE_DOMAIN) {
    report.error(
      PROVIDER_SPEC_PATH,
      `sets the zone, which becomes the Cluster API failure domain, to ${quote(failureDomain)}, but Cluster API accepts a failure domain of at most ${MAX_FAILURE_DOMAIN} characters; correct the zone.`,
    );
  }
}

/**
 * What the platform needs a MachineSet's providerSpec to say before Cluster API creates its
 * machines (none when it says it all).
 */
export function migrationBlockers(
  mapi: MapiMachineSet,
  converter: PlatformConverter,
  infrastructure: Infrastructure,
): FieldError[] {
  return (
    converter.migrationBlockers?.(mapi.spec?.template?.spec?.providerSpec?.value, {
      infrastructure,
      path: PROVIDER_SPEC_PATH,
      controlPlane: false,
    }) ?? []
  );
}
