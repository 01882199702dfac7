// The MachineSet controller, keyed by the MachineSet's name, read top-down: the indexes its
// informers keep, what wakes a MachineSet (its watches), what its plans read of the caches (both
// sides, the templates, the cluster, its Machines), its plans (the migration handshake first, then
// the sync) and writes, and its reconciler.
import isEqual from 'lodash/isEqual.js';
import type {
  CapiMachine,
  CapiMachineSet,
  KubeObject,
  MachineTemplate,
  MapiMachine,
  MapiMachineSet,
} from '../api/types.js';
import type { PlatformConverter } from '../conversion/types.js';
import type { InformerEvent } from '../kube/informer.js';
import {
  CAPI_CLUSTER,
  CAPI_MACHINE_SET,
  MAPI_MACHINE,
  MAPI_MACHINE_SET,
} from '../kube/resources.js';
import { migrationWantedOrUnderWay } from '../migration/handshake.js';
import { planMachineSetHandshake } from '../migration/machine-set.js';
import { CAPI_GROUP_PREFIX, MAPI_GROUP_PREFIX } from '../model/api-groups.js';
import { SOURCE_ANNOTATION } from '../model/markers.js';
import { prefixOfTemplateName, templateNamePrefix } from '../model/naming.js';
import { change, itself, watch, watchKinds, type Controller } from '../runtime/controllers.js';
import type { ObjectCache, StepReconciler } from '../runtime/step-reconciler.js';
import { Reason } from '../sync/conditions.js';
import type { MachineSetObserved } from '../sync/machine-set/observed.js';
import { planMachineSetSync } from '../sync/machine-set/plan.js';
import { ourTemplates, pointsAt, type TemplateUsers } from '../sync/machine-set/templates.js';
import {
  clusterWatches,
  machineName,
  MACHINES_BY_MACHINE_SET,
  mirrorReconciler,
  names,
  owningMachineSetName,
  type ClusterCaches,
  type ReconciledKind,
  type MirrorReconcilerOptions,
  type Sources,
} from './mirror.js';

// The indexes of its informers.

/** Index of templates by the MachineSet named in their source annotation (ours). */
export const TEMPLATES_BY_SOURCE = 'source';
/** Index of templates by their name without the spec hash (any template under a MachineSet's names). */
export const TEMPLATES_BY_NAME_PREFIX = 'namePrefix';
/** Index of CAPI MachineSets by the template they point at (templateRef). */
export const MACHINE_SETS_BY_TEMPLATE = 'template';

/** A template's value in the MACHINE_SETS_BY_TEMPLATE index. */
export const templateRef = (kind: string, name: string) => `${kind}/${name}`;

/** A CAPI MachineSet's values in the MACHINE_SETS_BY_TEMPLATE index: the template its Machines are made from. */
export function templatesOf(machineSet: CapiMachineSet): string[] {
  // Index functions run on every change of the store: whatever the object, they must not throw.
  const ref = (machineSet.spec as CapiMachineSet['spec'] | undefined)?.template?.spec
    ?.infrastructureRef;
  return ref?.name ? [templateRef(ref.kind, ref.name)] : [];
}

/** A template's values in the TEMPLATES_BY_SOURCE index: the MachineSet that made it. */
export const templateSourceOf = (template: MachineTemplate): string[] => {
  const source = template.metadata.annotations?.[SOURCE_ANNOTATION];
  return source ? [source] : [];
};

/** A template's values in the TEMPLATES_BY_NAME_PREFIX index. */
export const templateNamePrefixOf = (template: MachineTemplate): string[] => {
  const prefix = prefixOfTemplateName(template.metadata.name);
  return prefix ? [prefix] : [];
};

// What wakes a MachineSet.

/** MachineSets, keyed by name: the MAPI MachineSet and what mirrors it. */
export function machineSetController(
  sources: Sources,
  reconciler: MachineSetReconciler,
): Controller {
  const { capiNamespace, mapiMachineSets, capiMachineSets, templates } = sources;
  // CAPI MachineSets whose MAPI side is gone still need their finalizer released.
  const all = () => [...names(mapiMachineSets.list()), ...names(capiMachineSets.list())];
  const sourceOf = (kind: string, name: string) =>
    templates.get(kind)?.get(capiNamespace, name)?.metadata.annotations?.[SOURCE_ANNOTATION];
  const usersOf = (ref: string) => names(capiMachineSets.byIndex(MACHINE_SETS_BY_TEMPLATE, ref));
  const readsMachines = (set: string) => {
    const mapi = mapiMachineSets.get(sources.mapiNamespace, set);
    return mapi !== undefined && migrationWantedOrUnderWay(mapi);
  };
  return {
    kind: 'MachineSet',
    key: (name) => name,
    nameOf: (key) => (machineName(key) === undefined ? key : undefined),
    watches: [
      watch(mapiMachineSets, itself),
      watch(capiMachineSets, (e) => [...itself(e), ...machineSetsReleasedBy(e, sourceOf)]),
      watch(sources.mapiMachines, (e) => machineSetOfMachine(e, MAPI_GROUP_PREFIX, readsMachines)),
      watch(sources.capiMachines, (e) => machineSetOfMachine(e, CAPI_GROUP_PREFIX, readsMachines)),
      ...clusterWatches(sources, all),
      watchKinds(templates, (kind) => (e) => machineSetsReadingTemplate(e, kind, usersOf)),
    ],
    all,
    reconcile: (name) => reconciler.reconcile(name, name),
  };
}

/**
 * The templates a change of a CAPI MachineSet stopped pointing at: it points elsewhere now, or it
 * is being deleted or gone.
 */
export function templatesReleased(
  before: CapiMachineSet | undefined,
  after: CapiMachineSet | undefined,
): { kind: string; name: string }[] {
  const live = (ms: CapiMachineSet | undefined) =>
    ms && !ms.metadata.deletionTimestamp ? templatesOf(ms) : [];
  const still = new Set(live(after));
  return live(before)
    .filter((ref) => !still.has(ref))
    .map((ref) => {
      const slash = ref.indexOf('/');
      return { kind: ref.slice(0, slash), name: ref.slice(slash + 1) };
    });
}

/**
 * A CAPI MachineSet that stopped using a template of ours wakes the MachineSet that made it (named
 * in the template's source annotation, `sourceOf`): that one may delete it now.
 */
export function machineSetsReleasedBy(
  event: InformerEvent<CapiMachineSet>,
  sourceOf: (kind: string, name: string) => string | undefined,
): string[] {
  const { before, after } = change(event);
  const self = event.object.metadata.name;
  return templatesReleased(before, after)
    .map(({ kind, name }) => sourceOf(kind, name))
    .filter((source): source is string => !!source && source !== self);
}

/** What a MachineSet's plan (the handshake) reads of one of its Machines. */
function readBySet(machine: KubeObject & { spec?: object; status?: object }) {
  const { generation, deletionTimestamp, ownerReferences } = machine.metadata;
  // A CAPI Machine has none of the MAPI fields: they read as undefined.
  const spec: Partial<MapiMachine['spec']> = machine.spec ?? {};
  const status: NonNullable<MapiMachine['status']> = machine.status ?? {};
  return {
    generation,
    deletionTimestamp,
    ownerReferences,
    wanted: spec.authoritativeAPI,
    authority: status.authoritativeAPI,
    synchronizedGeneration: status.synchronizedGeneration,
    synchronized: status.conditions?.find((c) => c.type === 'Synchronized'),
  };
}

/**
 * The MachineSet to wake for a Machine that changed from `before` to `after` (either absent when
 * it appeared or went): its controlling MachineSet of that group, when that MachineSet's plan
 * reads its Machines now (`readsMachines`: only its migration handshake does) and what it reads
 * of them changed (machine-api-operator rewrites a Machine's status every 20 s for nothing of
 * that).
 */
function machineSetToWake(
  before: KubeObject | undefined,
  after: KubeObject | undefined,
  groupPrefix: string,
  readsMachines: (machineSet: string) => boolean,
): string | undefined {
  const machine = after ?? before;
  const set = machine && owningMachineSetName(machine, groupPrefix);
  if (!set || !readsMachines(set)) return undefined;
  const changed = !before || !after || !isEqual(readBySet(before), readBySet(after));
  return changed ? set : undefined;
}

/** A Machine of that group wakes its MachineSet, when the MachineSet's plan reads the change. */
export function machineSetOfMachine(
  event: InformerEvent<KubeObject>,
  groupPrefix: string,
  readsMachines: (machineSet: string) => boolean,
): string[] {
  const { before, after } = change(event);
  const set = machineSetToWake(before, after, groupPrefix, readsMachines);
  return set ? [set] : [];
}

/**
 * A template wakes the MachineSet that made it (its source annotation) and, someone else's
 * template, the CAPI MachineSets pointing at it (`usersOf` a templateRef), which read it.
 */
export function machineSetsReadingTemplate(
  event: InformerEvent<MachineTemplate>,
  kind: string,
  usersOf: (ref: string) => string[],
): string[] {
  const source = event.object.metadata.annotations?.[SOURCE_ANNOTATION];
  const users = usersOf(templateRef(kind, event.object.metadata.name));
  return [...(source ? [source] : []), ...users.filter((name) => name !== source)];
}

// What its plans read of the caches.

/** The caches a MachineSet's plans read: both sides, the platform's templates, the Machines. */
export interface MachineSetCaches extends ClusterCaches {
  mapiMachineSets: ObjectCache<MapiMachineSet>;
  capiMachineSets: ObjectCache<CapiMachineSet>;
  /** The template cache of the platform's kind, once the platform is known. */
  templates(converter: PlatformConverter): ObjectCache<MachineTemplate> | undefined;
  /** Machines on both sides, when the controller mirrors them. */
  mapiMachines?: ObjectCache<MapiMachine>;
  capiMachines?: ObjectCache<CapiMachine>;
}

/**
 * The templates the plan of MachineSet `name` reads: ours (by source annotation), any under a name
 * we would give (a foreign one that took it is reported), and the one the CAPI MachineSet points
 * at. Found through indexes: a copy of every template per reconcile made a rotation quadratic.
 */
export function templatesFor(
  cache: ObjectCache<MachineTemplate>,
  namespace: string,
  name: string,
  mirror: CapiMachineSet | undefined,
): MachineTemplate[] {
  const prefix = templateNamePrefix(name);
  const refName = mirror?.spec?.template?.spec?.infrastructureRef?.name;
  if (!cache.byIndex) {
    return cache
      .list()
      .filter(
        (t) =>
          templateSourceOf(t).includes(name) ||
          templateNamePrefixOf(t).includes(prefix) ||
          t.metadata.name === refName,
      );
  }
  const found = new Map<string, MachineTemplate>();
  const referenced = refName ? cache.get(`${namespace}/${refName}`) : undefined;
  for (const template of [
    ...cache.byIndex(TEMPLATES_BY_SOURCE, name),
    ...cache.byIndex(TEMPLATES_BY_NAME_PREFIX, prefix),
    ...(referenced ? [referenced] : []),
  ]) {
    found.set(template.metadata.name, template);
  }
  return [...found.values()];
}

/**
 * The CAPI MachineSets that point at each of MachineSet `name`'s own templates, by template name,
 * through the index when there is one.
 */
export function templateUsersOf(
  machineSets: ObjectCache<CapiMachineSet>,
  templates: MachineTemplate[],
  name: string,
): TemplateUsers {
  const users: Record<string, CapiMachineSet[]> = {};
  for (const template of ourTemplates(templates, name)) {
    const found = machineSets.byIndex
      ? machineSets.byIndex(
          MACHINE_SETS_BY_TEMPLATE,
          templateRef(template.kind, template.metadata.name),
        )
      : machineSets.list();
    users[template.metadata.name] = found.filter((ms) => pointsAt(ms, template));
  }
  return users;
}

/** The Machines MachineSet `name` (uid `uid`) controls, through the index when there is one. */
function machinesOf<T extends KubeObject>(
  cache: ObjectCache<T> | undefined,
  name: string,
  uid: string | undefined,
): T[] {
  if (!cache || !uid) return [];
  return controlledBy(cache.byIndex?.(MACHINES_BY_MACHINE_SET, name) ?? cache.list(), uid);
}

/** The objects whose controller (owner reference with controller: true) has this uid. */
function controlledBy<T extends KubeObject>(objects: T[], uid: string | undefined): T[] {
  if (!uid) return [];
  return objects.filter((o) =>
    o.metadata.ownerReferences?.some((r) => r.controller && r.uid === uid),
  );
}

// Its plans and writes; its reconciler.

/** MachineSets: the MAPI MachineSet, its CAPI mirror and the platform's machine template. */
export const MACHINE_SET_KIND: ReconciledKind<
  MachineSetObserved,
  MachineSetCaches,
  MachineTemplate
> = {
  subject: 'machineSet',
  sides: (caches) => ({ mapi: caches.mapiMachineSets, mirror: caches.capiMachineSets }),
  infrastructure: (caches, converter) => ({
    type: converter.template,
    cache: caches.templates(converter),
  }),
  // Besides both sides: the templates, the Machines.
  observe: (caches, observed, templateCache) => {
    const { capiNamespace, name, mapi, mirror } = observed;
    const templates = templateCache ? templatesFor(templateCache, capiNamespace, name, mirror) : [];
    return {
      ...observed,
      templates,
      templateUsers: templateUsersOf(caches.capiMachineSets, templates, name),
      machines: {
        mapi: machinesOf(caches.mapiMachines, name, mapi?.metadata.uid),
        capi: machinesOf(caches.capiMachines, name, mirror?.metadata.uid),
      },
    };
  },
  handshake: planMachineSetHandshake,
  sync: planMachineSetSync,
  writes: (caches) => [
    { resource: MAPI_MACHINE_SET, cache: caches.mapiMachineSets },
    { resource: CAPI_MACHINE_SET, cache: caches.capiMachineSets },
    { resource: CAPI_CLUSTER },
    { resource: MAPI_MACHINE, cache: caches.mapiMachines },
  ],
  refusalReasons: {
    mapi: Reason.MapiUpdateFailed,
    capiCreate: Reason.CreateFailed,
    capi: Reason.UpdateFailed,
    infrastructure: Reason.TemplateUpdateFailed,
  },
};

/** What the MachineSet reconciler is given. */
export type MachineSetReconcilerOptions = MirrorReconcilerOptions<MachineSetCaches>;

/** Reconciles one MachineSet by name: the handshake first, then the sync. */
export type MachineSetReconciler = StepReconciler<MachineSetObserved>;

/** The MachineSet reconciler: the kind above, under the loop every kind shares (mirror.ts). */
export function machineSetReconciler(options: MachineSetReconcilerOptions): MachineSetReconciler {
  return mirrorReconciler(MACHINE_SET_KIND, options);
}
