// A client that hands every warning the API server sends (the Warning header) to a callback.
import type { ObjectClient } from '../../src/kube/objects.js';
import { adminConfig } from './cluster.js';
import { objectsFor } from './kube-client.js';

/** An administrator's object client; `onWarning` hears each warning header. */
export function warningClient(onWarning: (warning: string) => void): ObjectClient {
  return objectsFor(adminConfig(), { onWarning });
}
