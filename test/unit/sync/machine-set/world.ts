// An in-memory stand-in for the objects of one MachineSet, applying planned steps
// the way the API server would (uids, generations, finalizers, deletion), so the
// pure plan can be driven to convergence in unit tests.
import type {
  CapiMachine,
  CapiMachineSet,
  Infrastructure,
  KubeObject,
  MachineTemplate,
  MapiMachine,
  MapiMachineSet,
} from '../../../../src/api/types.js';
import type { PlatformConverter } from '../../../../src/conversion/types.js';
import { planMachineSetHandshake } from '../../../../src/migration/machine-set.js';
import type { MachineSetObserved } from '../../../../src/sync/machine-set/observed.js';
import { planMachineSetSync, type Step } from '../../../../src/sync/machine-set/plan.js';
import isEqual from 'lodash/isEqual.js';
import { CAPI_MACHINE_SET_FINALIZER, PAUSED_ANNOTATION } from '../../../../src/model/markers.js';
import { pointsAt } from '../../../../src/sync/machine-set/templates.js';
import { applyPatch } from '../../../support/patch.js';

export const MAPI_NS = 'openshift-machine-api';
export const CAPI_NS = 'openshift-cluster-api';
export const NOW = '2026-01-01T00:00:00.000Z';

/** A converter for a made-up platform: the providerSpec value is the template spec. */
export const fakeConverter: PlatformConverter = {
  platform: 'Fake',
  providerSpecKind: 'FakeProviderSpec',
  template: {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'FakeMachineTemplate',
    plural: 'fakemachinetemplates',
  },
  toCapi(value, context) {
    // Any JSON, as a real converter takes it (a MachineSet without spec has no value).
    const spec = (value ?? {}) as {
      kind?: string;
      size?: unknown;
      zone?: string;
      userData?: string;
    };
    if (typeof spec.size !== 'string') {
      return { ok: false, errors: [{ path: `${context.path}.size`, message: 'is required' }] };
    }
    return {
      ok: true,
      value: {
        templateSpec: { size: spec.size },
        ...(spec.zone ? { failureDomain: spec.zone } : {}),
        ...(spec.userData ? { userDataSecretName: spec.userData } : {}),
      },
      warnings: spec.size === 'lossy' ? ['size "lossy" loses precision'] : [],
    };
  },
  toMapi(value, context) {
    const spec = (value ?? {}) as { size?: unknown };
    if (typeof spec.size !== 'string') {
      return { ok: false, errors: [{ path: `${context.path}.size`, message: 'is required' }] };
    }
    return {
      ok: true,
      value: {
        kind: 'FakeProviderSpec',
        size: spec.size,
        ...(context.failureDomain ? { zone: context.failureDomain } : {}),
        ...(context.userDataSecretName ? { userData: context.userDataSecretName } : {}),
      },
      warnings: [],
    };
  },
};

export const infrastructure: Infrastructure = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'Infrastructure',
  metadata: { name: 'cluster', uid: 'infra-uid' },
  status: { infrastructureName: 'demo-abc12', platformStatus: { type: 'Fake' } },
};

export function mapiMachineSet(
  name = 'worker-a',
  /** null: status.authoritativeAPI not set yet. */
  authoritativeAPI: 'MachineAPI' | 'ClusterAPI' | 'Migrating' | null = 'MachineAPI',
  size = 'large',
): MapiMachineSet {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    metadata: {
      name,
      namespace: MAPI_NS,
      uid: `uid-mapi-${name}`,
      generation: 1,
      resourceVersion: '1',
      labels: { 'machine.openshift.io/cluster-api-cluster': 'demo-abc12' },
    },
    spec: {
      replicas: 2,
      selector: { matchLabels: { 'machine.openshift.io/cluster-api-machineset': name } },
      template: {
        metadata: {
          labels: {
            'machine.openshift.io/cluster-api-machineset': name,
            'machine.openshift.io/cluster-api-machine-role': 'worker',
          },
        },
        spec: {
          providerSpec: {
            value: { kind: 'FakeProviderSpec', size, zone: 'zone-a', userData: 'worker-user-data' },
          },
        },
      },
    },
    status: {
      replicas: 2,
      readyReplicas: 1,
      availableReplicas: 1,
      observedGeneration: 1,
      ...(authoritativeAPI ? { authoritativeAPI } : {}),
    },
  };
}

/** Where one object lives in a model. */
export interface Slot {
  get(): KubeObject | undefined;
  set(value: KubeObject | undefined): void;
}

/**
 * The Machines of the MachineSet and their controllers, modelled beside the world (by
 * default there are none). Their objects take writes through `World.write`.
 */
export interface MachinesModel {
  /** The Machines as the MachineSet plan observes them. */
  observed(): { mapi: MapiMachine[]; capi: CapiMachine[] };
  /** Where a Machine-side object lives; undefined for objects that are not the model's. */
  slotOf(object: KubeObject): Slot | undefined;
  /** The Machine controllers react to the last write. */
  act(): void;
}

export class World {
  mapi?: MapiMachineSet;
  mirror?: CapiMachineSet;
  templates: MachineTemplate[] = [];
  cluster?: KubeObject;
  infrastructure?: Infrastructure = infrastructure;
  converter?: PlatformConverter = fakeConverter;
  events: { reason: string; message: string }[] = [];
  writes = 0;
  /** Whether Cluster API's MachineSet controller acts on the mirror (it needs the Cluster too). */
  clusterApi = true;
  /** Whether machine-api-operator's MachineSet controller acts on the MAPI MachineSet. */
  machineApiOperator = true;
  /** Whether the migration handshake plans before the sync, as in the controller (off: the sync alone). */
  migration = false;
  /** The MachineSet's Machines; none when unset. */
  machines?: MachinesModel;
  /** Other CAPI MachineSets in the CAPI namespace (someone else's), which may use our templates. */
  otherMachineSets: CapiMachineSet[] = [];
  private counter = 0;

  constructor(mapi?: MapiMachineSet) {
    this.mapi = mapi;
  }

  observe(): MachineSetObserved {
    return {
      mapiNamespace: MAPI_NS,
      capiNamespace: CAPI_NS,
      name: this.mapi?.metadata.name ?? this.mirror?.metadata.name ?? 'worker-a',
      mapi: this.mapi,
      mirror: this.mirror,
      templates: this.templates,
      templateUsers: Object.fromEntries(
        this.templates.map((t) => [
          t.metadata.name,
          [...(this.mirror ? [this.mirror] : []), ...this.otherMachineSets].filter((ms) =>
            pointsAt(ms, t),
          ),
        ]),
      ),
      cluster: this.cluster,
      infrastructure: this.infrastructure,
      converter: this.converter,
      platform: this.infrastructure?.status?.platformStatus?.type,
      ...(this.machines ? { machines: this.machines.observed() } : {}),
      now: NOW,
    };
  }

  plan(): Step {
    const observed = this.observe();
    return (
      (this.migration ? planMachineSetHandshake(observed) : undefined) ??
      planMachineSetSync(observed)
    );
  }

  /** Runs the plan to completion; returns the steps taken. Throws if it does not settle. */
  converge(maxSteps = 30): Step[] {
    const steps: Step[] = [];
    for (let i = 0; i < maxSteps; i++) {
      const step = this.plan();
      if (step.kind === 'done') return steps;
      this.apply(step);
      steps.push(step);
    }
    throw new Error(
      `plan did not settle: ${steps.map((s) => s.kind + ' ' + ('note' in s ? s.note : '')).join(' | ')}`,
    );
  }

  /** Applies a step as the API server would, then lets the other controllers react. */
  apply(step: Step): void {
    if (step.kind === 'done') return;
    this.write(step);
    this.othersAct();
  }

  /** Applies a step as the API server would; nobody reacts yet. */
  write(step: Step): void {
    if (step.kind === 'done') return;
    this.writes++;
    const object = structuredClone(step.object);
    const slot = this.slotOf(object);
    const existing = slot.get();
    if (step.kind === 'create') {
      if (existing) throw new Error(`409: ${object.metadata.name} exists`);
      object.metadata.uid = `uid-${object.kind}-${object.metadata.name}-${++this.counter}`;
      object.metadata.generation = 1;
      object.metadata.resourceVersion = String(++this.counter);
      slot.set(object);
    } else if (step.kind === 'delete') {
      if (!existing) return;
      if (existing.metadata.finalizers?.length) {
        existing.metadata.deletionTimestamp ??= NOW;
        existing.metadata.resourceVersion = String(++this.counter);
      } else {
        slot.set(undefined);
      }
    } else {
      if (!existing) throw new Error(`404: ${object.metadata.name}`);
      const incoming = (
        step.kind === 'patch' ? applyPatch(existing, step.patch) : object
      ) as KubeObject & {
        spec?: unknown;
        status?: unknown;
      };
      if (existing.metadata.resourceVersion !== incoming.metadata.resourceVersion) {
        throw new Error(`409: stale resourceVersion for ${object.metadata.name}`);
      }
      const next = structuredClone(existing) as KubeObject & { spec?: unknown; status?: unknown };
      if (step.kind === 'patch' && step.subresource === 'status') {
        checkMapiStatusRules(existing, incoming);
        next.status = incoming.status;
      } else {
        if (!isEqual(next.spec, incoming.spec)) {
          next.metadata.generation = (next.metadata.generation ?? 0) + 1;
        }
        next.spec = incoming.spec;
        next.metadata = { ...incoming.metadata, generation: next.metadata.generation };
      }
      next.metadata.resourceVersion = String(++this.counter);
      if (next.metadata.deletionTimestamp && !next.metadata.finalizers?.length) {
        slot.set(undefined);
      } else {
        slot.set(next);
      }
    }
    for (const event of step.events ?? []) this.events.push(event);
  }

  /** The other controllers react to the last write (and to changes made by tests). */
  othersAct(): void {
    if (this.clusterApi) this.clusterApiActs();
    if (this.machineApiOperator) this.machineApiOperatorActs();
    this.machines?.act();
  }

  /**
   * machine-api-operator's MachineSet controller with the MachineAPIMigration
   * gate: it copies spec.authoritativeAPI into an empty status and sets its
   * Paused condition from status.authoritativeAPI.
   */
  private machineApiOperatorActs(): void {
    const mapi = this.mapi;
    if (!mapi || mapi.metadata.deletionTimestamp) return;
    const status = (mapi.status ??= {});
    let changed = false;
    if (!status.authoritativeAPI) {
      // The CRD admits a MachineSet without spec; Go reads it as the zero value.
      status.authoritativeAPI = mapi.spec?.authoritativeAPI ?? 'MachineAPI';
      changed = true;
    }
    const paused = status.authoritativeAPI !== 'MachineAPI';
    const wanted = paused ? 'True' : 'False';
    const conditions = status.conditions ?? [];
    if (conditions.find((c) => c.type === 'Paused')?.status !== wanted) {
      status.conditions = [
        ...conditions.filter((c) => c.type !== 'Paused'),
        {
          type: 'Paused',
          status: wanted,
          reason: paused ? 'AuthoritativeAPINotMachineAPI' : 'AuthoritativeAPIMachineAPI',
          lastTransitionTime: NOW,
        },
      ];
      changed = true;
    }
    if (changed) mapi.metadata.resourceVersion = String(++this.counter);
  }

  /**
   * Cluster API's MachineSet controller, as read in its v1.13 source: once the
   * Cluster exists it adds its finalizer (paused or not) and sets its Paused
   * condition from the paused annotation; it removes its finalizer only when it
   * finishes deleting an unpaused MachineSet.
   */
  private clusterApiActs(): void {
    const mirror = this.mirror;
    if (!mirror || !this.cluster) return;
    const finalizers = mirror.metadata.finalizers ?? [];
    const paused = mirror.metadata.annotations?.[PAUSED_ANNOTATION] !== undefined;
    if (mirror.metadata.deletionTimestamp) {
      if (paused || !finalizers.includes(CAPI_MACHINE_SET_FINALIZER)) return;
      mirror.metadata.finalizers = finalizers.filter((f) => f !== CAPI_MACHINE_SET_FINALIZER);
      mirror.metadata.resourceVersion = String(++this.counter);
      if (!mirror.metadata.finalizers.length) this.slotOf(mirror).set(undefined);
      return;
    }
    if (!finalizers.includes(CAPI_MACHINE_SET_FINALIZER)) {
      mirror.metadata.finalizers = [...finalizers, CAPI_MACHINE_SET_FINALIZER];
      mirror.metadata.resourceVersion = String(++this.counter);
    }
    const conditions = mirror.status?.conditions ?? [];
    const current = conditions.find((c) => c.type === 'Paused');
    const wanted = {
      type: 'Paused',
      status: paused ? 'True' : 'False',
      reason: paused ? 'Paused' : 'NotPaused',
      message: paused ? 'MachineSet has the cluster.x-k8s.io/paused annotation' : '',
      observedGeneration: mirror.metadata.generation,
    } as const;
    if (
      current &&
      isEqual(
        { ...current, lastTransitionTime: undefined },
        { ...wanted, lastTransitionTime: undefined },
      )
    )
      return;
    mirror.status = {
      ...mirror.status,
      conditions: [
        ...conditions.filter((c) => c.type !== 'Paused'),
        { ...wanted, lastTransitionTime: NOW },
      ],
    };
    mirror.metadata.resourceVersion = String(++this.counter);
  }

  private slotOf(object: KubeObject): Slot {
    const machineSide = this.machines?.slotOf(object);
    if (machineSide) return machineSide;
    if (object.apiVersion.startsWith('machine.openshift.io/')) {
      return {
        get: () => this.mapi,
        set: (v) => (this.mapi = v as MapiMachineSet | undefined),
      };
    }
    if (object.apiVersion.startsWith('cluster.x-k8s.io/') && object.kind === 'MachineSet') {
      return {
        get: () => this.mirror,
        set: (v) => {
          const before = this.mirror;
          this.mirror = v as CapiMachineSet | undefined;
          if (before && !v) this.collectGarbage(before);
        },
      };
    }
    const name = object.metadata.name;
    return {
      get: () => this.templates.find((t) => t.metadata.name === name),
      set: (v) => {
        this.templates = this.templates.filter((t) => t.metadata.name !== name);
        if (v) this.templates.push(v as MachineTemplate);
      },
    };
  }

  /** Like the garbage collector: dependents whose only owner went away go too. */
  private collectGarbage(owner: KubeObject): void {
    this.templates = this.templates.flatMap((t) => {
      const refs = t.metadata.ownerReferences ?? [];
      if (!refs.some((r) => r.uid === owner.metadata.uid)) return [t];
      const rest = refs.filter((r) => r.uid !== owner.metadata.uid);
      return rest.length ? [{ ...t, metadata: { ...t.metadata, ownerReferences: rest } }] : [];
    });
  }
}

/** The MAPI CRD's validation rules on status, as the API server enforces them. */
function checkMapiStatusRules(existing: KubeObject, incoming: KubeObject): void {
  if (!existing.apiVersion.startsWith('machine.openshift.io/')) return;
  const before = (existing as MapiMachineSet).status ?? {};
  const after = (incoming as MapiMachineSet).status ?? {};
  const [from, to] = [before.authoritativeAPI, after.authoritativeAPI];
  if (from && to !== from && to !== 'Migrating' && from !== 'Migrating') {
    throw new Error(`422: authoritativeAPI must not go from ${from} to ${to} directly`);
  }
  if (from && !to) throw new Error('422: authoritativeAPI must not be removed');
  const lowered = (after.synchronizedGeneration ?? 0) < (before.synchronizedGeneration ?? 0);
  if (lowered && !(from === 'Migrating' && to !== 'Migrating')) {
    throw new Error('422: synchronizedGeneration must not decrease');
  }
}

/** Shapes of a MAPI object that its CRD admits and that the planners must survive. */
export const ADMITTED_SHAPES: [name: string, change: (object: KubeObject) => void][] = [
  ['without spec', (o) => delete (o as { spec?: unknown }).spec],
  ['without status', (o) => delete (o as { status?: unknown }).status],
  ['without metadata.labels', (o) => delete o.metadata.labels],
  [
    'without spec, status or labels',
    (o) => {
      delete (o as { spec?: unknown; status?: unknown }).spec;
      delete (o as { status?: unknown }).status;
      delete o.metadata.labels;
    },
  ],
];
