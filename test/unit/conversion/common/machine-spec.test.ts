import { expect } from 'chai';
import { capiMachineSpec } from '../../../../src/conversion/common/machine-spec.js';

describe('capiMachineSpec', () => {
  it('writes every part that is set, with the infrastructure reference in its group', () => {
    const taints = [{ key: 'gpu', effect: 'NoSchedule', propagation: 'Always' as const }];
    expect(
      capiMachineSpec({
        clusterName: 'c1',
        provider: { userDataSecretName: 'worker-user-data', failureDomain: 'us-east-1a' },
        infrastructure: { kind: 'AWSMachine', name: 'm1' },
        taints,
        providerID: 'aws:///us-east-1a/i-0123',
        minReadySeconds: 30,
      }),
    ).to.deep.equal({
      clusterName: 'c1',
      bootstrap: { dataSecretName: 'worker-user-data' },
      infrastructureRef: {
        apiGroup: 'infrastructure.cluster.x-k8s.io',
        kind: 'AWSMachine',
        name: 'm1',
      },
      providerID: 'aws:///us-east-1a/i-0123',
      failureDomain: 'us-east-1a',
      minReadySeconds: 30,
      taints,
    });
  });

  it('leaves out what is unset, and keeps bootstrap (a required field) empty', () => {
    expect(
      capiMachineSpec({
        clusterName: 'c1',
        provider: {},
        infrastructure: { kind: 'AWSMachineTemplate', name: 'ms-1234' },
        taints: [],
        minReadySeconds: 0,
      }),
    ).to.deep.equal({
      clusterName: 'c1',
      bootstrap: {},
      infrastructureRef: {
        apiGroup: 'infrastructure.cluster.x-k8s.io',
        kind: 'AWSMachineTemplate',
        name: 'ms-1234',
      },
    });
  });
});
