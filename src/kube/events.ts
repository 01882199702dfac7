// Kubernetes Events on the MAPI MachineSet. The same event (object, type,
// reason, message) is counted up, not created again.
import type { CoreV1Event } from '@kubernetes/client-node';
import type { KubeObject } from '../api/types.js';
import { stableHash } from '../model/naming.js';
import { isConflict } from './errors.js';
import type { KubeClient } from './http-client.js';

interface EventToRecord {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export interface EventRecorder {
  record(object: KubeObject, event: EventToRecord): Promise<void>;
}

const COMPONENT = 'mapi-capi-sync';
const MAX_MESSAGE = 1024;

export function createEventRecorder(client: KubeClient, now: () => Date): EventRecorder {
  return {
    async record(object: KubeObject, event: EventToRecord): Promise<void> {
      const namespace = object.metadata.namespace ?? 'default';
      const identity = stableHash([object.metadata.uid, event.type, event.reason, event.message]);
      const name = `${object.metadata.name.slice(0, 200)}.${identity.slice(0, 16)}`;
      const timestamp = now();
      const message =
        event.message.length > MAX_MESSAGE
          ? `${event.message.slice(0, MAX_MESSAGE - 1)}…`
          : event.message;
      const body: CoreV1Event = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace },
        involvedObject: {
          apiVersion: object.apiVersion,
          kind: object.kind,
          name: object.metadata.name,
          namespace,
          uid: object.metadata.uid,
          resourceVersion: object.metadata.resourceVersion,
        },
        type: event.type,
        reason: event.reason,
        message,
        source: { component: COMPONENT },
        reportingComponent: COMPONENT,
        reportingInstance: COMPONENT,
        firstTimestamp: timestamp,
        lastTimestamp: timestamp,
        count: 1,
      };
      const events = `/api/v1/namespaces/${encodeURIComponent(namespace)}/events`;
      try {
        await client.request('POST', events, { body });
      } catch (err) {
        if (!isConflict(err)) throw err;
        const path = `${events}/${encodeURIComponent(name)}`;
        const existing = await client.request<CoreV1Event>('GET', path);
        existing.count = (existing.count ?? 1) + 1;
        existing.lastTimestamp = timestamp;
        await client.request('PUT', path, { body: existing });
      }
    },
  };
}
