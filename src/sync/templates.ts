// Templates this controller created for a MachineSet, and the cleanup of the
// ones its mirror no longer uses.
import type { CapiMachineSet, MachineTemplate } from '../api/types.js';
import { Reason } from './conditions.js';
import { SOURCE_ANNOTATION } from './markers.js';
import { isDeleting, isOwnedBy, type Step } from './steps.js';

export function ourTemplates(templates: MachineTemplate[], name: string): MachineTemplate[] {
  return templates.filter((t) => t.metadata.annotations?.[SOURCE_ANNOTATION] === name);
}

/**
 * The next step in letting go of our templates other than `current`: delete
 * those that only this MachineSet's mirrors own (or nobody); release those
 * someone else also owns. Undefined when there is nothing left to do.
 */
export function planStaleTemplates(
  templates: MachineTemplate[],
  name: string,
  mirror: CapiMachineSet | undefined,
  current: string | undefined,
): Step | undefined {
  for (const stale of ourTemplates(templates, name)) {
    if (stale.metadata.name === current || isDeleting(stale)) continue;
    const refs = stale.metadata.ownerReferences ?? [];
    const others = refs.filter(
      (r) => r.uid !== mirror?.metadata.uid && !(r.kind === 'MachineSet' && r.name === name),
    );
    if (others.length === 0) {
      return {
        kind: 'delete',
        object: stale,
        note: 'deleting old template',
        failure: Reason.TemplateUpdateFailed,
      };
    }
    if (mirror && isOwnedBy(stale, mirror)) {
      return {
        kind: 'update',
        object: { ...stale, metadata: { ...stale.metadata, ownerReferences: others } },
        note: 'releasing old template owned by others too',
        failure: Reason.TemplateUpdateFailed,
      };
    }
  }
  return undefined;
}
