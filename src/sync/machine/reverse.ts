// CAPI → MAPI for one Machine while Cluster API is authoritative (../reverse.ts): the MAPI
// Machine mirrors the CAPI Machine and its infrastructure machine. Pure. The CAPI side is read,
// never written. What is the Machine's own: our annotations kept on the MAPI Machine, and the rule
// that a CAPI Machine a Cluster API-authoritative MachineSet created gets a MAPI mirror.
import type { CapiMachine, MapiMachine } from '../../api/types.js';
import { machineToMapi } from '../../conversion/machine/to-mapi.js';
import { CLUSTER_API_UID_ANNOTATION, FINALIZER, isOurKey } from '../../model/markers.js';
import { formatFieldErrors, warningEvents } from '../report.js';
import { planReverse } from '../reverse.js';
import { controllerReference, done, isDeleting, isPaused, type Step } from '../steps.js';
import { MACHINES } from './kind.js';
import { mapiMachineStatus } from './mirror-status.js';
import type { MachineObserved } from './observed.js';

const MAPI_API_VERSION = 'machine.openshift.io/v1beta1';

export function planMachineReverse(o: MachineObserved, mapi: MapiMachine, capi: CapiMachine): Step {
  return planReverse(MACHINES, o, mapi, capi, {
    convert: (infrastructure, converter) => {
      const { infrastructureMachine } = o;
      const input = { capi, infrastructureMachine, mapi, infrastructure, converter };
      const conversion = machineToMapi(input);
      if (!conversion.ok) return conversion;
      // Our own annotations stay on the MAPI Machine as they are: never taken from Cluster API.
      const annotations = {
        ...withoutOurs(conversion.value.annotations),
        ...ourAnnotations(mapi),
      };
      return { ...conversion, value: { ...conversion.value, annotations } };
    },
    machineSpec: { within: (spec) => spec, path: 'spec.providerSpec.value', controlPlane: false },
    status: () => mapiMachineStatus(mapi, capi),
  });
}

/**
 * A CAPI Machine without a MAPI Machine: when a MachineSet that Cluster API is authoritative for
 * created it, the step creating its MAPI mirror; undefined when it gets none. Also while that
 * MachineSet migrates: Cluster API may create one between the gate and the pause, and the
 * MachineSet hands it over with the others only once it is mirrored.
 */
export function planMapiMirrorCreation(o: MachineObserved): Step | undefined {
  const { mirror: capi, mapiMachineSet, capiMachineSet } = o;
  if (!capi || isDeleting(capi) || isPaused(capi)) return undefined;
  const controller = capi.metadata.ownerReferences?.find((r) => r.controller);
  if (!capiMachineSet || controller?.uid !== capiMachineSet.metadata.uid) return undefined;
  if (!mapiMachineSet || isDeleting(mapiMachineSet)) return undefined;
  const authority = mapiMachineSet.status?.authoritativeAPI;
  if (authority !== 'ClusterAPI' && authority !== 'Migrating') return undefined;
  if (!o.infrastructure || !o.converter) return done('no conversion for a MAPI mirror yet');
  const conversion = machineToMapi({
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
      ownerReferences: [controllerReference(mapiMachineSet)],
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
    Object.entries(mapi.metadata.annotations ?? {}).filter(([key]) => isOurKey(key)),
  );
}

function withoutOurs(annotations: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(annotations).filter(([key]) => !isOurKey(key)));
}
