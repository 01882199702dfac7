// Each platform's instance identity: the providerID a MAPI provider writes gives the
// infrastructure machine's spec fields, keeps providerID exactly, and a malformed one is an error.
import { expect } from 'chai';
import fc from 'fast-check';
import { awsConverter } from '../../../../src/conversion/aws/index.js';
import { azureConverter } from '../../../../src/conversion/azure/index.js';
import { gcpConverter } from '../../../../src/conversion/gcp/index.js';
import { openstackConverter } from '../../../../src/conversion/openstack/index.js';
import { powerVsConverter } from '../../../../src/conversion/powervs/index.js';
import { vsphereConverter } from '../../../../src/conversion/vsphere/index.js';
import type { PlatformConverter } from '../../../../src/conversion/types.js';
import { expectErrors, expectOk } from '../../../support/conversion.js';

const segment = fc.stringMatching(/^[a-z0-9][-a-z0-9]{0,11}$/);
const hex = fc.stringMatching(/^[0-9a-f]{8,17}$/);
/** A BIOS UUID as vCenter reports it; either case, as CAPV accepts. */
const uuid = fc.stringMatching(
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
);

const platforms: {
  converter: PlatformConverter;
  kind: string;
  sample: string;
  extra: Record<string, unknown>;
  providerIDs: fc.Arbitrary<string>;
}[] = [
  {
    converter: awsConverter,
    kind: 'AWSMachine',
    sample: 'aws:///us-east-1a/i-0123456789abcdef0',
    extra: { instanceID: 'i-0123456789abcdef0' },
    providerIDs: fc.tuple(segment, hex).map(([zone, id]) => `aws:///${zone}/i-${id}`),
  },
  {
    converter: openstackConverter,
    kind: 'OpenStackMachine',
    sample: 'openstack:///3f0c8a2e-6b1d-4d7e-9a55-0c6c1e2f7b10',
    extra: {},
    providerIDs: segment.map((id) => `openstack:///${id}`),
  },
  {
    converter: gcpConverter,
    kind: 'GCPMachine',
    sample: 'gce://openshift-dev/us-central1-a/demo-abc12-worker-a-x7k2p',
    extra: {},
    providerIDs: fc.tuple(segment, segment, segment).map((p) => `gce://${p.join('/')}`),
  },
  {
    converter: azureConverter,
    kind: 'AzureMachine',
    sample:
      'azure:///subscriptions/0000-1111/resourceGroups/demo-rg/providers/Microsoft.Compute/virtualMachines/demo-worker-1',
    extra: {},
    providerIDs: fc
      .tuple(segment, segment, segment)
      .map(
        ([s, g, n]) =>
          `azure:///subscriptions/${s}/resourceGroups/${g}/providers/Microsoft.Compute/virtualMachines/${n}`,
      ),
  },
  {
    converter: powerVsConverter,
    kind: 'IBMPowerVSMachine',
    sample: 'ibmpowervs://dal/dal10/4e3c1a7b-service/9b2f-instance',
    extra: {},
    providerIDs: fc
      .tuple(segment, segment, segment, segment)
      .map((p) => `ibmpowervs://${p.join('/')}`),
  },
  {
    converter: vsphereConverter,
    kind: 'VSphereMachine',
    sample: 'vsphere://4217c4a1-8b0e-3c3e-9f6d-0a1b2c3d4e5f',
    extra: {},
    providerIDs: uuid.map((id) => `vsphere://${id}`),
  },
];

describe('machine identity per platform', () => {
  for (const { converter, kind, sample, extra, providerIDs } of platforms) {
    describe(converter.platform, () => {
      it(`names the infrastructure machine ${kind}`, () => {
        expect(converter.machine?.kind).to.equal(kind);
        expect(converter.machine?.plural).to.equal(`${kind.toLowerCase()}s`);
        expect(converter.machine?.apiVersion).to.equal(
          converter.template.apiVersion,
          'the machine and its template are served by the same API version',
        );
      });

      it('turns the providerID into the identity fields of the spec', () => {
        const { value } = expectOk(converter.machine!.identity(sample));
        expect(value).to.deep.equal({ providerID: sample, ...extra });
      });

      it('keeps every well-formed providerID exactly', () => {
        fc.assert(
          fc.property(providerIDs, (providerID) => {
            const result = converter.machine!.identity(providerID);
            return result.ok && result.value.providerID === providerID;
          }),
          { numRuns: 100 },
        );
      });

      it('refuses a providerID of another cloud, on spec.providerID', () => {
        const other = converter.platform === 'AWS' ? 'gce://p/z/n' : 'aws:///us-east-1a/i-0abc';
        const [error, ...rest] = expectErrors(converter.machine!.identity(other));
        expect(rest).to.deep.equal([]);
        expect(error!.path).to.equal('spec.providerID');
        expect(error!.message).to.match(/not a provider ID of .*correct the provider ID/);
      });

      it('never throws, whatever the string', () => {
        fc.assert(
          fc.property(fc.string(), (providerID) => {
            converter.machine!.identity(providerID);
          }),
          { numRuns: 100 },
        );
      });
    });
  }

  it('AWS: the instance ID is the last part of the providerID', () => {
    fc.assert(
      fc.property(segment, hex, (zone, id) => {
        const result = awsConverter.machine!.identity(`aws:///${zone}/i-${id}`);
        return result.ok && result.value.instanceID === `i-${id}`;
      }),
      { numRuns: 100 },
    );
    expectErrors(awsConverter.machine!.identity('aws:///us-east-1a/vol-0123'));
  });

  it('vSphere: the providerID is a BIOS UUID, nothing else', () => {
    for (const providerID of [
      'vsphere://',
      'vsphere://demo-abc12-worker-a-x7k2p',
      'vsphere:///4217c4a1-8b0e-3c3e-9f6d-0a1b2c3d4e5f',
      'vsphere://4217c4a1-8b0e-3c3e-9f6d-0a1b2c3d4e5f/x',
    ]) {
      expectErrors(vsphereConverter.machine!.identity(providerID));
    }
  });
});
