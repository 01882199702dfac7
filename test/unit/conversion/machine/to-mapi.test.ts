// CAPI Machine + AWSMachine → MAPI Machine: the mapping and its errors.
import { expect } from 'chai';
import type { CapiMachine, MapiMachine } from '../../../../src/api/types.js';
import { machineToCapi } from '../../../../src/conversion/machine/to-capi.js';
import { machineToMapi } from '../../../../src/conversion/machine/to-mapi.js';
import type { PlatformConverter } from '../../../../src/conversion/types.js';
import { expectErrors, expectFieldErrors, expectOk } from '../../../support/conversion.js';
import {
  AWS,
  CAPI_MACHINE_SET,
  CAPI_NAMESPACE,
  CLUSTER,
  PROVIDER_ID,
  workerMachine,
} from './support.js';

const HOOK = 'pre-terminate.delete.hook.machine.cluster.x-k8s.io/';

/** The CAPI mirror of the worker Machine, as Cluster API would have it. */
function mirror() {
  return expectOk(
    machineToCapi({
      mapi: workerMachine(),
      infrastructure: AWS.infrastructure,
      converter: AWS.converter,
      capiNamespace: CAPI_NAMESPACE,
      paused: false,
      machineSet: CAPI_MACHINE_SET,
      cluster: CLUSTER,
    }),
  ).value;
}

function reverse(
  capi: unknown,
  infrastructureMachine: unknown,
  mapi: MapiMachine | null = workerMachine(),
  converter: PlatformConverter = AWS.converter,
) {
  return machineToMapi({
    capi: capi as CapiMachine,
    infrastructureMachine: infrastructureMachine as never,
    ...(mapi ? { mapi } : {}),
    infrastructure: AWS.infrastructure,
    converter,
  });
}

describe('machineToMapi', () => {
  it('gives back the MAPI Machine it mirrors', () => {
    const { machine, infrastructureMachine } = mirror();
    const input = workerMachine();
    const { value } = expectOk(reverse(machine, infrastructureMachine, input));
    expect(value.spec).to.deep.equal(input.spec);
    expect(value.labels).to.deep.equal(input.metadata.labels);
    expect(value.annotations).to.deep.equal(input.metadata.annotations);
  });

  it('writes a new mirror with Cluster API authoritative, placing keys as Cluster API would', () => {
    const { machine, infrastructureMachine } = mirror();
    machine.metadata.labels = {
      'cluster.x-k8s.io/cluster-name': 'demo-abc12',
      'node-role.kubernetes.io/worker': '',
      'node-restriction.kubernetes.io/pool': 'a',
      team: 'storage',
    };
    machine.metadata.annotations = {
      'cluster.x-k8s.io/paused': 'true',
      'cluster.x-k8s.io/delete-machine': 'yes',
      'node.cluster.x-k8s.io/note': 'n',
      [`${HOOK}backup`]: 'backup-operator',
    };
    const { value } = expectOk(reverse(machine, infrastructureMachine, null));
    expect(value.labels).to.deep.equal({
      'machine.openshift.io/cluster-api-machine-role': 'worker',
      'machine.openshift.io/cluster-api-machine-type': 'worker',
      team: 'storage',
    });
    expect(value.annotations).to.deep.equal({ 'machine.openshift.io/delete-machine': 'yes' });
    expect(value.spec.metadata).to.deep.equal({
      labels: { 'node-restriction.kubernetes.io/pool': 'a' },
      annotations: { 'node.cluster.x-k8s.io/note': 'n' },
    });
    expect(value.spec.lifecycleHooks).to.deep.equal({
      preTerminate: [{ name: 'backup', owner: 'backup-operator' }],
    });
    expect(value.spec.authoritativeAPI).to.equal('ClusterAPI');
    expect(value.spec.providerID).to.equal(PROVIDER_ID);
    expect(value.spec.taints).to.deep.equal([
      { key: 'dedicated', value: 'infra', effect: 'NoSchedule' },
    ]);
  });

  it('keeps the current authority and what Cluster API cannot express', () => {
    const { machine, infrastructureMachine } = mirror();
    const input = workerMachine();
    input.spec.authoritativeAPI = 'MachineAPI';
    const timeAdded = '2024-05-01T10:00:00Z';
    input.spec.taints = [
      { key: 'dedicated', value: 'infra', effect: 'NoSchedule', timeAdded },
    ] as never;
    const { value } = expectOk(reverse(machine, infrastructureMachine, input));
    expect(value.spec.authoritativeAPI).to.equal('MachineAPI');
    expect(value.spec.taints).to.deep.equal(input.spec.taints);
  });

  it('follows Cluster API changes to the providerID, hooks and taints', () => {
    const { machine, infrastructureMachine } = mirror();
    const other = 'aws:///us-east-1b/i-0fedcba9876543210';
    machine.spec.providerID = other;
    infrastructureMachine.spec = {
      ...infrastructureMachine.spec,
      providerID: other,
      instanceID: 'i-0fedcba9876543210',
    };
    machine.spec.taints = [];
    machine.metadata.annotations = {};
    const { value } = expectOk(reverse(machine, infrastructureMachine));
    expect(value.spec.providerID).to.equal(other);
    expect(value.spec).not.to.have.property('taints');
    expect(value.spec.lifecycleHooks).to.deep.equal({});
  });

  it('drops the identity fields from the providerSpec', () => {
    const { machine, infrastructureMachine } = mirror();
    const { value } = expectOk(reverse(machine, infrastructureMachine, null));
    const providerSpec = (value.spec.providerSpec as { value: Record<string, unknown> }).value;
    expect(providerSpec).not.to.have.property('instanceID');
    expect(providerSpec).not.to.have.property('providerID');
    expect(providerSpec.kind).to.equal('AWSMachineProviderConfig');
  });

  it('refuses an infrastructure machine whose identity disagrees with the providerID', () => {
    const { machine, infrastructureMachine } = mirror();
    infrastructureMachine.spec.instanceID = 'i-0aaaaaaaaaaaaaaaa';
    expectFieldErrors(expectErrors(reverse(machine, infrastructureMachine)), [
      ['AWSMachine worker-a-x7k2p spec.instanceID', /name different instances/],
    ]);
  });

  it('refuses a malformed providerID', () => {
    const { machine, infrastructureMachine } = mirror();
    machine.spec.providerID = 'gce://project/zone/name';
    const errors = expectErrors(reverse(machine, infrastructureMachine));
    expect(errors.map((e) => e.path)).to.deep.equal(['spec.providerID']);
  });

  it('reports errors of the infrastructure machine with its kind and name', () => {
    const { machine, infrastructureMachine } = mirror();
    infrastructureMachine.spec.instanceType = 42;
    const errors = expectErrors(reverse(machine, infrastructureMachine));
    expect(errors.map((e) => e.path)).to.include('AWSMachine worker-a-x7k2p spec.instanceType');
  });

  it('refuses a missing or mismatched infrastructure machine', () => {
    const { machine, infrastructureMachine } = mirror();
    expectFieldErrors(expectErrors(reverse(machine, undefined)), [
      ['spec.infrastructureRef.name', /does not exist/],
    ]);
    expectFieldErrors(
      expectErrors(reverse(machine, { ...infrastructureMachine, kind: 'GCPMachine' })),
      [['spec.infrastructureRef.name', /a GCPMachine, not an AWSMachine/]],
    );
    const wrongKind = structuredClone(machine);
    wrongKind.spec.infrastructureRef.kind = 'GCPMachine';
    expectFieldErrors(expectErrors(reverse(wrongKind, infrastructureMachine)), [
      ['spec.infrastructureRef.kind', /only be described by an AWSMachine/],
    ]);
    const wrongGroup = structuredClone(machine);
    wrongGroup.spec.infrastructureRef.apiGroup = 'example.com';
    expectFieldErrors(expectErrors(reverse(wrongGroup, infrastructureMachine)), [
      ['spec.infrastructureRef.apiGroup', /infrastructure.cluster.x-k8s.io/],
    ]);
  });

  it('refuses a platform without a reverse conversion or infrastructure machine', () => {
    const { machine, infrastructureMachine } = mirror();
    const forwardOnly = { ...AWS.converter, toMapi: undefined };
    expectFieldErrors(expectErrors(reverse(machine, infrastructureMachine, null, forwardOnly)), [
      ['AWSMachine worker-a-x7k2p spec', /only from Machine API to Cluster API/],
    ]);
    const { machine: _machine, ...noMachine } = AWS.converter;
    expectFieldErrors(expectErrors(reverse(machine, infrastructureMachine, null, noMachine)), [
      ['spec.infrastructureRef', /knows no Cluster API infrastructure machine/],
    ]);
  });

  it('reports each field Machine API cannot express', () => {
    const { machine, infrastructureMachine } = mirror();
    const capi = structuredClone(machine) as unknown as { spec: Record<string, unknown> };
    Object.assign(capi.spec, {
      clusterName: 'other',
      bootstrap: { configRef: { kind: 'KubeadmConfig', name: 'x' } },
      readinessGates: [{ conditionType: 'Ready' }],
      taints: [{ key: 'k', effect: 'NoSchedule', propagation: 'OnInitialization' }],
      unknownField: true,
    });
    (capi as unknown as CapiMachine).metadata.labels = {
      'node-role.kubernetes.io/master': '',
    };
    (capi as unknown as CapiMachine).metadata.annotations = { [`${HOOK}x`]: 'owner' };
    expectFieldErrors(expectErrors(reverse(capi, infrastructureMachine)), [
      ['spec.clusterName', /only the machines of this cluster/],
      ['spec.bootstrap.configRef', /ready user data Secret/],
      ['spec.readinessGates', /remove the readiness gates to mirror this Machine/],
      ['spec.unknownField', /convert to Machine API/],
      ['spec.taints[0].propagation', /OnInitialization/],
      [`metadata.annotations[${HOOK}x]`, /rename the hook/],
      ['metadata.labels', /control-plane machines are out of scope/],
    ]);
  });

  it('never throws, whatever the input', () => {
    for (const capi of [null, 42, [], { spec: 'x' }, { metadata: { labels: 3 } }]) {
      expect(reverse(capi, null).ok).to.equal(false);
    }
  });

  it('warns about what it drops', () => {
    const { machine, infrastructureMachine } = mirror();
    Object.assign(machine.spec, { version: 'v1.31.0', minReadySeconds: 30 });
    const { warnings } = expectOk(reverse(machine, infrastructureMachine));
    expect(warnings.join('\n')).to.match(/spec.version "v1.31.0" is not converted/);
    expect(warnings.join('\n')).to.match(/spec.minReadySeconds 30 is not converted/);
  });
});
