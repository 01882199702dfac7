// CAPI → MAPI for one Machine while Cluster API is authoritative: the MAPI Machine mirrors the
// CAPI Machine and its infrastructure machine, and a CAPI Machine that a Cluster API-authoritative
// MachineSet created gets a MAPI mirror. Pure. The CAPI side is read, never written.
import isEqual from 'lodash/isEqual.js';
import type { CapiMachine, MapiMachine } from '../../api/types.js';
import { convertMachineToMapi } from '../../conversion/machine/to-mapi.js';
import { MachineReason } from '../conditions.js';
import { CLUSTER_API_UID_ANNOTATION, FINALIZER } from '../../model/markers.js';
import { formatFieldErrors, reportFailure, reportState } from '../report.js';
import { sameMachines, splitProviderSpec } from '../same-machines.js';
import { warningEvents } from '../forward.js';
import { planMapiFromClusterApi } from '../reverse.js';
import { done, isDeleting, isPaused, type Step } from '../steps.js';
import type { MachineObserved } from './observed.js';
import { planStatusMirror } from '../status-mirror.js';
import { mapiMachineStatus } from './mirror-status.js';

const MAPI_API_VERSION = 'machine.openshift.io/v1beta1';
/** Our own annotations on a MAPI mirror; Cluster API knows nothing of them. */
const OUR_PREFIX = 'sync.machine.openshift.io/';

export function planMachineReverse(o: MachineObserved, mapi: MapiMachine, capi: CapiMachine): Step {
  const source = `${o.capiNamespace}/${capi.metadata.name}`;
  if (!o.infrastructure || !o.converter) {
    return reportFailure(
      mapi,
      o.now,
      MachineReason.InfraResourcesUnavailable,
      `Cluster API is authoritative, but ${o.infrastructure ? `the platform "${o.platform ?? 'unknown'}" has no conversion` : 'the Infrastructure "cluster" was not found'}; ${source} is mirrored here once it can be converted.`,
      'reverse sync: infrastructure unavailable',
    );
  }
  const conversion = convertMachineToMapi({
    capi,
    infrastructureMachine: o.infrastructureMachine,
    mapi,
    infrastructure: o.infrastructure,
    converter: o.converter,
  });
  if (!conversion.ok) {
    return reportFailure(
      mapi,
      o.now,
      MachineReason.ReverseConversionFailed,
      `Cluster API is authoritative, and ${source} cannot be expressed as this Machine API Machine: ${formatFieldErrors(conversion.errors)}. Change the Cluster API Machine or its infrastructure machine; it is converted again when it changes.`,
      'reverse conversion failed; waiting for a change',
    );
  }
  const { spec, labels } = conversion.value;
  const annotations = { ...ourAnnotations(mapi), ...conversion.value.annotations };
  const warnings = warningEvents(conversion.warnings);

  // 1. The spec, labels and annotations.
  const update = planMapiFromClusterApi(
    mapi,
    { spec, labels, annotations },
    machineSpecDiffers(o, mapi.spec, spec),
    { noun: 'MAPI Machine', failure: MachineReason.MapiUpdateFailed, events: warnings },
  );
  if (update) return update;

  // 2. The status: phase, node, addresses.
  const status = planStatusMirror(
    mapi,
    mapiMachineStatus(mapi, capi),
    'mirroring the Cluster API Machine status to MAPI',
  );
  if (status) return status;

  // 3. Synchronized at the CAPI generation.
  return (
    reportState(
      mapi,
      o.now,
      {
        status: 'True',
        reason: MachineReason.Synchronized,
        message: `Cluster API is authoritative; this Machine mirrors ${source}.`,
      },
      capi.metadata.generation,
    ) ?? done('Cluster API is authoritative; in sync')
  );
}

/**
 * A CAPI Machine without a MAPI Machine: when a MachineSet that Cluster API is authoritative for
 * created it, the step creating its MAPI mirror; undefined when it gets none.
 */
export function planMapiMirrorCreation(o: MachineObserved): Step | undefined {
  const { mirror: capi, mapiMachineSet, capiMachineSet } = o;
  if (!capi || isDeleting(capi) || isPaused(capi)) return undefined;
  const controller = capi.metadata.ownerReferences?.find((r) => r.controller);
  if (!capiMachineSet || controller?.uid !== capiMachineSet.metadata.uid) return undefined;
  if (!mapiMachineSet || isDeleting(mapiMachineSet)) return undefined;
  if (mapiMachineSet.status?.authoritativeAPI !== 'ClusterAPI') return undefined;
  if (!o.infrastructure || !o.converter) return done('no conversion for a MAPI mirror yet');
  const conversion = convertMachineToMapi({
    capi,
    infrastructureMachine: o.infrastructureMachine,
    infrastructure: o.infrastructure,
    converter: o.converter,
  });
  if (!conversion.ok) {
    return done(
      `the CAPI Machine cannot be mirrored to Machine API yet: ${formatFieldErrors(conversion.errors)}`,
    );
  }
  const machine: MapiMachine = {
    apiVersion: MAPI_API_VERSION,
    kind: 'Machine',
    metadata: {
      name: capi.metadata.name,
      namespace: o.mapiNamespace,
      labels: conversion.value.labels,
      annotations: {
        ...conversion.value.annotations,
        // Recorded, so that the mirror follows the CAPI Machine when it goes.
        [CLUSTER_API_UID_ANNOTATION]: capi.metadata.uid ?? '',
      },
      ownerReferences: [
        {
          apiVersion: mapiMachineSet.apiVersion,
          kind: mapiMachineSet.kind,
          name: mapiMachineSet.metadata.name,
          uid: mapiMachineSet.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      finalizers: [FINALIZER],
    },
    spec: conversion.value.spec,
  };
  return {
    kind: 'create',
    object: machine,
    note: 'creating the MAPI mirror of a CAPI Machine',
    events: warningEvents(conversion.warnings),
  };
}

function ourAnnotations(mapi: MapiMachine): Record<string, string> {
  return Object.fromEntries(
    Object.entries(mapi.metadata.annotations ?? {}).filter(([key]) => key.startsWith(OUR_PREFIX)),
  );
}

/** Whether the MAPI Machine's spec must be written; equal providerSpecs may differ in form. */
function machineSpecDiffers(o: MachineObserved, current: unknown, desired: unknown): boolean {
  if (isEqual(current, desired)) return false;
  const a = structuredClone(current);
  const b = structuredClone(desired);
  const left = splitProviderSpec(a);
  const right = splitProviderSpec(b);
  if (!isEqual(a, b)) return true;
  return !sameMachines(o, left, right, { path: 'spec.providerSpec.value', controlPlane: false });
}
