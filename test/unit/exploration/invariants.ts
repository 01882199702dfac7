// What must hold after every step and once everyone is quiet, in the words of the product's
// promises (docs/migration.md, the README's deletion table). Each check returns what it found
// broken, as sentences; none means it holds.
import type { KubeObject, MapiMachine, MapiMachineSet } from '../../../src/api/types.js';
import {
  capiMachines,
  capiMachineSets,
  infraMachines,
  instanceEvents,
  isDeleting,
  isPaused,
  mapiMachines,
  mapiMachineSets,
  type Move,
} from './actors.js';
import {
  CAPI_GROUP,
  INFRA_GROUP,
  MAPI_GROUP,
  isMapi,
  type AskedOf,
  type Cluster,
  type State,
} from './cluster.js';

type Mapi = MapiMachine | MapiMachineSet;

const twinKey = (o: KubeObject) =>
  `${isMapi(o) ? CAPI_GROUP : MAPI_GROUP}/${o.kind}/${o.metadata.name}`;

const status = (o: KubeObject | undefined) => (o as Mapi | undefined)?.status?.authoritativeAPI;

/**
 * Of which API a Machine is asked to go by a deletion of one of its sides: a deletion of the
 * authoritative side (of either side while Migrating) asks it of that API; a person's deletion of
 * the mirror asks it too (a Machine is one machine), but a cascade's does not.
 */
function askedOf(before: State, machine: KubeObject, byPerson: boolean): AskedOf | undefined {
  const mapi = before.objects[`${MAPI_GROUP}/Machine/${machine.metadata.name}`] as Mapi | undefined;
  const authority =
    status(mapi) ?? (mapi ? (mapi.spec?.authoritativeAPI ?? 'MachineAPI') : undefined);
  if (authority === 'Migrating') return 'Migrating';
  if (byPerson && (authority === 'MachineAPI' || authority === 'ClusterAPI')) return authority;
  if (isMapi(machine)) return authority === 'MachineAPI' ? 'MachineAPI' : undefined;
  return !isPaused(machine) && authority !== 'MachineAPI' ? 'ClusterAPI' : undefined;
}

/** Records which Machines this step asked to go, and of which API (kept in the state). */
export function recordDeletions(before: State, move: Move, c: Cluster): void {
  for (const { object } of c.deletions) {
    if (object.kind !== 'Machine') continue;
    const asked = askedOf(before, object, move.actor === 'person');
    if (asked && !c.state.goneAskedOf[object.metadata.name]) {
      c.state.goneAskedOf[object.metadata.name] = asked;
    }
  }
}

/** After every step. */
export function brokenByStep(before: State, move: Move, c: Cluster): string[] {
  const broken: string[] = [];
  for (const event of instanceEvents(c)) {
    if (event.what === 'created' && !c.state.wanted[event.name]) {
      broken.push(
        `${event.by} created an instance for ${event.name}, which no replica change asked for`,
      );
    }
    const asked = c.state.goneAskedOf[event.name];
    if (event.what === 'deleted' && asked !== event.by && asked !== 'Migrating') {
      broken.push(
        asked
          ? `${event.by} deleted the instance of ${event.name}, which was asked to go of ${asked}`
          : `${event.by} deleted the instance of ${event.name}, which nobody asked to go`,
      );
    }
  }
  if (move.actor === 'controller') {
    for (const { object } of c.deletions) {
      const mapiSide = isMapi(object) ? object : before.objects[twinKey(object)];
      const authority = status(mapiSide);
      const authoritative = isMapi(object)
        ? authority === 'MachineAPI' || authority === 'Migrating'
        : !isPaused(object) || authority === 'Migrating';
      // A Machine asked to go is deleted from either side: the authoritative one follows.
      const asked = object.kind === 'Machine' && before.goneAskedOf[object.metadata.name];
      if (authoritative && !asked) {
        broken.push(
          `the controller deleted ${describe(object)}, the authoritative side (status ${authority ?? 'none'})`,
        );
      }
    }
  }
  broken.push(...twoActiveSides(c.state));
  for (const [key, times] of Object.entries(c.state.created)) {
    if (times > MAX_CREATIONS && times !== before.created[key]) {
      broken.push(
        `${key} is created for the ${times}th time: something deletes and creates it over and over`,
      );
    }
  }
  return broken;
}

/** More creations of one object than a scenario's few actions can ask for is churn. */
const MAX_CREATIONS = 3;

/** Machine API and Cluster API never both act on one MachineSet or Machine. */
function twoActiveSides(state: State): string[] {
  const broken: string[] = [];
  for (const mapi of [...mapiMachineSets(state), ...mapiMachines(state)]) {
    if (mapi.status?.authoritativeAPI !== 'MachineAPI') continue;
    const capi = state.objects[twinKey(mapi)];
    const infra =
      mapi.kind === 'Machine'
        ? state.objects[`${INFRA_GROUP}/AWSMachine/${mapi.metadata.name}`]
        : undefined;
    for (const active of [capi, infra]) {
      if (active && !isPaused(active)) {
        broken.push(
          `both APIs act on ${mapi.kind} ${mapi.metadata.name}: status MachineAPI, and ${describe(active)} is not paused`,
        );
      }
    }
  }
  return broken;
}

/** Once no actor but a person has anything left to do, with the controller installed. */
export function brokenWhenQuiet(state: State): string[] {
  const broken: string[] = [];
  for (const object of Object.values(state.objects)) {
    if (isDeleting(object))
      broken.push(
        `${describe(object)} stays Terminating (finalizers ${object.metadata.finalizers?.join(', ')})`,
      );
  }
  for (const mapi of [...mapiMachineSets(state), ...mapiMachines(state)]) {
    const current = mapi.status?.authoritativeAPI;
    const wanted = mapi.spec?.authoritativeAPI ?? 'MachineAPI';
    if (current !== wanted)
      broken.push(`${describe(mapi)} stays at status ${current ?? 'none'}, spec ${wanted}`);
    const capi = state.objects[twinKey(mapi)];
    if (!capi) {
      broken.push(`${describe(mapi)} has no Cluster API mirror`);
      continue;
    }
    const companions =
      mapi.kind === 'Machine'
        ? [capi, state.objects[`${INFRA_GROUP}/AWSMachine/${mapi.metadata.name}`]]
        : [capi];
    for (const object of companions) {
      if (!object) broken.push(`${describe(mapi)} has no AWSMachine`);
      else if (isPaused(object) !== (current === 'MachineAPI')) {
        broken.push(
          `status says ${current} but ${describe(object)} is ${isPaused(object) ? '' : 'not '}paused`,
        );
      }
    }
  }
  // A CAPI object alone is Cluster API's, unless it is paused: then nobody acts on it.
  for (const capi of [...capiMachineSets(state), ...capiMachines(state), ...infraMachines(state)]) {
    if (
      isPaused(capi) &&
      !state.objects[
        `${MAPI_GROUP}/${capi.kind === 'AWSMachine' ? 'Machine' : capi.kind}/${capi.metadata.name}`
      ]
    ) {
      broken.push(`${describe(capi)} is paused and has no Machine API side: nobody acts on it`);
    }
  }
  // A CAPI Machine of a mirrored MachineSet is one of its fleet: it has its MAPI side too.
  for (const capi of capiMachines(state)) {
    const set = capiMachineSets(state).find((s) =>
      capi.metadata.ownerReferences?.some((r) => r.controller && r.uid === s.metadata.uid),
    );
    if (
      set &&
      state.objects[`${MAPI_GROUP}/MachineSet/${set.metadata.name}`] &&
      !state.objects[`${MAPI_GROUP}/Machine/${capi.metadata.name}`]
    ) {
      broken.push(`${describe(capi)} of a mirrored MachineSet has no Machine API side`);
    }
  }
  for (const infra of infraMachines(state)) {
    if (!state.objects[`${CAPI_GROUP}/Machine/${infra.metadata.name}`])
      broken.push(`${describe(infra)} has no Machine`);
  }
  const machines = new Set(
    [...mapiMachines(state), ...capiMachines(state)].map((m) => m.metadata.name),
  );
  for (const name of Object.keys(state.instances)) {
    if (!machines.has(name))
      broken.push(`the instance of ${name} runs with no Machine to manage it`);
  }
  for (const name of machines) {
    if (!state.instances[name]) broken.push(`Machine ${name} has no instance`);
    // While Migrating a deleted side may be created again (the migration restarts); otherwise
    // a Machine asked to go is gone, whichever side was deleted.
    const asked = state.goneAskedOf[name];
    if (asked && asked !== 'Migrating') {
      broken.push(`Machine ${name} was asked to go (of ${asked}) and is still there`);
    }
  }
  broken.push(...replicasBroken(state));
  return broken;
}

/** The authoritative MachineSet has its replicas, and its mirror asks for as many. */
function replicasBroken(state: State): string[] {
  const broken: string[] = [];
  for (const mapi of mapiMachineSets(state)) {
    const capi = state.objects[twinKey(mapi)] as
      { spec?: { replicas?: number }; metadata: { uid?: string } } | undefined;
    if (!capi) continue;
    if (capi.spec?.replicas !== mapi.spec?.replicas) {
      broken.push(
        `the MachineSets ask for ${mapi.spec?.replicas} (MAPI) and ${capi.spec?.replicas} (CAPI) replicas`,
      );
    }
    const owned = (owner: string | undefined, machines: KubeObject[]) =>
      machines.filter((m) =>
        m.metadata.ownerReferences?.some((r) => r.controller && r.uid === owner),
      ).length;
    const count =
      mapi.status?.authoritativeAPI === 'MachineAPI'
        ? owned(mapi.metadata.uid, mapiMachines(state))
        : owned(capi.metadata.uid, capiMachines(state));
    if (count !== mapi.spec?.replicas)
      broken.push(
        `MachineSet ${mapi.metadata.name} has ${count} Machines for ${mapi.spec?.replicas} replicas`,
      );
  }
  return broken;
}

function describe(object: KubeObject): string {
  const side = isMapi(object)
    ? 'MAPI'
    : object.apiVersion.startsWith(`${CAPI_GROUP}/`)
      ? 'CAPI'
      : '';
  return `${side ? `${side} ` : ''}${object.kind} ${object.metadata.name}`;
}
