// CAPI → MAPI label and annotation transforms, the inverse of metadata.ts.
//
// Cluster API's machine template has one map of labels (and one of annotations) where MAPI has
// two: the Machine's (`spec.template.metadata`) and the Node's (`spec.template.spec.metadata`); the
// conversion to CAPI merges them. On the way back a key goes where the current MAPI MachineSet has
// it (to both maps when it has it in both), so that MAPI → CAPI → MAPI gives the input back. A key
// it does not have goes where Cluster API itself would apply it: to the Node when it is in a
// domain Cluster API syncs to Nodes, to the Machine otherwise.
import type { ConversionReport, MapEntry } from './field-reader.js';
import { quote } from './quote.js';
import { scaleFromZeroToMapi } from './scale-from-zero.js';
import { isOurKey } from '../../model/markers.js';
import type { HookInput } from './mapi-machine-spec.js';
import {
  convertAnnotation,
  convertLabel,
  NODE_ROLE_PREFIX,
  RENAMED_ANNOTATIONS,
  ROLE_LABEL,
  TYPE_LABEL,
} from './metadata.js';

/** Keys of Cluster API's own bookkeeping contain this; they have no meaning on MAPI. */
const CAPI_KEY = 'cluster.x-k8s.io/';
/** Cluster API annotations that are MAPI annotations renamed (delete-machine, autoscaler sizes). */
const MAPI_ANNOTATION_OF = new Map([...RENAMED_ANNOTATIONS].map(([mapi, capi]) => [capi, mapi]));
/** Label domains Cluster API copies from a Machine to its Node (and their subdomains). */
const NODE_LABEL_DOMAINS = ['node-restriction.kubernetes.io', 'node.cluster.x-k8s.io'];
const NODE_ROLE_DOMAIN = NODE_ROLE_PREFIX.slice(0, -1);
/** The annotation domain Cluster API copies from a Machine to its Node (and its subdomains). */
const NODE_ANNOTATION_DOMAINS = ['node.cluster.x-k8s.io'];

/** MAPI's limits on a lifecycle hook (openshift/api machine/v1beta1 LifecycleHook). */
const HOOK_NAME =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$/;
const HOOK_NAME_LENGTH = { min: 3, max: 256 };
const HOOK_OWNER_LENGTH = { min: 3, max: 512 };

/** One MAPI map split in two: the Machine's and the Node's. */
export interface SplitMap {
  machine: Map<string, string>;
  node: Map<string, string>;
}

export interface Hook {
  name: string;
  owner: string;
}

/** The current MAPI maps a split follows. */
export interface CurrentMaps {
  machine: readonly MapEntry[];
  node: readonly MapEntry[];
}

export function labelsToMapi(capi: readonly MapEntry[], current: CurrentMaps): SplitMap {
  return split(capi, current, convertLabel, placeKnownLabel, placeNewLabel);
}

/** Annotations other than lifecycle hooks (see `hooksToMapi`). */
export function annotationsToMapi(capi: readonly MapEntry[], current: CurrentMaps): SplitMap {
  return split(capi, current, convertAnnotation, placeKnownAnnotation, placeNewAnnotation);
}

/** True when `key` is in `domain` or one of its subdomains. */
function inDomain(key: string, domains: readonly string[]): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return false;
  const prefix = key.slice(0, slash);
  return domains.some((domain) => prefix === domain || prefix.endsWith(`.${domain}`));
}

type Place = (entry: MapEntry, out: SplitMap) => void;
/** Sets `entry` under the MAPI key `source` that became it; false when it cannot explain it. */
type PlaceKnown = (source: string, entry: MapEntry, machine: Map<string, string>) => boolean;

function split(
  capi: readonly MapEntry[],
  current: CurrentMaps,
  convert: (key: string, value: string) => [string, string] | undefined,
  placeKnown: PlaceKnown,
  placeNew: Place,
): SplitMap {
  const out: SplitMap = { machine: new Map(), node: new Map() };
  // The CAPI key each current MAPI Machine key becomes, inverted.
  const sources = new Map<string, string[]>();
  for (const { key, value } of current.machine) {
    const converted = convert(key, value);
    // What the conversion to CAPI drops cannot come back from CAPI: it is kept as it is.
    if (converted === undefined) out.machine.set(key, value);
    else sources.set(converted[0], [...(sources.get(converted[0]) ?? []), key]);
  }
  const nodeKeys = new Set(current.node.map((entry) => entry.key));
  const unplaced: MapEntry[] = [];
  for (const entry of capi) {
    let placed = false;
    for (const source of sources.get(entry.key) ?? []) {
      if (placeKnown(source, entry, out.machine)) placed = true;
    }
    if (nodeKeys.has(entry.key)) {
      out.node.set(entry.key, entry.value);
      placed = true;
    }
    if (!placed) unplaced.push(entry);
  }
  for (const entry of unplaced) placeNew(entry, out);
  return out;
}

/** The role of a node-role label that a MAPI role or type label can become, if it is one. */
function nodeRole({ key, value }: MapEntry): string | undefined {
  if (!key.startsWith(NODE_ROLE_PREFIX) || value !== '') return undefined;
  const role = key.slice(NODE_ROLE_PREFIX.length);
  return role === '' ? undefined : role;
}

function placeKnownLabel(source: string, entry: MapEntry, machine: Map<string, string>): boolean {
  if (source !== ROLE_LABEL && source !== TYPE_LABEL) {
    machine.set(source, entry.value);
    return true;
  }
  const role = nodeRole(entry);
  if (role === undefined) return false;
  machine.set(source, role);
  return true;
}

function placeNewLabel(entry: MapEntry, { machine, node }: SplitMap): void {
  const role = nodeRole(entry);
  if (role !== undefined && !machine.has(ROLE_LABEL) && !machine.has(TYPE_LABEL)) {
    machine.set(ROLE_LABEL, role);
    machine.set(TYPE_LABEL, role);
  } else if (inDomain(entry.key, [NODE_ROLE_DOMAIN, ...NODE_LABEL_DOMAINS])) {
    node.set(entry.key, entry.value);
  } else if (!entry.key.includes(CAPI_KEY)) {
    machine.set(entry.key, entry.value);
  }
}

function placeKnownAnnotation(
  source: string,
  entry: MapEntry,
  machine: Map<string, string>,
): boolean {
  machine.set(source, entry.value);
  return true;
}

function placeNewAnnotation(entry: MapEntry, { machine, node }: SplitMap): void {
  const renamed = MAPI_ANNOTATION_OF.get(entry.key);
  if (renamed !== undefined) machine.set(renamed, entry.value);
  else if (inDomain(entry.key, NODE_ANNOTATION_DOMAINS)) node.set(entry.key, entry.value);
  else if (!entry.key.includes(CAPI_KEY)) machine.set(entry.key, entry.value);
}

/** A MachineSet's own labels and annotations (`metadata`), as MAPI has them. */
export interface MachineSetMetadata {
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/**
 * The MAPI MachineSet's own labels and annotations from the CAPI MachineSet's, through the same
 * transforms as its machines' (there are no node maps here: a key Cluster API would put on Nodes
 * stays on the MachineSet). This controller's own keys (`sync.machine.openshift.io/…`) are never
 * taken from Cluster API, and stay as the MAPI MachineSet has them. The scale-from-zero
 * annotations get OpenShift's spelling where they have only the upstream one.
 */
export function machineSetMetadataToMapi(
  capi: { labels: readonly MapEntry[]; annotations: readonly MapEntry[] },
  current: { labels: readonly MapEntry[]; annotations: readonly MapEntry[] },
  report: ConversionReport,
): MachineSetMetadata {
  const notOurs = (entry: MapEntry) => !isOurKey(entry.key);
  const merged = (map: SplitMap, currentEntries: readonly MapEntry[]) => ({
    ...Object.fromEntries(map.machine),
    ...Object.fromEntries(map.node),
    ...Object.fromEntries(
      currentEntries.filter((entry) => !notOurs(entry)).map((entry) => [entry.key, entry.value]),
    ),
  });
  const labels = labelsToMapi(capi.labels.filter(notOurs), {
    machine: current.labels.filter(notOurs),
    node: [],
  });
  const currentAnnotations = current.annotations.filter(notOurs);
  const capiAnnotations = scaleFromZeroToMapi(
    capi.annotations.filter(notOurs),
    currentAnnotations,
    report,
  );
  const annotations = annotationsToMapi(capiAnnotations, {
    machine: currentAnnotations,
    node: [],
  });
  return {
    labels: merged(labels, current.labels),
    annotations: merged(annotations, current.annotations),
  };
}

/**
 * The lifecycle hooks named by the annotations of `prefix`, in the order of the current MAPI
 * hooks, new ones last; a hook MAPI would refuse is an error on its annotation.
 */
export function hooksToMapi(
  annotations: readonly MapEntry[],
  prefix: string,
  current: readonly HookInput[],
  report: ConversionReport,
): Hook[] {
  const hooks: Hook[] = [];
  for (const { key, value, path } of annotations) {
    if (!key.startsWith(prefix)) continue;
    const name = key.slice(prefix.length);
    const problem = hookProblem(name, value);
    if (problem) report.error(path, problem);
    else hooks.push({ name, owner: value });
  }
  const rank = (hook: Hook) => {
    const index = current.findIndex((c) => c.name === hook.name);
    return index < 0 ? current.length : index;
  };
  // A stable sort: new hooks keep the order of their annotations.
  return hooks.sort((a, b) => rank(a) - rank(b));
}

function hookProblem(name: string, owner: string): string | undefined {
  const { min, max } = HOOK_NAME_LENGTH;
  if (name.length < min || name.length > max || !HOOK_NAME.test(name)) {
    return (
      `names the lifecycle hook ${quote(name)}, but a Machine API hook name has ${min} to ` +
      `${max} characters, alphanumeric, '-', '_' or '.', starting and ending with an ` +
      `alphanumeric character; rename the hook.`
    );
  }
  if (owner.length < HOOK_OWNER_LENGTH.min || owner.length > HOOK_OWNER_LENGTH.max) {
    return (
      `is ${quote(owner)}, the owner of the lifecycle hook, but Machine API requires an owner ` +
      `of ${HOOK_OWNER_LENGTH.min} to ${HOOK_OWNER_LENGTH.max} characters; name who owns the hook.`
    );
  }
  return undefined;
}
