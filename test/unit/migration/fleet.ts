// The Machines of the world's MachineSet, each a MAPI Machine, a CAPI Machine and an
// infrastructure machine, with the controllers that act on them: machine-api-operator's
// Machine controller, Cluster API's Machine controller, the provider's finalizer rule, a
// stand-in for the Machine sync, and each Machine's own migration handshake
// (planMachineHandshake).
import type {
  CapiMachine,
  InfrastructureMachine,
  KubeObject,
  MapiCondition,
  MapiMachine,
} from '../../../src/api/types.js';
import { planMachineHandshake } from '../../../src/migration/machine.js';
import type { MachineObserved } from '../../../src/sync/machine/observed.js';
import { AUTHORITY_ANNOTATION, PAUSED_ANNOTATION } from '../../../src/model/markers.js';
import type { Step } from '../../../src/sync/steps.js';
import {
  CAPI_NS,
  MAPI_NS,
  NOW,
  type MachinesModel,
  type Slot,
  type World,
} from '../sync/machine-set/world.js';

type Authority = 'MachineAPI' | 'ClusterAPI';

/** The fake platform's infrastructure machine and instance object, with their providers' finalizers. */
export const FAKE_MACHINE = {
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
  kind: 'FakeMachine',
  plural: 'fakemachines',
  finalizer: 'fakemachine.infrastructure.cluster.x-k8s.io',
  identity: () => ({ ok: true as const, value: {}, warnings: [] }),
  instance: {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha1',
    kind: 'FakeServer',
    plural: 'fakeservers',
    finalizer: 'fakeserver.infrastructure.cluster.x-k8s.io',
  },
};

export class Fleet implements MachinesModel {
  readonly mapi = new Map<string, MapiMachine>();
  readonly capi = new Map<string, CapiMachine>();
  readonly infra = new Map<string, InfrastructureMachine>();
  /** The provider's instance objects (FakeServer), made by the test where it wants one. */
  readonly servers = new Map<string, KubeObject>();
  /** Whether each Machine's reconciler runs its handshake. */
  handshakes = true;
  /** Whether machine-api-operator's Machine controller acts. */
  machineApiOperator = true;
  /** Whether Cluster API's Machine controller acts. */
  clusterApi = true;
  /** Whether the provider acts (adds its finalizer to what is unpaused, as CAPA's reconcileNormal). */
  provider = true;
  /** Machines whose sync fails, with the message it reports. */
  readonly broken = new Map<string, string>();
  /** Machines the sync has not reached yet: it writes nothing for them. */
  readonly unsynced = new Set<string>();
  private counter = 0;

  constructor(private readonly world: World) {
    world.machines = this;
  }

  /** A Machine of the MachineSet, fully synchronized under `authority`. */
  add(name: string, authority: Authority = 'MachineAPI'): void {
    const paused = authority === 'MachineAPI';
    this.mapi.set(name, {
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'Machine',
      metadata: { name, namespace: MAPI_NS, uid: `uid-mapi-machine-${name}`, generation: 1 },
      spec: { authoritativeAPI: authority, providerSpec: { value: { size: 'large' } } },
      status: {},
    });
    this.capi.set(name, {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Machine',
      metadata: {
        name,
        namespace: CAPI_NS,
        uid: `uid-capi-machine-${name}`,
        generation: 1,
        annotations: {
          [AUTHORITY_ANNOTATION]: authority,
          ...(paused ? { [PAUSED_ANNOTATION]: 'true' } : {}),
        },
      },
      spec: {
        clusterName: 'demo-abc12',
        bootstrap: { dataSecretName: 'worker-user-data' },
        infrastructureRef: {
          apiGroup: 'infrastructure.cluster.x-k8s.io',
          kind: 'FakeMachine',
          name,
        },
      },
    });
    this.infra.set(name, {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'FakeMachine',
      metadata: {
        name,
        namespace: CAPI_NS,
        uid: `uid-infra-${name}`,
        generation: 1,
        ...(paused ? { annotations: { [PAUSED_ANNOTATION]: 'true' } } : {}),
      },
      spec: { size: 'large' },
    });
    for (const object of this.objectsOf(name)) this.touch(object);
    this.act();
  }

  observed(): { mapi: MapiMachine[]; capi: CapiMachine[] } {
    return { mapi: [...this.mapi.values()], capi: [...this.capi.values()] };
  }

  observe(name: string): MachineObserved {
    return {
      mapiNamespace: MAPI_NS,
      capiNamespace: CAPI_NS,
      name,
      mapi: this.mapi.get(name),
      mirror: this.capi.get(name),
      infrastructureMachine: this.infra.get(name),
      ...(this.servers.has(name) ? { instanceObject: this.servers.get(name) } : {}),
      mapiMachineSet: this.world.mapi,
      capiMachineSet: this.world.mirror,
      cluster: this.world.cluster,
      infrastructure: this.world.infrastructure,
      ...(this.world.converter
        ? { converter: { ...this.world.converter, machine: FAKE_MACHINE } }
        : {}),
      platform: 'Fake',
      now: NOW,
    };
  }

  /** The next write of one Machine's handshake. */
  plan(name: string): Step | undefined {
    return planMachineHandshake(this.observe(name));
  }

  slotOf(object: KubeObject): Slot | undefined {
    const name = object.metadata.name;
    const map =
      object.kind === 'FakeMachine'
        ? this.infra
        : object.kind === 'FakeServer'
          ? this.servers
          : object.kind !== 'Machine'
            ? undefined
            : object.apiVersion.startsWith('machine.openshift.io/')
              ? this.mapi
              : this.capi;
    if (!map) return undefined;
    const objects = map;
    return {
      get: () => objects.get(name),
      set: (value) => (value ? objects.set(name, value) : objects.delete(name)),
    };
  }

  /** The Machine controllers react until nothing changes any more. */
  act(): void {
    for (let round = 0; round < 100; round++) {
      const before = this.counter + this.world.writes;
      for (const name of this.mapi.keys()) {
        if (this.machineApiOperator) this.machineApiOperatorActs(name);
        if (this.clusterApi) this.clusterApiActs(name);
        if (this.provider) this.providerActs(name);
        this.syncActs(name);
        const step = this.handshakes ? this.plan(name) : undefined;
        if (step && step.kind !== 'done') this.world.write(step);
      }
      if (this.counter + this.world.writes === before) return;
    }
    throw new Error('the Machine controllers did not settle');
  }

  /** Copies spec into an empty status; Paused=True unless status is MachineAPI. */
  private machineApiOperatorActs(name: string): void {
    const machine = this.mapi.get(name)!;
    const status = (machine.status ??= {});
    if (!status.authoritativeAPI) {
      status.authoritativeAPI = machine.spec?.authoritativeAPI ?? 'MachineAPI';
      this.touch(machine);
    }
    const paused = status.authoritativeAPI !== 'MachineAPI';
    this.setCondition(machine, {
      type: 'Paused',
      status: paused ? 'True' : 'False',
      reason: paused ? 'AuthoritativeAPINotMachineAPI' : 'AuthoritativeAPIMachineAPI',
      lastTransitionTime: NOW,
    });
  }

  /** The CAPI Machine's v1beta2 Paused condition from the paused annotation. */
  private clusterApiActs(name: string): void {
    const machine = this.capi.get(name);
    if (!machine) return;
    const paused = machine.metadata.annotations?.[PAUSED_ANNOTATION] !== undefined;
    const wanted = paused ? 'True' : 'False';
    const conditions = machine.status?.conditions ?? [];
    if (conditions.find((c) => c.type === 'Paused')?.status === wanted) return;
    machine.status = {
      ...machine.status,
      conditions: [
        ...conditions.filter((c) => c.type !== 'Paused'),
        {
          type: 'Paused',
          status: wanted,
          reason: paused ? 'Paused' : 'NotPaused',
          message: '',
          lastTransitionTime: NOW,
        },
      ],
    };
    this.touch(machine);
  }

  /** The provider takes an unpaused infrastructure machine or instance object in hand. */
  private providerActs(name: string): void {
    const objects: [KubeObject | undefined, string][] = [
      [this.infra.get(name), FAKE_MACHINE.finalizer],
      [this.servers.get(name), FAKE_MACHINE.instance.finalizer],
    ];
    for (const [object, finalizer] of objects) {
      if (!object || object.metadata.annotations?.[PAUSED_ANNOTATION] !== undefined) continue;
      if (object.metadata.deletionTimestamp || object.metadata.finalizers?.includes(finalizer)) {
        continue;
      }
      object.metadata.finalizers = [...(object.metadata.finalizers ?? []), finalizer];
      this.touch(object);
    }
  }

  /**
   * A stand-in for the Machine sync: outside Migrating it keeps the mirror of a MachineAPI
   * Machine paused and reports Synchronized at the authoritative generation.
   */
  private syncActs(name: string): void {
    const machine = this.mapi.get(name)!;
    const capi = this.capi.get(name);
    const infra = this.infra.get(name);
    const authority = machine.status?.authoritativeAPI;
    if (authority !== 'MachineAPI' && authority !== 'ClusterAPI') return;
    if (this.unsynced.has(name)) return;
    const failure = this.broken.get(name);
    if (failure) {
      this.setCondition(machine, {
        type: 'Synchronized',
        status: 'False',
        reason: 'FailedToConvertMAPIMachineToCAPI',
        message: failure,
        lastTransitionTime: NOW,
      });
      return;
    }
    if (authority === 'MachineAPI') {
      for (const object of [capi, infra]) {
        if (object && object.metadata.annotations?.[PAUSED_ANNOTATION] === undefined) {
          object.metadata.annotations = {
            ...object.metadata.annotations,
            [PAUSED_ANNOTATION]: 'true',
          };
          this.touch(object);
        }
      }
      if (capi && capi.metadata.annotations?.[AUTHORITY_ANNOTATION] !== 'MachineAPI') {
        capi.metadata.annotations = {
          ...capi.metadata.annotations,
          [AUTHORITY_ANNOTATION]: 'MachineAPI',
        };
        this.touch(capi);
      }
    }
    const authoritative = authority === 'MachineAPI' ? machine : capi;
    if (!authoritative) return;
    const generation = authoritative.metadata.generation ?? 0;
    const status = machine.status!;
    if (status.synchronizedGeneration !== generation || status.synchronizedAPI !== authority) {
      status.synchronizedGeneration = generation;
      status.synchronizedAPI = authority;
      this.touch(machine);
    }
    this.setCondition(machine, {
      type: 'Synchronized',
      status: 'True',
      reason: 'ResourceSynchronized',
      lastTransitionTime: NOW,
    });
  }

  private setCondition(machine: MapiMachine, condition: MapiCondition): void {
    const conditions = machine.status?.conditions ?? [];
    const current = conditions.find((c) => c.type === condition.type);
    if (
      current?.status === condition.status &&
      current.reason === condition.reason &&
      current.message === condition.message
    ) {
      return;
    }
    machine.status = {
      ...machine.status,
      conditions: [...conditions.filter((c) => c.type !== condition.type), condition],
    };
    this.touch(machine);
  }

  private objectsOf(name: string): KubeObject[] {
    const objects: (KubeObject | undefined)[] = [
      this.mapi.get(name),
      this.capi.get(name),
      this.infra.get(name),
    ];
    return objects.filter((o): o is KubeObject => o !== undefined);
  }

  private touch(object: KubeObject): void {
    object.metadata.resourceVersion = `fleet-${++this.counter}`;
  }
}
