// What a vSphere MachineSet must say before Cluster API creates its machines: the cluster's tag,
// and no static network settings (which CAPV cannot hand to RHCOS).
import { expect } from 'chai';
import { CLUSTER, context, device, minimalSpec, PATH, TAG, withFields } from './support.js';
import { vsphereConverter } from '../../../../src/conversion/vsphere/index.js';
import { expectFieldErrors, providerSpecOf } from '../../../support/conversion.js';
import { vsphereFixture } from '../../../support/fixtures/vsphere.js';

function blockers(spec: unknown) {
  return vsphereConverter.migrationBlockers!(spec, context());
}

const DEVICE = `${PATH}.network.devices[0]`;

describe('vsphereConverter.migrationBlockers', () => {
  it('none for a DHCP MachineSet that lists a tag (the fixture)', () => {
    const spec = providerSpecOf(vsphereFixture.machineSet('w', 'openshift-machine-api'));
    expect(blockers(spec)).to.deep.equal([]);
    expect(blockers(withFields(minimalSpec(), { tagIDs: [TAG] }))).to.deep.equal([]);
  });

  it("the cluster's tag, which Machine API attaches by name and CAPV only by URN", () => {
    for (const tagIDs of [undefined, []]) {
      expectFieldErrors(blockers(withFields(minimalSpec(), { tagIDs })), [
        [
          `${PATH}.tagIDs`,
          new RegExp(
            `^lists no tag, but Machine API attaches the cluster's tag "${CLUSTER}" \\(category openshift-${CLUSTER}\\) to every VM it creates, .*; add that tag's URN \\(govc tags.info ${CLUSTER}\\), then migrate\\.$`,
          ),
        ],
      ]);
    }
  });

  it('every static network setting, which RHCOS would not get from CAPV', () => {
    const spec = withFields(minimalSpec(), {
      tagIDs: [TAG],
      network: {
        devices: [
          { networkName: 'a', gateway: '10.0.0.1', nameservers: ['10.0.0.2'] },
          { networkName: 'b', nameservers: [], gateway: '' },
          {
            networkName: 'c',
            addressesFromPools: [{ group: 'g', resource: 'IPPool', name: 'p' }],
          },
        ],
      },
    });
    const why =
      /^is a static network setting, which Machine API passes to RHCOS as afterburn kernel arguments, .* cloud-init metadata that RHCOS does not read: .*; keep this MachineSet on Machine API\.$/;
    expectFieldErrors(blockers(spec), [
      [`${PATH}.network.devices[0].gateway`, why],
      [`${PATH}.network.devices[0].nameservers`, why],
      [`${PATH}.network.devices[2].addressesFromPools`, why],
    ]);
  });

  it('whatever the providerSpec holds, without throwing', () => {
    for (const spec of [
      undefined,
      null,
      'x',
      [],
      { network: 'x' },
      { network: { devices: 'x' } },
    ]) {
      expect(() => blockers(spec)).to.not.throw();
    }
    expect(blockers({ tagIDs: [TAG], ...device({ gateway: '10.0.0.1' }) })).to.have.length(1);
    expect(blockers({ tagIDs: [TAG], ...device({ gateway: '10.0.0.1' }) })[0]!.path).to.equal(
      `${DEVICE}.gateway`,
    );
  });
});
