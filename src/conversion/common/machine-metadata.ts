// MAPI → CAPI: the labels and annotations of a Cluster API machine, written the same way on a
// Machine and on a MachineSet's machine template. MAPI keeps the Machine's maps, the Node's maps
// and the lifecycle hooks apart; Cluster API has one map of labels and one of annotations (it
// copies some of them to the Node itself), so all of them go there, and two that disagree are
// reported on the MAPI field.
import type { ConversionReport, MapEntry } from './field-reader.js';
import type { HookInput } from './mapi-machine-spec.js';
import { PRE_DRAIN_HOOK, PRE_TERMINATE_HOOK } from './metadata.js';
import { WrittenMap } from './mirror-metadata.js';
import { quote } from './quote.js';
import {
  CLUSTER_NAME_LABEL,
  isOurKey,
  PAUSED_ANNOTATION,
  PAUSED_VALUE,
} from '../../model/markers.js';

/** What a MAPI machine (a Machine, or a MachineSet's template) says its metadata is. */
export interface MachineMetadataInput {
  /** The Machine's own, e.g. `spec.template.metadata.labels` of a MachineSet. */
  labels: readonly MapEntry[];
  annotations: readonly MapEntry[];
  /** The Node's, `spec.metadata` of the machine spec. */
  nodeLabels: readonly MapEntry[];
  nodeAnnotations: readonly MapEntry[];
  preDrainHooks: readonly HookInput[];
  preTerminateHooks: readonly HookInput[];
}

/** The object the maps are written on. */
export interface MachineMetadataTarget {
  /** For messages, e.g. `the Cluster API Machine`. */
  object: string;
  /** The MAPI metadata the maps come from, e.g. `spec.template.metadata`: sizes are reported there. */
  path: string;
}

/** A label the controller sets, with why it has this value (completing "but …"). */
export interface FixedLabel {
  key: string;
  value: string;
  reason: string;
}

/** The cluster name label every mirror and selector carries; a MAPI label may only agree. */
export function fixClusterNameLabel(labels: WrittenMap, clusterName: string): void {
  labels.fix(
    CLUSTER_NAME_LABEL,
    clusterName,
    `this cluster's Cluster API cluster is ${quote(clusterName)}`,
  );
}

/**
 * The machine's labels: the cluster name and `fixed` first, so that a MAPI label contradicting
 * them is reported; then the Machine's labels through the label transforms, and the Node's as
 * they are (Cluster API copies the ones in its Node domains to the Node).
 */
export function machineLabels(
  mapi: MachineMetadataInput,
  target: MachineMetadataTarget,
  clusterName: string,
  report: ConversionReport,
  fixed: readonly FixedLabel[] = [],
): WrittenMap {
  const labels = new WrittenMap('label', target.object, report);
  fixClusterNameLabel(labels, clusterName);
  for (const { key, value, reason } of fixed) labels.fix(key, value, reason);
  labels.addConverted(mapi.labels);
  for (const { key, value, path } of mapi.nodeLabels) labels.add(key, value, path);
  labels.validate(`${target.path}.labels`);
  return labels;
}

/**
 * The machine's annotations: the Machine's through the annotation transforms, the Node's as they
 * are, and each lifecycle hook as the annotation Cluster API names hooks with. `paused` adds the
 * paused annotation, whatever MAPI says.
 */
export function machineAnnotations(
  mapi: MachineMetadataInput,
  target: MachineMetadataTarget,
  paused: boolean,
  report: ConversionReport,
): WrittenMap {
  const annotations = new WrittenMap('annotation', target.object, report);
  // our bookkeeping is about the MAPI object it is on, never the other API's
  annotations.addConverted(mapi.annotations.filter((entry) => !isOurKey(entry.key)));
  for (const { key, value, path } of mapi.nodeAnnotations) annotations.add(key, value, path);
  for (const hook of mapi.preDrainHooks) {
    annotations.add(`${PRE_DRAIN_HOOK}${hook.name}`, hook.owner, hook.path, true);
  }
  for (const hook of mapi.preTerminateHooks) {
    annotations.add(`${PRE_TERMINATE_HOOK}${hook.name}`, hook.owner, hook.path, true);
  }
  if (paused) annotations.override(PAUSED_ANNOTATION, PAUSED_VALUE);
  annotations.validate(`${target.path}.annotations`);
  return annotations;
}
