// The writes a planner can ask for, and the pure builders of the ones that touch
// only what we own (finalizers, owned status fields, our annotations).
import type { KubeObject, OwnerReference, Patch } from '../api/types.js';
import type { SyncReason } from './conditions.js';
import { FINALIZER, PAUSED_ANNOTATION } from '../model/markers.js';

export interface EventSpec {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

type Write =
  | { kind: 'create'; object: KubeObject }
  /** Replaces spec and metadata, conditional on the object's resourceVersion. */
  | { kind: 'update'; object: KubeObject }
  | { kind: 'patch'; object: KubeObject; patch: Patch; subresource?: 'status' }
  | { kind: 'delete'; object: KubeObject };

export type Step =
  | { kind: 'done'; note: string }
  | (Write & {
      /** Log message: what and why. */
      note: string;
      /** How a failure of this write is reported on the MAPI object; none for MAPI writes. */
      failure?: SyncReason;
      /** Events recorded on the MAPI object (MachineSet or Machine) once the write succeeded. */
      events?: EventSpec[];
      /** A status write an administrator follows in the log (authority moving): logged at info. */
      notable?: true;
    });

export type WriteStep = Exclude<Step, { kind: 'done' }>;

export const done = (note: string): Step => ({ kind: 'done', note });

export function hasFinalizer(object: KubeObject | undefined, name = FINALIZER): boolean {
  return object?.metadata.finalizers?.includes(name) ?? false;
}

export function isPaused(object: KubeObject | undefined): boolean {
  return object?.metadata.annotations?.[PAUSED_ANNOTATION] !== undefined;
}

export function isDeleting(object: KubeObject | undefined): boolean {
  return object?.metadata.deletionTimestamp !== undefined;
}

export function ownerReference(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid ?? '',
  };
}

/** The reference of the owner that controls the object, and blocks the owner's deletion. */
export function controllerReference(owner: KubeObject): OwnerReference {
  return { ...ownerReference(owner), controller: true, blockOwnerDeletion: true };
}

export function isOwnedBy(object: KubeObject, owner: KubeObject): boolean {
  return object.metadata.ownerReferences?.some((r) => r.uid === owner.metadata.uid) ?? false;
}

/** The owner reference of the MachineSet of this API group that controls the object, if one does. */
export function controllingMachineSet(
  object: KubeObject,
  groupPrefix: string,
): OwnerReference | undefined {
  return object.metadata.ownerReferences?.find(
    (r) => r.controller && r.kind === 'MachineSet' && r.apiVersion.startsWith(groupPrefix),
  );
}

/** A merge patch of `fields`, conditional on the resourceVersion observed. */
function guardedMergePatch(
  object: KubeObject,
  fields: {
    metadata?: Record<string, unknown>;
    spec?: Record<string, unknown>;
    status?: Record<string, unknown>;
  },
): Patch {
  const metadata = { resourceVersion: object.metadata.resourceVersion, ...fields.metadata };
  return { type: 'merge', body: { ...fields, metadata } };
}

/** Adds our finalizer, keeping everyone else's. */
export function addFinalizer(object: KubeObject, note: string): WriteStep {
  return {
    kind: 'patch',
    object,
    patch: guardedMergePatch(object, {
      metadata: { finalizers: [...(object.metadata.finalizers ?? []), FINALIZER] },
    }),
    note,
  };
}

/**
 * Removes the named finalizers that are present, each guarded by a `test` of
 * its position, so that a concurrent change of the list fails the patch
 * instead of removing someone else's, and the named annotations that are present.
 * Undefined when none is present.
 */
export function removeFinalizers(
  object: KubeObject,
  names: string[],
  note: string,
  annotations: string[] = [],
): WriteStep | undefined {
  const positions = (object.metadata.finalizers ?? [])
    .map((name, index) => ({ name, index }))
    .filter(({ name }) => names.includes(name))
    .reverse(); // highest index first, so earlier positions stay valid
  const keys = annotations.filter((key) => object.metadata.annotations?.[key] !== undefined);
  if (positions.length === 0 && keys.length === 0) return undefined;
  return {
    kind: 'patch',
    object,
    patch: {
      type: 'json',
      operations: [
        ...positions.flatMap(({ name, index }) => [
          { op: 'test' as const, path: `/metadata/finalizers/${index}`, value: name },
          { op: 'remove' as const, path: `/metadata/finalizers/${index}` },
        ]),
        ...keys.map((key) => ({
          op: 'remove' as const,
          path: `/metadata/annotations/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`,
        })),
      ],
    },
    note,
  };
}

/** Sets (or, with null, removes) annotations, keeping everyone else's. */
export function annotate(
  object: KubeObject,
  annotations: Record<string, string | null>,
  note: string,
): WriteStep {
  return {
    kind: 'patch',
    object,
    patch: guardedMergePatch(object, { metadata: { annotations } }),
    note,
  };
}

/** A merge patch of the given status fields, conditional on the resourceVersion observed. */
export function patchStatus(
  object: KubeObject,
  status: Record<string, unknown>,
  note: string,
): WriteStep {
  return {
    kind: 'patch',
    object,
    subresource: 'status',
    patch: guardedMergePatch(object, { status }),
    note,
  };
}

/**
 * A merge patch that sets status fields of ours to what they must be whatever else changed
 * meanwhile, so without a resourceVersion guard: on a paused CAPI Machine Cluster API writes
 * its conditions while machine-api-operator provisions the instance, and a guard would only turn
 * each of those races into a 409 and a second write.
 */
export function setStatusFields(
  object: KubeObject,
  status: Record<string, unknown>,
  note: string,
): WriteStep {
  return statusPatch(object, { type: 'merge', body: { status } }, note);
}

function statusPatch(object: KubeObject, patch: Patch, note: string): WriteStep {
  return { kind: 'patch', object, subresource: 'status', patch, note };
}

/** A merge patch of the given spec fields, conditional on the resourceVersion observed. */
export function patchSpec(
  object: KubeObject,
  spec: Record<string, unknown>,
  note: string,
): WriteStep {
  return { kind: 'patch', object, patch: guardedMergePatch(object, { spec }), note };
}
