// What hack/release-finalizers.sh leaves on a paused mirror whose MAPI object exists.
import type { KubeObject } from '../../../src/api/types.js';
import { MIRROR_UID_ANNOTATION } from '../../../src/model/markers.js';

/** The mirror recording its own uid, as the uninstall records it (`uid`: another's, for a copy). */
export function recordingOwnUid<T extends KubeObject>(mirror: T, uid = mirror.metadata.uid!): T {
  return {
    ...mirror,
    metadata: {
      ...mirror.metadata,
      annotations: { ...mirror.metadata.annotations, [MIRROR_UID_ANNOTATION]: uid },
    },
  };
}
