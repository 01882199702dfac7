// What a person (or the autoscaler, or GitOps) does, as steps of a scenario's script: each may
// happen between any two steps of the other actors, in the script's order.
import type { KubeObject } from '../../../src/api/types.js';
import {
  AUTHORITY_ANNOTATION,
  FINALIZER,
  MIRROR_UID_ANNOTATION,
  PAUSED_ANNOTATION,
} from '../../../src/model/markers.js';
import { CAPI_GROUP, MAPI_GROUP, type Authority, type Cluster, type State } from './cluster.js';
import {
  capiMachines,
  capiMachineSets,
  isDeleting,
  mapiMachines,
  mapiMachineSets,
  type Move,
} from './actors.js';

export interface PersonAction {
  /** What the person does, as a counterexample prints it. */
  says: string;
  /** Undefined when it cannot be done in this state (nothing to delete): it is skipped. */
  run(state: State): ((c: Cluster) => void) | undefined;
}

const first = <T>(objects: T[]) => objects[0];
const live = <T extends KubeObject>(objects: T[]) =>
  objects
    .filter((o) => !isDeleting(o))
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));

export const people = {
  migrate: (to: Authority): PersonAction => ({
    says: `sets the MachineSet's spec.authoritativeAPI to ${to}`,
    run: (s) => {
      const set = first(live(mapiMachineSets(s)));
      return set && ((c) => c.patchSpec(set, { authoritativeAPI: to }));
    },
  }),
  deleteMapiMachineSet: (): PersonAction => ({
    says: 'deletes the MAPI MachineSet',
    run: (s) => {
      const set = first(live(mapiMachineSets(s)));
      return set && ((c) => c.delete(set));
    },
  }),
  deleteCapiMachineSet: (): PersonAction => ({
    says: 'deletes the CAPI MachineSet',
    run: (s) => {
      const set = first(live(capiMachineSets(s)));
      return set && ((c) => c.delete(set));
    },
  }),
  deleteMapiMachine: (): PersonAction => ({
    says: 'deletes the first MAPI Machine',
    run: (s) => {
      const machine = first(live(mapiMachines(s)));
      return machine && ((c) => c.delete(machine));
    },
  }),
  deleteCapiMachine: (): PersonAction => ({
    says: 'deletes the first CAPI Machine',
    run: (s) => {
      const machine = first(live(capiMachines(s)));
      return machine && ((c) => c.delete(machine));
    },
  }),
  scaleMapi: (replicas: number): PersonAction => ({
    says: `scales the MAPI MachineSet to ${replicas}`,
    run: (s) => {
      const set = first(live(mapiMachineSets(s)));
      return set && ((c) => c.patchSpec(set, { replicas }));
    },
  }),
  scaleCapi: (replicas: number): PersonAction => ({
    says: `scales the CAPI MachineSet to ${replicas}`,
    run: (s) => {
      const set = first(live(capiMachineSets(s)));
      return set && ((c) => c.patchSpec(set, { replicas }));
    },
  }),
  /**
   * As docs/deployment.md says: stop the controller, then hack/release-finalizers.sh, which
   * records a paused mirror's own uid as it releases it, when its MAPI object exists.
   */
  uninstall: (): PersonAction => ({
    says: 'uninstalls the controller (stops it, runs hack/release-finalizers.sh)',
    run: () => (c) => {
      c.state.installed = false;
      for (const kind of ['MachineSet', 'Machine']) {
        const mapiNames = new Set(c.list(MAPI_GROUP, kind).map((o) => o.metadata.name));
        for (const object of c.list(MAPI_GROUP, kind)) c.removeFinalizer(object, FINALIZER);
        for (const mirror of c.list(CAPI_GROUP, kind)) {
          if (!mirror.metadata.finalizers?.includes(FINALIZER)) continue;
          const annotations = mirror.metadata.annotations ?? {};
          const recordable =
            PAUSED_ANNOTATION in annotations &&
            annotations[AUTHORITY_ANNOTATION] === 'MachineAPI' &&
            !annotations[MIRROR_UID_ANNOTATION] &&
            mapiNames.has(mirror.metadata.name);
          // One patch in the script: the record first here, since the release may end the object.
          if (recordable)
            c.annotate(mirror, { [MIRROR_UID_ANNOTATION]: mirror.metadata.uid ?? '' });
          c.removeFinalizer(mirror, FINALIZER);
        }
      }
    },
  }),
};

/** The script's next action as a move, if any is left and can be done. */
export function personMoves(state: State, script: PersonAction[]): Move[] {
  const action = script[state.acted];
  if (!action) return [];
  const run = action.run(state);
  return [
    {
      actor: 'person',
      label: `a person ${action.says}`,
      run: (c) => {
        c.state.acted++;
        run?.(c);
      },
    },
  ];
}
