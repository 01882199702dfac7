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
import { ConversionReport, isJsonObject } from '../common/field-reader.js';
import { objectNameProblem } from '../../model/kube-names.js';
import { checkSelectorMatches, convertSelector } from './label-selector.js';
import { type MachineSetInput, readMachineSet } from './input.js';
import { type CapiMachineSpec } from './capi-types.js';
import { taintsToCapi } from '../common/taints.js';
import { isControlPlane, PRE_DRAIN_HOOK, PRE_TERMINATE_HOOK } from '../common/metadata.js';
import { WrittenMap } from '../common/mirror-metadata.js';
import { nameList, quote, quoteList, shorten } from '../common/quote.js';
import type { Conversion, PlatformConverter, ProviderConversion } from '../types.js';
import { CAPI_GROUP, CAPI_VERSION, INFRASTRUCTURE_GROUP } from '../../model/api-groups.js';

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
const MACHINE_TEMPLATE = 'the Cluster API machine template';

/**
 * The mirror of a MAPI MachineSet, or every field error found. Takes any JSON as `mapi` and never
 * throws: whatever the API server would refuse in the mirror is reported on the MAPI field.
 */
export function convertMachineSet(input: MirrorInput): Conversion<Mirror> {
  const { infrastructure, converter, capiNamespace, paused } = input;
  const report = new ConversionReport();
  const clusterName = infrastructure.status?.infrastructureName ?? '';
  const mapi = readMachineSet(input.mapi, report);

  const providerSpec = mapi.providerSpec.value;
  const kind = isJsonObject(providerSpec) ? providerSpec.kind : undefined;
  if (typeof kind === 'string' && kind !== converter.providerSpecKind) {
    report.error(
      `${PROVIDER_SPEC_PATH}.kind`,
      `is ${shorten(kind)}, but this cluster's platform is ${converter.platform}, whose machines use ${converter.providerSpecKind}; a MachineSet can only be mirrored for the cluster's own platform.`,
    );
    return { ok: false, errors: report.errors };
  }
  const provider = mapi.providerSpec.readable
    ? converter.convert(providerSpec, {
        infrastructure,
        path: PROVIDER_SPEC_PATH,
        controlPlane: controlPlane(mapi),
      })
    : undefined;
  if (provider && !provider.ok) report.errors.push(...provider.errors);

  checkMachineSet(mapi, capiNamespace, report);
  const order = deletionOrder(mapi.deletePolicy, report);
  const taints = taintsToCapi(mapi.taints, 'spec.template.spec.taints', report);
  const metadata = convertMetadata(mapi, clusterName, paused, report);
  const selectorLabels = new WrittenMap('label', `the selector of ${MACHINE_SET}`, report);
  selectorLabels.fix(CLUSTER_NAME_LABEL, clusterName, clusterNameReason(clusterName));
  const selector = mapi.selector && convertSelector(mapi.selector, selectorLabels, report);
  if (selector && metadata.templateLabelsValid) {
    checkSelectorMatches(selector, metadata.templateLabels, report);
  }
  if (provider?.ok) checkProviderConversion(provider.value, report);
  if (report.errors.length > 0 || !provider?.ok || !order || !selector || !mapi.name) {
    return { ok: false, errors: report.errors };
  }

  const { labels, annotations, templateLabels, templateAnnotations } = metadata;
  const name = mapi.name;
  const { templateSpec, failureDomain, userDataSecretName } = provider.value;
  const pausedAnnotation: Record<string, string> = paused
    ? { [PAUSED_ANNOTATION]: PAUSED_VALUE }
    : {};
  const template: MachineTemplate = {
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

  const machineSpec: CapiMachineSpec = {
    clusterName,
    bootstrap: userDataSecretName ? { dataSecretName: userDataSecretName } : {},
    infrastructureRef: {
      apiGroup: INFRASTRUCTURE_GROUP,
      kind: converter.template.kind,
      name: template.metadata.name,
    },
    ...(failureDomain ? { failureDomain } : {}),
    ...(mapi.minReadySeconds ? { minReadySeconds: mapi.minReadySeconds } : {}),
    ...(taints.length > 0 ? { taints } : {}),
  };

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
      replicas: mapi.replicas ?? 1,
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
  return {
    ok: true,
    value: { machineSet, template },
    warnings: [...provider.warnings, ...report.warnings],
  };
}

/**
 * Whether the MachineSet makes control-plane machines: the role label on the machines it makes
 * (`spec.template.metadata.labels`, where Machine API puts it), or on the MachineSet itself.
 */
function controlPlane(mapi: MachineSetInput): boolean {
  const labels = (entries: MachineSetInput['labels']) =>
    isControlPlane(Object.fromEntries(entries.map((l) => [l.key, l.value])));
  return labels(mapi.templateLabels) || labels(mapi.labels);
}

function nonEmpty<T extends object>(value: T): T | undefined {
  return Object.keys(value).length > 0 ? value : undefined;
}

function clusterNameReason(clusterName: string): string {
  return `this cluster's Cluster API cluster is ${quote(clusterName)}`;
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
  labels.fix(CLUSTER_NAME_LABEL, clusterName, clusterNameReason(clusterName));
  labels.addConverted(mapi.labels);
  labels.validate('metadata.labels');
  const annotations = new WrittenMap('annotation', MACHINE_SET, report);
  annotations.addConverted(mapi.annotations);
  if (paused) annotations.override(PAUSED_ANNOTATION, PAUSED_VALUE);
  annotations.validate('metadata.annotations');
  checkSkippedPreflightChecks(mapi, report);

  // Node labels and annotations go to the machine template as they are.
  const beforeTemplateLabels = report.errors.length;
  const templateLabels = new WrittenMap('label', MACHINE_TEMPLATE, report);
  templateLabels.fix(CLUSTER_NAME_LABEL, clusterName, clusterNameReason(clusterName));
  templateLabels.addConverted(mapi.templateLabels);
  for (const { key, value, path } of mapi.nodeLabels) templateLabels.add(key, value, path);
  templateLabels.validate('spec.template.metadata.labels');
  const templateLabelsValid =
    mapi.templateLabelsRead && report.errors.length === beforeTemplateLabels;

  const templateAnnotations = new WrittenMap('annotation', MACHINE_TEMPLATE, report);
  templateAnnotations.addConverted(mapi.templateAnnotations);
  for (const { key, value, path } of mapi.nodeAnnotations) {
    templateAnnotations.add(key, value, path);
  }
  for (const hook of mapi.preDrainHooks) {
    templateAnnotations.add(`${PRE_DRAIN_HOOK}${hook.name}`, hook.owner, hook.path, true);
  }
  for (const hook of mapi.preTerminateHooks) {
    templateAnnotations.add(`${PRE_TERMINATE_HOOK}${hook.name}`, hook.owner, hook.path, true);
  }
  templateAnnotations.validate('spec.template.metadata.annotations');
  return { labels, annotations, templateLabels, templateAnnotations, templateLabelsValid };
}

/** What the mirror cannot carry at all. */
function checkMachineSet(mapi: MachineSetInput, capiNamespace: string, report: ConversionReport) {
  const nameProblem = mapi.name === undefined ? undefined : objectNameProblem(mapi.name);
  if (nameProblem !== undefined) {
    report.error(
      'metadata.name',
      `is ${quote(mapi.name ?? '')}, which is not a valid name for a Cluster API MachineSet: ${nameProblem}; rename the MachineSet.`,
    );
  }
  if (mapi.owners.length > 0) {
    report.error(
      'metadata.ownerReferences',
      `this MachineSet is owned by ${nameList(mapi.owners)}; owner references resolve within one namespace, so the mirror in ${capiNamespace} cannot carry them (the garbage collector would delete it). Remove the owner references, or let the owner manage the migration.`,
    );
  }
  if (mapi.providerID) {
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
