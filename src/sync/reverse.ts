// CAPI → MAPI, what both kinds write the same way while Cluster API is authoritative. Pure.
import isEqual from 'lodash/isEqual.js';
import type { KubeObject } from '../api/types.js';
import type { SyncReason } from './conditions.js';
import type { EventSpec, Step } from './steps.js';

/** What the reverse conversion makes of the CAPI side, for the MAPI object. */
export interface MapiFromClusterApi {
  spec: unknown;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/**
 * The MAPI object's spec, labels and annotations, whole (under Cluster API they are ours to
 * write), in one JSON patch guarded by the resourceVersion read; undefined when they are as
 * wanted. `specDiffers` is the kind's own judgement (a providerSpec in another form that
 * describes the same machines is no difference).
 */
export function planMapiFromClusterApi(
  mapi: KubeObject,
  wanted: MapiFromClusterApi,
  specDiffers: boolean,
  write: { noun: string; failure: SyncReason; events: EventSpec[] },
): Step | undefined {
  const same =
    !specDiffers &&
    isEqual(mapi.metadata.labels ?? {}, wanted.labels) &&
    isEqual(mapi.metadata.annotations ?? {}, wanted.annotations);
  if (same) return undefined;
  return {
    kind: 'patch',
    object: mapi,
    patch: {
      type: 'json',
      operations: [
        { op: 'test', path: '/metadata/resourceVersion', value: mapi.metadata.resourceVersion },
        { op: 'add', path: '/metadata/labels', value: wanted.labels },
        { op: 'add', path: '/metadata/annotations', value: wanted.annotations },
        // `add` replaces a spec, and sets one the object does not have (the CRDs admit none).
        { op: 'add', path: '/spec', value: wanted.spec },
      ],
    },
    note: `updating the ${write.noun} from Cluster API`,
    failure: write.failure,
    events: write.events,
  };
}
