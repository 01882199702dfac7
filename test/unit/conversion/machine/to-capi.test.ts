// MAPI Machine → CAPI Machine + AWSMachine: every mapping and every error.
import { expect } from 'chai';
import fc from 'fast-check';
import { machineToCapi } from '../../../../src/conversion/machine/to-capi.js';
import { setNameLabelValue } from '../../../../src/conversion/machine/set-name.js';
import type { MapiMachine } from '../../../../src/api/types.js';
import { expectErrors, expectOk } from '../../../support/conversion.js';
import {
  AWS,
  CAPI_MACHINE_SET,
  CAPI_NAMESPACE,
  CLUSTER,
  PROVIDER_ID,
  workerMachine,
} from './support.js';

function convert(mapi: unknown, options: { paused?: boolean; owned?: boolean } = {}) {
  return machineToCapi({
    mapi: mapi as MapiMachine,
    infrastructure: AWS.infrastructure,
    converter: AWS.converter,
    capiNamespace: CAPI_NAMESPACE,
    paused: options.paused ?? true,
    ...(options.owned === false ? {} : { machineSet: CAPI_MACHINE_SET }),
    cluster: CLUSTER,
  });
}

describe('machineToCapi', () => {
  it('mirrors a MachineSet-owned worker Machine', () => {
    const { value, warnings } = expectOk(convert(workerMachine()));
    // Its taint: Cluster API accepts machine taints only with an alpha feature gate.
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(
      /^spec\.taints become Cluster API machine taints, .*alpha MachineTaintPropagation feature gate/,
    );
    const { machine, infrastructureMachine } = value;
    expect(machine.metadata).to.deep.include({ name: 'worker-a-x7k2p', namespace: CAPI_NAMESPACE });
    expect(machine.metadata.labels).to.deep.equal({
      'machine.openshift.io/cluster-api-cluster': 'demo-abc12',
      'node-role.kubernetes.io/worker': '',
      'machine.openshift.io/cluster-api-machineset': 'worker-a',
      'node-role.kubernetes.io/infra': '',
      'cluster.x-k8s.io/cluster-name': 'demo-abc12',
      'cluster.x-k8s.io/set-name': 'worker-a',
    });
    expect(machine.metadata.annotations).to.deep.equal({
      'pre-drain.delete.hook.machine.cluster.x-k8s.io/drain-guard': 'storage-operator',
      'cluster.x-k8s.io/paused': 'true',
    });
    expect(machine.metadata.ownerReferences).to.deep.equal([
      {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'MachineSet',
        name: 'worker-a',
        uid: 'capi-set-uid',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(machine.spec).to.deep.equal({
      clusterName: 'demo-abc12',
      bootstrap: { dataSecretName: 'worker-user-data' },
      infrastructureRef: {
        apiGroup: 'infrastructure.cluster.x-k8s.io',
        kind: 'AWSMachine',
        name: 'worker-a-x7k2p',
      },
      providerID: PROVIDER_ID,
      failureDomain: 'us-east-1a',
      taints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule', propagation: 'Always' }],
    });
    expect(infrastructureMachine.kind).to.equal('AWSMachine');
    expect(infrastructureMachine.metadata.annotations).to.deep.equal({
      'cluster.x-k8s.io/paused': 'true',
    });
    expect(infrastructureMachine.spec).to.deep.include({
      providerID: PROVIDER_ID,
      instanceID: 'i-0123456789abcdef0',
      instanceType: 'm6i.xlarge',
    });
  });

  it('gives the infrastructure machine the template spec the MachineSet converter gives', () => {
    const mapi = workerMachine();
    delete mapi.spec.providerID;
    const { value } = expectOk(convert(mapi));
    const template = expectOk(
      AWS.converter.toCapi(mapi.spec.providerSpec!.value, {
        infrastructure: AWS.infrastructure,
        path: 'spec.providerSpec.value',
        controlPlane: false,
      }),
    );
    expect(value.infrastructureMachine.spec).to.deep.equal(template.value.templateSpec);
    expect(value.machine.spec).not.to.have.property('providerID');
  });

  it('is unpaused when Cluster API is authoritative', () => {
    const { value } = expectOk(convert(workerMachine(), { paused: false }));
    expect(value.machine.metadata.annotations).not.to.have.property('cluster.x-k8s.io/paused');
    expect(value.infrastructureMachine.metadata).not.to.have.property('annotations');
  });

  it('is owned by the Cluster, not as controller, when no MachineSet owns the Machine', () => {
    const mapi = workerMachine();
    delete mapi.metadata.ownerReferences;
    const { value } = expectOk(convert(mapi, { owned: false }));
    expect(value.machine.metadata.ownerReferences).to.deep.equal([
      {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'Cluster',
        name: 'demo-abc12',
        uid: 'cluster-uid',
        controller: false,
      },
    ]);
    expect(value.machine.metadata.labels).not.to.have.property('cluster.x-k8s.io/set-name');
  });

  it('refuses a MachineSet-owned Machine whose MachineSet has no mirror yet', () => {
    const errors = expectErrors(convert(workerMachine(), { owned: false }));
    expect(errors.map((e) => e.path)).to.deep.equal(['metadata.ownerReferences']);
    expect(errors[0]!.message).to.match(/worker-a.*does not exist yet/);
  });

  it('refuses control-plane machines, by owner or by role', () => {
    const byOwner = workerMachine();
    byOwner.metadata.ownerReferences![0]!.kind = 'ControlPlaneMachineSet';
    const [ownerError] = expectErrors(convert(byOwner));
    expect(ownerError).to.include({ path: 'metadata.ownerReferences' });
    expect(ownerError!.message).to.match(/control-plane machines are out of scope/);
    const byRole = workerMachine();
    byRole.metadata.labels!['machine.openshift.io/cluster-api-machine-role'] = 'master';
    const [roleError] = expectErrors(convert(byRole));
    expect(roleError).to.include({ path: 'metadata.labels' });
    expect(roleError!.message).to.match(/out of scope/);
  });

  it('reports a malformed providerID on spec.providerID', () => {
    const mapi = workerMachine();
    mapi.spec.providerID = 'gce://p/z/n';
    expect(expectErrors(convert(mapi)).map((e) => e.path)).to.deep.equal(['spec.providerID']);
  });

  it('reports provider spec, name and taint errors with their full paths', () => {
    const mapi = workerMachine() as unknown as {
      metadata: { name: string };
      spec: Record<string, unknown>;
    };
    mapi.metadata.name = 'Not_A_Name';
    mapi.spec.taints = [{ key: 'a' }];
    (mapi.spec.providerSpec as { value: Record<string, unknown> }).value.instanceType = 7;
    const paths = expectErrors(convert(mapi)).map((e) => e.path);
    expect(paths).to.include.members([
      'metadata.name',
      'spec.taints[0].effect',
      'spec.providerSpec.value.instanceType',
    ]);
  });

  it('reports a provider spec of another platform on its kind', () => {
    const mapi = workerMachine();
    (mapi.spec.providerSpec!.value as Record<string, unknown>).kind = 'GCPMachineProviderSpec';
    expect(expectErrors(convert(mapi)).map((e) => e.path)).to.deep.equal([
      'spec.providerSpec.value.kind',
    ]);
  });

  it('never throws, whatever the JSON', () => {
    fc.assert(
      fc.property(fc.anything(), (mapi) => {
        convert(mapi);
        convert({ ...workerMachine(), spec: mapi });
      }),
      { numRuns: 150 },
    );
  });
});

describe('set-name label value', () => {
  it('is the name when it is a valid label value, else Cluster API hash form', () => {
    expect(setNameLabelValue('worker-a')).to.equal('worker-a');
    // FNV-1a (32 bits) of 64 × "w" is 0x50621e85, unpadded base64url "UGIehQ".
    expect(setNameLabelValue('w'.repeat(64))).to.equal('hash_UGIehQ_z');
  });
});
