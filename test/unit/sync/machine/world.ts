// An in-memory stand-in for the objects of one Machine, applying planned steps the way the API
// server would (uids, generations, resourceVersions, finalizers, deletion), so that the pure
// Machine plan can be driven step by step or to convergence.
import isEqual from 'lodash/isEqual.js';
import type {
  CapiMachine,
  CapiMachineSet,
  InfrastructureMachine,
  KubeObject,
  MapiMachine,
  MapiMachineSet,
} from '../../../../src/api/types.js';
import { machineToCapi } from '../../../../src/conversion/machine/to-capi.js';
import { planMachineSync } from '../../../../src/sync/machine/plan.js';
import type { MachineObserved } from '../../../../src/sync/machine/observed.js';
import type { Step } from '../../../../src/sync/steps.js';
import type { PlatformConverter } from '../../../../src/conversion/types.js';
import { applyPatch } from '../../../support/patch.js';
import {
  AWS,
  CAPI_MACHINE_SET,
  CAPI_NAMESPACE,
  CLUSTER,
  workerMachine,
} from '../../conversion/machine/support.js';

export const MAPI_NAMESPACE = 'openshift-machine-api';
export const NOW = '2026-01-01T00:00:00.000Z';
export const NAME = 'worker-a-x7k2p';

type Authority = 'MachineAPI' | 'ClusterAPI' | 'Migrating';

/** The fixture worker Machine as the server stores it, with machine-api-operator's status. */
export function storedMachine(authority: Authority | null = 'MachineAPI'): MapiMachine {
  const machine = workerMachine();
  machine.metadata = {
    ...machine.metadata,
    uid: 'mapi-machine-uid',
    generation: 1,
    resourceVersion: '1',
  };
  machine.status = {
    ...(authority ? { authoritativeAPI: authority } : {}),
    phase: 'Running',
    nodeRef: { kind: 'Node', name: 'ip-10-0-1-7.ec2.internal', uid: 'node-uid' },
    addresses: [{ type: 'InternalIP', address: '10.0.1.7' }],
  };
  return machine;
}

/** The MAPI MachineSet that owns the fixture Machine (uid as in its owner reference). */
export function owningMachineSet(authority: Authority = 'MachineAPI'): MapiMachineSet {
  const set = AWS.machineSet();
  set.metadata = { ...set.metadata, uid: 'mapi-uid' };
  set.status = { ...set.status, authoritativeAPI: authority };
  return set;
}

/**
 * A CAPI Machine and AWSMachine that Cluster API created for the CAPI MachineSet (controlled
 * by it, unpaused), as the fixture Machine converts.
 */
export function capiCreatedMachine(): { machine: CapiMachine; infra: InfrastructureMachine } {
  const result = machineToCapi({
    mapi: workerMachine(),
    infrastructure: AWS.infrastructure,
    converter: AWS.converter,
    capiNamespace: CAPI_NAMESPACE,
    paused: false,
    machineSet: CAPI_MACHINE_SET,
    cluster: CLUSTER,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const { machine, infrastructureMachine } = result.value;
  machine.metadata = {
    ...machine.metadata,
    uid: 'capi-machine-uid',
    generation: 3,
    resourceVersion: '7',
  };
  infrastructureMachine.metadata = {
    ...infrastructureMachine.metadata,
    uid: 'aws-machine-uid',
    resourceVersion: '8',
    ownerReferences: [
      {
        apiVersion: machine.apiVersion,
        kind: machine.kind,
        name: machine.metadata.name,
        uid: 'capi-machine-uid',
        controller: true,
      },
    ],
  };
  return { machine, infra: infrastructureMachine };
}

export class MachineWorld {
  mapi?: MapiMachine;
  mirror?: CapiMachine;
  infra?: InfrastructureMachine;
  /** The provider's instance object (of the converter's machine.instance kind). */
  instance?: KubeObject;
  converter: PlatformConverter = AWS.converter;
  mapiMachineSet?: MapiMachineSet = owningMachineSet();
  capiMachineSet?: CapiMachineSet = CAPI_MACHINE_SET;
  cluster?: KubeObject = CLUSTER;
  writes = 0;
  private counter = 100;

  constructor(mapi?: MapiMachine) {
    this.mapi = mapi;
  }

  observe(): MachineObserved {
    return {
      mapiNamespace: MAPI_NAMESPACE,
      capiNamespace: CAPI_NAMESPACE,
      name: NAME,
      mapi: this.mapi,
      mirror: this.mirror,
      infrastructureMachine: this.infra,
      ...(this.instance ? { instanceObject: this.instance } : {}),
      mapiMachineSet: this.mapiMachineSet,
      capiMachineSet: this.capiMachineSet,
      cluster: this.cluster,
      infrastructure: AWS.infrastructure,
      converter: this.converter,
      platform: AWS.platform,
      now: NOW,
    };
  }

  plan(): Step {
    return planMachineSync(this.observe());
  }

  /** Runs the plan until done; returns the steps taken. Throws if it does not settle. */
  converge(maxSteps = 30): Step[] {
    const steps: Step[] = [];
    for (let i = 0; i < maxSteps; i++) {
      const step = this.plan();
      if (step.kind === 'done') return steps;
      this.apply(step);
      steps.push(step);
    }
    throw new Error(`plan did not settle: ${steps.map((s) => s.note).join(' | ')}`);
  }

  /** Applies a step as the API server would. */
  apply(step: Step): void {
    if (step.kind === 'done') return;
    this.writes++;
    const object = structuredClone(step.object);
    const slot = this.slotOf(object);
    const existing = slot.get();
    if (step.kind === 'create') {
      if (existing) throw new Error(`409: ${object.kind} ${object.metadata.name} exists`);
      object.metadata.uid = `uid-${object.kind}-${++this.counter}`;
      object.metadata.generation = 1;
      object.metadata.resourceVersion = String(++this.counter);
      slot.set(object);
      return;
    }
    if (!existing) throw new Error(`404: ${object.kind} ${object.metadata.name}`);
    if (step.kind === 'delete') {
      if (existing.metadata.finalizers?.length) {
        existing.metadata.deletionTimestamp ??= NOW;
        existing.metadata.resourceVersion = String(++this.counter);
      } else {
        slot.set(undefined);
      }
      return;
    }
    type Full = KubeObject & { spec?: unknown; status?: unknown };
    const incoming = (step.kind === 'patch' ? applyPatch(existing, step.patch) : object) as Full;
    if (incoming.metadata.resourceVersion !== existing.metadata.resourceVersion) {
      throw new Error(`409: stale resourceVersion for ${object.kind} ${object.metadata.name}`);
    }
    const next = structuredClone(existing) as Full;
    if (step.kind === 'patch' && step.subresource === 'status') {
      next.status = incoming.status;
    } else {
      if (!isEqual(next.spec, incoming.spec)) {
        next.metadata.generation = (next.metadata.generation ?? 0) + 1;
      }
      next.spec = incoming.spec;
      next.metadata = {
        ...incoming.metadata,
        uid: existing.metadata.uid,
        generation: next.metadata.generation,
        ...(existing.metadata.deletionTimestamp
          ? { deletionTimestamp: existing.metadata.deletionTimestamp }
          : {}),
      };
    }
    next.metadata.resourceVersion = String(++this.counter);
    slot.set(
      next.metadata.deletionTimestamp && !next.metadata.finalizers?.length ? undefined : next,
    );
  }

  private slotOf(object: KubeObject): {
    get(): KubeObject | undefined;
    set(value: KubeObject | undefined): void;
  } {
    if (object.apiVersion.startsWith('machine.openshift.io/')) {
      return { get: () => this.mapi, set: (v) => (this.mapi = v as MapiMachine | undefined) };
    }
    if (object.apiVersion.startsWith('cluster.x-k8s.io/') && object.kind === 'Machine') {
      return { get: () => this.mirror, set: (v) => (this.mirror = v as CapiMachine | undefined) };
    }
    if (object.kind === this.converter.machine?.instance?.kind) {
      return { get: () => this.instance, set: (v) => (this.instance = v) };
    }
    return {
      get: () => this.infra,
      set: (v) => (this.infra = v as InfrastructureMachine | undefined),
    };
  }
}
