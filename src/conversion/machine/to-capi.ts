// MAPI Machine → CAPI Machine + infrastructure machine. Pure, never throws. The platform converter
// turns the providerSpec into the infrastructure machine's spec, and its `machine.identity` adds
// the fields that tie it to the existing instance; labels, annotations, hooks and taints follow
// the same rules as a MachineSet's machine template.
import type {
  CapiMachine,
  CapiMachineSet,
  Infrastructure,
  InfrastructureMachine,
  KubeObject,
  MapiMachine,
} from '../../api/types.js';
import { CLUSTER_NAME_LABEL, PAUSED_ANNOTATION, PAUSED_VALUE } from '../../model/markers.js';
import { ConversionReport, isJsonObject } from '../common/field-reader.js';
import { quote, shorten } from '../common/quote.js';
import { CAPI_GROUP, CAPI_VERSION, INFRASTRUCTURE_GROUP } from '../../model/api-groups.js';
import { objectNameProblem } from '../../model/kube-names.js';
import { PRE_DRAIN_HOOK, PRE_TERMINATE_HOOK } from '../common/metadata.js';
import { WrittenMap } from '../common/mirror-metadata.js';
import { taintsToCapi } from '../common/taints.js';
import type { Conversion, PlatformConverter } from '../types.js';
import { type MachineInput, readMachine } from './input.js';
import { mirrorOwnership } from './ownership.js';
import { SET_NAME_LABEL, setNameLabelValue } from './set-name.js';

export interface MachineMirrorInput {
  mapi: MapiMachine;
  infrastructure: Infrastructure;
  converter: PlatformConverter;
  capiNamespace: string;
  paused: boolean;
  /** The CAPI mirror of the MAPI MachineSet that owns the Machine, when one does. */
  machineSet?: CapiMachineSet;
  /** The CAPI Cluster, owner of a Machine no MachineSet owns. */
  cluster?: KubeObject;
}

export interface MachineMirror {
  machine: CapiMachine;
  /** Without owner references: they need the CAPI Machine's uid. */
  infrastructureMachine: InfrastructureMachine;
}

const PROVIDER_SPEC_PATH = 'spec.providerSpec.value';
const MACHINE = 'the Cluster API Machine';

export function convertMachine(input: MachineMirrorInput): Conversion<MachineMirror> {
  const { infrastructure, converter, capiNamespace, paused } = input;
  const report = new ConversionReport();
  const clusterName = infrastructure.status?.infrastructureName ?? '';
  const mapi = readMachine(input.mapi, report);
  const owners = mirrorOwnership(mapi.owners, mapi.labels, input.machineSet, input.cluster, report);
  if (!owners) return { ok: false, errors: report.errors };

  const providerSpec = mapi.providerSpec.value;
  const kind = isJsonObject(providerSpec) ? providerSpec.kind : undefined;
  if (typeof kind === 'string' && kind !== converter.providerSpecKind) {
    report.error(
      `${PROVIDER_SPEC_PATH}.kind`,
      `is ${shorten(kind)}, but this cluster's platform is ${converter.platform}, whose machines use ${converter.providerSpecKind}; a Machine can only be mirrored for the cluster's own platform.`,
    );
    return { ok: false, errors: report.errors };
  }
  const machineType = converter.machine;
  if (!machineType) {
    report.error(
      PROVIDER_SPEC_PATH,
      `cannot be mirrored: this version knows no Cluster API infrastructure machine for ${converter.platform}; keep the Machine on Machine API.`,
    );
  }
  const provider = mapi.providerSpec.readable
    ? converter.convert(providerSpec, {
        infrastructure,
        path: PROVIDER_SPEC_PATH,
        controlPlane: false,
      })
    : undefined;
  if (provider && !provider.ok) report.errors.push(...provider.errors);
  const identity =
    mapi.providerID !== undefined && machineType
      ? machineType.identity(mapi.providerID)
      : undefined;
  if (identity && !identity.ok) report.errors.push(...identity.errors);

  const nameProblem = mapi.name === undefined ? undefined : objectNameProblem(mapi.name);
  if (nameProblem !== undefined) {
    report.error(
      'metadata.name',
      `is ${quote(mapi.name ?? '')}, which is not a valid name for a Cluster API Machine: ${nameProblem}; the Machine cannot be mirrored.`,
    );
  }
  const taints = taintsToCapi(mapi.taints, 'spec.taints', report);
  const { labels, annotations } = convertMetadata(
    mapi,
    clusterName,
    owners.machineSetName,
    paused,
    report,
  );
  if (
    report.errors.length > 0 ||
    !provider?.ok ||
    !machineType ||
    identity?.ok === false ||
    !mapi.name
  ) {
    return { ok: false, errors: report.errors };
  }

  const name = mapi.name;
  const { templateSpec, failureDomain, userDataSecretName } = provider.value;
  const infrastructureMachine: InfrastructureMachine = {
    apiVersion: machineType.apiVersion,
    kind: machineType.kind,
    metadata: {
      name,
      namespace: capiNamespace,
      labels: { [CLUSTER_NAME_LABEL]: clusterName },
      ...(paused ? { annotations: { [PAUSED_ANNOTATION]: PAUSED_VALUE } } : {}),
    },
    spec: { ...templateSpec, ...(identity?.ok ? identity.value : {}) },
  };
  const machine: CapiMachine = {
    apiVersion: `${CAPI_GROUP}/${CAPI_VERSION}`,
    kind: 'Machine',
    metadata: {
      name,
      namespace: capiNamespace,
      labels: labels.toObject(),
      annotations: annotations.toObject(),
      ownerReferences: owners.ownerReferences,
    },
    spec: {
      clusterName,
      bootstrap: userDataSecretName ? { dataSecretName: userDataSecretName } : {},
      infrastructureRef: { apiGroup: INFRASTRUCTURE_GROUP, kind: machineType.kind, name },
      ...(mapi.providerID !== undefined ? { providerID: mapi.providerID } : {}),
      ...(failureDomain ? { failureDomain } : {}),
      ...(taints.length > 0 ? { taints } : {}),
    },
  };
  return {
    ok: true,
    value: { machine, infrastructureMachine },
    warnings: [...provider.warnings, ...report.warnings],
  };
}

/** Machine and Node labels (and annotations) end up in one map on the CAPI Machine. */
function convertMetadata(
  mapi: MachineInput,
  clusterName: string,
  machineSetName: string | undefined,
  paused: boolean,
  report: ConversionReport,
) {
  const labels = new WrittenMap('label', MACHINE, report);
  labels.fix(
    CLUSTER_NAME_LABEL,
    clusterName,
    `this cluster's Cluster API cluster is ${quote(clusterName)}`,
  );
  if (machineSetName !== undefined) {
    labels.fix(
      SET_NAME_LABEL,
      setNameLabelValue(machineSetName),
      `the Machine belongs to the MachineSet ${quote(machineSetName)}`,
    );
  }
  labels.addConverted(mapi.labels);
  for (const { key, value, path } of mapi.nodeLabels) labels.add(key, value, path);
  labels.validate('metadata.labels');

  const annotations = new WrittenMap('annotation', MACHINE, report);
  annotations.addConverted(mapi.annotations);
  for (const { key, value, path } of mapi.nodeAnnotations) annotations.add(key, value, path);
  for (const hook of mapi.preDrainHooks) {
    annotations.add(`${PRE_DRAIN_HOOK}${hook.name}`, hook.owner, hook.path, true);
  }
  for (const hook of mapi.preTerminateHooks) {
    annotations.add(`${PRE_TERMINATE_HOOK}${hook.name}`, hook.owner, hook.path, true);
  }
  if (paused) annotations.override(PAUSED_ANNOTATION, PAUSED_VALUE);
  annotations.validate('metadata.annotations');
  return { labels, annotations };
}
