// Templates this controller created for a MachineSet, and the cleanup of the
// ones its mirror no longer uses.
import type { CapiMachineSet, MachineTemplate } from '../../api/types.js';
import { Reason } from '../conditions.js';
import { SOURCE_ANNOTATION } from '../../model/markers.js';
import { prefixOfTemplateName, templateNamePrefix } from '../../model/naming.js';
import { isDeleting, isOwnedBy, type Step } from '../steps.js';

/**
 * The CAPI MachineSets of the CAPI namespace whose infrastructureRef names a template, by the
 * template's name (at least for the templates of `ourTemplates`).
 */
export type TemplateUsers = Readonly<Record<string, readonly CapiMachineSet[]>>;

/**
 * The templates this controller created for MachineSet `name`: marked with its name, and named as
 * we name them (`<name>-<spec hash>`). A copy (`oc get -o yaml`, renamed, edited and pointed at)
 * carries the mark but not such a name, and is someone else's.
 */
export function ourTemplates(templates: MachineTemplate[], name: string): MachineTemplate[] {
  const prefix = templateNamePrefix(name);
  return templates.filter(
    (t) =>
      t.metadata.annotations?.[SOURCE_ANNOTATION] === name &&
      prefixOfTemplateName(t.metadata.name) === prefix,
  );
}

/** Whether a CAPI MachineSet's machines are made from this template. */
export function pointsAt(machineSet: CapiMachineSet, template: MachineTemplate): boolean {
  // Index functions and plans read objects as stored: whatever the object, this must not throw.
  const ref = (machineSet.spec as CapiMachineSet['spec'] | undefined)?.template?.spec
    ?.infrastructureRef;
  return ref?.name === template.metadata.name && (!ref.kind || ref.kind === template.kind);
}

/** The CAPI MachineSets, not being deleted, that point at the template: the mirror and `users`. */
function liveUsers(
  template: MachineTemplate,
  mirror: CapiMachineSet | undefined,
  users: TemplateUsers | undefined,
): CapiMachineSet[] {
  const candidates = [...(mirror ? [mirror] : []), ...(users?.[template.metadata.name] ?? [])];
  return candidates.filter((ms) => !isDeleting(ms) && pointsAt(ms, template));
}

/**
 * The next step in letting go of our templates other than `current`. A template we created is
 * ours to delete, whoever else was added as its owner since (Cluster API makes its Cluster an
 * owner while it is authoritative), unless a live CAPI MachineSet still points at it: then only
 * our mirror's ownership is released, and the template is deleted once nothing points at it.
 * Undefined when there is nothing left to do.
 */
export function planStaleTemplates(
  templates: MachineTemplate[],
  name: string,
  mirror: CapiMachineSet | undefined,
  current: string | undefined,
  users?: TemplateUsers,
): Step | undefined {
  for (const stale of ourTemplates(templates, name)) {
    if (stale.metadata.name === current || isDeleting(stale)) continue;
    const inUse = liveUsers(stale, mirror, users);
    if (inUse.length === 0) {
      return {
        kind: 'delete',
        object: stale,
        note: 'deleting old template',
        failure: Reason.TemplateUpdateFailed,
      };
    }
    if (mirror && isOwnedBy(stale, mirror) && !inUse.includes(mirror)) {
      const refs = stale.metadata.ownerReferences ?? [];
      const others = refs.filter(
        (r) => r.uid !== mirror.metadata.uid && !(r.kind === 'MachineSet' && r.name === name),
      );
      return {
        kind: 'update',
        object: { ...stale, metadata: { ...stale.metadata, ownerReferences: others } },
        note: 'releasing old template still used by another CAPI machine set',
        failure: Reason.TemplateUpdateFailed,
      };
    }
  }
  return undefined;
}
