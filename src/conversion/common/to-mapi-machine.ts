// CAPI → MAPI: what the MAPI mirror of a Cluster API machine gets the same way on a Machine and on
// a MachineSet's template: labels, annotations and lifecycle hooks split between the machine and
// its Node, taints, providerID, and the providerSpec the platform converter makes of the
// infrastructure spec. What Cluster API cannot express is kept from the current MAPI machine.
import type { Conversion, PlatformConverter, ReverseContext } from '../types.js';
import type { CapiMachineInput } from './capi-machine-spec.js';
import { type ConversionReport, isJsonObject, type JsonObject } from './field-reader.js';
import { objectAt, putList, putMap } from './json-edit.js';
import type { MapiMachineInput } from './mapi-machine-spec.js';
import { PRE_DRAIN_HOOK, PRE_TERMINATE_HOOK } from './metadata.js';
import { currentMapiTaints, type MapiTaint, taintsToMapi } from './taints.js';
import {
  annotationsToMapi,
  type Hook,
  hooksToMapi,
  labelsToMapi,
  type SplitMap,
} from './to-mapi-metadata.js';

/** A MAPI machine's parts as Cluster API says them, each map split between machine and Node. */
export interface MapiMachineParts {
  labels: SplitMap;
  annotations: SplitMap;
  preDrain: Hook[];
  preTerminate: Hook[];
  taints: MapiTaint[];
  providerID?: string;
}

/** A copy of the current MAPI spec, which the conversion overwrites field by field. */
export function currentSpec(mapi: unknown): JsonObject {
  const spec = isJsonObject(mapi) ? mapi.spec : undefined;
  return isJsonObject(spec) ? structuredClone<JsonObject>(spec) : {};
}

/**
 * The parts of the MAPI machine that mirrors `capi`: `current` is the MAPI machine as it is now,
 * `currentMachineSpec` its machine spec as it is (the taints MAPI set keep their timeAdded).
 */
export function machinePartsToMapi(
  capi: CapiMachineInput,
  current: MapiMachineInput,
  currentMachineSpec: JsonObject,
  report: ConversionReport,
): MapiMachineParts {
  const labels = labelsToMapi(capi.labels, { machine: current.labels, node: current.nodeLabels });
  const isHook = (key: string) =>
    key.startsWith(PRE_DRAIN_HOOK) || key.startsWith(PRE_TERMINATE_HOOK);
  const annotations = annotationsToMapi(
    capi.annotations.filter((entry) => !isHook(entry.key)),
    { machine: current.annotations, node: current.nodeAnnotations },
  );
  const preDrain = hooksToMapi(capi.annotations, PRE_DRAIN_HOOK, current.preDrainHooks, report);
  const preTerminate = hooksToMapi(
    capi.annotations,
    PRE_TERMINATE_HOOK,
    current.preTerminateHooks,
    report,
  );
  const taints = taintsToMapi(capi.taints, currentMapiTaints(currentMachineSpec.taints), report);
  return { labels, annotations, preDrain, preTerminate, taints, providerID: capi.providerID };
}

/**
 * Writes `parts` and the providerSpec into the MAPI machine spec at `path` below `root` (a
 * Machine's `spec`, a MachineSet's `spec.template.spec`); returns that machine spec. The machine's
 * own labels and annotations are not part of it: each kind writes them where it has them.
 */
export function putMachineSpec(
  root: JsonObject,
  path: readonly string[],
  parts: MapiMachineParts,
  providerSpec: Record<string, unknown>,
): JsonObject {
  putMap(root, [...path, 'metadata', 'labels'], parts.labels.node);
  putMap(root, [...path, 'metadata', 'annotations'], parts.annotations.node);
  putList(root, [...path, 'lifecycleHooks', 'preDrain'], parts.preDrain);
  putList(root, [...path, 'lifecycleHooks', 'preTerminate'], parts.preTerminate);
  putList(root, [...path, 'taints'], parts.taints);
  const machineSpec = path.reduce(objectAt, root);
  if (parts.providerID !== undefined) machineSpec.providerID = parts.providerID;
  objectAt(machineSpec, 'providerSpec').value = providerSpec;
  return machineSpec;
}

/**
 * The providerSpec the platform converter makes of an infrastructure spec, told the failure
 * domain and user data Secret the Cluster API machine names; its errors are added to `report`.
 */
export function providerSpecToMapi(
  toMapi: NonNullable<PlatformConverter['toMapi']>,
  spec: unknown,
  capi: CapiMachineInput,
  context: Omit<ReverseContext, 'failureDomain' | 'userDataSecretName'>,
  report: ConversionReport,
): Conversion<Record<string, unknown>> {
  const result = toMapi(spec, {
    ...context,
    ...(capi.failureDomain !== undefined ? { failureDomain: capi.failureDomain } : {}),
    ...(capi.dataSecretName !== undefined ? { userDataSecretName: capi.dataSecretName } : {}),
  });
  if (!result.ok) report.errors.push(...result.errors);
  return result;
}
