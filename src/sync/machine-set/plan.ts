// Decides the next write for one MachineSet from what was observed. Pure.
//
// The reconciler calls `planNext` in a loop: observe, plan one step, execute
// it, observe again, until the plan says `done`. One step at a time keeps each
// decision simple and makes every intermediate state (a crash between two
// steps) one that the next reconcile knows how to finish.
import isEqual from 'lodash/isEqual.js';
import type { CapiMachineSet, MapiMachineSet } from '../../api/types.js';
import { convertMachineSetOnce } from './remembered-conversion.js';
import { SUPPORTED_PLATFORMS } from '../../conversion/platforms.js';
import { Reason } from '../conditions.js';
import { planMapiDeletion, planMirrorDeletion, planWithoutMapi } from './deletion.js';
import {
  AUTHORITY_ANNOTATION,
  CLUSTER_API_UID_ANNOTATION,
  FINALIZER,
  PAUSED_ANNOTATION,
  PAUSED_VALUE,
  SOURCE_ANNOTATION,
} from '../../model/markers.js';
import { planMirrorStatus } from './mirror-status.js';
import type { Observed } from './observed.js';
import { mergeOwnedMetadata, ownedMetadataDiffers } from '../owned-metadata.js';
import { planReverseSync } from './reverse.js';
import { formatFieldErrors, planSyncStart, reportFailure, reportState } from '../report.js';
import {
  addFinalizer,
  annotate,
  done,
  hasFinalizer,
  isDeleting,
  isOwnedBy,
  isPaused,
  ownerReference,
  type EventSpec,
  type Step,
} from '../steps.js';
import { planStaleTemplates } from './templates.js';

export type { EventSpec, Step } from '../steps.js';
export { formatFieldErrors } from '../report.js';

export function planNext(o: Observed): Step {
  const { mapi, mirror } = o;
  if (!mapi) return planWithoutMapi(o);
  if (isDeleting(mapi)) return planMapiDeletion(o, mapi);
  if (mirror && isDeleting(mirror)) return planMirrorDeletion(o, mapi, mirror);

  // Migrating belongs to the migration handshake, and an empty authority to whoever copies
  // spec into status first: the sync writes nothing at all.
  const start = planSyncStart(mapi, o.now, 'adding finalizer to MAPI machine set');
  if ('step' in start) return start.step;
  const { authority } = start;

  if (authority === 'MachineAPI') return planSync(o, mapi, 'MachineAPI');
  if (!mirror) {
    // Recorded, not guessed: a CAPI side that existed and is gone was deleted;
    // the MAPI mirror follows it (deletion table), nothing is recreated.
    if (mapi.metadata.annotations?.[CLUSTER_API_UID_ANNOTATION]) {
      return {
        kind: 'delete',
        object: mapi,
        note: 'deleting the MAPI mirror of an authoritative CAPI machine set that is gone',
      };
    }
    return planSync(o, mapi, 'ClusterAPI');
  }
  return initialSyncUnderway(mapi, mirror)
    ? planSync(o, mapi, 'ClusterAPI')
    : planClusterApiAuthoritative(o, mapi, mirror);
}

/**
 * The initial sync under ClusterAPI creates the CAPI MachineSet paused and
 * marked as such, gives it its template, then unpauses it; until the MAPI side
 * records the CAPI uid, a paused CAPI MachineSet with that mark is ours to finish.
 */
function initialSyncUnderway(mapi: MapiMachineSet, mirror: CapiMachineSet): boolean {
  return (
    isPaused(mirror) &&
    mirror.metadata.annotations?.[AUTHORITY_ANNOTATION] === 'ClusterAPI' &&
    !mapi.metadata.annotations?.[CLUSTER_API_UID_ANNOTATION]
  );
}

/**
 * ClusterAPI is authoritative and its MachineSet exists: nothing is written to
 * Cluster API. The MAPI side records which CAPI MachineSet is authoritative for
 * it, then mirrors it.
 */
function planClusterApiAuthoritative(
  o: Observed,
  mapi: MapiMachineSet,
  mirror: CapiMachineSet,
): Step {
  const uid = mirror.metadata.uid ?? '';
  if (uid && mapi.metadata.annotations?.[CLUSTER_API_UID_ANNOTATION] !== uid) {
    return annotate(
      mapi,
      { [CLUSTER_API_UID_ANNOTATION]: uid },
      'recording the authoritative CAPI machine set',
    );
  }
  return planReverseSync(o, mapi, mirror);
}

/**
 * MAPI → CAPI: the paused mirror while MachineAPI is authoritative, or the
 * initial sync that creates the CAPI side under ClusterAPI.
 */
function planSync(o: Observed, mapi: MapiMachineSet, authority: 'MachineAPI' | 'ClusterAPI'): Step {
  const paused = authority === 'MachineAPI';
  const infrastructureName = o.infrastructure?.status?.infrastructureName;
  if (!o.infrastructure || !infrastructureName) {
    const message = o.infrastructure
      ? 'The Infrastructure "cluster" has no status.infrastructureName, which names the Cluster API cluster; the mirror is written once it is set.'
      : 'The Infrastructure "cluster" (config.openshift.io/v1) was not found; it names the Cluster API cluster and the platform. The mirror is written once it exists.';
    return reportFailure(
      mapi,
      o.now,
      Reason.InfraResourcesUnavailable,
      message,
      'infrastructure unavailable',
    );
  }
  if (!o.converter) {
    const message = `The platform "${o.platform ?? 'unknown'}" has no Cluster API conversion; supported platforms: ${SUPPORTED_PLATFORMS.join(', ')}. Set --platform if the Infrastructure reports the wrong one.`;
    return reportFailure(mapi, o.now, Reason.ConversionFailed, message, 'unsupported platform');
  }

  const conversion = convertMachineSetOnce({
    mapi,
    infrastructure: o.infrastructure,
    converter: o.converter,
    capiNamespace: o.capiNamespace,
    paused,
  });
  if (!conversion.ok) {
    const message = `Cannot convert this MachineSet to Cluster API: ${formatFieldErrors(conversion.errors)}. Fix the MachineSet; it is converted again when it changes.`;
    return reportFailure(
      mapi,
      o.now,
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
  const converted = conversion.value.machineSet;
  const desired: CapiMachineSet = {
    ...converted,
    metadata: {
      ...converted.metadata,
      annotations: { ...converted.metadata.annotations, [AUTHORITY_ANNOTATION]: authority },
    },
  };
  const clusterRefs = o.cluster ? [ownerReference(o.cluster)] : [];
  const { mirror } = o;

  // 1. The mirror, created paused before its template, so that the template is
  //    owned by it from its first moment and nothing is ever left ownerless.
  if (!mirror) {
    return {
      kind: 'create',
      object: {
        ...desired,
        metadata: {
          ...desired.metadata,
          ...mergeOwnedMetadata(
            {},
            {
              labels: desired.metadata.labels,
              annotations: { ...desired.metadata.annotations, [PAUSED_ANNOTATION]: PAUSED_VALUE },
            },
          ),
          ownerReferences: clusterRefs,
          finalizers: [FINALIZER],
        },
      },
      note: paused
        ? 'creating paused CAPI machine set'
        : 'creating CAPI machine set (paused until its template exists)',
      failure: Reason.CreateFailed,
    };
  }
  if (mirror.spec.clusterName !== desired.spec.clusterName) {
    const message = `${o.capiNamespace}/${o.name} belongs to the Cluster API cluster "${mirror.spec.clusterName}", but the Infrastructure now names the cluster "${desired.spec.clusterName}"; Cluster API forbids changing spec.clusterName. Delete ${o.capiNamespace}/${o.name} to have it created again for the new cluster, or restore status.infrastructureName.`;
    return reportFailure(mapi, o.now, Reason.UpdateFailed, message, 'cluster name changed');
  }

  // 2. The template the mirror will point at, owned by the mirror.
  const template = o.templates.find((t) => t.metadata.name === templateName);
  if (!template) {
    return {
      kind: 'create',
      object: {
        ...desiredTemplate,
        metadata: {
          ...desiredTemplate.metadata,
          ...mergeOwnedMetadata({}, desiredTemplate.metadata),
          ownerReferences: [ownerReference(mirror)],
        },
      },
      note: 'creating template',
      failure: Reason.TemplateUpdateFailed,
      events: warningEvents,
    };
  }
  if (template.metadata.annotations?.[SOURCE_ANNOTATION] !== o.name) {
    const message = `A ${template.kind} named ${o.capiNamespace}/${templateName} already exists and was not created for this MachineSet; it is never modified or deleted by this controller. Delete or rename it so the mirror can get its own template.`;
    return reportFailure(
      mapi,
      o.now,
      Reason.TemplateUpdateFailed,
      message,
      'template name taken by a foreign template',
    );
  }
  if (isDeleting(template))
    return done(`waiting for template ${templateName} to go before creating it again`);
  const templateDiffers =
    !isOwnedBy(template, mirror) ||
    ownedMetadataDiffers(template.metadata, desiredTemplate.metadata);
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
          ...mergeOwnedMetadata(template.metadata, desiredTemplate.metadata),
          ownerReferences: [...owners, ownerReference(mirror)],
        },
      },
      note: 'adopting template',
      failure: Reason.TemplateUpdateFailed,
    };
  }

  // 3. The mirror's spec and metadata (repointed at the template; unpaused last
  //    in the initial sync under ClusterAPI).
  const otherRefs = (mirror.metadata.ownerReferences ?? []).filter(
    (r) => !(r.kind === 'Cluster' && r.apiVersion.startsWith('cluster.x-k8s.io/')),
  );
  const ownerReferences = [...otherRefs, ...clusterRefs];
  const mirrorDiffers =
    !isEqual(mirror.spec, desired.spec) ||
    ownedMetadataDiffers(mirror.metadata, desired.metadata) ||
    !isEqual(mirror.metadata.ownerReferences ?? [], ownerReferences);
  if (mirrorDiffers) {
    return {
      kind: 'update',
      object: {
        ...mirror,
        metadata: {
          ...mirror.metadata,
          ...mergeOwnedMetadata(mirror.metadata, desired.metadata),
          ownerReferences,
        },
        spec: desired.spec,
      } as CapiMachineSet,
      note:
        isPaused(mirror) && !paused ? 'unpausing CAPI machine set' : 'updating CAPI machine set',
      failure: Reason.UpdateFailed,
    };
  }
  if (!hasFinalizer(mirror)) return addFinalizer(mirror, 'adding finalizer to CAPI machine set');

  // 4. The paused mirror's status, from MAPI's, once MAPI's status describes its
  //    current spec (an unpaused CAPI MachineSet's status belongs to Cluster API).
  const status = paused ? planMirrorStatus(mapi, mirror, o.now) : undefined;
  if (status) return { ...status, failure: Reason.UpdateFailed };

  // 5. Templates we created that the mirror no longer uses.
  const cleanup = planStaleTemplates(o.templates, o.name, mirror, templateName, o.templateUsers);
  if (cleanup) return cleanup;

  // 6. Report success.
  const message = paused
    ? `Mirrored to ${o.capiNamespace}/${o.name} (paused) with ${desiredTemplate.kind} ${templateName}.`
    : `Cluster API is authoritative; the initial synchronization created ${o.capiNamespace}/${o.name} with ${desiredTemplate.kind} ${templateName}.`;
  const generation = paused ? mapi.metadata.generation : mirror.metadata.generation;
  return (
    reportState(
      mapi,
      o.now,
      { status: 'True', reason: Reason.Synchronized, message },
      generation,
    ) ?? done('in sync')
  );
}
