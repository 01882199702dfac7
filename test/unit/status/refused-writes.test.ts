import { expect } from 'chai';
import { CAPI_MACHINE_SET, MAPI_MACHINE_SET } from '../../../src/kube/resources.js';
import { RefusedWrites } from '../../../src/status/refused-writes.js';

const forbidden = { code: 403, body: { message: 'machinesets.cluster.x-k8s.io is forbidden' } };

describe('RefusedWrites', () => {
  it('lists a write kind refused for lack of a grant until one of that kind is accepted', () => {
    const refused = new RefusedWrites();
    refused.failed({ resource: CAPI_MACHINE_SET, verb: 'create', error: forbidden });
    refused.failed({
      resource: MAPI_MACHINE_SET,
      verb: 'patch',
      subresource: 'status',
      error: { code: 401 },
    });
    expect(refused.list().map((r) => r.what)).to.deep.equal([
      'create machinesets.cluster.x-k8s.io',
      'patch machinesets/status.machine.openshift.io',
    ]);
    refused.accepted({ resource: CAPI_MACHINE_SET, verb: 'create' });
    expect(refused.list().map((r) => r.what)).to.deep.equal([
      'patch machinesets/status.machine.openshift.io',
    ]);
  });

  it('ignores races, server errors and admission webhook denials', () => {
    const refused = new RefusedWrites();
    for (const error of [
      { code: 409 },
      { code: 404 },
      { code: 500 },
      {
        code: 403,
        body: { message: 'admission webhook "validation.machineset" denied the request' },
      },
    ]) {
      refused.failed({ resource: CAPI_MACHINE_SET, verb: 'create', error });
    }
    expect(refused.list()).to.deep.equal([]);
  });
});
