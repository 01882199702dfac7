// Reconciles one MAPI MachineSet (by name): the migration handshake first, then the sync, on
// what the caches hold of both sides, the templates, the cluster and the MachineSet's Machines.
import type {
  CapiMachine,
  CapiMachineSet,
  KubeObject,
  MachineTemplate,
  MapiMachine,
  MapiMachineSet,
} from '../api/types.js';
import type { PlatformConverter } from '../conversion/types.js';
import {
  CAPI_CLUSTER,
  CAPI_MACHINE_SET,
  MAPI_MACHINE,
  MAPI_MACHINE_SET,
} from '../kube/resources.js';
import { planMachineSetMigration } from '../migration/plan.js';
import { SOURCE_ANNOTATION } from '../model/markers.js';
import { prefixOfTemplateName, templateNamePrefix } from '../model/naming.js';
import type { Observed } from '../sync/machine-set/observed.js';
import { planMachineSet } from '../sync/machine-set/plan.js';
import { Reason } from '../sync/conditions.js';
import { ourTemplates, pointsAt, type TemplateUsers } from '../sync/machine-set/templates.js';
import {
  mirrorReconciler,
  type ClusterCaches,
  type MirrorKind,
  type MirrorReconcilerOptions,
} from './mirror-reconciler.js';
import type { ObjectCache, StepReconciler } from '../runtime/step-reconciler.js';

export type { ObjectCache } from '../runtime/step-reconciler.js';

export interface ReconcilerCaches extends ClusterCaches {
  mapiMachineSets: ObjectCache<MapiMachineSet>;
  capiMachineSets: ObjectCache<CapiMachineSet>;
  /** The template cache of the platform's kind, once the platform is known. */
  templates(converter: PlatformConverter): ObjectCache<MachineTemplate> | undefined;
  /** Machines on both sides, when the controller mirrors them. */
  mapiMachines?: ObjectCache<MapiMachine>;
  capiMachines?: ObjectCache<CapiMachine>;
}

export type ReconcilerOptions = MirrorReconcilerOptions<ReconcilerCaches>;

/** Index of templates by the MachineSet named in their source annotation (ours). */
export const TEMPLATES_BY_SOURCE = 'source';
/** Index of templates by their name without the spec hash (any template under a MachineSet's names). */
export const TEMPLATES_BY_NAME_PREFIX = 'namePrefix';
/** Index of Machines by the name of the MachineSet that controls them. */
export const MACHINES_BY_MACHINE_SET = 'machineSet';
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

export const templateSourceOf = (template: MachineTemplate): string[] => {
  const source = template.metadata.annotations?.[SOURCE_ANNOTATION];
  return source ? [source] : [];
};

export const templateNamePrefixOf = (template: MachineTemplate): string[] => {
  const prefix = prefixOfTemplateName(template.metadata.name);
  return prefix ? [prefix] : [];
};

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

/** Reconciles one MachineSet by name: the handshake first, then the sync. */
export type Reconciler = StepReconciler<Observed>;

/** MachineSets: the MAPI MachineSet, its CAPI mirror and the platform's machine template. */
export const MACHINE_SET_MIRROR: MirrorKind<Observed, ReconcilerCaches, MachineTemplate> = {
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
  handshake: planMachineSetMigration,
  sync: planMachineSet,
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

export function machineSetReconciler(options: ReconcilerOptions): Reconciler {
  return mirrorReconciler(MACHINE_SET_MIRROR, options);
}
