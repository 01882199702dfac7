// Decides the next write for one MachineSet from what was observed. Pure.
//
// The reconciler calls `planNext` in a loop: observe, plan one step, execute
// it, observe again, until the plan says `done`. One step at a time keeps each
// decision simple and makes every intermediate state (a crash between two
// steps) one that the next reconcile knows how to finish.
import isEqual from 'lodash/isEqual.js';
import type {
  CapiMachineSet,
  Infrastructure,
  KubeObject,
  MachineTemplate,
  MapiMachineSet,
  OwnerReference,
} from '../api/types.js';
import { convertMachineSet } from '../conversion/machine-set.js';
import { SUPPORTED_PLATFORMS } from '../conversion/platforms.js';
import type { FieldError, PlatformConverter } from '../conversion/types.js';
import {
  conditionDiffers,
  findSynchronized,
  Reason,
  synchronizedCondition,
  withCondition,
  type SyncState,
} from './conditions.js';
import { FINALIZER, PAUSED_ANNOTATION, SOURCE_ANNOTATION } from './markers.js';
import { desiredMirrorStatus, mirrorStatusDiffers } from './mirror-status.js';

export interface Observed {
  mapiNamespace: string;
  capiNamespace: string;
  name: string;
  mapi?: MapiMachineSet;
  mirror?: CapiMachineSet;
  /** Every machine template of the platform's kind in the CAPI namespace. */
  templates: MachineTemplate[];
  /** The CAPI Cluster named after the infrastructure name, when it exists. */
  cluster?: KubeObject;
  infrastructure?: Infrastructure;
  /** Undefined when the platform has no converter. */
  converter?: PlatformConverter;
  platform?: string;
  /** RFC 3339 time for lastTransitionTime; the only clock input. */
  now: string;
}

export interface EventSpec {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export type Step =
  | { kind: 'done'; note: string }
  | {
      kind: 'create' | 'update' | 'updateStatus' | 'delete';
      object: KubeObject;
      /** Log message: what and why. */
      note: string;
      /** How a failure of this write is reported on the MAPI MachineSet; none for MAPI writes. */
      failure?: Reason;
      /** Events recorded on the MAPI MachineSet once the write succeeded. */
      events?: EventSpec[];
    };

const done = (note: string): Step => ({ kind: 'done', note });

function hasFinalizer(object: KubeObject | undefined): boolean {
  return object?.metadata.finalizers?.includes(FINALIZER) ?? false;
}

function withoutFinalizer<T extends KubeObject>(object: T): T {
  const finalizers = (object.metadata.finalizers ?? []).filter((f) => f !== FINALIZER);
  return { ...object, metadata: { ...object.metadata, finalizers } };
}

function withFinalizer<T extends KubeObject>(object: T): T {
  const finalizers = [...(object.metadata.finalizers ?? []), FINALIZER];
  return { ...object, metadata: { ...object.metadata, finalizers } };
}

function isPaused(object: KubeObject | undefined): boolean {
  return object?.metadata.annotations?.[PAUSED_ANNOTATION] !== undefined;
}

function ownerReference(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid ?? '',
  };
}

function isOwnedBy(object: KubeObject, owner: KubeObject): boolean {
  return object.metadata.ownerReferences?.some((r) => r.uid === owner.metadata.uid) ?? false;
}

/** Templates this controller created for the MachineSet. */
function ourTemplates(o: Observed): MachineTemplate[] {
  return o.templates.filter((t) => t.metadata.annotations?.[SOURCE_ANNOTATION] === o.name);
}

export function formatFieldErrors(errors: FieldError[]): string {
  return errors.map((e) => `${e.path}: ${e.message.replace(/\.+$/, '')}`).join('; ');
}

/** A step writing the Synchronized condition (and maybe synchronizedGeneration), if it changes. */
function reportState(
  o: Observed,
  mapi: MapiMachineSet,
  state: SyncState,
  synchronizedGeneration?: number,
  events: EventSpec[] = [],
): Step | undefined {
  const previous = findSynchronized(mapi.status?.conditions);
  const current = mapi.status?.synchronizedGeneration;
  const nextGeneration =
    synchronizedGeneration !== undefined && synchronizedGeneration > (current ?? 0)
      ? synchronizedGeneration
      : current;
  if (!conditionDiffers(previous, state) && nextGeneration === current) return undefined;
  const status = {
    ...mapi.status,
    conditions: withCondition(
      mapi.status?.conditions,
      synchronizedCondition(state, previous, o.now),
    ),
    ...(nextGeneration !== undefined ? { synchronizedGeneration: nextGeneration } : {}),
  };
  return {
    kind: 'updateStatus',
    object: { ...mapi, status } as MapiMachineSet,
    note: 'updating Synchronized condition',
    events: conditionDiffers(previous, state) ? events : [],
  };
}

/** Synchronized=False with a Warning event, written once per distinct message. */
function reportFailure(
  o: Observed,
  mapi: MapiMachineSet,
  reason: Reason,
  message: string,
  note: string,
): Step {
  const event: EventSpec = { type: 'Warning', reason, message };
  return (
    reportState(o, mapi, { status: 'False', reason, message }, undefined, [event]) ?? done(note)
  );
}

export function planNext(o: Observed): Step {
  const { mapi, mirror } = o;
  if (!mapi) return planWithoutMapi(o);
  if (mapi.metadata.deletionTimestamp) return planMapiDeletion(o, mapi);
  if (mirror?.metadata.deletionTimestamp) return planMirrorDeletion(mirror);

  const authority = mapi.status?.authoritativeAPI;
  if (!findSynchronized(mapi.status?.conditions)) {
    const step = reportState(o, mapi, {
      status: 'Unknown',
      reason: Reason.AuthorityChanged,
      message: authority
        ? `Synchronization with ${authority} as the authoritative API is starting.`
        : 'Waiting for status.authoritativeAPI to be set.',
    });
    if (step) return step;
  }
  if (!hasFinalizer(mapi)) {
    return {
      kind: 'update',
      object: withFinalizer(mapi),
      note: 'added finalizer to MAPI machine set',
    };
  }

  switch (authority) {
    case 'MachineAPI':
      return planSync(o, mapi, true);
    case 'ClusterAPI':
      return mirror && !initialSyncUnderway(mapi, mirror)
        ? planClusterApiAuthoritative(o, mapi, mirror)
        : planSync(o, mapi, false);
    case 'Migrating':
      return (
        reportState(o, mapi, {
          status: 'Unknown',
          reason: Reason.AuthorityChanged,
          message:
            'The authoritative API is migrating; neither side is written until status.authoritativeAPI is MachineAPI or ClusterAPI.',
        }) ?? done('authority is migrating')
      );
    default:
      return (
        reportState(o, mapi, {
          status: 'Unknown',
          reason: Reason.AuthorityChanged,
          message: 'Waiting for status.authoritativeAPI to be set.',
        }) ?? done('authority not set yet')
      );
  }
}

/**
 * The initial sync under ClusterAPI spans several steps after the mirror is
 * created; it is still underway while nobody has changed the mirror's spec
 * (generation 1) and success was never reported (no synchronizedGeneration).
 */
function initialSyncUnderway(mapi: MapiMachineSet, mirror: CapiMachineSet): boolean {
  return (
    hasFinalizer(mirror) &&
    !isPaused(mirror) &&
    mirror.metadata.generation === 1 &&
    !mapi.status?.synchronizedGeneration
  );
}

/**
 * ClusterAPI is authoritative and the mirror exists: nothing is written to
 * Cluster API. The condition says whether both sides still agree; the reverse
 * direction (CAPI → MAPI) is not handled here.
 */
function planClusterApiAuthoritative(
  o: Observed,
  mapi: MapiMachineSet,
  mirror: CapiMachineSet,
): Step {
  const conversion =
    o.infrastructure && o.converter
      ? convertMachineSet({
          mapi,
          infrastructure: o.infrastructure,
          converter: o.converter,
          capiNamespace: o.capiNamespace,
          paused: false,
        })
      : undefined;
  const agree = conversion?.ok === true && isEqual(conversion.value.machineSet.spec, mirror.spec);
  const state: SyncState = agree
    ? {
        status: 'True',
        reason: Reason.Synchronized,
        message: `Cluster API is authoritative; ${o.capiNamespace}/${mirror.metadata.name} and this MachineSet agree.`,
      }
    : {
        status: 'Unknown',
        reason: Reason.AuthorityChanged,
        message: `Cluster API is authoritative and ${o.capiNamespace}/${mirror.metadata.name} differs from this MachineSet: changes are not synchronized from Cluster API back to Machine API, and this MachineSet is not written to Cluster API.`,
      };
  return (
    reportState(o, mapi, state, agree ? mirror.metadata.generation : undefined) ??
    done('Cluster API is authoritative')
  );
}

function planSync(o: Observed, mapi: MapiMachineSet, paused: boolean): Step {
  const infrastructureName = o.infrastructure?.status?.infrastructureName;
  if (!o.infrastructure || !infrastructureName) {
    const message = o.infrastructure
      ? 'The Infrastructure "cluster" has no status.infrastructureName, which names the Cluster API cluster; the mirror is written once it is set.'
      : 'The Infrastructure "cluster" (config.openshift.io/v1) was not found; it names the Cluster API cluster and the platform. The mirror is written once it exists.';
    return reportFailure(
      o,
      mapi,
      Reason.InfraResourcesUnavailable,
      message,
      'infrastructure unavailable',
    );
  }
  if (!o.converter) {
    const message = `The platform "${o.platform ?? 'unknown'}" has no Cluster API conversion; supported platforms: ${SUPPORTED_PLATFORMS.join(', ')}. Set --platform if the Infrastructure reports the wrong one.`;
    return reportFailure(o, mapi, Reason.ConversionFailed, message, 'unsupported platform');
  }

  const conversion = convertMachineSet({
    mapi,
    infrastructure: o.infrastructure,
    converter: o.converter,
    capiNamespace: o.capiNamespace,
    paused,
  });
  if (!conversion.ok) {
    const message = `Cannot convert this MachineSet to Cluster API: ${formatFieldErrors(conversion.errors)}. Fix the MachineSet; it is converted again when it changes.`;
    return reportFailure(
      o,
      mapi,
      Reason.ConversionFailed,
      message,
      'conversion failed; waiting for a change',
    );
  }
  const warningEvents: EventSpec[] = conversion.warnings.map((message) => ({
    type: 'Warning',
    reason: 'ConversionWarning',
    message,
  }));
  const desiredTemplate = conversion.value.template;
  const templateName = desiredTemplate.metadata.name;
  const { mirror } = o;

  // 1. The template the mirror will point at.
  const template = o.templates.find((t) => t.metadata.name === templateName);
  if (!template) {
    return {
      kind: 'create',
      object: mirror
        ? {
            ...desiredTemplate,
            metadata: { ...desiredTemplate.metadata, ownerReferences: [ownerReference(mirror)] },
          }
        : desiredTemplate,
      note: 'creating template',
      failure: Reason.TemplateUpdateFailed,
      events: warningEvents,
    };
  }
  if (template.metadata.annotations?.[SOURCE_ANNOTATION] !== o.name) {
    const message = `A ${template.kind} named ${o.capiNamespace}/${templateName} already exists and was not created for this MachineSet; it is never modified or deleted by this controller. Delete or rename it so the mirror can get its own template.`;
    return reportFailure(
      o,
      mapi,
      Reason.TemplateUpdateFailed,
      message,
      'template name taken by a foreign template',
    );
  }

  // 2. The mirror, pointing at the template.
  const desired = conversion.value.machineSet;
  const clusterRefs = o.cluster ? [ownerReference(o.cluster)] : [];
  if (!mirror) {
    return {
      kind: 'create',
      object: withFinalizer({
        ...desired,
        metadata: { ...desired.metadata, ownerReferences: clusterRefs },
      }),
      note: paused ? 'creating paused CAPI machine set' : 'creating CAPI machine set',
      failure: Reason.CreateFailed,
    };
  }
  const otherRefs = (mirror.metadata.ownerReferences ?? []).filter(
    (r) => !(r.kind === 'Cluster' && r.apiVersion.startsWith('cluster.x-k8s.io/')),
  );
  const ownerReferences = [...otherRefs, ...clusterRefs];
  const mirrorDiffers =
    !isEqual(mirror.spec, desired.spec) ||
    !isEqual(mirror.metadata.labels ?? {}, desired.metadata.labels) ||
    !isEqual(mirror.metadata.annotations ?? {}, desired.metadata.annotations) ||
    !isEqual(mirror.metadata.ownerReferences ?? [], ownerReferences) ||
    !hasFinalizer(mirror);
  if (mirrorDiffers) {
    const updated: CapiMachineSet = {
      ...mirror,
      metadata: {
        ...mirror.metadata,
        labels: desired.metadata.labels ?? {},
        annotations: desired.metadata.annotations ?? {},
        ownerReferences,
      },
      spec: desired.spec,
    };
    return {
      kind: 'update',
      object: hasFinalizer(updated) ? updated : withFinalizer(updated),
      note: 'updating CAPI machine set',
      failure: Reason.UpdateFailed,
    };
  }

  // 3. The template is owned by the mirror and carries the current pause marker.
  const templateDiffers =
    !isOwnedBy(template, mirror) ||
    !isEqual(template.metadata.labels ?? {}, desiredTemplate.metadata.labels) ||
    !isEqual(template.metadata.annotations ?? {}, desiredTemplate.metadata.annotations);
  if (templateDiffers) {
    const owners = (template.metadata.ownerReferences ?? []).filter(
      (r) => r.uid !== mirror.metadata.uid,
    );
    return {
      kind: 'update',
      object: {
        ...template,
        metadata: {
          ...template.metadata,
          labels: desiredTemplate.metadata.labels ?? {},
          annotations: desiredTemplate.metadata.annotations ?? {},
          ownerReferences: [...owners, ownerReference(mirror)],
        },
      },
      note: 'adopting template',
      failure: Reason.TemplateUpdateFailed,
    };
  }

  // 4. The mirror's status, from MAPI's, once MAPI's status describes its current spec.
  const status = desiredMirrorStatus(mapi, mirror, o.now);
  if (status && mirrorStatusDiffers(mirror, status)) {
    const updated: CapiMachineSet = { ...mirror, status };
    return {
      kind: 'updateStatus',
      object: updated,
      note: 'updating CAPI machine set status',
      failure: Reason.UpdateFailed,
    };
  }

  // 5. Templates we created that the mirror no longer uses: release, then delete.
  const cleanup = planStaleTemplates(o, mirror, templateName);
  if (cleanup) return cleanup;

  // 6. Report success.
  const message = paused
    ? `Mirrored to ${o.capiNamespace}/${o.name} (paused) with ${desiredTemplate.kind} ${templateName}.`
    : `Cluster API is authoritative; the initial synchronization created ${o.capiNamespace}/${o.name} with ${desiredTemplate.kind} ${templateName}.`;
  const generation = paused ? mapi.metadata.generation : mirror.metadata.generation;
  return (
    reportState(o, mapi, { status: 'True', reason: Reason.Synchronized, message }, generation) ??
    done('in sync')
  );
}

function planStaleTemplates(
  o: Observed,
  mirror: CapiMachineSet | undefined,
  currentTemplate: string | undefined,
): Step | undefined {
  for (const stale of ourTemplates(o)) {
    if (stale.metadata.name === currentTemplate || stale.metadata.deletionTimestamp) continue;
    if (mirror && isOwnedBy(stale, mirror)) {
      return {
        kind: 'update',
        object: {
          ...stale,
          metadata: {
            ...stale.metadata,
            ownerReferences: (stale.metadata.ownerReferences ?? []).filter(
              (r) => r.uid !== mirror.metadata.uid,
            ),
          },
        },
        note: 'releasing old template',
        failure: Reason.TemplateUpdateFailed,
      };
    }
    const otherOwners = (stale.metadata.ownerReferences ?? []).filter(
      (r) => !(r.kind === 'MachineSet' && r.name === o.name),
    );
    if (otherOwners.length === 0) {
      return {
        kind: 'delete',
        object: stale,
        note: 'deleting old template',
        failure: Reason.TemplateUpdateFailed,
      };
    }
  }
  return undefined;
}

/** The MAPI MachineSet is being deleted. */
function planMapiDeletion(o: Observed, mapi: MapiMachineSet): Step {
  if (!hasFinalizer(mapi)) return done('MAPI machine set is being deleted; nothing of ours on it');
  const authority = mapi.status?.authoritativeAPI;
  const mirror = o.mirror;
  // The mirror goes with MAPI only when MAPI is authoritative and the mirror is our paused copy.
  const mirrorGoes = (authority === 'MachineAPI' || !authority) && isPaused(mirror);
  if (mirror && mirrorGoes) {
    if (!mirror.metadata.deletionTimestamp) {
      return {
        kind: 'delete',
        object: mirror,
        note: 'deleting CAPI mirror of a deleted MAPI machine set',
      };
    }
    if (hasFinalizer(mirror)) {
      return { kind: 'update', object: withoutFinalizer(mirror), note: 'releasing CAPI mirror' };
    }
    return done('waiting for the CAPI mirror to go');
  }
  if (mirrorGoes || !mirror) {
    const stale = planStaleTemplates(o, undefined, undefined);
    if (stale) return stale;
  }
  // Otherwise the CAPI side stays: it is, or may become, authoritative.
  return {
    kind: 'update',
    object: withoutFinalizer(mapi),
    note: 'releasing deleted MAPI machine set',
  };
}

/** The mirror is being deleted while the MAPI MachineSet stays. */
function planMirrorDeletion(mirror: CapiMachineSet): Step {
  if (!hasFinalizer(mirror)) return done('waiting for the CAPI machine set to go');
  const othersHold = (mirror.metadata.finalizers ?? []).some((f) => f !== FINALIZER);
  // Deleting a mirror must never delete real machines: let it go only when paused
  // (nothing acts on it) or when Cluster API's own finalizers are done.
  if (isPaused(mirror) || !othersHold) {
    return {
      kind: 'update',
      object: withoutFinalizer(mirror),
      note: 'releasing deleted CAPI machine set',
    };
  }
  return done('waiting for Cluster API to finish deleting the machine set');
}

/** No MAPI MachineSet of this name: let go of whatever we held for it. */
function planWithoutMapi(o: Observed): Step {
  const mirror = o.mirror;
  if (mirror && hasFinalizer(mirror)) {
    if (isPaused(mirror) && !mirror.metadata.deletionTimestamp) {
      // A paused mirror of a MachineSet that is gone mirrors nothing.
      return {
        kind: 'delete',
        object: mirror,
        note: 'deleting CAPI mirror of a missing MAPI machine set',
      };
    }
    return { kind: 'update', object: withoutFinalizer(mirror), note: 'releasing CAPI machine set' };
  }
  if (mirror) return done('no MAPI machine set; the CAPI machine set is not ours to manage');
  return planStaleTemplates(o, undefined, undefined) ?? done('nothing to do');
}
