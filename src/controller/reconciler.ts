// Reconciles one MAPI MachineSet (by name): the migration handshake first, then the sync, on
// what the caches hold of both sides, the templates, the cluster and the MachineSet's Machines.
import type {
  CapiMachine,
  CapiMachineSet,
  Infrastructure,
  KubeObject,
  MachineTemplate,
  MapiMachine,
  MapiMachineSet,
} from '../api/types.js';
import type { PlatformConverter } from '../conversion/types.js';
import {
  CAPI_CLUSTER,
  CAPI_MACHINE_SET,
  INFRASTRUCTURE_NAME,
  MAPI_MACHINE,
  MAPI_MACHINE_SET,
  type Resource,
} from '../kube/resources.js';
import { planMigration } from '../migration/plan.js';
import { SOURCE_ANNOTATION } from '../model/markers.js';
import { prefixOfTemplateName, templateNamePrefix } from '../model/naming.js';
import type { Observed } from '../sync/machine-set/observed.js';
import { planNext } from '../sync/machine-set/plan.js';
import { Reason } from '../sync/conditions.js';
import { ourTemplates, pointsAt, type TemplateUsers } from '../sync/machine-set/templates.js';
import {
  handshakeFirst,
  StepReconciler,
  type RefusalReasons,
  type CachedResource,
  type ObjectCache,
  type StepReconcilerOptions,
} from './step-reconciler.js';

export type { ObjectCache, ReconcileResult } from './step-reconciler.js';

export interface ReconcilerCaches {
  mapiMachineSets: ObjectCache<MapiMachineSet>;
  capiMachineSets: ObjectCache<CapiMachineSet>;
  clusters: ObjectCache<KubeObject>;
  infrastructures: ObjectCache<Infrastructure>;
  /** The template cache of the platform's kind, once the platform is known. */
  templates(converter: PlatformConverter): ObjectCache<MachineTemplate> | undefined;
  /** Machines on both sides, when the controller mirrors them. */
  mapiMachines?: ObjectCache<MapiMachine>;
  capiMachines?: ObjectCache<CapiMachine>;
}

export interface ReconcilerOptions extends StepReconcilerOptions {
  mapiNamespace: string;
  capiNamespace: string;
  /** Overrides the Infrastructure's platform. */
  platform?: string;
  caches: ReconcilerCaches;
  converterFor: (platform: string | undefined) => PlatformConverter | undefined;
  /** Runs the migration handshake before the sync (default); off where OpenShift's own runs. */
  migration?: boolean;
  now: () => Date;
}

/** The resource of a platform's infrastructure kind (template or machine). */
export function infrastructureResource(type: {
  apiVersion: string;
  kind: string;
  plural: string;
}): Resource {
  const [group = '', version = ''] = type.apiVersion.split('/');
  return { group, version, plural: type.plural, kind: type.kind, namespaced: true };
}

/** The objects whose controller (owner reference with controller: true) has this uid. */
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

export function controlledBy<T extends KubeObject>(objects: T[], uid: string | undefined): T[] {
  if (!uid) return [];
  return objects.filter((o) =>
    o.metadata.ownerReferences?.some((r) => r.controller && r.uid === uid),
  );
}

/** Reconciles one MachineSet by name: the handshake first, then the sync. */
export type Reconciler = StepReconciler<Observed>;

const MACHINE_SET_REFUSALS: RefusalReasons = {
  mapi: Reason.MapiUpdateFailed,
  capiCreate: Reason.CreateFailed,
  capi: Reason.UpdateFailed,
  infrastructure: Reason.TemplateUpdateFailed,
};

/** Which platform the cluster runs on: the override, else the Infrastructure's. */
export function clusterPlatform(
  infrastructures: ObjectCache<Infrastructure>,
  override: string | undefined,
): string | undefined {
  const infrastructure = infrastructures.get(INFRASTRUCTURE_NAME);
  return (
    override ?? infrastructure?.status?.platformStatus?.type ?? infrastructure?.status?.platform
  );
}

/** What the MachineSet plans read: both sides, the templates, the cluster, the Machines. */
export function observeMachineSet(options: ReconcilerOptions, name: string): Observed | undefined {
  const { caches, mapiNamespace, capiNamespace } = options;
  const infrastructure = caches.infrastructures.get(INFRASTRUCTURE_NAME);
  const platform = clusterPlatform(caches.infrastructures, options.platform);
  const converter = options.converterFor(platform);
  const templateCache = converter ? caches.templates(converter) : undefined;
  if (converter && !templateCache?.hasSynced()) return undefined;
  const clusterName = infrastructure?.status?.infrastructureName;
  const mapi = caches.mapiMachineSets.get(`${mapiNamespace}/${name}`);
  const mirror = caches.capiMachineSets.get(`${capiNamespace}/${name}`);
  const templates = templateCache ? templatesFor(templateCache, capiNamespace, name, mirror) : [];
  return {
    mapiNamespace,
    capiNamespace,
    name,
    mapi,
    mirror,
    templates,
    templateUsers: templateUsersOf(caches.capiMachineSets, templates, name),
    cluster: clusterName ? caches.clusters.get(`${capiNamespace}/${clusterName}`) : undefined,
    infrastructure,
    converter,
    platform,
    machines: {
      mapi: machinesOf(caches.mapiMachines, name, mapi?.metadata.uid),
      capi: machinesOf(caches.capiMachines, name, mirror?.metadata.uid),
    },
    now: options.now().toISOString(),
  };
}

/** The resources a MachineSet's steps write, with their caches. */
function writableByMachineSet(caches: ReconcilerCaches, observed: Observed): CachedResource[] {
  const list: CachedResource[] = [
    { resource: MAPI_MACHINE_SET, cache: caches.mapiMachineSets },
    { resource: CAPI_MACHINE_SET, cache: caches.capiMachineSets },
    { resource: CAPI_CLUSTER },
    { resource: MAPI_MACHINE, cache: caches.mapiMachines },
  ];
  const { converter } = observed;
  if (converter) {
    list.push({
      resource: infrastructureResource(converter.template),
      cache: caches.templates(converter),
    });
  }
  return list;
}

export function machineSetReconciler(options: ReconcilerOptions): Reconciler {
  return new StepReconciler<Observed>(
    {
      subject: 'machineSet',
      observe: (name) => observeMachineSet(options, name),
      plan: handshakeFirst(options.migration, planMigration, planNext),
      writable: (observed) => writableByMachineSet(options.caches, observed),
      reportedOn: (observed) => observed.mapi,
      refusalReasons: MACHINE_SET_REFUSALS,
    },
    options,
  );
}
