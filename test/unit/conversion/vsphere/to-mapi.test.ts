// Table-driven tests of the vSphere converter, CAPI → MAPI: every template field as CAPV uses it,
// CAPV's defaults written out, and the fields kept from the current providerSpec.
import { expect } from 'chai';
import {
  infrastructure,
  minimalProviderSpec,
  minimalTemplate,
  TAG,
  TEMPLATE_PATH,
  toMapi,
  VCENTER,
  withFields,
} from './support.js';
import { KEPT_FROM_CURRENT } from '../../../../src/conversion/vsphere/index.js';
import { expectOk, itConvertsPurely } from '../../../support/conversion.js';

interface MappingCase {
  name: string;
  /** Fields merged into the minimal template (undefined removes one). */
  input: Record<string, unknown>;
  /** Fields merged into the minimal providerSpec (undefined removes one). */
  output?: Record<string, unknown>;
}

const cases: MappingCase[] = [
  { name: 'the template the forward converter writes', input: {} },
  {
    name: "no cloneMode: CAPV's linked clone, written out (Machine API would clone fully)",
    input: { cloneMode: undefined },
    output: { cloneMode: 'linkedClone' },
  },
  {
    name: 'a linked clone of a snapshot',
    input: { cloneMode: 'linkedClone', snapshot: 'base' },
    output: { cloneMode: 'linkedClone', snapshot: 'base' },
  },
  {
    name: 'the whole placement as the workspace',
    input: {
      datacenter: 'DC0',
      folder: '/DC0/vm/ci',
      datastore: '/DC0/datastore/ds1',
      resourcePool: '/DC0/host/C0/Resources',
    },
    output: {
      workspace: {
        server: VCENTER,
        datacenter: 'DC0',
        folder: '/DC0/vm/ci',
        datastore: '/DC0/datastore/ds1',
        resourcePool: '/DC0/host/C0/Resources',
      },
    },
  },
  {
    name: "datacenter '*' or unset: unset, the only datacenter",
    input: { datacenter: undefined },
  },
  {
    name: "no server: the VSphereCluster's, the Infrastructure's first vCenter",
    input: { server: undefined },
  },
  {
    name: 'no vCPUs or one: the 2 CAPV makes, written out',
    input: { numCPUs: 1 },
    output: { numCPUs: 2 },
  },
  {
    name: 'numCPUs unset: 2',
    input: { numCPUs: undefined },
    output: { numCPUs: 2 },
  },
  {
    name: 'no memory: the 2048 MiB CAPV gives, written out',
    input: { memoryMiB: 0 },
    output: { memoryMiB: 2048 },
  },
  {
    name: 'cores per socket and the disk size',
    input: { numCoresPerSocket: 2, diskGiB: 120 },
    output: { numCoresPerSocket: 2, diskGiB: 120 },
  },
  { name: 'tagIDs', input: { tagIDs: [TAG] }, output: { tagIDs: [TAG] } },
  {
    name: 'data disks',
    input: { dataDisks: [{ name: 'd1', sizeGiB: 5, provisioningMode: 'Thin' }] },
    output: { dataDisks: [{ name: 'd1', sizeGiB: 5, provisioningMode: 'Thin' }] },
  },
  {
    name: 'os Linux and powerOffMode hard: what Machine API does',
    input: { os: 'Linux', powerOffMode: 'hard' },
  },
  { name: 'no powerOffMode', input: { powerOffMode: undefined } },
  {
    name: 'the empty values of fields Machine API has no equivalent for',
    input: {
      thumbprint: '',
      storagePolicyName: '',
      additionalDisksGiB: [],
      customVMXKeys: {},
      pciDevices: [],
      hardwareVersion: '',
      namingStrategy: {},
    },
  },
  {
    name: 'a device with DHCP6, a gateway and nameservers',
    input: {
      network: {
        devices: [
          { networkName: 'n', dhcp6: true, gateway6: '2001:db8::1', nameservers: ['2001:db8::53'] },
        ],
        routes: [],
      },
    },
    output: {
      network: {
        devices: [{ networkName: 'n', gateway: '2001:db8::1', nameservers: ['2001:db8::53'] }],
      },
    },
  },
  {
    name: 'a device with addresses from IP pools (kind → resource), and the empty device fields',
    input: {
      network: {
        devices: [
          {
            networkName: 'n',
            dhcp4: false,
            gateway4: '10.0.0.1',
            addressesFromPools: [
              { apiGroup: 'ipamcontroller.openshift.io', kind: 'IPPool', name: 'p' },
            ],
            ipAddrs: [],
            mtu: 0,
            skipIPAllocation: false,
            searchDomains: [],
          },
        ],
      },
    },
    output: {
      network: {
        devices: [
          {
            networkName: 'n',
            gateway: '10.0.0.1',
            addressesFromPools: [
              { group: 'ipamcontroller.openshift.io', resource: 'IPPool', name: 'p' },
            ],
          },
        ],
      },
    },
  },
];

describe('vsphereConverter.toMapi', () => {
  describe('maps every field', () => {
    for (const c of cases) {
      it(c.name, () => {
        const result = expectOk(toMapi(withFields(minimalTemplate(), c.input)));
        expect(result.value).to.deep.equal(withFields(minimalProviderSpec(), c.output ?? {}));
        expect(result.warnings).to.deep.equal([]);
      });
    }
  });

  it('names the server when the Infrastructure names no vCenter', () => {
    const result = expectOk(toMapi(minimalTemplate(), { infrastructure: infrastructure({}) }));
    expect(result.value.workspace).to.deep.equal({ server: VCENTER });
  });

  it('the user data secret of the CAPI MachineSet', () => {
    const result = expectOk(toMapi(minimalTemplate(), { userDataSecretName: 'worker-user-data' }));
    expect(result.value.userDataSecret).to.deep.equal({ name: 'worker-user-data' });
  });

  describe('keeps from the current providerSpec', () => {
    it('exactly metadata and credentialsSecret', () => {
      expect(KEPT_FROM_CURRENT).to.deep.equal(['metadata', 'credentialsSecret']);
    });

    it('its metadata', () => {
      const current = { metadata: { creationTimestamp: null, labels: { a: 'b' } } };
      const result = expectOk(toMapi(minimalTemplate(), { current }));
      expect(result.value.metadata).to.deep.equal(current.metadata);
      expect(result.warnings).to.deep.equal([]);
    });

    for (const credentialsSecret of [undefined, null, {}, { name: '' }]) {
      it(`credentialsSecret ${JSON.stringify(credentialsSecret)}: the default, quietly`, () => {
        const result = expectOk(toMapi(minimalTemplate(), { current: { credentialsSecret } }));
        expect(result.value.credentialsSecret).to.deep.equal({ name: 'vsphere-cloud-credentials' });
        expect(result.warnings).to.deep.equal([]);
      });
    }

    it('never another credentials secret: Cluster API used the cluster’s, with a warning', () => {
      const current = { credentialsSecret: { name: 'mine' } };
      const result = expectOk(toMapi(minimalTemplate(), { current }));
      expect(result.value.credentialsSecret).to.deep.equal({ name: 'vsphere-cloud-credentials' });
      expect(result.warnings).to.have.length(1);
      expect(result.warnings[0]).to.match(
        /^credentialsSecret of the Machine API MachineSet's providerSpec is set to vsphere-cloud-credentials/,
      );
    });

    it('nothing else: the template wins', () => {
      const current = withFields(minimalProviderSpec(), {
        numCPUs: 16,
        template: 'other',
        tagIDs: [TAG],
        workspace: { server: VCENTER, vmGroup: 'g' },
      });
      const result = expectOk(toMapi(minimalTemplate(), { current }));
      expect(result.value).to.deep.equal(minimalProviderSpec());
    });
  });

  itConvertsPurely(
    (spec) => toMapi(spec, { current: { metadata: { a: 1 } }, userDataSecretName: 'u' }),
    () => withFields(minimalTemplate(), { tagIDs: [TAG], snapshot: 's' }),
    { noEmptyObjects: true },
  );

  it(`reports under the context path ${TEMPLATE_PATH}`, () => {
    const result = toMapi(withFields(minimalTemplate(), { template: undefined }), {
      path: 'VSphereMachine m spec',
    });
    expect(result.ok).to.equal(false);
    if (!result.ok) expect(result.errors[0]!.path).to.equal('VSphereMachine m spec.template');
  });
});
