// What every planner of one object reads, whatever its kind: where both sides live, both sides,
// the platform, and the time. Each kind's observation narrows both sides to its own objects and
// adds what it reads around them (machine-set/observed.ts, machine/observed.ts). Pure data.
import type { Infrastructure, KubeObject } from '../api/types.js';
import type { PlatformConverter } from '../conversion/types.js';
import type { ReportingObject } from './report.js';

export interface MirrorObserved {
  mapiNamespace: string;
  capiNamespace: string;
  /** The object's name, the same on both sides. */
  name: string;
  /** The MAPI object. */
  mapi?: ReportingObject;
  /** Its CAPI mirror, of the same name. */
  mirror?: KubeObject;
  /** The CAPI Cluster named after the infrastructure name, when it exists. */
  cluster?: KubeObject;
  infrastructure?: Infrastructure;
  /** Undefined when the platform has no converter. */
  converter?: PlatformConverter;
  platform?: string;
  /** RFC 3339 time for lastTransitionTime; the only clock input. */
  now: string;
}
