// Table-driven tests of the vSphere converter, MAPI → CAPI: every mapped field, every default
// written out, every warning, and the shared vSphere fixture.
import { expect } from 'chai';
import {
  convert,
  device,
  infrastructure,
  minimalSpec,
  minimalTemplate,
  PATH,
  TAG,
  VCENTER,
  withFields,
} from './support.js';
import { vsphereConverter } from '../../../../src/conversion/vsphere/index.js';
import {
  applyPatch,
  defaultedUserDataCases,
  expectOk,
  itConvertsPurely,
  providerSpecOf,
} from '../../../support/conversion.js';
import { vsphereFixture, VSPHERE_PLATFORM_SPEC } from '../../../support/fixtures/vsphere.js';

describe('vsphereConverter', () => {
  it('describes the vSphere platform, its template and its machine', () => {
    expect(vsphereConverter.platform).to.equal('VSphere');
    expect(vsphereConverter.providerSpecKind).to.equal('VSphereMachineProviderSpec');
    expect(vsphereConverter.template).to.deep.equal({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'VSphereMachineTemplate',
      plural: 'vspheremachinetemplates',
    });
    const machine = vsphereConverter.machine!;
    expect(typeof machine.identity).to.equal('function');
    expect({ ...machine, identity: undefined }).to.deep.equal({
      identity: undefined,
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'VSphereMachine',
      plural: 'vspheremachines',
      finalizer: 'vspheremachine.infrastructure.cluster.x-k8s.io',
      instance: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'VSphereVM',
        plural: 'vspherevms',
        finalizer: 'vspherevm.infrastructure.cluster.x-k8s.io',
      },
    });
  });

  it('converts the installer-style worker providerSpec of the fixture to the full template spec', () => {
    const spec = providerSpecOf(vsphereFixture.machineSet('worker', 'openshift-machine-api'));
    const infra = infrastructure(VSPHERE_PLATFORM_SPEC);
    const result = expectOk(convert(spec, { infrastructure: infra }));
    expect(result.value).to.deep.equal({
      templateSpec: {
        template: `/DC0/vm/demo-abc12-rhcos-generated-region-generated-zone`,
        cloneMode: 'fullClone',
        server: 'vcenter.demo.example.com',
        datacenter: 'DC0',
        folder: '/DC0/vm/demo-abc12',
        datastore: '/DC0/datastore/LocalDS_0',
        resourcePool: '/DC0/host/DC0_C0/Resources',
        network: { devices: [{ networkName: 'VM Network', dhcp4: true }] },
        numCPUs: 4,
        numCoresPerSocket: 4,
        memoryMiB: 16384,
        diskGiB: 120,
        tagIDs: [TAG],
        powerOffMode: 'hard',
      },
      userDataSecretName: 'worker-user-data',
    });
    expect(result.value).to.not.have.property('failureDomain');
    expect(result.warnings).to.deep.equal([]);
  });

  it("the fixture's change makes another template spec", () => {
    const machineSet = vsphereFixture.machineSet('worker', 'openshift-machine-api');
    const changed = applyPatch(machineSet, vsphereFixture.change);
    const context = { infrastructure: infrastructure(VSPHERE_PLATFORM_SPEC) };
    const before = expectOk(convert(providerSpecOf(machineSet), context)).value.templateSpec;
    const after = expectOk(convert(providerSpecOf(changed), context)).value.templateSpec;
    expect(after).to.deep.equal({ ...before, memoryMiB: 32768, numCPUs: 8 });
  });

  describe('maps every field', () => {
    interface MappingCase {
      name: string;
      /** Fields merged into the minimal providerSpec. */
      input: Record<string, unknown>;
      /** Fields merged into the minimal template. */
      template?: Record<string, unknown>;
      userDataSecretName?: string;
    }

    const cases: MappingCase[] = [
      { name: 'the minimal providerSpec', input: {} },
      {
        name: 'no cloneMode: Machine API clones fully, so fullClone is written (CAPV would link)',
        input: { cloneMode: '' },
        template: { cloneMode: 'fullClone' },
      },
      {
        name: 'cloneMode linkedClone, with its snapshot',
        input: { cloneMode: 'linkedClone', snapshot: 'base' },
        template: { cloneMode: 'linkedClone', snapshot: 'base' },
      },
      {
        name: 'snapshot "" (Go writes it) is unset',
        input: { snapshot: '' },
      },
      {
        name: 'the whole workspace',
        input: {
          workspace: {
            server: VCENTER,
            datacenter: 'DC0',
            folder: '/DC0/vm/ci',
            datastore: '/DC0/datastore/ds1',
            resourcePool: '/DC0/host/C0/Resources',
            vmGroup: '',
          },
        },
        template: {
          server: VCENTER,
          datacenter: 'DC0',
          folder: '/DC0/vm/ci',
          datastore: '/DC0/datastore/ds1',
          resourcePool: '/DC0/host/C0/Resources',
        },
      },
      {
        name: "no datacenter: '*', CAPV's name for the only one, which Machine API picks too",
        input: { workspace: { server: VCENTER, datacenter: '' } },
        template: { datacenter: '*' },
      },
      {
        name: 'the size: vCPUs, cores per socket, memory, disk',
        input: { numCPUs: 8, numCoresPerSocket: 2, memoryMiB: 32768, diskGiB: 200 },
        template: { numCPUs: 8, numCoresPerSocket: 2, memoryMiB: 32768, diskGiB: 200 },
      },
      {
        name: 'numCoresPerSocket and diskGiB 0: unset on both sides (the vCPUs; the template disk)',
        input: { numCoresPerSocket: 0, diskGiB: 0 },
      },
      {
        name: 'tagIDs',
        input: { tagIDs: [TAG] },
        template: { tagIDs: [TAG] },
      },
      { name: 'an empty tagIDs list', input: { tagIDs: [] } },
      {
        name: 'data disks with every provisioning mode',
        input: {
          dataDisks: [
            { name: 'images', sizeGiB: 100, provisioningMode: 'Thin' },
            { name: 'logs_1', sizeGiB: 10, provisioningMode: 'Thick' },
            { name: 'db-2', sizeGiB: 16384, provisioningMode: 'EagerlyZeroed' },
            { name: 'scratch', sizeGiB: 1 },
          ],
        },
        template: {
          dataDisks: [
            { name: 'images', sizeGiB: 100, provisioningMode: 'Thin' },
            { name: 'logs_1', sizeGiB: 10, provisioningMode: 'Thick' },
            { name: 'db-2', sizeGiB: 16384, provisioningMode: 'EagerlyZeroed' },
            { name: 'scratch', sizeGiB: 1 },
          ],
        },
      },
      {
        name: 'a device with an IPv4 gateway and nameservers (DHCP: no addresses, no pools)',
        input: device({ gateway: '192.168.1.1', nameservers: ['8.8.8.8', '2001:db8::53'] }),
        template: {
          network: {
            devices: [
              {
                networkName: 'ci-net',
                dhcp4: true,
                gateway4: '192.168.1.1',
                nameservers: ['8.8.8.8', '2001:db8::53'],
              },
            ],
          },
        },
      },
      {
        name: 'a device with addresses from IP pools (the kind MAPI calls resource) and an IPv6 gateway',
        input: device({
          gateway: '2001:db8::1',
          addressesFromPools: [
            { group: 'ipamcontroller.openshift.io', resource: 'IPPool', name: 'pool-1' },
            { group: 'ipam.cluster.x-k8s.io', resource: 'InClusterIPPool', name: 'pool-2' },
          ],
        }),
        template: {
          network: {
            devices: [
              {
                networkName: 'ci-net',
                gateway6: '2001:db8::1',
                addressesFromPools: [
                  { apiGroup: 'ipamcontroller.openshift.io', kind: 'IPPool', name: 'pool-1' },
                  { apiGroup: 'ipam.cluster.x-k8s.io', kind: 'InClusterIPPool', name: 'pool-2' },
                ],
              },
            ],
          },
        },
      },
      {
        name: 'several devices, empty lists unset',
        input: {
          network: {
            devices: [
              { networkName: 'a', ipAddrs: [], nameservers: [], addressesFromPools: [] },
              { networkName: 'b', gateway: '' },
            ],
          },
        },
        template: {
          network: {
            devices: [
              { networkName: 'a', dhcp4: true },
              { networkName: 'b', dhcp4: true },
            ],
          },
        },
      },
      {
        name: 'credentialsSecret vsphere-cloud-credentials: dropped, CAPV uses the cluster’s',
        input: { credentialsSecret: { name: 'vsphere-cloud-credentials' } },
      },
      {
        name: 'another user data secret',
        input: { userDataSecret: { name: 'infra-user-data' } },
        userDataSecretName: 'infra-user-data',
      },
      { name: 'empty metadata', input: { metadata: { creationTimestamp: null } } },
    ];

    for (const c of cases) {
      it(c.name, () => {
        const result = expectOk(convert(withFields(minimalSpec(), c.input)));
        expect(result.value).to.deep.equal({
          templateSpec: { ...minimalTemplate(), ...c.template },
          userDataSecretName: c.userDataSecretName ?? 'worker-user-data',
        });
        expect(result.warnings).to.deep.equal([]);
      });
    }
  });

  describe('DHCP as the cluster’s machine networks say', () => {
    const cases: [string, string[], Record<string, boolean>][] = [
      ['IPv4 networks: dhcp4', ['10.0.0.0/16'], { dhcp4: true }],
      ['no networks known: dhcp4', [], { dhcp4: true }],
      [
        'dual stack: dhcp4 only (CAPV would wait for an IPv6 lease)',
        ['10.0.0.0/16', 'fd00::/48'],
        { dhcp4: true },
      ],
      ['IPv6 networks alone: dhcp6', ['fd00::/48'], { dhcp6: true }],
    ];
    for (const [name, networks, dhcp] of cases) {
      it(name, () => {
        const result = expectOk(
          convert(minimalSpec(), { infrastructure: infrastructure(undefined, networks) }),
        );
        const { network } = result.value.templateSpec as { network: { devices: object[] } };
        expect(network.devices).to.deep.equal([{ networkName: 'ci-net', ...dhcp }]);
      });
    }

    it("takes the spec's machine networks when the status has none", () => {
      const infra = infrastructure({ machineNetworks: ['fd00::/48'] }, []);
      const result = expectOk(convert(minimalSpec(), { infrastructure: infra }));
      const { network } = result.value.templateSpec as { network: { devices: object[] } };
      expect(network.devices).to.deep.equal([{ networkName: 'ci-net', dhcp6: true }]);
    });
  });

  describe('the vCenter', () => {
    it('any server when the Infrastructure names no vCenter', () => {
      const infra = infrastructure({});
      const spec = withFields(minimalSpec(), { workspace: { server: '10.1.2.3' } });
      const result = expectOk(convert(spec, { infrastructure: infra }));
      expect(result.value.templateSpec.server).to.equal('10.1.2.3');
    });

    it('an IPv6 server in brackets', () => {
      const infra = infrastructure({});
      const spec = withFields(minimalSpec(), { workspace: { server: '[2001:db8::10]' } });
      expect(expectOk(convert(spec, { infrastructure: infra })).value.templateSpec.server).to.equal(
        '[2001:db8::10]',
      );
    });
  });

  describe('warns', () => {
    for (const c of defaultedUserDataCases(PATH)) {
      it(c.name, () => {
        const result = expectOk(convert(withFields(minimalSpec(), c.input)));
        expect(result.value.userDataSecretName).to.equal('worker-user-data');
        expect(result.warnings).to.have.length(1);
        expect(result.warnings[0]).to.match(c.warning);
      });
    }

    it('about metadata with content, which no controller reads', () => {
      const result = expectOk(convert(withFields(minimalSpec(), { metadata: { name: 'x' } })));
      expect(result.value.templateSpec).to.deep.equal(minimalTemplate());
      expect(result.warnings).to.deep.equal([
        `${PATH}.metadata is not used by any machine controller and has no place in a ` +
          'VSphereMachineTemplate, so it is not converted.',
      ]);
    });
  });

  itConvertsPurely(
    (spec) => convert(spec),
    () =>
      withFields(minimalSpec(), {
        cloneMode: 'linkedClone',
        tagIDs: [TAG],
        dataDisks: [{ name: 'd', sizeGiB: 1 }],
        ...device({ nameservers: ['8.8.8.8'] }),
      }),
    { noEmptyObjects: true },
  );
});
