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
  OwnerReference,
} from '../../api/types.js';
import { CLUSTER_NAME_LABEL, PAUSED_ANNOTATION, PAUSED_VALUE } from '../../model/markers.js';
import { CAPI_GROUP, CAPI_VERSION } from '../../model/api-groups.js';
import { ConversionReport } from '../common/field-reader.js';
import { quote } from '../common/quote.js';
import {
  type FixedLabel,
  machineAnnotations,
  machineLabels,
  type MachineMetadataTarget,
} from '../common/machine-metadata.js';
import { capiMachineSpec, type CapiMachineSpec } from '../common/machine-spec.js';
import type { WrittenMap } from '../common/mirror-metadata.js';
import { checkMirrorName, convertProviderSpec, isPlatformProviderSpec } from '../common/mirror.js';
import { taintsToCapi } from '../common/taints.js';
import type { Conversion, PlatformConverter } from '../types.js';
import { readMachine } from './input.js';
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
const MACHINE_METADATA: MachineMetadataTarget = {
  object: 'the Cluster API Machine',
  path: 'metadata',
};

type InfrastructureMachineType = NonNullable<PlatformConverter['machine']>;

export function machineToCapi(input: MachineMirrorInput): Conversion<MachineMirror> {
  const { infrastructure, converter } = input;
  const report = new ConversionReport();
  const clusterName = infrastructure.status?.infrastructureName ?? '';
  const mapi = readMachine(input.mapi, report);
  const owners = mirrorOwnership(mapi.owners, mapi.labels, input.machineSet, input.cluster, report);
  if (!owners) return { ok: false, errors: report.errors };
  const providerSpec = mapi.providerSpec.value;
  if (!isPlatformProviderSpec(providerSpec, converter, PROVIDER_SPEC_PATH, 'Machine', report)) {
    return { ok: false, errors: report.errors };
  }
  const machineType = infrastructureMachineType(converter, report);
  const provider = convertProviderSpec(
    mapi.providerSpec,
    converter,
    { infrastructure, path: PROVIDER_SPEC_PATH, controlPlane: false },
    report,
  );
  const identity = instanceIdentity(mapi.providerID, machineType, report);
  checkMirrorName(mapi.name, 'Machine', 'the Machine cannot be mirrored', report);
  const taints = taintsToCapi(mapi.taints, 'spec.taints', report);
  const setName = owners.machineSetName;
  const fixed = setName === undefined ? [] : [setNameLabel(setName)];
  const labels = machineLabels(mapi, MACHINE_METADATA, clusterName, report, fixed);
  const annotations = machineAnnotations(mapi, MACHINE_METADATA, input.paused, report);
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
  const machineSpec = capiMachineSpec({
    clusterName,
    provider: provider.value,
    infrastructure: { kind: machineType.kind, name },
    taints,
    providerID: mapi.providerID,
  });
  const { ownerReferences } = owners;
  const machine = capiMachine(name, { labels, annotations, ownerReferences }, machineSpec, input);
  // The platform's spec, tied to the existing instance (if any) by the identity fields.
  const spec = { ...provider.value.templateSpec, ...(identity?.ok ? identity.value : {}) };
  const instance = infrastructureMachine(name, machineType, spec, clusterName, input);
  return {
    ok: true,
    value: { machine, infrastructureMachine: instance },
    warnings: [...provider.warnings, ...report.warnings],
  };
}

/** The CAPI Machine, owned as its MAPI Machine is (by the mirror of its MachineSet, or the Cluster). */
function capiMachine(
  name: string,
  metadata: { labels: WrittenMap; annotations: WrittenMap; ownerReferences: OwnerReference[] },
  spec: CapiMachineSpec,
  { capiNamespace }: MachineMirrorInput,
): CapiMachine {
  return {
    apiVersion: `${CAPI_GROUP}/${CAPI_VERSION}`,
    kind: 'Machine',
    metadata: {
      name,
      namespace: capiNamespace,
      labels: metadata.labels.toObject(),
      annotations: metadata.annotations.toObject(),
      ownerReferences: metadata.ownerReferences,
    },
    spec,
  };
}

/** The platform's infrastructure machine; a platform this version has none for cannot mirror. */
function infrastructureMachineType(
  converter: PlatformConverter,
  report: ConversionReport,
): InfrastructureMachineType | undefined {
  if (!converter.machine) {
    report.error(
      PROVIDER_SPEC_PATH,
      `cannot be mirrored: this version knows no Cluster API infrastructure machine for ${converter.platform}; keep the Machine on Machine API.`,
    );
  }
  return converter.machine;
}

/**
 * The spec fields that tie the infrastructure machine to the Machine's existing instance, from
 * its providerID; undefined for a Machine without one (its instance is yet to be made).
 */
function instanceIdentity(
  providerID: string | undefined,
  machineType: InfrastructureMachineType | undefined,
  report: ConversionReport,
): Conversion<Record<string, unknown>> | undefined {
  if (providerID === undefined || !machineType) return undefined;
  const identity = machineType.identity(providerID);
  if (!identity.ok) report.errors.push(...identity.errors);
  return identity;
}

/** The label by which the Machine's MachineSet recognises it as one of its own. */
function setNameLabel(machineSetName: string): FixedLabel {
  return {
    key: SET_NAME_LABEL,
    value: setNameLabelValue(machineSetName),
    reason: `the Machine belongs to the MachineSet ${quote(machineSetName)}`,
  };
}

/** The infrastructure machine, named as the Machine; paused with it. */
function infrastructureMachine(
  name: string,
  machineType: InfrastructureMachineType,
  spec: Record<string, unknown>,
  clusterName: string,
  { capiNamespace, paused }: MachineMirrorInput,
): InfrastructureMachine {
  return {
    apiVersion: machineType.apiVersion,
    kind: machineType.kind,
    metadata: {
      name,
      namespace: capiNamespace,
      labels: { [CLUSTER_NAME_LABEL]: clusterName },
      ...(paused ? { annotations: { [PAUSED_ANNOTATION]: PAUSED_VALUE } } : {}),
    },
    spec,
  };
}
