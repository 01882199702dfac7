// MAPI MachineSet → CAPI MachineSet + infrastructure machine template. Pure.
// The platform converter turns the providerSpec into the template spec; this
// module does everything that is the same on every platform.
import type {
  CapiMachineSet,
  Infrastructure,
  LabelSelector,
  MachineTemplate,
  MapiMachineSet,
} from '../api/types.js';
import {
  CLUSTER_NAME_LABEL,
  MANAGED_BY,
  MANAGED_BY_LABEL,
  PAUSED_ANNOTATION,
  PAUSED_VALUE,
  SOURCE_ANNOTATION,
  SOURCE_LABEL,
} from '../sync/markers.js';
import { machineSetLabelValue, templateName } from '../sync/naming.js';
import { convertAnnotations, convertLabels, isControlPlane } from './metadata.js';
import type { Conversion, FieldError, PlatformConverter } from './types.js';

export const CAPI_GROUP = 'cluster.x-k8s.io';
export const CAPI_VERSION = 'v1beta2';
export const INFRASTRUCTURE_GROUP = 'infrastructure.cluster.x-k8s.io';

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

const DELETE_POLICIES = { Random: 'Random', Newest: 'Newest', Oldest: 'Oldest' } as const;
const PROVIDER_SPEC_PATH = 'spec.template.spec.providerSpec.value';

function hookAnnotations(mapi: MapiMachineSet): Record<string, string> {
  const hooks = mapi.spec.template?.spec?.lifecycleHooks;
  const out: Record<string, string> = {};
  for (const hook of hooks?.preDrain ?? []) {
    out[`pre-drain.delete.hook.machine.cluster.x-k8s.io/${hook.name}`] = hook.owner;
  }
  for (const hook of hooks?.preTerminate ?? []) {
    out[`pre-terminate.delete.hook.machine.cluster.x-k8s.io/${hook.name}`] = hook.owner;
  }
  return out;
}

/** Merges maps, reporting keys that two sources set to different values. */
function mergeWithoutConflict(
  sources: { path: string; values: Record<string, string> }[],
  errors: FieldError[],
): Record<string, string> {
  const out: Record<string, string> = {};
  const from: Record<string, string> = {};
  for (const { path, values } of sources) {
    for (const [key, value] of Object.entries(values)) {
      const previous = out[key];
      if (previous !== undefined && previous !== value) {
        errors.push({
          path: `${path}[${key}]`,
          message: `sets "${key}" to "${value}" but ${from[key]} sets it to "${previous}"; both end up on the Cluster API machine template, so make them agree`,
        });
        continue;
      }
      out[key] = value;
      from[key] = path;
    }
  }
  return out;
}

function nonEmpty<T extends object>(value: T): T | undefined {
  return Object.keys(value).length > 0 ? value : undefined;
}

function convertSelector(selector: LabelSelector, clusterName: string): LabelSelector {
  const out: LabelSelector = {
    matchLabels: { ...convertLabels(selector.matchLabels), [CLUSTER_NAME_LABEL]: clusterName },
  };
  if (selector.matchExpressions?.length) out.matchExpressions = selector.matchExpressions;
  return out;
}

export function convertMachineSet(input: MirrorInput): Conversion<Mirror> {
  const { mapi, infrastructure, converter, capiNamespace, paused } = input;
  const errors: FieldError[] = [];
  const clusterName = infrastructure.status?.infrastructureName ?? '';
  const name = mapi.metadata.name;
  const machineSpec = mapi.spec.template?.spec;

  const providerSpec = machineSpec?.providerSpec?.value;
  const kind = (providerSpec as { kind?: unknown } | undefined)?.kind;
  if (typeof kind === 'string' && kind !== converter.providerSpecKind) {
    errors.push({
      path: `${PROVIDER_SPEC_PATH}.kind`,
      message: `is ${kind}, but this cluster's platform is ${converter.platform}, whose machines use ${converter.providerSpecKind}; a MachineSet can only be mirrored for the cluster's own platform`,
    });
    return { ok: false, errors };
  }
  const provider = converter.convert(providerSpec, {
    infrastructure,
    path: PROVIDER_SPEC_PATH,
    controlPlane: isControlPlane(mapi.metadata.labels),
  });
  if (!provider.ok) errors.push(...provider.errors);

  if (mapi.metadata.ownerReferences?.length) {
    const owners = mapi.metadata.ownerReferences.map((r) => `${r.kind} ${r.name}`).join(', ');
    errors.push({
      path: 'metadata.ownerReferences',
      message: `this MachineSet is owned by ${owners}; owner references resolve within one namespace, so the mirror in ${capiNamespace} cannot carry them (the garbage collector would delete it). Remove the owner references, or let the owner manage the migration`,
    });
  }
  if (machineSpec?.taints?.length) {
    errors.push({
      path: 'spec.template.spec.taints',
      message:
        'node taints have no faithful Cluster API equivalent in this version of the mirror; remove them from the MachineSet (and apply them to the nodes another way) before mirroring',
    });
  }
  if (machineSpec?.providerID) {
    errors.push({
      path: 'spec.template.spec.providerID',
      message: 'must not be set on a MachineSet template: every machine gets its own; remove it',
    });
  }
  const deletePolicy = mapi.spec.deletePolicy || 'Random';
  const order = DELETE_POLICIES[deletePolicy as keyof typeof DELETE_POLICIES];
  if (!order) {
    errors.push({
      path: 'spec.deletePolicy',
      message: `"${deletePolicy}" is not a delete policy; use Random, Newest or Oldest`,
    });
  }

  const templateLabels = mergeWithoutConflict(
    [
      {
        path: 'spec.template.metadata.labels',
        values: convertLabels(mapi.spec.template?.metadata?.labels),
      },
      { path: 'spec.template.spec.metadata.labels', values: machineSpec?.metadata?.labels ?? {} },
      { path: 'cluster name', values: { [CLUSTER_NAME_LABEL]: clusterName } },
    ],
    errors,
  );
  const templateAnnotations = mergeWithoutConflict(
    [
      {
        path: 'spec.template.metadata.annotations',
        values: convertAnnotations(mapi.spec.template?.metadata?.annotations),
      },
      {
        path: 'spec.template.spec.metadata.annotations',
        values: machineSpec?.metadata?.annotations ?? {},
      },
      { path: 'spec.template.spec.lifecycleHooks', values: hookAnnotations(mapi) },
    ],
    errors,
  );

  if (errors.length > 0 || !provider.ok || !order) return { ok: false, errors };

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

  const machineSet: CapiMachineSet = {
    apiVersion: `${CAPI_GROUP}/${CAPI_VERSION}`,
    kind: 'MachineSet',
    metadata: {
      name,
      namespace: capiNamespace,
      labels: { ...convertLabels(mapi.metadata.labels), [CLUSTER_NAME_LABEL]: clusterName },
      annotations: { ...convertAnnotations(mapi.metadata.annotations), ...pausedAnnotation },
    },
    spec: {
      clusterName,
      replicas: mapi.spec.replicas ?? 1,
      selector: convertSelector(mapi.spec.selector, clusterName),
      deletion: { order },
      template: {
        metadata: nonEmpty({
          ...(nonEmpty(templateLabels) ? { labels: templateLabels } : {}),
          ...(nonEmpty(templateAnnotations) ? { annotations: templateAnnotations } : {}),
        }),
        spec: {
          clusterName,
          bootstrap: userDataSecretName ? { dataSecretName: userDataSecretName } : {},
          infrastructureRef: {
            apiGroup: INFRASTRUCTURE_GROUP,
            kind: converter.template.kind,
            name: template.metadata.name,
          },
          ...(failureDomain ? { failureDomain } : {}),
          ...(mapi.spec.minReadySeconds ? { minReadySeconds: mapi.spec.minReadySeconds } : {}),
        },
      },
    },
  };
  if (!machineSet.spec.template.metadata) delete machineSet.spec.template.metadata;
  return { ok: true, value: { machineSet, template }, warnings: provider.warnings };
}
