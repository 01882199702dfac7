// The vSphere converter's rejections, MAPI → CAPI: every providerSpec field Cluster API cannot
// express the way Machine API uses it, each with its full path and what to do.
import { expect } from 'chai';
import {
  convert,
  device,
  infrastructure,
  minimalSpec,
  PATH,
  TAG,
  VCENTER,
  withFields,
} from './support.js';
import { expectErrors, expectFieldErrors } from '../../../support/conversion.js';

interface ErrorCase {
  name: string;
  /** Fields merged into the minimal providerSpec (undefined removes one). */
  input: Record<string, unknown>;
  errors: [string, RegExp][];
}

const DEVICE = `${PATH}.network.devices[0]`;

const cases: ErrorCase[] = [
  {
    name: 'another credentials secret: CAPV connects with the VSphereCluster’s',
    input: { credentialsSecret: { name: 'my-vcenter-creds' } },
    errors: [
      [
        `${PATH}.credentialsSecret.name`,
        /^is "my-vcenter-creds", but Cluster API's vSphere provider connects with the credentials of the cluster's VSphereCluster, .*; set the name to vsphere-cloud-credentials or remove credentialsSecret\.$/,
      ],
    ],
  },
  // the clone source
  {
    name: 'no template',
    input: { template: undefined },
    errors: [[`${PATH}.template`, /^is required; name the VM template/]],
  },
  {
    name: 'a template path longer than vCenter allows',
    input: { template: `/DC0/vm/${'t'.repeat(2048)}` },
    errors: [[`${PATH}.template`, /^is 2056 characters long, beyond the 2048/]],
  },
  {
    name: 'an unknown clone mode (Machine API would clone fully; refused rather than guessed)',
    input: { cloneMode: 'LinkedClone' },
    errors: [
      [
        `${PATH}.cloneMode`,
        /^is "LinkedClone", which is not supported; use one of "fullClone", "linkedClone"\.$/,
      ],
    ],
  },
  // the size
  {
    name: 'no numCPUs: Machine API keeps the VM template’s, CAPV makes 2',
    input: { numCPUs: undefined },
    errors: [
      [
        `${PATH}.numCPUs`,
        /^is not set, so Machine API gives each machine the vCPUs of its VM template, .* gives it 2; set numCPUs/,
      ],
    ],
  },
  {
    name: 'numCPUs 0 is unset',
    input: { numCPUs: 0 },
    errors: [[`${PATH}.numCPUs`, /^is not set/]],
  },
  {
    name: 'one vCPU: CAPV makes at least 2',
    input: { numCPUs: 1 },
    errors: [
      [
        `${PATH}.numCPUs`,
        /^is 1, but Cluster API's vSphere provider gives every machine at least 2 vCPUs, .*; set numCPUs to 2 or more\.$/,
      ],
    ],
  },
  {
    name: 'no memoryMiB: Machine API keeps the VM template’s, CAPV makes 2048 MiB',
    input: { memoryMiB: undefined },
    errors: [
      [
        `${PATH}.memoryMiB`,
        /^is not set, so Machine API gives each machine the memory of its VM template, .* 2048 MiB; set memoryMiB/,
      ],
    ],
  },
  {
    name: 'negative and oversized sizes',
    input: { numCoresPerSocket: -1, diskGiB: 2 ** 31 },
    errors: [
      [
        `${PATH}.numCoresPerSocket`,
        /^is -1, which is out of range; set a whole number from 1 to 2147483647/,
      ],
      [`${PATH}.diskGiB`, /^is 2147483648, which is out of range/],
    ],
  },
  {
    name: 'a size that is not a whole number',
    input: { memoryMiB: 1.5 },
    errors: [[`${PATH}.memoryMiB`, /^must be an integer, but is the number 1\.5\.$/]],
  },
  // the workspace
  {
    name: 'no workspace',
    input: { workspace: undefined },
    errors: [[`${PATH}.workspace`, /^is required; set server, datacenter/]],
  },
  {
    name: 'no server',
    input: { workspace: { datacenter: 'DC0' } },
    errors: [
      [
        `${PATH}.workspace.server`,
        /^is required; set it to the host name or IP address of the vCenter/,
      ],
    ],
  },
  {
    name: 'a server that is no host name',
    input: { workspace: { server: 'https://vcenter/sdk' } },
    errors: [
      [
        `${PATH}.workspace.server`,
        /^is "https:\/\/vcenter\/sdk", which is not a host name or IP address/,
      ],
    ],
  },
  {
    name: 'another vCenter than the first of the Infrastructure',
    input: { workspace: { server: 'vcenter2.ci.example.com' } },
    errors: [
      [
        `${PATH}.workspace.server`,
        new RegExp(
          `^is "vcenter2.ci.example.com", but Cluster API's vSphere provider connects with the credentials of the Infrastructure's first vCenter, "${VCENTER}" .*; keep the MachineSet on Machine API`,
        ),
      ],
    ],
  },
  {
    name: 'a VM group (host-group zones)',
    input: { workspace: { server: VCENTER, vmGroup: 'ci-vm-group' } },
    errors: [
      [
        `${PATH}.workspace.vmGroup`,
        /^is "ci-vm-group", but Cluster API's vSphere provider cannot add machines to a vCenter VM group .*; keep the MachineSet on Machine API, or remove vmGroup\.$/,
      ],
    ],
  },
  {
    name: 'a datacenter name longer than vCenter allows',
    input: { workspace: { server: VCENTER, datacenter: 'd'.repeat(81) } },
    errors: [
      [`${PATH}.workspace.datacenter`, /longer than the 80 characters of a datacenter name/],
    ],
  },
  {
    name: 'an unknown workspace field',
    input: { workspace: { server: VCENTER, cluster: 'C0' } },
    errors: [[`${PATH}.workspace.cluster`, /^is not a field this controller knows how to convert/]],
  },
  // the network
  {
    name: 'no network',
    input: { network: undefined },
    errors: [
      [`${PATH}.network.devices`, /^is required: every machine has at least one network device/],
    ],
  },
  {
    name: 'no devices',
    input: { network: { devices: [] } },
    errors: [[`${PATH}.network.devices`, /^is required/]],
  },
  {
    name: 'more than 10 devices',
    input: { network: { devices: Array.from({ length: 11 }, () => ({ networkName: 'n' })) } },
    errors: [[`${PATH}.network.devices`, /^has 11 devices, more than the 10/]],
  },
  {
    name: 'a device without its port group (CAPV requires it)',
    input: device({ networkName: '' }),
    errors: [[`${DEVICE}.networkName`, /^is required; set it to the port group/]],
  },
  {
    name: 'a port group name beyond 80 characters',
    input: device({ networkName: 'n'.repeat(81) }),
    errors: [[`${DEVICE}.networkName`, /longer than the 80 characters of a port group name/]],
  },
  {
    name: 'static addresses: a template cannot hold them',
    input: device({ ipAddrs: ['192.168.1.10/24'] }),
    errors: [
      [
        `${DEVICE}.ipAddrs`,
        /^sets a static address, which Cluster API's vSphere provider refuses in a machine template .*; take the addresses from an IP pool/,
      ],
    ],
  },
  {
    name: 'a gateway that is no IP address',
    input: device({ gateway: 'gw.example.com' }),
    errors: [[`${DEVICE}.gateway`, /^is "gw.example.com", which is not an IPv4 or IPv6 address/]],
  },
  {
    name: 'a nameserver that is no IP address',
    input: device({ nameservers: ['8.8.8.8', 'dns.example.com'] }),
    errors: [
      [`${DEVICE}.nameservers[1]`, /^is "dns.example.com", which is not an IPv4 or IPv6 address/],
    ],
  },
  {
    name: 'an IP pool without group, resource or name',
    input: device({ addressesFromPools: [{}] }),
    errors: [
      [
        `${DEVICE}.addressesFromPools[0].group`,
        /^is required; set it to the API group of the IP pool/,
      ],
      [
        `${DEVICE}.addressesFromPools[0].resource`,
        /^is required; set it to the kind of the IP pool/,
      ],
      [`${DEVICE}.addressesFromPools[0].name`, /^is required; set it to the name of the IP pool/],
    ],
  },
  {
    name: 'an unknown device field',
    input: device({ mtu: 9000 }),
    errors: [[`${DEVICE}.mtu`, /^is not a field this controller knows how to convert/]],
  },
  {
    name: 'an unknown network field',
    input: { network: { devices: [{ networkName: 'n' }], routes: [] } },
    errors: [[`${PATH}.network.routes`, /^is not a field this controller knows how to convert/]],
  },
  // tags
  {
    name: 'a tag by name (CAPV attaches by URN only)',
    input: { tagIDs: [TAG, 'openshift-ci'] },
    errors: [
      [
        `${PATH}.tagIDs[1]`,
        /^is "openshift-ci", which is not a tag URN; write it as urn:vmomi:InventoryServiceTag:<UUID>:GLOBAL/,
      ],
    ],
  },
  {
    name: 'more than 10 tags',
    input: { tagIDs: Array.from({ length: 11 }, () => TAG) },
    errors: [[`${PATH}.tagIDs`, /^has 11 tags, more than the 10 Machine API attaches/]],
  },
  // data disks
  {
    name: 'a data disk without name or size',
    input: { dataDisks: [{}] },
    errors: [
      [`${PATH}.dataDisks[0].name`, /^is required; name the disk/],
      [`${PATH}.dataDisks[0].sizeGiB`, /^is required; set the disk's size, from 1 to 16384 GiB\.$/],
    ],
  },
  {
    name: 'data disks of a bad name, a bad size and an unknown provisioning mode',
    input: {
      dataDisks: [
        { name: '-bad', sizeGiB: 0 },
        { name: 'ok', sizeGiB: 16385, provisioningMode: 'Lazy' },
      ],
    },
    errors: [
      [
        `${PATH}.dataDisks[0].name`,
        /^is "-bad"; a disk name has at most 80 letters, digits, - and _/,
      ],
      [`${PATH}.dataDisks[0].sizeGiB`, /^is 0; set the disk's size/],
      [`${PATH}.dataDisks[1].sizeGiB`, /^is 16385; set the disk's size/],
      [
        `${PATH}.dataDisks[1].provisioningMode`,
        /^is "Lazy", which is not supported; use one of "Thin", "Thick", "EagerlyZeroed"\.$/,
      ],
    ],
  },
  {
    name: 'two data disks of one name (CAPV keys them by name)',
    input: {
      dataDisks: [
        { name: 'd', sizeGiB: 1 },
        { name: 'd', sizeGiB: 2 },
      ],
    },
    errors: [[`${PATH}.dataDisks[1].name`, /^is "d", the name of another data disk/]],
  },
  {
    name: 'more than 29 data disks',
    input: { dataDisks: Array.from({ length: 30 }, (_, i) => ({ name: `d${i}`, sizeGiB: 1 })) },
    errors: [[`${PATH}.dataDisks`, /^has 30 disks, more than the 29/]],
  },
  // the rest
  {
    name: 'an unknown field',
    input: { numCPU: 4 },
    errors: [[`${PATH}.numCPU`, /^is not a field this controller knows how to convert/]],
  },
  {
    name: 'a wrong apiVersion',
    input: { apiVersion: 'machine.openshift.io/v1' },
    errors: [
      [
        `${PATH}.apiVersion`,
        /^is the string "machine.openshift.io\/v1"; set it to machine.openshift.io\/v1beta1/,
      ],
    ],
  },
];

describe('vsphereConverter.convert rejects', () => {
  for (const c of cases) {
    it(c.name, () => {
      expectFieldErrors(expectErrors(convert(withFields(minimalSpec(), c.input))), c.errors);
    });
  }

  it('reports every error of a providerSpec at once', () => {
    const errors = expectErrors(
      convert(
        withFields(minimalSpec(), {
          template: undefined,
          numCPUs: 1,
          memoryMiB: 0,
          workspace: { server: VCENTER, vmGroup: 'g' },
          credentialsSecret: { name: 'x' },
          ...device({ ipAddrs: ['10.0.0.5/24'] }),
          extra: true,
        }),
      ),
    );
    expect(errors.map((e) => e.path)).to.have.members([
      `${PATH}.credentialsSecret.name`,
      `${PATH}.template`,
      `${PATH}.workspace.vmGroup`,
      `${DEVICE}.ipAddrs`,
      `${PATH}.numCPUs`,
      `${PATH}.memoryMiB`,
      `${PATH}.extra`,
    ]);
  });

  it('not the server of a cluster whose Infrastructure names no vCenter', () => {
    const spec = withFields(minimalSpec(), { workspace: { server: 'vcenter2.ci.example.com' } });
    expect(convert(spec, { infrastructure: infrastructure({}) }).ok).to.equal(true);
  });
});
