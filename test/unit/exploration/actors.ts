// Everyone who writes the objects of the small cluster, each as the steps it can take from a
// state: our controller (the real planners, called as its reconcilers call them), the
// neighbours' controllers (each rule read in the source named beside it, at the version the
// control plane runs), the garbage collector, and the uninstall's reinstall. People act in
// people.ts. One step is one reconcile of one object, or one write of ours.
import type {
  CapiMachine,
  CapiMachineSet,
  KubeObject,
  MapiMachine,
  MapiMachineSet,
  OwnerReference,
} from '../../../src/api/types.js';
import { MACHINE_KIND, type MachineCaches } from '../../../src/controller/machine.js';
import { MACHINE_SET_KIND, type MachineSetCaches } from '../../../src/controller/machine-set.js';
import { planSubject, type PlanOptions } from '../../../src/controller/mirror.js';
import type { ObjectCache } from '../../../src/runtime/step-reconciler.js';
import { awsConverter } from '../../../src/conversion/aws/index.js';
import {
  CAPI_MACHINE_FINALIZER,
  CAPI_MACHINE_SET_FINALIZER,
  MAPI_MACHINE_FINALIZER,
  PAUSED_ANNOTATION,
} from '../../../src/model/markers.js';
import { controllerReference, type Step } from '../../../src/sync/steps.js';
import { PlannerMemo, type NamedCaches } from './memo.js';
import { CAPI_NAMESPACE } from '../conversion/machine/support.js';
import {
  CAPI_GROUP,
  INFRA_GROUP,
  MAPI_GROUP,
  NOW,
  type Authority,
  type Cluster,
  type State,
} from './cluster.js';

const MAPI_NAMESPACE = 'openshift-machine-api';
/** CAPA's finalizer (cluster-api-provider-aws api/v1beta2/awsmachine_types.go MachineFinalizer). */
const AWS_MACHINE_FINALIZER = 'awsmachine.infrastructure.cluster.x-k8s.io';

/** One step an actor can take from a state: its label says who and what. */
export interface Move {
  actor: string;
  label: string;
  run(cluster: Cluster): void;
}

const objectsOf = <T extends KubeObject>(state: State, group: string, kind: string): T[] =>
  Object.values(state.objects).filter(
    (o): o is T => o.apiVersion.startsWith(`${group}/`) && o.kind === kind,
  );

export const mapiMachineSets = (s: State) => objectsOf<MapiMachineSet>(s, MAPI_GROUP, 'MachineSet');
export const capiMachineSets = (s: State) => objectsOf<CapiMachineSet>(s, CAPI_GROUP, 'MachineSet');
export const mapiMachines = (s: State) => objectsOf<MapiMachine>(s, MAPI_GROUP, 'Machine');
export const capiMachines = (s: State) => objectsOf<CapiMachine>(s, CAPI_GROUP, 'Machine');
export const infraMachines = (s: State) => objectsOf<KubeObject>(s, INFRA_GROUP, 'AWSMachine');

export const isPaused = (o: KubeObject | undefined) =>
  o?.metadata.annotations?.[PAUSED_ANNOTATION] !== undefined;
export const isDeleting = (o: KubeObject | undefined) =>
  o?.metadata.deletionTimestamp !== undefined;
const has = (o: KubeObject, finalizer: string) =>
  o.metadata.finalizers?.includes(finalizer) ?? false;
const controllerOf = (o: KubeObject): OwnerReference | undefined =>
  o.metadata.ownerReferences?.find((r) => r.controller);

/** Every actor that is not a person, in a fixed order. */
export function systemMoves(state: State): Move[] {
  return [
    ...controllerMoves(state),
    ...machineApiOperatorMoves(state),
    ...clusterApiMoves(state),
    ...awsProviderMoves(state),
    ...garbageCollectorMoves(state),
    ...(state.installed ? [] : [reinstall]),
  ];
}

// --- Our controller -------------------------------------------------------------------------

/** A cache over the state's objects of one kind, keyed `namespace/name` as the informers key them. */
function cacheOf<T extends KubeObject>(objects: T[]): ObjectCache<T> {
  const byKey = new Map(
    objects.map((o) => [`${o.metadata.namespace ?? ''}/${o.metadata.name}`, o]),
  );
  return {
    get: (key) => byKey.get(key) ?? byKey.get(`/${key}`),
    list: () => objects,
    hasSynced: () => true,
    upsert: () => undefined,
    remove: () => undefined,
  };
}

type Caches = MachineSetCaches & MachineCaches;

/** The state's objects as the controller's informers hold them, by cache. */
function namedCachesOf(state: State): NamedCaches {
  const all = Object.values(state.objects);
  return {
    clusters: cacheOf(all.filter((o) => o.kind === 'Cluster')),
    infrastructures: cacheOf(all.filter((o) => o.kind === 'Infrastructure')),
    mapiMachineSets: cacheOf(mapiMachineSets(state)),
    capiMachineSets: cacheOf(capiMachineSets(state)),
    mapiMachines: cacheOf(mapiMachines(state)),
    capiMachines: cacheOf(capiMachines(state)),
    templates: cacheOf(objectsOf(state, INFRA_GROUP, 'AWSMachineTemplate')),
    infrastructureMachines: cacheOf(infraMachines(state)),
  };
}

function asCaches(named: NamedCaches): Caches {
  return {
    ...(named as unknown as Caches),
    templates: () => named.templates as never,
    infrastructureMachines: () => named.infrastructureMachines as never,
  };
}

/** The planners' decisions, remembered across states (memo.ts). */
const decisions = new PlannerMemo<Step | undefined>();

function planOptions(caches: Caches): PlanOptions<Caches> {
  return {
    mapiNamespace: MAPI_NAMESPACE,
    capiNamespace: CAPI_NAMESPACE,
    caches,
    converterFor: (platform) => (platform === 'AWS' ? awsConverter : undefined),
    now: () => new Date(NOW),
  };
}

function controllerMoves(state: State): Move[] {
  if (!state.installed) return [];
  const caches = namedCachesOf(state);
  const names = (objects: KubeObject[]) => [...new Set(objects.map((o) => o.metadata.name))].sort();
  const decide = (kind: 'MachineSet' | 'Machine', name: string) =>
    decisions.decide(`${kind}/${name}`, caches, (read) =>
      kind === 'MachineSet'
        ? planSubject(MACHINE_SET_KIND, planOptions(asCaches(read)), name)
        : planSubject(MACHINE_KIND, planOptions(asCaches(read)), name),
    );
  const machineSets = names([...mapiMachineSets(state), ...capiMachineSets(state)]);
  const machines = names([...mapiMachines(state), ...capiMachines(state), ...infraMachines(state)]);
  return [
    ...machineSets.map((name) => ourMove('MachineSet', name, decide('MachineSet', name))),
    ...machines.map((name) => ourMove('Machine', name, decide('Machine', name))),
  ].filter((m): m is Move => m !== undefined);
}

function ourMove(kind: string, name: string, step: Step | undefined): Move | undefined {
  if (!step || step.kind === 'done') return undefined;
  return {
    actor: 'controller',
    label: `controller, ${kind} ${name}: ${step.note}`,
    run: (cluster) => writeStep(cluster, step),
  };
}

function writeStep(cluster: Cluster, step: Exclude<Step, { kind: 'done' }>): void {
  switch (step.kind) {
    case 'create':
      cluster.create(step.object);
      return;
    case 'update':
      cluster.write(step.object, 'update');
      return;
    case 'patch':
      cluster.write(step.object, step.patch, step.subresource);
      return;
    case 'delete':
      cluster.delete(step.object);
  }
}

// --- machine-api-operator (pkg/controller/machineset/controller.go, machine/controller.go) ----

/** What spec asks, as both of machine-api-operator's controllers copy it into an empty status. */
const specAuthority = (o: MapiMachine | MapiMachineSet): Authority =>
  o.spec?.authoritativeAPI ?? 'MachineAPI';

/**
 * Reconcile's first steps with the MachineAPIMigration gate, the same in both controllers:
 * copy spec.authoritativeAPI into an empty status, else set Paused from status, each a step of
 * its own (it returns after a write); undefined when it goes on (MachineAPI, Paused=False).
 */
function machineApiGate(
  o: MapiMachine | MapiMachineSet,
): ((c: Cluster) => void) | 'paused' | undefined {
  const status = o.status?.authoritativeAPI;
  if (!status) return (c) => c.patchStatus(o, { authoritativeAPI: specAuthority(o) });
  const paused = status !== 'MachineAPI';
  const write = setPausedCondition(o, {
    status: paused ? 'True' : 'False',
    reason: paused ? 'AuthoritativeAPINotMachineAPI' : 'AuthoritativeAPIMachineAPI',
  });
  return write ?? (paused ? 'paused' : undefined);
}

type PausedCondition = { status: 'True' | 'False'; reason?: string; observedGeneration?: number };
type WithConditions = { status?: { conditions?: ({ type: string } & Partial<PausedCondition>)[] } };

/** The write of the object's Paused condition, unless it already says this. */
function setPausedCondition(
  o: KubeObject,
  wanted: PausedCondition,
): ((c: Cluster) => void) | undefined {
  const conditions = (o as WithConditions).status?.conditions ?? [];
  const current = conditions.find((c) => c.type === 'Paused');
  if (
    current?.status === wanted.status &&
    current.observedGeneration === wanted.observedGeneration
  ) {
    return undefined;
  }
  const next = [
    ...conditions.filter((c) => c.type !== 'Paused'),
    { type: 'Paused', ...wanted, lastTransitionTime: NOW },
  ];
  return (c) => c.patchStatus(o, { conditions: next });
}

/** Collects an actor's moves, each labelled with the actor's name first. */
function mover(actor: string, name: string) {
  const moves: Move[] = [];
  const move = (label: string, run: (c: Cluster) => void) =>
    moves.push({ actor, label: `${name}: ${label}`, run });
  return { moves, move };
}

function machineApiOperatorMoves(state: State): Move[] {
  const { moves, move } = mover('machine-api-operator', 'machine-api-operator');
  for (const set of mapiMachineSets(state)) {
    const gate = machineApiGate(set);
    if (gate === 'paused') continue;
    if (gate) {
      move(`MachineSet ${set.metadata.name}: authoritativeAPI and Paused in status`, gate);
      continue;
    }
    if (isDeleting(set)) continue;
    // Machines being deleted are not counted (shouldExcludeMachine).
    const owned = mapiMachines(state).filter(
      (m) => controllerOf(m)?.uid === set.metadata.uid && !isDeleting(m),
    );
    const replicas = set.spec?.replicas ?? 0;
    if (owned.length < replicas) {
      const name = freeMachineName(state, set.metadata.name);
      move(`MachineSet ${set.metadata.name}: scale up, creates Machine ${name}`, (c) => {
        c.create(newMapiMachine(set, name));
        c.state.wanted[name] = true;
      });
    } else if (owned.length > replicas) {
      const victim = owned
        .map((m) => m.metadata.name)
        .sort()
        .at(-1)!;
      move(`MachineSet ${set.metadata.name}: scale down, deletes Machine ${victim}`, (c) =>
        c.delete(c.get(`${MAPI_GROUP}/Machine/${victim}`)!),
      );
    }
  }
  for (const machine of mapiMachines(state)) {
    const name = machine.metadata.name;
    const gate = machineApiGate(machine);
    if (gate === 'paused') continue;
    if (gate) {
      move(`Machine ${name}: authoritativeAPI and Paused in status`, gate);
      continue;
    }
    if (!isDeleting(machine)) {
      if (!has(machine, MAPI_MACHINE_FINALIZER)) {
        move(`Machine ${name}: adds its finalizer`, (c) =>
          c.addFinalizer(machine, MAPI_MACHINE_FINALIZER),
        );
      } else if (!machine.spec?.providerID && !state.instances[name]) {
        move(`Machine ${name}: creates its instance`, (c) => {
          c.state.instances[name] = 'MachineAPI';
          instanceCreated(c, name, 'MachineAPI');
          c.patchSpec(machine, { providerID: providerIdOf(name) });
          c.patchStatus(c.get(`${MAPI_GROUP}/Machine/${name}`)!, { phase: 'Running' });
        });
      } else if (machine.status?.phase !== 'Running' && state.instances[name]) {
        move(`Machine ${name}: Running`, (c) => c.patchStatus(machine, { phase: 'Running' }));
      }
      continue;
    }
    if (!has(machine, MAPI_MACHINE_FINALIZER)) continue;
    // Drained, no pre-terminate hook: the instance goes, then the finalizer.
    move(`Machine ${name}: drains, deletes its instance and removes its finalizer`, (c) => {
      if (c.state.instances[name]) instanceDeleted(c, name, 'MachineAPI');
      c.removeFinalizer(machine, MAPI_MACHINE_FINALIZER);
    });
  }
  return moves;
}

function newMapiMachine(set: MapiMachineSet, name: string): MapiMachine {
  const template = set.spec.template ?? {};
  return {
    apiVersion: set.apiVersion,
    kind: 'Machine',
    metadata: {
      name,
      namespace: MAPI_NAMESPACE,
      labels: { ...template.metadata?.labels },
      ownerReferences: [controllerReference(set)],
    },
    spec: structuredClone(template.spec ?? {}) as MapiMachine['spec'],
  };
}

/** The lowest numbered name no Machine of either API has ever had (names are not reused). */
function freeMachineName(state: State, set: string): string {
  for (let n = 0; ; n++) {
    const name = `${set}-${n}`;
    if (!Object.keys(state.created).some((key) => key.endsWith(`/Machine/${name}`))) return name;
  }
}

const providerIdOf = (name: string) =>
  `aws:///us-east-1a/i-${Buffer.from(name).toString('hex').padEnd(17, '0').slice(0, 17)}`;

// --- Cluster API (internal/controllers/machineset/machineset_controller.go, machine/machine_controller.go)

/**
 * Both controllers' first steps: the finalizer (paused or not, not while deleting:
 * util/finalizers EnsureFinalizer), then the Paused condition from the annotation
 * (util/paused EnsurePausedCondition), each a step of its own; 'paused' stops there.
 */
function clusterApiGate(
  o: KubeObject,
  finalizer: string | undefined,
): ((c: Cluster) => void) | 'paused' | undefined {
  if (finalizer && !isDeleting(o) && !has(o, finalizer)) {
    return (c) => c.addFinalizer(o, finalizer);
  }
  const paused = isPaused(o);
  const write = setPausedCondition(o, {
    status: paused ? 'True' : 'False',
    reason: paused ? 'Paused' : 'NotPaused',
    observedGeneration: o.metadata.generation ?? 0,
  });
  return write ?? (paused ? 'paused' : undefined);
}

function clusterApiMoves(state: State): Move[] {
  const { moves, move } = mover('cluster-api', 'Cluster API');
  for (const set of capiMachineSets(state)) {
    const name = set.metadata.name;
    const gate = clusterApiGate(set, CAPI_MACHINE_SET_FINALIZER);
    if (gate === 'paused') continue;
    if (gate) {
      move(`MachineSet ${name}: finalizer or Paused condition`, gate);
      continue;
    }
    // Machines being deleted are counted (pull 3434).
    const owned = capiMachines(state).filter((m) => controllerOf(m)?.uid === set.metadata.uid);
    if (isDeleting(set)) {
      const live = owned.filter((m) => !isDeleting(m));
      if (live.length) {
        move(`MachineSet ${name} deleted: deletes its Machines`, (c) => {
          for (const m of live) c.delete(m);
        });
      } else if (!owned.length && has(set, CAPI_MACHINE_SET_FINALIZER)) {
        move(`MachineSet ${name}: its Machines are gone, removes its finalizer`, (c) =>
          c.removeFinalizer(set, CAPI_MACHINE_SET_FINALIZER),
        );
      }
      continue;
    }
    const replicas = set.spec.replicas ?? 0;
    if (owned.length < replicas) {
      const machine = freeMachineName(state, name);
      move(`MachineSet ${name}: scale up, creates Machine ${machine}`, (c) => {
        createCapiMachine(c, set, machine);
        c.state.wanted[machine] = true;
      });
    } else if (owned.length > replicas) {
      const victim =
        owned.find((m) => isDeleting(m)) ??
        owned.sort((a, b) => (a.metadata.name < b.metadata.name ? 1 : -1))[0]!;
      if (!isDeleting(victim)) {
        move(`MachineSet ${name}: scale down, deletes Machine ${victim.metadata.name}`, (c) =>
          c.delete(victim),
        );
      }
    }
  }
  for (const machine of capiMachines(state)) {
    const name = machine.metadata.name;
    const gate = clusterApiGate(machine, CAPI_MACHINE_FINALIZER);
    if (gate === 'paused') continue;
    if (gate) {
      move(`Machine ${name}: finalizer or Paused condition`, gate);
      continue;
    }
    const infraName = machine.spec.infrastructureRef?.name ?? name;
    const infra = state.objects[`${INFRA_GROUP}/AWSMachine/${infraName}`];
    if (isDeleting(machine)) {
      // reconcileDelete: drain, then delete the infrastructure machine and wait for it to go.
      if (infra && !isDeleting(infra)) {
        move(`Machine ${name} deleted: drains, deletes AWSMachine ${infraName}`, (c) =>
          c.delete(infra),
        );
      } else if (!infra && has(machine, CAPI_MACHINE_FINALIZER)) {
        move(`Machine ${name}: AWSMachine gone, removes its finalizer`, (c) =>
          c.removeFinalizer(machine, CAPI_MACHINE_FINALIZER),
        );
      }
      continue;
    }
    // reconcileExternal: the infrastructure machine is owned by its Machine.
    if (
      infra &&
      !infra.metadata.ownerReferences?.some((r) => r.kind === 'Machine' && r.name === name)
    ) {
      move(`Machine ${name}: owns AWSMachine ${infraName}`, (c) =>
        c.write(infra, {
          type: 'merge',
          body: {
            metadata: {
              ownerReferences: [
                ...(infra.metadata.ownerReferences ?? []),
                controllerReference(machine),
              ],
            },
          },
        }),
      );
      continue;
    }
    const providerID = (infra as { spec?: { providerID?: string } } | undefined)?.spec?.providerID;
    if (providerID && machine.spec.providerID !== providerID) {
      move(`Machine ${name}: providerID from AWSMachine`, (c) =>
        c.patchSpec(machine, { providerID }),
      );
    } else if (providerID && machine.status?.phase !== 'Running') {
      move(`Machine ${name}: Running`, (c) => c.patchStatus(machine, { phase: 'Running' }));
    }
  }
  return moves;
}

function createCapiMachine(c: Cluster, set: CapiMachineSet, name: string): void {
  const template = set.spec.template;
  const ref = template.spec.infrastructureRef;
  const source: (KubeObject & { spec?: { template?: { spec?: unknown } } }) | undefined = c.get(
    `${INFRA_GROUP}/${ref.kind}/${ref.name}`,
  );
  if (!source) throw new Error(`Cluster API: no ${ref.kind} ${ref.name}`);
  const machine = c.create({
    apiVersion: set.apiVersion,
    kind: 'Machine',
    metadata: {
      name,
      namespace: CAPI_NAMESPACE,
      labels: { ...template.metadata?.labels },
      ownerReferences: [controllerReference(set)],
    },
    spec: {
      ...structuredClone(template.spec),
      infrastructureRef: { ...ref, kind: 'AWSMachine', name },
    },
  } as CapiMachine);
  c.create({
    apiVersion: source.apiVersion,
    kind: 'AWSMachine',
    metadata: {
      name,
      namespace: CAPI_NAMESPACE,
      labels: { ...template.metadata?.labels },
      ownerReferences: [controllerReference(machine)],
    },
    spec: structuredClone(source.spec?.template?.spec ?? {}),
  } as KubeObject);
}

// --- CAPA (cluster-api-provider-aws controllers/awsmachine_controller.go) ----------------------

function awsProviderMoves(state: State): Move[] {
  const moves: Move[] = [];
  for (const infra of infraMachines(state)) {
    const name = infra.metadata.name;
    const move = (label: string, run: (c: Cluster) => void) =>
      moves.push({ actor: 'capa', label: `CAPA: AWSMachine ${name}: ${label}`, run });
    // GetOwnerMachine: nothing happens until the owner Machine exists.
    const owner = infra.metadata.ownerReferences?.find((r) => r.kind === 'Machine');
    if (!owner || !state.objects[`${CAPI_GROUP}/Machine/${owner.name}`]) continue;
    // No finalizer before the Paused condition: CAPA adds it in reconcileNormal.
    const gate = clusterApiGate(infra, undefined);
    if (gate === 'paused') continue;
    if (gate) {
      move('Paused condition', gate);
      continue;
    }
    const spec = (infra as { spec?: { providerID?: string } }).spec;
    if (isDeleting(infra)) {
      if (!has(infra, AWS_MACHINE_FINALIZER)) continue;
      move('terminates its instance and removes its finalizer', (c) => {
        if (c.state.instances[name]) instanceDeleted(c, name, 'ClusterAPI');
        c.removeFinalizer(infra, AWS_MACHINE_FINALIZER);
      });
    } else if (!has(infra, AWS_MACHINE_FINALIZER)) {
      move('adds its finalizer', (c) => c.addFinalizer(infra, AWS_MACHINE_FINALIZER));
    } else if (!spec?.providerID && !state.instances[name]) {
      move('creates its instance', (c) => {
        c.state.instances[name] = 'ClusterAPI';
        instanceCreated(c, name, 'ClusterAPI');
        c.patchSpec(infra, {
          providerID: providerIdOf(name),
          instanceID: providerIdOf(name).split('/').at(-1),
        });
      });
    }
  }
  return moves;
}

// --- The garbage collector (pkg/controller/garbagecollector) and the reinstall ---------------

function garbageCollectorMoves(state: State): Move[] {
  const uids = new Set(Object.values(state.objects).map((o) => o.metadata.uid));
  const moves: Move[] = [];
  for (const object of Object.values(state.objects)) {
    const refs = object.metadata.ownerReferences ?? [];
    const dangling = refs.filter((r) => !uids.has(r.uid));
    if (!dangling.length) continue;
    const label = `${object.kind} ${object.metadata.name}`;
    if (dangling.length === refs.length) {
      if (isDeleting(object)) continue;
      moves.push({
        actor: 'garbage-collector',
        label: `garbage collector: deletes ${object.apiVersion.split('/')[0]} ${label}, its owner is gone`,
        run: (c) => c.delete(object),
      });
    } else {
      moves.push({
        actor: 'garbage-collector',
        label: `garbage collector: drops ${label}'s references to owners that are gone`,
        run: (c) =>
          c.write(object, {
            type: 'merge',
            body: { metadata: { ownerReferences: refs.filter((r) => uids.has(r.uid)) } },
          }),
      });
    }
  }
  return moves;
}

const reinstall: Move = {
  actor: 'administrator',
  label: 'administrator: installs the controller again',
  run: (c) => {
    c.state.installed = true;
  },
};

// --- What the checks read of a step ---------------------------------------------------------

/** The instance events of the step being taken, read by the checks (invariants.ts). */
export interface InstanceEvent {
  name: string;
  what: 'created' | 'deleted';
  by: Authority;
}

const events = new WeakMap<Cluster, InstanceEvent[]>();

function instanceCreated(c: Cluster, name: string, by: Authority): void {
  events.set(c, [...(events.get(c) ?? []), { name, what: 'created', by }]);
}

function instanceDeleted(c: Cluster, name: string, by: Authority): void {
  delete c.state.instances[name];
  events.set(c, [...(events.get(c) ?? []), { name, what: 'deleted', by }]);
}

export const instanceEvents = (c: Cluster): InstanceEvent[] => events.get(c) ?? [];
