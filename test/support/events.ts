// The Kubernetes Events of a namespace, as the tests read them.
import { EVENT } from '../../src/kube/builtin-resources.js';
import type { ObjectClient } from '../../src/kube/objects.js';
import { adminObjects } from './cluster.js';

/** The fields of a core/v1 Event the tests look at. */
export interface ObservedEvent {
  metadata: { name: string; namespace?: string; resourceVersion?: string };
  involvedObject: { kind?: string; name?: string; namespace?: string; uid?: string };
  reason?: string;
  message?: string;
  type?: string;
  count?: number;
}

/** Every Event in `namespace` (those `fieldSelector` selects, when given). */
export async function namespaceEvents(
  namespace: string,
  options: { fieldSelector?: string } = {},
  objects: ObjectClient = adminObjects(),
): Promise<{ items: ObservedEvent[] }> {
  return objects.list<ObservedEvent>({ ...EVENT, namespace }, options);
}
