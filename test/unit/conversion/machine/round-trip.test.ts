// Machine round trip with the AWS converter: MAPI → CAPI → MAPI gives back the MAPI spec.
import { expect } from 'chai';
import fc from 'fast-check';
import { machineToCapi } from '../../../../src/conversion/machine/to-capi.js';
import { machineToMapi } from '../../../../src/conversion/machine/to-mapi.js';
import { expectOk } from '../../../support/conversion.js';
import { normalProviderSpec } from '../aws/arbitraries.js';
import { AWS, CAPI_MACHINE_SET, CAPI_NAMESPACE, CLUSTER, workerMachine } from './support.js';

describe('Machine round trip (AWS)', () => {
  it('property: MAPI → CAPI → MAPI gives back the MAPI spec', () => {
    fc.assert(
      fc.property(normalProviderSpec, (providerSpec) => {
        const mapi = workerMachine();
        // Machine API machines always name their user data Secret; Cluster API requires it.
        const userDataSecret = providerSpec.userDataSecret ?? { name: 'worker-user-data' };
        mapi.spec.providerSpec = { value: { ...providerSpec, userDataSecret } };
        const { machine, infrastructureMachine } = expectOk(
          machineToCapi({
            mapi,
            infrastructure: AWS.infrastructure,
            converter: AWS.converter,
            capiNamespace: CAPI_NAMESPACE,
            paused: false,
            machineSet: CAPI_MACHINE_SET,
            cluster: CLUSTER,
          }),
        ).value;
        const back = expectOk(
          machineToMapi({
            capi: machine,
            infrastructureMachine,
            mapi,
            infrastructure: AWS.infrastructure,
            converter: AWS.converter,
          }),
        ).value;
        expect(back.spec).to.deep.equal(mapi.spec);
        expect(back.labels).to.deep.equal(mapi.metadata.labels);
        expect(back.annotations).to.deep.equal(mapi.metadata.annotations);
      }),
      { numRuns: 150 },
    );
  });
});
