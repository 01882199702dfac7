// The vSphere converter's rejections, CAPI → MAPI: every template field Machine API cannot
// express, each with its full path and a message that says what to do.
import { expect } from 'chai';
import fc from 'fast-check';
import {
  infrastructure,
  minimalTemplate,
  TEMPLATE_PATH,
  toMapi,
  VCENTER,
  withFields,
} from './support.js';
import { TEMPLATE_FIELDS_WITHOUT_EQUIVALENT } from '../../../../src/conversion/vsphere/to-mapi.js';
import { expectErrors, expectFieldErrors } from '../../../support/conversion.js';

const PATH = TEMPLATE_PATH;
const DEVICE = `${PATH}.network.devices[0]`;
const NO_EQUIVALENT =
  /^is .*, but Machine API has no equivalent for it; remove it, or keep the MachineSet on Cluster API\.$/;

/** A network of one device: `fields` merged into a DHCP device. */
function device(fields: Record<string, unknown>) {
  return { network: { devices: [withFields({ networkName: 'n', dhcp4: true }, fields)] } };
}

const UNKNOWN = /^is not a field this controller knows/;

/** The fields of CAPV v1.15's VSphereMachineSpec (its CRD), of its network and of a device. */
const CAPV_FIELDS = [
  'additionalDisksGiB',
  'cloneMode',
  'customVMXKeys',
  'dataDisks',
  'datacenter',
  'datastore',
  'diskGiB',
  'failureDomain',
  'folder',
  'guestSoftPowerOffTimeout',
  'hardwareVersion',
  'memoryMiB',
  'namingStrategy',
  'network',
  'numCPUs',
  'numCoresPerSocket',
  'os',
  'pciDevices',
  'powerOffMode',
  'providerID',
  'resourcePool',
  'resources',
  'server',
  'snapshot',
  'storagePolicyName',
  'tagIDs',
  'template',
  'thumbprint',
];
const CAPV_NETWORK_FIELDS = ['devices', 'routes', 'preferredAPIServerCidr'];
const CAPV_DEVICE_FIELDS = [
  'addressesFromPools',
  'deviceName',
  'dhcp4',
  'dhcp4Overrides',
  'dhcp6',
  'dhcp6Overrides',
  'gateway4',
  'gateway6',
  'ipAddrs',
  'macAddr',
  'mtu',
  'nameservers',
  'networkName',
  'routes',
  'searchDomains',
  'skipIPAllocation',
];

interface ErrorCase {
  name: string;
  /** Fields merged into the minimal template (undefined removes one). */
  input: Record<string, unknown>;
  errors: [string, RegExp][];
}

/** One value of each field CAPV has and Machine API has not. */
const WITHOUT_EQUIVALENT: Record<string, unknown> = {
  providerID: 'vsphere://4217c4a1-8b0e-3c3e-9f6d-0a1b2c3d4e5f',
  failureDomain: 'zone-a',
  thumbprint: 'AB:CD',
  storagePolicyName: 'gold',
  additionalDisksGiB: [50],
  customVMXKeys: { 'guestinfo.x': 'y' },
  pciDevices: [{ vGPUProfile: 'grid_t4-4q' }],
  hardwareVersion: 'vmx-19',
  resources: { requests: { cpu: '1' } },
  guestSoftPowerOffTimeout: '5m',
  namingStrategy: { template: '{{ .machine.name }}-vm' },
};

const cases: ErrorCase[] = [
  ...Object.entries(WITHOUT_EQUIVALENT).map(([key, value]): ErrorCase => ({
    name: `${key}, which Machine API has no equivalent for`,
    input: { [key]: value },
    errors: [[`${PATH}.${key}`, NO_EQUIVALENT]],
  })),
  {
    name: 'network routes and the preferred API server CIDR',
    input: {
      network: {
        devices: [{ networkName: 'n', dhcp4: true }],
        routes: [{ to: '0.0.0.0/0', via: '10.0.0.1', metric: 1 }],
        preferredAPIServerCidr: '10.0.0.0/16',
      },
    },
    errors: [
      [`${PATH}.network.routes`, NO_EQUIVALENT],
      [`${PATH}.network.preferredAPIServerCidr`, NO_EQUIVALENT],
    ],
  },
  ...(
    [
      ['deviceName', 'eth0'],
      ['macAddr', '00:50:56:00:00:01'],
      ['mtu', 9000],
      ['routes', [{ to: '0.0.0.0/0', via: '10.0.0.1', metric: 1 }]],
      ['searchDomains', ['example.com']],
      ['dhcp4Overrides', { useDNS: false }],
      ['dhcp6Overrides', { useDNS: false }],
      ['skipIPAllocation', true],
    ] as const
  ).map(([key, value]): ErrorCase => ({
    name: `a device's ${key}`,
    input: device({ [key]: value }),
    errors: [[`${DEVICE}.${key}`, NO_EQUIVALENT]],
  })),
  {
    name: 'static addresses',
    input: device({ ipAddrs: ['10.0.0.5/24'] }),
    errors: [
      [`${DEVICE}.ipAddrs`, /^sets static addresses, .*; take the addresses from an IP pool/],
    ],
  },
  {
    name: 'two gateways: Machine API has one per device',
    input: device({ gateway4: '10.0.0.1', gateway6: '2001:db8::1' }),
    errors: [
      [
        `${DEVICE}.gateway6`,
        /^is set beside gateway4, but a Machine API network device has one gateway/,
      ],
    ],
  },
  {
    name: 'DHCP beside IP pools',
    input: device({ addressesFromPools: [{ apiGroup: 'g', kind: 'IPPool', name: 'p' }] }),
    errors: [
      [
        `${DEVICE}.dhcp4`,
        /^is true beside addressesFromPools, but Machine API configures a device with addresses from IP pools statically/,
      ],
    ],
  },
  {
    name: 'neither DHCP nor IP pools: CAPV would wait for ever',
    input: device({ dhcp4: false }),
    errors: [
      [
        `${DEVICE}.dhcp4`,
        /^is not set, nor dhcp6, .*; set dhcp4 \(or dhcp6\) to true, or name an IP pool/,
      ],
    ],
  },
  {
    name: 'an IP pool of the core group',
    input: device({ dhcp4: false, addressesFromPools: [{ kind: 'IPPool', name: 'p' }] }),
    errors: [
      [
        `${DEVICE}.addressesFromPools[0].apiGroup`,
        /^is required; set it to the API group of the IP pool/,
      ],
    ],
  },
  {
    name: 'a device without its port group',
    input: device({ networkName: undefined }),
    errors: [[`${DEVICE}.networkName`, /^is required; set it to the port group/]],
  },
  {
    name: 'no devices',
    input: { network: { devices: [] } },
    errors: [
      [
        `${PATH}.network.devices`,
        /^is required: a Machine API machine has at least one network device/,
      ],
    ],
  },
  {
    name: 'no network',
    input: { network: undefined },
    errors: [[`${PATH}.network.devices`, /^is required/]],
  },
  {
    name: 'no template',
    input: { template: undefined },
    errors: [[`${PATH}.template`, /^is required; name the VM template/]],
  },
  {
    name: 'an unknown clone mode',
    input: { cloneMode: 'instantClone' },
    errors: [
      [
        `${PATH}.cloneMode`,
        /^is "instantClone", which is not supported; use one of "fullClone", "linkedClone"\.$/,
      ],
    ],
  },
  {
    name: 'Windows machines',
    input: { os: 'Windows' },
    errors: [
      [`${PATH}.os`, /^is "Windows", but Machine API creates RHCOS \(Linux\) machines only/],
    ],
  },
  ...['soft', 'trySoft'].map((mode): ErrorCase => ({
    name: `powerOffMode ${mode}: Machine API powers off hard`,
    input: { powerOffMode: mode },
    errors: [
      [
        `${PATH}.powerOffMode`,
        new RegExp(
          `^is "${mode}", but Machine API powers a VM off hard before it deletes it; set it to hard`,
        ),
      ],
    ],
  })),
  {
    name: 'another vCenter than the first of the Infrastructure',
    input: { server: 'vcenter2.ci.example.com' },
    errors: [
      [
        `${PATH}.server`,
        new RegExp(
          `^is "vcenter2.ci.example.com", but the cluster's machines are created in its first vCenter, "${VCENTER}"`,
        ),
      ],
    ],
  },
  {
    name: 'negative sizes',
    input: { numCPUs: -2, memoryMiB: -1, numCoresPerSocket: -1, diskGiB: -1 },
    errors: ['numCPUs', 'memoryMiB', 'numCoresPerSocket', 'diskGiB'].map((key) => [
      `${PATH}.${key}`,
      /^is -\d; set a positive number, or leave it unset\.$/,
    ]),
  },
  {
    name: 'a tag by name',
    input: { tagIDs: ['openshift-ci'] },
    errors: [[`${PATH}.tagIDs[0]`, /^is "openshift-ci", which is not a tag URN/]],
  },
  {
    name: 'a data disk without size',
    input: { dataDisks: [{ name: 'd' }] },
    errors: [[`${PATH}.dataDisks[0].sizeGiB`, /^is required; set the disk's size/]],
  },
  {
    name: 'unknown fields, at every level',
    input: {
      numCPU: 4,
      network: { devices: [{ networkName: 'n', dhcp4: true, x: 1 }], y: 2 },
      dataDisks: [{ name: 'd', sizeGiB: 1, z: 3 }],
    },
    errors: [
      [
        `${PATH}.numCPU`,
        /^is not a field this controller knows how to convert to Machine API, .*, or keep the MachineSet on Cluster API\.$/,
      ],
      [`${DEVICE}.x`, /^is not a field this controller knows how to convert to Machine API/],
      [`${PATH}.network.y`, /^is not a field this controller knows how to convert to Machine API/],
      [
        `${PATH}.dataDisks[0].z`,
        /^is not a field this controller knows how to convert to Machine API/,
      ],
    ],
  },
];

describe('vsphereConverter.toMapi rejects', () => {
  for (const value of [null, 'spec', 3, [minimalTemplate()]]) {
    it(`a machine spec that is not an object (${JSON.stringify(value)})`, () => {
      expectFieldErrors(expectErrors(toMapi(value)), [
        [PATH, /^must be an object \(a VSphereMachineTemplate's machine spec\), but is /],
      ]);
    });
  }

  for (const c of cases) {
    it(c.name, () => {
      expectFieldErrors(expectErrors(toMapi(withFields(minimalTemplate(), c.input))), c.errors);
    });
  }

  it('every field the admission policy is told about, and those only', () => {
    expect([...TEMPLATE_FIELDS_WITHOUT_EQUIVALENT].sort()).to.deep.equal(
      [
        ...Object.keys(WITHOUT_EQUIVALENT),
        'network.routes',
        'network.preferredAPIServerCidr',
      ].sort(),
    );
  });

  it('a failure domain on the CAPI MachineSet: CAPV would place by its VSphereDeploymentZone', () => {
    expectFieldErrors(expectErrors(toMapi(minimalTemplate(), { failureDomain: 'zone-a' })), [
      [
        PATH,
        /^cannot be placed as the CAPI MachineSet's spec.template.spec.failureDomain "zone-a" says: CAPV places its machines by that VSphereDeploymentZone, .*; remove the failure domain/,
      ],
    ]);
  });

  it('no server when the Infrastructure names no vCenter', () => {
    const template = withFields(minimalTemplate(), { server: undefined });
    expectFieldErrors(expectErrors(toMapi(template, { infrastructure: infrastructure({}) })), [
      [`${PATH}.server`, /^is not set, and the Infrastructure names no vCenter .*; set server\.$/],
    ]);
  });

  it("knows every field of CAPV's VSphereMachineSpec, whatever it holds", () => {
    /** Whether the field at `path` is reported as unknown. */
    const unknown = (spec: unknown, path: string) => {
      const result = toMapi(spec);
      return !result.ok && result.errors.some((e) => e.path === path && UNKNOWN.test(e.message));
    };
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        for (const key of CAPV_FIELDS) {
          const spec = withFields(minimalTemplate(), { [key]: value });
          expect(unknown(spec, `${PATH}.${key}`), key).to.equal(false);
        }
        for (const key of CAPV_NETWORK_FIELDS) {
          const network = { devices: [{ networkName: 'n', dhcp4: true }], [key]: value };
          const spec = withFields(minimalTemplate(), { network });
          expect(unknown(spec, `${PATH}.network.${key}`), key).to.equal(false);
        }
        for (const key of CAPV_DEVICE_FIELDS) {
          const spec = withFields(minimalTemplate(), device({ [key]: value }));
          expect(unknown(spec, `${DEVICE}.${key}`), key).to.equal(false);
        }
      }),
      { numRuns: 50 },
    );
    expect(unknown(withFields(minimalTemplate(), { numCPU: 1 }), `${PATH}.numCPU`)).to.equal(true);
  });

  it('never throws, whatever the JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (spec, network) => {
        toMapi(spec);
        toMapi(withFields(minimalTemplate(), { network }));
      }),
      { numRuns: 200 },
    );
  });
});
