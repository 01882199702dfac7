// MAPI → CAPI for one MachineSet, in the order of ../forward.ts: the paused CAPI MachineSet and
// its template while Machine API is authoritative, or the initial sync that creates them under
// Cluster API. Pure. What is the MachineSet's own: its conversion, the template (the companion),
// letting go of the templates it no longer uses, and its mirrored status.
import type { CapiMachineSet, MachineTemplate, MapiMachineSet } from '../../api/types.js';
import { SOURCE_ANNOTATION } from '../../model/markers.js';
import { Reason } from '../conditions.js';
import { machineSetToCapi } from '../../conversion/machine-set/to-capi.js';
import { convertForward, planForward, type ForwardKind } from '../forward.js';
import { remembered } from '../remembered-conversion.js';
import {
  adoptWithOwnedMetadata,
  createWithOwnedMetadata,
  ownedMetadataDiffers,
} from '../owned-metadata.js';
import { reportFailure, warningEvents } from '../report.js';
import {
  done,
  isDeleting,
  isOwnedBy,
  ownerReference,
  type EventSpec,
  type Step,
} from '../steps.js';
import { MACHINE_SETS } from './kind.js';
import { planMachineSetCapiStatus } from './mirror-status.js';
import type { MachineSetObserved } from './observed.js';
import { planStaleTemplates } from './templates.js';

/** Converted once per version of the MachineSet and of what it is converted with. */
const convertMachineSetOnce = remembered(machineSetToCapi);

const FORWARD: ForwardKind = {
  ...MACHINE_SETS,
  messages: {
    infrastructureUnavailable: (infrastructure) =>
      infrastructure
        ? 'The Infrastructure "cluster" has no status.infrastructureName, which names the Cluster API cluster; the mirror is written once it is set.'
        : 'The Infrastructure "cluster" (config.openshift.io/v1) was not found; it names the Cluster API cluster and the platform. The mirror is written once it exists.',
    unsupportedPlatformAdvice: ' Set --platform if the Infrastructure reports the wrong one.',
    conversionFailed: (errors) =>
      `Cannot convert this MachineSet to Cluster API: ${errors}. Fix the MachineSet; it is converted again when it changes.`,
  },
};

/**
 * The spec of the paused CAPI MachineSet that mirrors the MAPI one as it is now, or undefined when
 * it cannot be converted (the sync reports why).
 */
export function pausedMirrorSpec(
  o: MachineSetObserved,
  mapi: MapiMachineSet,
): CapiMachineSet['spec'] | undefined {
  const { infrastructure, converter, capiNamespace } = o;
  if (!infrastructure?.status?.infrastructureName || !converter) return undefined;
  const conversion = convertMachineSetOnce({
    mapi,
    infrastructure,
    converter,
    capiNamespace,
    paused: true,
  });
  return conversion.ok ? conversion.value.machineSet.spec : undefined;
}

/**
 * MAPI → CAPI: the paused mirror while MachineAPI is authoritative, or the
 * initial sync that creates the CAPI side under ClusterAPI.
 */
export function planMachineSetForward(
  o: MachineSetObserved,
  mapi: MapiMachineSet,
  authority: 'MachineAPI' | 'ClusterAPI',
): Step {
  const paused = authority === 'MachineAPI';
  const { capiNamespace } = o;
  const converted = convertForward(FORWARD, o, mapi, (infrastructure, converter) =>
    convertMachineSetOnce({ mapi, infrastructure, converter, capiNamespace, paused }),
  );
  if ('step' in converted) return converted.step;
  const { template, machineSet } = converted.value;
  const warnings = warningEvents(converted.warnings);
  const clusterRefs = o.cluster ? [ownerReference(o.cluster)] : [];
  const capiName = `${capiNamespace}/${o.name}`;
  const templateName = template.metadata.name;
  return planForward(MACHINE_SETS, o, mapi, authority, {
    desired: machineSet,
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
    status: (mirror) => planMachineSetCapiStatus(mapi, mirror, o.now),
    // The templates we created that the mirror no longer uses.
    after: (mirror) =>
      planStaleTemplates(o.templates, o.name, mirror, templateName, o.templateUsers),
    synchronized: () =>
      paused
        ? `Mirrored to ${capiName} (paused) with ${template.kind} ${templateName}.`
        : `Cluster API is authoritative; the initial synchronization created ${capiName} with ${template.kind} ${templateName}.`,
  });
}

/** The template the mirror will point at, owned by the mirror. */
function planTemplate(
  o: MachineSetObserved,
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
