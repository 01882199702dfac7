// Table-driven tests of the Azure CAPI → MAPI converter: every template field, every default
// written out, what is kept from the current providerSpec, and every refusal.
import { expect } from 'chai';
import fc from 'fast-check';
import type { Infrastructure } from '../../../../src/api/types.js';
import { azureConverter } from '../../../../src/conversion/azure/index.js';
import { KEPT_FROM_CURRENT } from '../../../../src/conversion/azure/kept-from-current.js';
import type { Conversion, ReverseContext } from '../../../../src/conversion/types.js';
import { expectErrors, expectFieldErrors, expectOk } from '../../../support/conversion.js';

const PATH = 'spec.template.spec';
const INFRA = 'demo-abc12';
const RG = 'demo-abc12-rg';
const SUBNET = 'demo-abc12-worker-subnet';
const DES = `/subscriptions/0000/resourceGroups/${RG}/providers/Microsoft.Compute/diskEncryptionSets/des`;
const CRG = `/subscriptions/0000/resourceGroups/${RG}/providers/Microsoft.Compute/capacityReservationGroups/crg`;
const SSH_KEY = Buffer.from(
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGmJ0nR7 admin@example\n',
).toString('base64');

const infrastructure: Infrastructure = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'Infrastructure',
  metadata: { name: 'cluster' },
  status: {
    infrastructureName: INFRA,
    platformStatus: { type: 'Azure', azure: { resourceGroupName: RG } },
  },
};

function toMapi(
  templateSpec: unknown,
  overrides: Partial<ReverseContext> = {},
): Conversion<Record<string, unknown>> {
  const context: ReverseContext = {
    infrastructure,
    path: PATH,
    controlPlane: false,
    failureDomain: '2',
    userDataSecretName: 'worker-user-data',
    ...overrides,
  };
  return azureConverter.toMapi!(templateSpec, context);
}

/** A template as the forward converter writes it. */
function template(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    vmSize: 'Standard_D4s_v3',
    image: {
      marketplace: {
        publisher: 'azureopenshift',
        offer: 'aro4',
        sku: '419-v2',
        version: '419.6.20250523',
        thirdPartyImage: false,
      },
    },
    identity: 'None',
    osDisk: {
      osType: 'Linux',
      cachingType: 'None',
      diskSizeGB: 128,
      managedDisk: { storageAccountType: 'Premium_LRS' },
    },
    diagnostics: { boot: { storageAccountType: 'Disabled' } },
    networkInterfaces: [{ acceleratedNetworking: false, privateIPConfigs: 1, subnetName: SUBNET }],
    ...fields,
  };
}

/** What `template()` converts to without a current providerSpec; `undefined` removes a field. */
function providerSpec(fields: Record<string, unknown> = {}): Record<string, unknown> {
  const spec: Record<string, unknown> = {
    kind: 'AzureMachineProviderSpec',
    apiVersion: 'machine.openshift.io/v1beta1',
    credentialsSecret: { name: 'azure-cloud-credentials', namespace: 'openshift-machine-api' },
    resourceGroup: RG,
    networkResourceGroup: RG,
    vnet: `${INFRA}-vnet`,
    vmSize: 'Standard_D4s_v3',
    image: {
      publisher: 'azureopenshift',
      offer: 'aro4',
      sku: '419-v2',
      version: '419.6.20250523',
      type: 'MarketplaceNoPlan',
    },
    osDisk: {
      osType: 'Linux',
      diskSizeGB: 128,
      cachingType: 'None',
      managedDisk: { storageAccountType: 'Premium_LRS' },
    },
    publicIP: false,
    subnet: SUBNET,
    zone: '2',
    userDataSecret: { name: 'worker-user-data' },
    ...fields,
  };
  return Object.fromEntries(Object.entries(spec).filter(([, value]) => value !== undefined));
}

function converted(templateSpec: unknown, overrides: Partial<ReverseContext> = {}) {
  return expectOk(toMapi(templateSpec, overrides)).value;
}

describe('azureConverter.toMapi', () => {
  it('converts a template of the forward converter with every Machine API default written', () => {
    const result = expectOk(toMapi(template()));
    expect(result.value).to.deep.equal(providerSpec());
    expect(result.warnings).to.deep.equal([]);
  });

  it('converts every field that has a Machine API equivalent', () => {
    const value = converted(
      template({
        image: {
          marketplace: {
            publisher: 'p',
            offer: 'o',
            sku: 's',
            version: '1',
            thirdPartyImage: true,
          },
        },
        osDisk: {
          osType: 'Windows',
          cachingType: 'ReadOnly',
          diskSizeGB: 256,
          managedDisk: {
            storageAccountType: 'Premium_LRS',
            diskEncryptionSet: { id: DES },
            securityProfile: {
              securityEncryptionType: 'DiskWithVMGuestState',
              diskEncryptionSet: { id: DES },
            },
          },
        },
        dataDisks: [
          {
            nameSuffix: 'etcd',
            diskSizeGB: 64,
            lun: 3,
            cachingType: 'ReadOnly',
            managedDisk: { storageAccountType: 'StandardSSD_LRS', diskEncryptionSet: { id: DES } },
          },
          {
            nameSuffix: 'ultra',
            diskSizeGB: 8,
            lun: 0,
            managedDisk: { storageAccountType: 'UltraSSD_LRS' },
          },
          {
            nameSuffix: 'logs',
            diskSizeGB: 8,
            lun: 1,
            managedDisk: { storageAccountType: 'Standard_LRS' },
          },
        ],
        sshPublicKey: SSH_KEY,
        additionalTags: { team: 'ops' },
        additionalCapabilities: { ultraSSDEnabled: true },
        allocatePublicIP: true,
        securityProfile: {
          encryptionAtHost: false,
          securityType: 'ConfidentialVM',
          uefiSettings: { secureBootEnabled: true, vTpmEnabled: true },
        },
        spotVMOptions: { maxPrice: '50m', evictionPolicy: 'Deallocate' },
        diagnostics: {
          boot: {
            storageAccountType: 'UserManaged',
            userManaged: { storageAccountURI: 'https://a.blob.core.windows.net/' },
          },
        },
        networkInterfaces: [
          { acceleratedNetworking: true, privateIPConfigs: 1, subnetName: SUBNET },
        ],
        capacityReservationGroupID: CRG,
        disableVMBootstrapExtension: true,
        enableIPForwarding: false,
        disableExtensionOperations: false,
      }),
    );
    expect(value).to.deep.equal(
      providerSpec({
        image: { publisher: 'p', offer: 'o', sku: 's', version: '1', type: 'MarketplaceWithPlan' },
        osDisk: {
          osType: 'Windows',
          diskSizeGB: 256,
          cachingType: 'ReadOnly',
          managedDisk: {
            storageAccountType: 'Premium_LRS',
            diskEncryptionSet: { id: DES },
            securityProfile: {
              securityEncryptionType: 'DiskWithVMGuestState',
              diskEncryptionSet: { id: DES },
            },
          },
        },
        dataDisks: [
          {
            nameSuffix: 'etcd',
            diskSizeGB: 64,
            managedDisk: { storageAccountType: 'StandardSSD_LRS', diskEncryptionSet: { id: DES } },
            lun: 3,
            cachingType: 'ReadOnly',
            deletionPolicy: 'Delete',
          },
          // CAPZ's webhook defaults: no caching for Ultra disks, ReadWrite for the others.
          {
            nameSuffix: 'ultra',
            diskSizeGB: 8,
            managedDisk: { storageAccountType: 'UltraSSD_LRS' },
            lun: 0,
            cachingType: 'None',
            deletionPolicy: 'Delete',
          },
          {
            nameSuffix: 'logs',
            diskSizeGB: 8,
            managedDisk: { storageAccountType: 'Standard_LRS' },
            lun: 1,
            cachingType: 'ReadWrite',
            deletionPolicy: 'Delete',
          },
        ],
        sshPublicKey: SSH_KEY,
        tags: { team: 'ops' },
        ultraSSDCapability: 'Enabled',
        publicIP: true,
        acceleratedNetworking: true,
        securityProfile: {
          encryptionAtHost: false,
          settings: {
            securityType: 'ConfidentialVM',
            confidentialVM: {
              uefiSettings: { secureBoot: 'Enabled', virtualizedTrustedPlatformModule: 'Enabled' },
            },
          },
        },
        spotVMOptions: { maxPrice: '50m' },
        diagnostics: {
          boot: {
            storageAccountType: 'CustomerManaged',
            customerManaged: { storageAccountURI: 'https://a.blob.core.windows.net/' },
          },
        },
        capacityReservationGroupID: CRG,
      }),
    );
  });

  describe('defaults CAPZ applies to an unset field come back as its value', () => {
    const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
      [
        'osType and cachingType (CRD)',
        { osDisk: { diskSizeGB: 30 } },
        { osDisk: { osType: 'Linux', diskSizeGB: 30, cachingType: 'None' } },
      ],
      [
        'no diagnostics: managed boot diagnostics (machine webhook)',
        { diagnostics: undefined },
        { diagnostics: { boot: { storageAccountType: 'AzureManaged' } } },
      ],
      [
        'diagnostics without boot',
        { diagnostics: {} },
        { diagnostics: { boot: { storageAccountType: 'AzureManaged' } } },
      ],
      [
        'Managed boot diagnostics',
        { diagnostics: { boot: { storageAccountType: 'Managed' } } },
        { diagnostics: { boot: { storageAccountType: 'AzureManaged' } } },
      ],
      ['Spot without eviction policy', { spotVMOptions: {} }, { spotVMOptions: {} }],
      [
        'Spot price as a decimal',
        { spotVMOptions: { maxPrice: '0.05' } },
        { spotVMOptions: { maxPrice: '50m' } },
      ],
      [
        'Spot price -1 as a number',
        { spotVMOptions: { maxPrice: -1 } },
        { spotVMOptions: { maxPrice: '-1' } },
      ],
      [
        'thirdPartyImage unset',
        { image: { marketplace: { publisher: 'p', offer: 'o', sku: 's', version: '1' } } },
        {
          image: { publisher: 'p', offer: 'o', sku: 's', version: '1', type: 'MarketplaceNoPlan' },
        },
      ],
      [
        'TrustedLaunch UEFI switches',
        { securityProfile: { securityType: 'TrustedLaunch', uefiSettings: { vTpmEnabled: true } } },
        {
          securityProfile: {
            settings: {
              securityType: 'TrustedLaunch',
              trustedLaunch: {
                uefiSettings: {
                  secureBoot: 'Disabled',
                  virtualizedTrustedPlatformModule: 'Enabled',
                },
              },
            },
          },
        },
      ],
      [
        'Ultra SSD disabled',
        { additionalCapabilities: { ultraSSDEnabled: false } },
        { ultraSSDCapability: 'Disabled' },
      ],
      ['empty security profile', { securityProfile: {} }, {}],
      ['empty tags and data disks', { additionalTags: {}, dataDisks: [] }, {}],
    ];
    for (const [name, fields, expected] of cases) {
      it(name, () => {
        expect(converted(template(fields))).to.deep.equal(providerSpec(expected));
      });
    }

    it('an ephemeral OS disk with Spot: the eviction policy Delete CAPZ defaults to', () => {
      const osDisk = {
        osType: 'Linux',
        cachingType: 'ReadOnly',
        diskSizeGB: 64,
        diffDiskSettings: { option: 'Local' },
      };
      expect(converted(template({ osDisk, spotVMOptions: {} }))).to.deep.equal(
        providerSpec({
          osDisk: {
            osType: 'Linux',
            diskSizeGB: 64,
            cachingType: 'ReadOnly',
            diskSettings: { ephemeralStorageLocation: 'Local' },
          },
          spotVMOptions: {},
        }),
      );
    });

    it('accelerated networking left to CAPZ: false, with a warning', () => {
      const result = expectOk(toMapi(template({ networkInterfaces: [{ subnetName: SUBNET }] })));
      expect(result.value).to.deep.equal(providerSpec());
      expect(result.warnings).to.have.length(1);
      expect(result.warnings[0]).to.match(
        /^spec\.template\.spec\.networkInterfaces\[0\]\.acceleratedNetworking is not set, so CAPZ enables/,
      );
    });

    it('the deprecated top-level subnetName and acceleratedNetworking', () => {
      const fields = {
        networkInterfaces: undefined,
        subnetName: SUBNET,
        acceleratedNetworking: true,
      };
      expect(converted(template(fields))).to.deep.equal(
        providerSpec({ acceleratedNetworking: true }),
      );
    });
  });

  describe('context', () => {
    it("takes the zone from the MachineSet's failure domain, before the template's", () => {
      expect(converted(template({ failureDomain: '1' }))).to.deep.equal(
        providerSpec({ zone: '2' }),
      );
      expect(
        converted(template({ failureDomain: '1' }), { failureDomain: undefined }),
      ).to.deep.equal(providerSpec({ zone: '1' }));
    });

    it('leaves zone and userDataSecret out when the MachineSet has neither', () => {
      const value = converted(template(), {
        failureDomain: undefined,
        userDataSecretName: undefined,
      });
      expect(value).to.deep.equal(providerSpec({ zone: undefined, userDataSecret: undefined }));
      expect(value).to.not.have.any.keys('zone', 'userDataSecret');
    });

    it('writes no resource groups or vnet the Infrastructure does not name', () => {
      const bare: Infrastructure = {
        ...infrastructure,
        status: { platformStatus: { type: 'Azure' } },
      };
      expect(converted(template(), { infrastructure: bare })).to.deep.equal(
        providerSpec({
          resourceGroup: undefined,
          networkResourceGroup: undefined,
          vnet: undefined,
        }),
      );
    });
  });

  describe('the current providerSpec', () => {
    const installer = (): Record<string, unknown> => ({
      apiVersion: 'azureproviderconfig.openshift.io/v1beta1',
      kind: 'AzureMachineProviderSpec',
      metadata: { creationTimestamp: null },
      credentialsSecret: { name: 'azure-cloud-credentials', namespace: 'openshift-machine-api' },
      location: 'eastus',
      resourceGroup: RG,
      networkResourceGroup: RG,
      vnet: `${INFRA}-vnet`,
      publicLoadBalancer: INFRA,
      vmSize: 'Standard_D4s_v3',
      image: {
        publisher: 'azureopenshift',
        offer: 'aro4',
        sku: '419-v2',
        version: '419.6.20250523',
        resourceID: '',
        type: '',
      },
      osDisk: {
        osType: 'Linux',
        diskSizeGB: 128,
        managedDisk: { storageAccountType: 'Premium_LRS' },
        diskSettings: {},
      },
      diagnostics: {},
      subnet: SUBNET,
      zone: '2',
      userDataSecret: { name: 'worker-user-data', namespace: 'openshift-machine-api' },
    });

    it('gives it back unchanged (but for the current apiVersion) when the template is what it converts to', () => {
      const result = expectOk(toMapi(template(), { current: installer() }));
      expect(result.value).to.deep.equal({
        ...installer(),
        apiVersion: 'machine.openshift.io/v1beta1',
      });
      expect(result.warnings).to.deep.equal([]);
    });

    it('keeps every field Cluster API cannot express, and the spellings of unchanged fields', () => {
      const value = converted(template({ vmSize: 'Standard_D8s_v5' }), { current: installer() });
      expect(value).to.deep.equal({
        ...installer(),
        apiVersion: 'machine.openshift.io/v1beta1',
        vmSize: 'Standard_D8s_v5',
      });
    });

    it('lists the fields it keeps', () => {
      expect(KEPT_FROM_CURRENT).to.have.members([
        'credentialsSecret',
        'location',
        'resourceGroup',
        'networkResourceGroup',
        'vnet',
        'publicLoadBalancer',
        'internalLoadBalancer',
        'metadata',
      ]);
    });

    it('a changed field takes the canonical spelling', () => {
      const value = converted(
        template({ osDisk: { osType: 'Linux', cachingType: 'None', diskSizeGB: 256 } }),
        {
          current: installer(),
        },
      );
      expect(value.osDisk).to.deep.equal({ osType: 'Linux', diskSizeGB: 256, cachingType: 'None' });
      expect(value.image).to.deep.equal(installer().image);
    });

    it('replaces a kept field that is not valid by its default, and drops fields Cluster API refuses, with warnings', () => {
      const current = {
        ...installer(),
        resourceGroup: 'other-rg',
        securityGroup: 'nsg',
        credentialsSecret: { name: 'mine' },
      };
      const result = expectOk(toMapi(template(), { current }));
      expect(result.value).to.deep.equal({
        ...installer(),
        apiVersion: 'machine.openshift.io/v1beta1',
        credentialsSecret: { name: 'azure-cloud-credentials', namespace: 'openshift-machine-api' },
      });
      expect(result.warnings).to.deep.equal(
        ['credentialsSecret', 'resourceGroup', 'securityGroup'].map(
          (key) =>
            `spec.template.spec.providerSpec.value.${key} of the Machine API MachineSet is not kept: Cluster API cannot express it and the providerSpec with it would not convert to this template, so it is ${key === 'securityGroup' ? 'removed' : 'reset to its default'}.`,
        ),
      );
    });

    it('keeps the internal load balancer of a control-plane MachineSet only', () => {
      const current = { ...installer(), internalLoadBalancer: `${INFRA}-internal` };
      expect(converted(template(), { current, controlPlane: true })).to.include({
        internalLoadBalancer: `${INFRA}-internal`,
      });
      expect(converted(template(), { current })).to.not.have.property('internalLoadBalancer');
    });

    it('ignores a current providerSpec that is not an object', () => {
      expect(converted(template(), { current: 'garbage' })).to.deep.equal(providerSpec());
    });
  });

  describe('refuses, with the template path', () => {
    const nic = (fields: Record<string, unknown>) => [
      { acceleratedNetworking: false, privateIPConfigs: 1, subnetName: SUBNET, ...fields },
    ];
    const cases: [string, Record<string, unknown>, [string, RegExp][]][] = [
      [
        'an unknown field',
        { bogus: 1 },
        [
          [
            `${PATH}.bogus`,
            /^is not a field this controller knows how to convert to Machine API, .*correct its spelling, or keep the MachineSet on Cluster API\.$/,
          ],
        ],
      ],
      [
        'an unknown nested field',
        { osDisk: { osType: 'Linux', diskSizeGB: 30, typo: 1 } },
        [[`${PATH}.osDisk.typo`, /to Machine API/]],
      ],
      [
        'a wrong type',
        { vmSize: 3 },
        [[`${PATH}.vmSize`, /must be a string, but is the number 3/]],
      ],
      ['no vmSize', { vmSize: undefined }, [[`${PATH}.vmSize`, /is required/]]],
      ['no image', { image: undefined }, [[`${PATH}.image`, /reference image/]]],
      [
        'an image by ID',
        { image: { id: '/subscriptions/s/resourceGroups/r/providers/Microsoft.Compute/images/i' } },
        [[`${PATH}.image.id`, /relative to the subscription/]],
      ],
      [
        'a compute gallery image',
        { image: { computeGallery: { gallery: 'g', name: 'n', version: '1' } } },
        [[`${PATH}.image.computeGallery`, /gallery image/]],
      ],
      [
        'a shared gallery image',
        { image: { sharedGallery: {} } },
        [[`${PATH}.image.sharedGallery`, /gallery image/]],
      ],
      [
        'an incomplete Marketplace image',
        { image: { marketplace: { publisher: 'p', offer: 'o', sku: 's' } } },
        [[`${PATH}.image.marketplace.version`, /is required/]],
      ],
      [
        'a system-assigned identity',
        { identity: 'SystemAssigned' },
        [[`${PATH}.identity`, /is SystemAssigned, but Machine API/]],
      ],
      [
        'user-assigned identities',
        { identity: 'None', userAssignedIdentities: [{ providerID: 'x' }] },
        [[`${PATH}.userAssignedIdentities`, /no Machine API equivalent/]],
      ],
      [
        'a role for the system identity',
        { systemAssignedIdentityRole: { scope: 's' } },
        [[`${PATH}.systemAssignedIdentityRole`, /no Machine API equivalent/]],
      ],
      [
        'a role assignment name',
        { roleAssignmentName: 'r' },
        [[`${PATH}.roleAssignmentName`, /no Machine API equivalent/]],
      ],
      ['a providerID', { providerID: 'azure:///x' }, [[`${PATH}.providerID`, /remove providerID/]]],
      [
        'VM extensions',
        { vmExtensions: [{ name: 'e', publisher: 'p', version: '1' }] },
        [[`${PATH}.vmExtensions`, /installs VM extensions/]],
      ],
      [
        'no extension operations',
        { disableExtensionOperations: true },
        [[`${PATH}.disableExtensionOperations`, /no Machine API equivalent/]],
      ],
      [
        'IP forwarding',
        { enableIPForwarding: true },
        [[`${PATH}.enableIPForwarding`, /no Machine API equivalent/]],
      ],
      [
        'DNS servers',
        { dnsServers: ['10.0.0.10'] },
        [[`${PATH}.dnsServers`, /no Machine API equivalent/]],
      ],
      ['no OS disk', { osDisk: undefined }, [[`${PATH}.osDisk`, /needs the OS disk/]]],
      [
        'no OS disk size',
        { osDisk: { osType: 'Linux' } },
        [[`${PATH}.osDisk.diskSizeGB`, /is not set; set the OS disk size/]],
      ],
      [
        'an OS disk size outside the limits',
        { osDisk: { osType: 'Linux', diskSizeGB: 4000 } },
        [[PATH, /whose osDisk\.diskSizeGB is 4000.*; fix the template field/]],
      ],
      [
        'encryption without a storage type',
        {
          osDisk: {
            osType: 'Linux',
            diskSizeGB: 30,
            managedDisk: { diskEncryptionSet: { id: DES } },
          },
        },
        [[`${PATH}.osDisk.managedDisk.storageAccountType`, /is not set/]],
      ],
      [
        'an ephemeral disk placement',
        {
          osDisk: {
            osType: 'Linux',
            cachingType: 'ReadOnly',
            diskSizeGB: 30,
            diffDiskSettings: { option: 'Local', placement: 'ResourceDisk' },
          },
        },
        [[`${PATH}.osDisk.diffDiskSettings.placement`, /cannot choose where Azure places/]],
      ],
      [
        'a data disk without storage type',
        { dataDisks: [{ nameSuffix: 'd', diskSizeGB: 8, lun: 0 }] },
        [[`${PATH}.dataDisks[0].managedDisk.storageAccountType`, /Premium_LRS/]],
      ],
      [
        'a data disk without lun or name',
        { dataDisks: [{ diskSizeGB: 8, managedDisk: { storageAccountType: 'Premium_LRS' } }] },
        [
          [`${PATH}.dataDisks[0].lun`, /logical unit number/],
          [`${PATH}.dataDisks[0].nameSuffix`, /is not set/],
        ],
      ],
      [
        'a data disk without size',
        {
          dataDisks: [
            { nameSuffix: 'd', lun: 0, managedDisk: { storageAccountType: 'Premium_LRS' } },
          ],
        },
        [[`${PATH}.dataDisks[0].diskSizeGB`, /is not set/]],
      ],
      [
        'a data disk security profile',
        {
          dataDisks: [
            {
              nameSuffix: 'd',
              diskSizeGB: 8,
              lun: 0,
              managedDisk: {
                storageAccountType: 'Premium_LRS',
                securityProfile: { securityEncryptionType: 'VMGuestStateOnly' },
              },
            },
          ],
        },
        [[`${PATH}.dataDisks[0].managedDisk.securityProfile`, /no Machine API equivalent/]],
      ],
      [
        'duplicate luns',
        {
          dataDisks: [0, 1].map((i) => ({
            nameSuffix: `d${i}`,
            diskSizeGB: 8,
            lun: 0,
            managedDisk: { storageAccountType: 'Premium_LRS' },
          })),
        },
        [[PATH, /dataDisks\[1\]\.lun is 0, which another data disk already uses/]],
      ],
      [
        'two network interfaces',
        { networkInterfaces: [...nic({}), ...nic({})] },
        [[`${PATH}.networkInterfaces`, /has 2 network interfaces/]],
      ],
      [
        'several IP configurations',
        { networkInterfaces: nic({ privateIPConfigs: 2 }) },
        [[`${PATH}.networkInterfaces[0].privateIPConfigs`, /one IP configuration/]],
      ],
      [
        'no subnet',
        { networkInterfaces: [{ acceleratedNetworking: false }] },
        [[`${PATH}.networkInterfaces[0].subnetName`, /node subnet/]],
      ],
      [
        'no network interface or subnet',
        { networkInterfaces: undefined, acceleratedNetworking: false },
        [[`${PATH}.subnetName`, /node subnet/]],
      ],
      [
        'deprecated fields beside networkInterfaces',
        { subnetName: SUBNET, acceleratedNetworking: true },
        [
          [`${PATH}.subnetName`, /together with networkInterfaces/],
          [`${PATH}.acceleratedNetworking`, /together with networkInterfaces/],
        ],
      ],
      [
        'UEFI settings without a security type',
        { securityProfile: { uefiSettings: { secureBootEnabled: true } } },
        [[`${PATH}.securityProfile.uefiSettings`, /without a securityType/]],
      ],
      [
        'TrustedLaunch with nothing enabled',
        { securityProfile: { securityType: 'TrustedLaunch' } },
        [[`${PATH}.securityProfile.securityType`, /neither secure boot nor vTPM/]],
      ],
      [
        'a Confidential VM without vTPM',
        {
          securityProfile: { securityType: 'ConfidentialVM', uefiSettings: { vTpmEnabled: false } },
        },
        [[`${PATH}.securityProfile.uefiSettings.vTpmEnabled`, /always enables the vTPM/]],
      ],
      [
        'an unknown security type',
        { securityProfile: { securityType: 'Standard' } },
        [[`${PATH}.securityProfile.securityType`, /not supported/]],
      ],
      [
        'Spot VMs deleted on eviction',
        { spotVMOptions: { evictionPolicy: 'Delete' } },
        [[`${PATH}.spotVMOptions.evictionPolicy`, /deallocates evicted Spot VMs/]],
      ],
      [
        'Spot VMs with an ephemeral disk deallocated',
        {
          osDisk: {
            osType: 'Linux',
            cachingType: 'ReadOnly',
            diskSizeGB: 30,
            diffDiskSettings: { option: 'Local' },
          },
          spotVMOptions: { evictionPolicy: 'Deallocate' },
        },
        [[`${PATH}.spotVMOptions.evictionPolicy`, /cannot deallocate/]],
      ],
      [
        'a Spot price that is not a price',
        { spotVMOptions: { maxPrice: '1Ki' } },
        [[`${PATH}.spotVMOptions.maxPrice`, /not a decimal number/]],
      ],
      [
        'a Spot price of the wrong type',
        { spotVMOptions: { maxPrice: true } },
        [[`${PATH}.spotVMOptions.maxPrice`, /must be a price/]],
      ],
      [
        'boot diagnostics without type',
        { diagnostics: { boot: {} } },
        [[`${PATH}.diagnostics.boot.storageAccountType`, /is not set/]],
      ],
      [
        'UserManaged diagnostics without URI',
        { diagnostics: { boot: { storageAccountType: 'UserManaged' } } },
        [[`${PATH}.diagnostics.boot.userManaged.storageAccountURI`, /is not set/]],
      ],
      [
        'userManaged with Managed diagnostics',
        {
          diagnostics: {
            boot: {
              storageAccountType: 'Managed',
              userManaged: { storageAccountURI: 'https://a/' },
            },
          },
        },
        [
          [
            `${PATH}.diagnostics.boot.userManaged`,
            /only used when storageAccountType is UserManaged/,
          ],
        ],
      ],
      [
        'an SSH key that is not one',
        { sshPublicKey: 'not a key' },
        [[`${PATH}.sshPublicKey`, /base64-encoded OpenSSH/]],
      ],
      [
        'a malformed capacity reservation group',
        { capacityReservationGroupID: 'crg' },
        [[`${PATH}.capacityReservationGroupID`, /capacity reservation group/]],
      ],
      [
        'a tag that is not a string',
        { additionalTags: { team: 1 } },
        [[`${PATH}.additionalTags[team]`, /must be a string/]],
      ],
    ];
    for (const [name, fields, expected] of cases) {
      it(name, () => {
        expectFieldErrors(expectErrors(toMapi(template(fields))), expected);
      });
    }

    it('a template spec that is not an object', () => {
      expectFieldErrors(expectErrors(toMapi([1])), [[PATH, /must be an object, but is an array/]]);
    });
  });

  it('never throws, and names a template path in every error, whatever the input', () => {
    const keys = Object.keys(template()).concat(['dataDisks', 'securityProfile', 'spotVMOptions']);
    const templates = fc.oneof(
      fc.anything(),
      fc.dictionary(fc.constantFrom(...keys), fc.anything()).map((fields) => template(fields)),
    );
    fc.assert(
      fc.property(templates, fc.anything(), fc.boolean(), (spec, current, controlPlane) => {
        const result = toMapi(spec, { current, controlPlane });
        if (result.ok) {
          expect(result.value).to.include({ kind: 'AzureMachineProviderSpec' });
          return;
        }
        expect(result.errors).to.have.length.above(0);
        for (const error of result.errors) expect(error.path.startsWith(PATH)).to.equal(true);
      }),
      { numRuns: 200 },
    );
  });
});
