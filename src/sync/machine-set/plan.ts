// Decides the next write for one MachineSet from what was observed. Pure.
//
// The reconciler calls `planNext` in a loop: observe, plan one step, execute
// it, observe again, until the plan says `done`. One step at a time keeps each
// decision simple and makes every intermediate state (a crash between two
// steps) one that the next reconcile knows how to finish.
import type { CapiMachineSet, MachineTemplate, MapiMachineSet } from '../../api/types.js';
import { convertMachineSetOnce } from './remembered-conversion.js';
import { SUPPORTED_PLATFORMS } from '../../conversion/platforms.js';
import { Reason } from '../conditions.js';
import { planMapiDeletion, planMirrorDeletion, planWithoutMapi } from './deletion.js';
import {
  AUTHORITY_ANNOTATION,
  CLUSTER_API_UID_ANNOTATION,
  SOURCE_ANNOTATION,
} from '../../model/markers.js';
import { planCapiMachineSetStatus } from './mirror-status.js';
import type { Observed } from './observed.js';
import {
  adoptWithOwnedMetadata,
  createWithOwnedMetadata,
  ownedMetadataDiffers,
} from '../owned-metadata.js';
import { planForward, statusWrite, withAuthority } from '../forward.js';
import { planReverseSync } from './reverse.js';
import { formatFieldErrors, planSyncStart, reportFailure, warningEvents } from '../report.js';
import {
  annotate,
  done,
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
  const missing = missingInputs(o, mapi);
  if (missing) return missing;
  const paused = authority === 'MachineAPI';
  const conversion = convertMachineSetOnce({
    mapi,
    infrastructure: o.infrastructure!,
    converter: o.converter!,
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
  const { template, machineSet } = conversion.value;
  const warnings = warningEvents(conversion.warnings);
  const clusterRefs = o.cluster ? [ownerReference(o.cluster)] : [];
  const capiName = `${o.capiNamespace}/${o.name}`;
  const templateName = template.metadata.name;
  return planForward<CapiMachineSet>({
    capiNoun: 'CAPI machine set',
    capiName,
    reasons: {
      create: Reason.CreateFailed,
      update: Reason.UpdateFailed,
      synchronized: Reason.Synchronized,
    },
    mapi,
    ...(o.mirror ? { mirror: o.mirror } : {}),
    desired: withAuthority(machineSet, authority),
    paused,
    now: o.now,
    events: [], // told with the template, which is what changes with the conversion
    // The CAPI Cluster owns the mirror; owners others added stay.
    ownerReferences: (mirror) => [
      ...(mirror?.metadata.ownerReferences ?? []).filter(
        (r) => !(r.kind === 'Cluster' && r.apiVersion.startsWith('cluster.x-k8s.io/')),
      ),
      ...clusterRefs,
    ],
    spec: () => machineSet.spec,
    companion: (mirror) => planTemplate(o, mapi, mirror, template, warnings),
    after: (mirror) =>
      // The paused mirror's status, from MAPI's (an unpaused one's belongs to Cluster API),
      // then the templates we created that the mirror no longer uses.
      (paused
        ? statusWrite(planCapiMachineSetStatus(mapi, mirror, o.now), Reason.UpdateFailed)
        : undefined) ??
      planStaleTemplates(o.templates, o.name, mirror, templateName, o.templateUsers),
    synchronized: () =>
      paused
        ? `Mirrored to ${capiName} (paused) with ${template.kind} ${templateName}.`
        : `Cluster API is authoritative; the initial synchronization created ${capiName} with ${template.kind} ${templateName}.`,
  });
}

/** The Infrastructure names the cluster and the platform; the platform must have a converter. */
function missingInputs(o: Observed, mapi: MapiMachineSet): Step | undefined {
  if (!o.infrastructure || !o.infrastructure.status?.infrastructureName) {
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
  return undefined;
}

/** The template the mirror will point at, owned by the mirror. */
function planTemplate(
  o: Observed,
  mapi: MapiMachineSet,
  mirror: CapiMachineSet,
  desired: MachineTemplate,
  warnings: EventSpec[],
): Step | undefined {
  const name = desired.metadata.name;
  const template = o.templates.find((t) => t.metadata.name === name);
  if (!template) {
    return createWithOwnedMetadata(
      desired,
      {
        labels: desired.metadata.labels,
        annotations: desired.metadata.annotations,
        ownerReferences: [ownerReference(mirror)],
      },
      { note: 'creating template', failure: Reason.TemplateUpdateFailed, events: warnings },
    );
  }
  if (template.metadata.annotations?.[SOURCE_ANNOTATION] !== o.name) {
    const message = `A ${template.kind} named ${o.capiNamespace}/${name} already exists and was not created for this MachineSet; it is never modified or deleted by this controller. Delete or rename it so the mirror can get its own template.`;
    return reportFailure(
      mapi,
      o.now,
      Reason.TemplateUpdateFailed,
      message,
      'template name taken by a foreign template',
    );
  }
  if (isDeleting(template))
    return done(`waiting for template ${name} to go before creating it again`);
  if (isOwnedBy(template, mirror) && !ownedMetadataDiffers(template.metadata, desired.metadata)) {
    return undefined;
  }
  return {
    kind: 'update',
    object: adoptWithOwnedMetadata(template, desired.metadata, ownerReference(mirror)),
    note: 'adopting template',
    failure: Reason.TemplateUpdateFailed,
  };
}
