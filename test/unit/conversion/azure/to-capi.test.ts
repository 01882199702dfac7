// Table-driven tests of the Azure converter: every mapped field, every rejection, every warning.
import { expect } from 'chai';
import type { Infrastructure } from '../../../../src/api/types.js';
import { azureConverter } from '../../../../src/conversion/azure/index.js';
import { canonicalDecimalQuantity } from '../../../../src/conversion/azure/quantity.js';
import type {
  Conversion,
  ConversionContext,
  ProviderConversion,
} from '../../../../src/conversion/types.js';
import { azureFixture } from '../../../support/fixtures/azure.js';
import {
  applyPatch,
  expectErrors,
  expectFieldErrors,
  expectOk,
  PROVIDER_SPEC_PATH,
  providerSpecOf,
  itConvertsPurely,
  defaultedUserDataCases,
} from '../../../support/conversion.js';

const PATH = PROVIDER_SPEC_PATH;
const INFRA = 'demo-abc12';
const RG = 'demo-abc12-rg';
const SUBNET = 'demo-abc12-worker-subnet';
const DES = `/subscriptions/0000/resourceGroups/${RG}/providers/Microsoft.Compute/diskEncryptionSets/des`;
const CRG = `/subscriptions/0000/resourceGroups/${RG}/providers/Microsoft.Compute/capacityReservationGroups/crg`;
const SSH_KEY = Buffer.from(
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGmJ0nR7fQm2J0x2m6uZk5Xk8w0Zb3yH3b9sQ3gQx7Yq admin@example\n',
).toString('base64');

type AzureStatus = { resourceGroupName?: string; networkResourceGroupName?: string };

/** `null`: an Infrastructure without Azure status. */
function infrastructure(azure: AzureStatus | null = { resourceGroupName: RG }): Infrastructure {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    status: {
      infrastructureName: INFRA,
      platformStatus: azure === null ? { type: 'Azure' } : { type: 'Azure', azure },
    },
  };
}

function context(overrides: Partial<ConversionContext> = {}): ConversionContext {
  return { infrastructure: infrastructure(), path: PATH, controlPlane: false, ...overrides };
}

/** The smallest providerSpec that converts. */
function minimalSpec(): Record<string, unknown> {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'AzureMachineProviderSpec',
    vmSize: 'Standard_D4s_v3',
    image: { publisher: 'azureopenshift', offer: 'aro4', sku: '419-v2', version: '419.6.20250523' },
    osDisk: {
      osType: 'Linux',
      diskSizeGB: 128,
      managedDisk: { storageAccountType: 'Premium_LRS' },
    },
    subnet: SUBNET,
    userDataSecret: { name: 'worker-user-data' },
  };
}

/** The tag Machine API's Azure provider gives every VM, which the template carries. */
const OWNED = { [`kubernetes.io_cluster.${INFRA}`]: 'owned' };

/**
 * What the minimal spec converts to: every default CAPZ would add is written out, and the
 * cluster's ownership tag.
 */
function minimalTemplate(): Record<string, unknown> {
  return {
    additionalTags: OWNED,
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
  };
}

/** The minimal template's osDisk with some fields replaced. */
function osDisk(fields: Record<string, unknown>): Record<string, unknown> {
  return merged(minimalTemplate().osDisk as Record<string, unknown>, fields);
}

function nic(fields: Record<string, unknown>): Record<string, unknown>[] {
  return [{ acceleratedNetworking: false, privateIPConfigs: 1, subnetName: SUBNET, ...fields }];
}

function convert(
  providerSpec: unknown,
  overrides: Partial<ConversionContext> = {},
): Conversion<ProviderConversion> {
  return azureConverter.toCapi(providerSpec, context(overrides));
}

/** The minimal template with `fields`; tags join the ownership tag. */
function templateWith(fields: Record<string, unknown> = {}): Record<string, unknown> {
  const template = merged(minimalTemplate(), fields);
  const tags = fields.additionalTags as Record<string, string> | undefined;
  if (tags) template.additionalTags = { ...tags, ...OWNED };
  return template;
}

/** Merges `fields` into `base`; an `undefined` value removes the key. */
function merged(
  base: Record<string, unknown>,
  fields: Record<string, unknown> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) delete out[key];
    else out[key] = value;
  }
  return out;
}

describe('azureConverter', () => {
  it('describes the Azure platform and its template', () => {
    expect(azureConverter.platform).to.equal('Azure');
    expect(azureConverter.providerSpecKind).to.equal('AzureMachineProviderSpec');
    expect(azureConverter.template).to.deep.equal({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'AzureMachineTemplate',
      plural: 'azuremachinetemplates',
    });
  });

  describe("the cluster's tags, which Machine API gives every VM", () => {
    const tagged = (): Infrastructure => {
      const infra = infrastructure();
      infra.status!.platformStatus!.azure!.resourceTags = [
        { key: 'cost-center', value: 'c42' },
        { key: 'team', value: 'everyone' },
      ];
      return infra;
    };
    const own = { team: 'ops', [`kubernetes.io_cluster.${INFRA}`]: 'shared' };

    it('join the providerSpec’s, which win on the same key; the ownership tag wins over all', () => {
      const { value } = expectOk(
        convert({ ...minimalSpec(), tags: own }, { infrastructure: tagged() }),
      );
      expect(value.templateSpec.additionalTags).to.deep.equal({
        'cost-center': 'c42',
        team: 'ops',
        [`kubernetes.io_cluster.${INFRA}`]: 'owned',
      });
    });

    it('leave the reverse conversion: Machine API adds them by itself', () => {
      const infra = tagged();
      const { value } = expectOk(
        convert({ ...minimalSpec(), tags: own }, { infrastructure: infra }),
      );
      const back = azureConverter.toMapi?.(value.templateSpec, {
        infrastructure: infra,
        path: 'spec.template.spec',
        controlPlane: false,
      });
      expect(back?.ok, JSON.stringify(back)).to.equal(true);
      expect((back as { value: { tags?: unknown } }).value.tags).to.deep.equal({ team: 'ops' });
    });
  });

  it('converts an OpenShift installer worker providerSpec to the full expected template', () => {
    const installerSpec = {
      acceleratedNetworking: true,
      apiVersion: 'machine.openshift.io/v1beta1',
      credentialsSecret: { name: 'azure-cloud-credentials', namespace: 'openshift-machine-api' },
      diagnostics: {},
      image: {
        offer: 'aro4',
        publisher: 'azureopenshift',
        resourceID: '',
        sku: '419-v2',
        type: 'MarketplaceNoPlan',
        version: '419.6.20250523',
      },
      kind: 'AzureMachineProviderSpec',
      location: 'eastus',
      metadata: { creationTimestamp: null },
      networkResourceGroup: RG,
      osDisk: {
        diskSettings: {},
        diskSizeGB: 128,
        managedDisk: {
          securityProfile: { diskEncryptionSet: {} },
          storageAccountType: 'Premium_LRS',
        },
        osType: 'Linux',
      },
      publicIP: false,
      publicLoadBalancer: INFRA,
      resourceGroup: RG,
      securityProfile: { encryptionAtHost: true, settings: {} },
      subnet: SUBNET,
      tags: { 'cost-center': 'platform', owner: 'ops' },
      userDataSecret: { name: 'worker-user-data' },
      vmSize: 'Standard_D8s_v5',
      vnet: `${INFRA}-vnet`,
      zone: '2',
    };
    const result = expectOk(convert(installerSpec));
    expect(result.value).to.deep.equal({
      templateSpec: {
        vmSize: 'Standard_D8s_v5',
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
        additionalTags: { 'cost-center': 'platform', owner: 'ops', ...OWNED },
        securityProfile: { encryptionAtHost: true },
        diagnostics: { boot: { storageAccountType: 'Disabled' } },
        networkInterfaces: [
          { acceleratedNetworking: true, privateIPConfigs: 1, subnetName: SUBNET },
        ],
      },
      failureDomain: '2',
      userDataSecretName: 'worker-user-data',
    });
    expect(result.warnings).to.deep.equal([
      `${PATH}.publicLoadBalancer names the cluster's public load balancer "${INFRA}"; Cluster API ` +
        "attaches machines to the load balancers configured on the cluster's AzureCluster (the " +
        'node outbound load balancer for workers, the API server load balancers for control-plane ' +
        'machines), so it is not converted; make sure the AzureCluster configures it.',
    ]);
  });

  describe('maps every field', () => {
    interface MappingCase {
      name: string;
      /** Fields merged into the minimal providerSpec; `undefined` removes one. */
      input: Record<string, unknown>;
      /** Fields merged into the minimal template; `undefined` removes one. */
      template?: Record<string, unknown>;
      failureDomain?: string;
      userDataSecretName?: string;
      infrastructure?: Infrastructure;
      controlPlane?: boolean;
    }

    const confidentialVM = (secureBoot: string) => ({
      securityType: 'ConfidentialVM',
      confidentialVM: {
        uefiSettings: { secureBoot, virtualizedTrustedPlatformModule: 'Enabled' },
      },
    });

    const cases: MappingCase[] = [
      { name: 'the minimal spec, with the CRD and webhook defaults materialised', input: {} },
      {
        name: 'the legacy apiVersion azureproviderconfig.openshift.io/v1beta1',
        input: { apiVersion: 'azureproviderconfig.openshift.io/v1beta1' },
      },
      {
        name: 'image type MarketplaceWithPlan → marketplace.thirdPartyImage true (a purchase plan)',
        input: {
          image: {
            publisher: 'redhat',
            offer: 'rh-ocp-worker',
            sku: 'rh-ocp-worker',
            version: '4.15.2024072409',
            type: 'MarketplaceWithPlan',
          },
        },
        template: {
          image: {
            marketplace: {
              publisher: 'redhat',
              offer: 'rh-ocp-worker',
              sku: 'rh-ocp-worker',
              version: '4.15.2024072409',
              thirdPartyImage: true,
            },
          },
        },
      },
      {
        name: 'image type MarketplaceNoPlan and an empty resourceID → thirdPartyImage false',
        input: {
          image: {
            publisher: 'azureopenshift',
            offer: 'aro4',
            sku: '419-v2',
            version: '419.6.20250523',
            resourceID: '',
            type: 'MarketplaceNoPlan',
          },
        },
      },
      {
        name: 'osDisk.osType Windows',
        input: {
          osDisk: {
            osType: 'Windows',
            diskSizeGB: 128,
            managedDisk: { storageAccountType: 'Premium_LRS' },
          },
        },
        template: { osDisk: osDisk({ osType: 'Windows' }) },
      },
      {
        name: 'osDisk without osType → Linux (the CRD default)',
        input: { osDisk: { diskSizeGB: 64, managedDisk: { storageAccountType: 'Premium_LRS' } } },
        template: { osDisk: osDisk({ diskSizeGB: 64 }) },
      },
      {
        name: 'osDisk.cachingType ReadWrite',
        input: {
          osDisk: {
            osType: 'Linux',
            diskSizeGB: 128,
            cachingType: 'ReadWrite',
            managedDisk: { storageAccountType: 'StandardSSD_LRS' },
          },
        },
        template: {
          osDisk: osDisk({
            cachingType: 'ReadWrite',
            managedDisk: { storageAccountType: 'StandardSSD_LRS' },
          }),
        },
      },
      {
        name: 'osDisk.diskSettings.ephemeralStorageLocation Local → diffDiskSettings.option Local',
        input: {
          osDisk: {
            osType: 'Linux',
            diskSizeGB: 100,
            cachingType: 'ReadOnly',
            diskSettings: { ephemeralStorageLocation: 'Local' },
            managedDisk: { storageAccountType: 'Standard_LRS' },
          },
        },
        template: {
          osDisk: {
            osType: 'Linux',
            cachingType: 'ReadOnly',
            diskSizeGB: 100,
            managedDisk: { storageAccountType: 'Standard_LRS' },
            diffDiskSettings: { option: 'Local' },
          },
        },
      },
      {
        name: 'osDisk.managedDisk.diskEncryptionSet.id',
        input: {
          osDisk: {
            osType: 'Linux',
            diskSizeGB: 128,
            managedDisk: { storageAccountType: 'Premium_LRS', diskEncryptionSet: { id: DES } },
          },
        },
        template: {
          osDisk: osDisk({
            managedDisk: { storageAccountType: 'Premium_LRS', diskEncryptionSet: { id: DES } },
          }),
        },
      },
      {
        name: 'osDisk.managedDisk without a storage type → no managedDisk (Azure chooses, as before)',
        input: { osDisk: { osType: 'Linux', diskSizeGB: 128, managedDisk: {} } },
        template: { osDisk: osDisk({ managedDisk: undefined }) },
      },
      {
        name: 'dataDisks[] with every field, in order',
        input: {
          dataDisks: [
            {
              nameSuffix: 'etcd',
              diskSizeGB: 256,
              lun: 3,
              cachingType: 'ReadOnly',
              deletionPolicy: 'Delete',
              managedDisk: { storageAccountType: 'Premium_LRS', diskEncryptionSet: { id: DES } },
            },
            {
              nameSuffix: 'ultra_1',
              diskSizeGB: 4,
              lun: 0,
              cachingType: 'None',
              deletionPolicy: 'Delete',
              managedDisk: { storageAccountType: 'UltraSSD_LRS' },
            },
          ],
        },
        template: {
          dataDisks: [
            {
              nameSuffix: 'etcd',
              diskSizeGB: 256,
              managedDisk: { storageAccountType: 'Premium_LRS', diskEncryptionSet: { id: DES } },
              lun: 3,
              cachingType: 'ReadOnly',
            },
            {
              nameSuffix: 'ultra_1',
              diskSizeGB: 4,
              managedDisk: { storageAccountType: 'UltraSSD_LRS' },
              lun: 0,
              cachingType: 'None',
            },
          ],
        },
      },
      {
        name: 'dataDisks[]: Machine API defaults written out (lun 0, caching None, Premium_LRS)',
        input: { dataDisks: [{ nameSuffix: 'data', diskSizeGB: 32767, deletionPolicy: 'Delete' }] },
        template: {
          dataDisks: [
            {
              nameSuffix: 'data',
              diskSizeGB: 32767,
              managedDisk: { storageAccountType: 'Premium_LRS' },
              lun: 0,
              cachingType: 'None',
            },
          ],
        },
      },
      { name: 'an empty dataDisks list → nothing', input: { dataDisks: [] } },
      {
        name: 'sshPublicKey (base64, as both APIs take it)',
        input: { sshPublicKey: SSH_KEY },
        template: { sshPublicKey: SSH_KEY },
      },
      {
        name: 'tags → additionalTags, in order',
        input: { tags: { 'kubernetes.io_cluster.demo': 'owned', empty: '' } },
        template: { additionalTags: { 'kubernetes.io_cluster.demo': 'owned', empty: '' } },
      },
      { name: 'an empty tags map → nothing', input: { tags: {} } },
      {
        name: 'ultraSSDCapability Enabled → additionalCapabilities.ultraSSDEnabled true',
        input: { ultraSSDCapability: 'Enabled' },
        template: { additionalCapabilities: { ultraSSDEnabled: true } },
      },
      {
        name: 'ultraSSDCapability Disabled → additionalCapabilities.ultraSSDEnabled false',
        input: { ultraSSDCapability: 'Disabled' },
        template: { additionalCapabilities: { ultraSSDEnabled: false } },
      },
      {
        name: 'publicIP true → allocatePublicIP true',
        input: { publicIP: true },
        template: { allocatePublicIP: true },
      },
      { name: 'publicIP false → nothing (the CAPZ default)', input: { publicIP: false } },
      {
        name: 'acceleratedNetworking true → networkInterfaces[0].acceleratedNetworking',
        input: { acceleratedNetworking: true },
        template: { networkInterfaces: nic({ acceleratedNetworking: true }) },
      },
      {
        name: 'acceleratedNetworking false stays explicit (CAPZ would decide from the VM size)',
        input: { acceleratedNetworking: false },
      },
      {
        name: 'spotVMOptions {} → Spot with the Deallocate eviction policy written out',
        input: { spotVMOptions: {} },
        template: { spotVMOptions: { evictionPolicy: 'Deallocate' } },
      },
      {
        name: 'spotVMOptions.maxPrice "0.05" → "50m" (the canonical quantity)',
        input: { spotVMOptions: { maxPrice: '0.05' } },
        template: { spotVMOptions: { evictionPolicy: 'Deallocate', maxPrice: '50m' } },
      },
      {
        name: 'spotVMOptions.maxPrice -1 (a number: cap at the on-demand price)',
        input: { spotVMOptions: { maxPrice: -1 } },
        template: { spotVMOptions: { evictionPolicy: 'Deallocate', maxPrice: '-1' } },
      },
      {
        name: 'securityProfile.encryptionAtHost false stays explicit',
        input: { securityProfile: { encryptionAtHost: false } },
        template: { securityProfile: { encryptionAtHost: false } },
      },
      {
        name: 'securityProfile TrustedLaunch → securityType and both UEFI switches',
        input: {
          securityProfile: {
            settings: {
              securityType: 'TrustedLaunch',
              trustedLaunch: { uefiSettings: { secureBoot: 'Enabled' } },
            },
          },
        },
        template: {
          securityProfile: {
            securityType: 'TrustedLaunch',
            uefiSettings: { secureBootEnabled: true, vTpmEnabled: false },
          },
        },
      },
      {
        name: 'a Confidential VM with VMGuestStateOnly encryption',
        input: {
          osDisk: {
            osType: 'Linux',
            diskSizeGB: 128,
            managedDisk: {
              storageAccountType: 'Premium_LRS',
              securityProfile: { securityEncryptionType: 'VMGuestStateOnly' },
            },
          },
          securityProfile: { settings: confidentialVM('Disabled') },
        },
        template: {
          osDisk: osDisk({
            managedDisk: {
              storageAccountType: 'Premium_LRS',
              securityProfile: { securityEncryptionType: 'VMGuestStateOnly' },
            },
          }),
          securityProfile: {
            securityType: 'ConfidentialVM',
            uefiSettings: { secureBootEnabled: false, vTpmEnabled: true },
          },
        },
      },
      {
        name: 'a Confidential VM with DiskWithVMGuestState and its own disk encryption set',
        input: {
          osDisk: {
            osType: 'Linux',
            diskSizeGB: 128,
            managedDisk: {
              storageAccountType: 'Premium_LRS',
              securityProfile: {
                securityEncryptionType: 'DiskWithVMGuestState',
                diskEncryptionSet: { id: DES },
              },
            },
          },
          securityProfile: { encryptionAtHost: false, settings: confidentialVM('Enabled') },
        },
        template: {
          osDisk: osDisk({
            managedDisk: {
              storageAccountType: 'Premium_LRS',
              securityProfile: {
                securityEncryptionType: 'DiskWithVMGuestState',
                diskEncryptionSet: { id: DES },
              },
            },
          }),
          securityProfile: {
            encryptionAtHost: false,
            securityType: 'ConfidentialVM',
            uefiSettings: { secureBootEnabled: true, vTpmEnabled: true },
          },
        },
      },
      {
        name: 'diagnostics.boot AzureManaged → storageAccountType Managed',
        input: { diagnostics: { boot: { storageAccountType: 'AzureManaged' } } },
        template: { diagnostics: { boot: { storageAccountType: 'Managed' } } },
      },
      {
        name: 'diagnostics.boot CustomerManaged → UserManaged with the storage account URI',
        input: {
          diagnostics: {
            boot: {
              storageAccountType: 'CustomerManaged',
              customerManaged: { storageAccountURI: 'https://diag.blob.core.windows.net/' },
            },
          },
        },
        template: {
          diagnostics: {
            boot: {
              storageAccountType: 'UserManaged',
              userManaged: { storageAccountURI: 'https://diag.blob.core.windows.net/' },
            },
          },
        },
      },
      {
        name: 'capacityReservationGroupID',
        input: { capacityReservationGroupID: CRG },
        template: { capacityReservationGroupID: CRG },
      },
      { name: 'zone → failureDomain', input: { zone: '3' }, failureDomain: '3' },
      {
        name: 'userDataSecret.name → userDataSecretName (its namespace is never read)',
        input: { userDataSecret: { name: 'infra-user-data', namespace: 'openshift-machine-api' } },
        userDataSecretName: 'infra-user-data',
      },
      {
        name: "fields that name the cluster's own resources are redundant",
        input: {
          credentialsSecret: {
            name: 'azure-cloud-credentials',
            namespace: 'openshift-machine-api',
          },
          location: 'eastus',
          resourceGroup: RG,
          networkResourceGroup: RG,
          vnet: `${INFRA}-vnet`,
          metadata: { creationTimestamp: null },
        },
      },
      {
        name: 'resource group names compare case-insensitively, as in Azure',
        input: { resourceGroup: 'DEMO-abc12-RG', vnet: 'Demo-Abc12-Vnet' },
      },
      {
        name: 'networkResourceGroup is checked against networkResourceGroupName when set',
        input: { networkResourceGroup: 'shared-network-rg' },
        infrastructure: infrastructure({
          resourceGroupName: RG,
          networkResourceGroupName: 'shared-network-rg',
        }),
      },
      {
        name: 'empty strings of omitempty fields and nulls mean "not set"',
        input: {
          zone: '',
          location: '',
          securityGroup: '',
          availabilitySet: '',
          managedIdentity: '',
          sshPublicKey: '',
          publicLoadBalancer: '',
          internalLoadBalancer: '',
          capacityReservationGroupID: '',
          ultraSSDCapability: '',
          natRule: null,
          spotVMOptions: null,
          applicationSecurityGroups: [],
          securityProfile: { settings: {} },
          diagnostics: {},
        },
      },
    ];

    for (const c of cases) {
      it(c.name, () => {
        const result = expectOk(
          convert(merged(minimalSpec(), c.input), {
            controlPlane: c.controlPlane ?? false,
            infrastructure: c.infrastructure ?? infrastructure(),
          }),
        );
        expect(result.value.templateSpec).to.deep.equal(templateWith(c.template));
        expect(result.value.failureDomain).to.equal(c.failureDomain);
        expect(result.value.userDataSecretName).to.equal(
          c.userDataSecretName ?? 'worker-user-data',
        );
        expect(result.warnings).to.deep.equal([]);
      });
    }
  });

  describe('rejects what Cluster API cannot hold, with the field path', () => {
    interface RejectionCase {
      name: string;
      /** Fields merged into the minimal providerSpec; `undefined` removes one. */
      input: Record<string, unknown>;
      /** Every expected error, as path → a pattern its message must match. */
      errors: [path: string, message: RegExp][];
      controlPlane?: boolean;
    }

    const disk = (fields: Record<string, unknown>) => ({
      osDisk: { osType: 'Linux', diskSizeGB: 128, ...fields },
    });
    const managed = (fields: Record<string, unknown>) =>
      disk({ managedDisk: { storageAccountType: 'Premium_LRS', ...fields } });
    const dataDisk = (fields: Record<string, unknown>) => ({
      nameSuffix: 'data',
      diskSizeGB: 64,
      deletionPolicy: 'Delete',
      ...fields,
    });
    const encryptedOsDisk = (type: string) =>
      managed({ securityProfile: { securityEncryptionType: type } });
    const settings = (fields: Record<string, unknown>) => ({
      securityProfile: { settings: fields },
    });

    const cases: RejectionCase[] = [
      // kind and shape
      {
        name: "another platform's providerSpec: exactly one error, on kind",
        input: {
          apiVersion: 'machine.openshift.io/v1',
          kind: 'GCPMachineProviderSpec',
          machineType: 'n2-standard-4',
          vmSize: undefined,
        },
        errors: [
          [`${PATH}.kind`, /^is GCPMachineProviderSpec, .*set kind to AzureMachineProviderSpec\.$/],
        ],
      },
      {
        name: 'an unknown apiVersion',
        input: { apiVersion: 'machine.openshift.io/v1' },
        errors: [[`${PATH}.apiVersion`, /machine\.openshift\.io\/v1beta1/]],
      },
      {
        name: 'an unknown top-level field',
        input: { vmSise: 'Standard_D4s_v3' },
        errors: [[`${PATH}.vmSise`, /not a field .* remove the field or correct its spelling/]],
      },
      {
        name: 'unknown nested fields, at every depth',
        input: {
          image: { publisher: 'p', offer: 'o', sku: 's', version: 'v', plan: 'x' },
          osDisk: {
            osType: 'Linux',
            diskSizeGB: 128,
            managedDisk: { storageAccountType: 'Premium_LRS', tier: 'P10' },
            diskSettings: { placement: 'CacheDisk' },
          },
          dataDisks: [dataDisk({ iops: 100 })],
          spotVMOptions: { evictionPolicy: 'Delete' },
          securityProfile: {
            settings: {
              securityType: 'TrustedLaunch',
              trustedLaunch: { uefiSettings: { secureBoot: 'Enabled', measuredBoot: 'Enabled' } },
            },
          },
          diagnostics: { boot: { storageAccountType: 'AzureManaged', retention: 7 } },
          credentialsSecret: { name: 'azure-cloud-credentials', key: 'x' },
        },
        errors: [
          [`${PATH}.credentialsSecret.key`, /not a field/],
          [`${PATH}.image.plan`, /not a field/],
          [`${PATH}.osDisk.managedDisk.tier`, /not a field/],
          [`${PATH}.osDisk.diskSettings.placement`, /not a field/],
          [`${PATH}.dataDisks[0].iops`, /not a field/],
          [
            `${PATH}.securityProfile.settings.trustedLaunch.uefiSettings.measuredBoot`,
            /not a field/,
          ],
          [`${PATH}.spotVMOptions.evictionPolicy`, /not a field/],
          [`${PATH}.diagnostics.boot.retention`, /not a field/],
        ],
      },
      {
        name: 'values of the wrong type',
        input: {
          vmSize: 4,
          publicIP: 'yes',
          acceleratedNetworking: 1,
          tags: ['a'],
          dataDisks: [dataDisk({ diskSizeGB: '64', lun: 1.5 }), 'disk'],
          osDisk: { osType: 'Linux', diskSizeGB: 12.5, managedDisk: [] },
          zone: 1,
          applicationSecurityGroups: [7],
        },
        errors: [
          [`${PATH}.vmSize`, /must be a string, but is the number 4/],
          [`${PATH}.osDisk.diskSizeGB`, /must be an integer, but is the number 12.5/],
          [`${PATH}.osDisk.managedDisk`, /must be an object, but is an array/],
          [`${PATH}.dataDisks[0].diskSizeGB`, /must be an integer, but is the string "64"/],
          [`${PATH}.dataDisks[0].lun`, /must be an integer/],
          [`${PATH}.dataDisks[1]`, /must be an object, but is the string "disk"/],
          [`${PATH}.applicationSecurityGroups[0]`, /must be a string, but is the number 7/],
          [`${PATH}.acceleratedNetworking`, /must be true or false, but is the number 1/],
          [`${PATH}.publicIP`, /must be true or false, but is the string "yes"/],
          [`${PATH}.zone`, /must be a string/],
          [`${PATH}.tags`, /must be a map of tag names to values, but is an array/],
        ],
      },
      {
        name: 'a tag value that is not a string',
        input: { tags: { team: 'a', replicas: 3 } },
        errors: [[`${PATH}.tags[replicas]`, /must be a string, but is the number 3/]],
      },
      // required fields
      {
        name: 'no vmSize',
        input: { vmSize: undefined },
        errors: [[`${PATH}.vmSize`, /^is required; .*Standard_D4s_v3/]],
      },
      {
        name: 'no subnet',
        input: { subnet: '' },
        errors: [[`${PATH}.subnet`, /^is required; /]],
      },
      // image
      {
        name: 'no image',
        input: { image: undefined },
        errors: [[`${PATH}.image`, /^is required; .*Marketplace image/]],
      },
      {
        name: 'an image that names nothing (only empty strings)',
        input: { image: { publisher: '', offer: '', sku: '', version: '', resourceID: '' } },
        errors: [[`${PATH}.image`, /^names no image; /]],
      },
      {
        name: 'an image by resource ID (relative to the subscription Cluster API cannot know)',
        input: {
          image: {
            resourceID: `/resourceGroups/${RG}/providers/Microsoft.Compute/galleries/gallery_demo_abc12/images/demo-abc12-gen2/versions/latest`,
            publisher: '',
            offer: '',
            sku: '',
            version: '',
          },
        },
        errors: [
          [
            `${PATH}.image.resourceID`,
            /subscription.*switch the MachineSet to a Marketplace image/,
          ],
        ],
      },
      {
        name: 'an image by resource ID and Marketplace fields',
        input: { image: { resourceID: '/resourceGroups/rg/providers/x', publisher: 'p' } },
        errors: [
          [`${PATH}.image.resourceID`, /subscription/],
          [`${PATH}.image`, /sets both resourceID and Marketplace fields/],
        ],
      },
      {
        name: 'an incomplete Marketplace image',
        input: { image: { publisher: 'azureopenshift', offer: 'aro4' } },
        errors: [
          [`${PATH}.image.sku`, /is required for a Marketplace image/],
          [`${PATH}.image.version`, /is required for a Marketplace image/],
        ],
      },
      {
        name: 'image type ID without a resource ID',
        input: { image: { publisher: 'p', offer: 'o', sku: 's', version: 'v', type: 'ID' } },
        errors: [[`${PATH}.image.type`, /^is ID, but no resourceID is set/]],
      },
      {
        name: 'an unknown image type',
        input: { image: { publisher: 'p', offer: 'o', sku: 's', version: 'v', type: 'Gallery' } },
        errors: [[`${PATH}.image.type`, /"Gallery".*"MarketplaceNoPlan"/]],
      },
      // OS disk
      {
        name: 'no osDisk',
        input: { osDisk: undefined },
        errors: [[`${PATH}.osDisk`, /^is required; /]],
      },
      {
        name: 'no OS disk size',
        input: { osDisk: { osType: 'Linux' } },
        errors: [[`${PATH}.osDisk.diskSizeGB`, /^is required; .*between 1 and 2048/]],
      },
      {
        name: 'an OS disk of 0 GB',
        input: disk({ diskSizeGB: 0 }),
        errors: [
          [`${PATH}.osDisk.diskSizeGB`, /^is 0, but Cluster API accepts OS disks of 1 to 2048 GB/],
        ],
      },
      {
        name: 'an OS disk larger than Cluster API accepts',
        input: disk({ diskSizeGB: 4095 }),
        errors: [[`${PATH}.osDisk.diskSizeGB`, /^is 4095, .*1 to 2048 GB/]],
      },
      {
        name: 'an unknown osType',
        input: disk({ osType: 'linux' }),
        errors: [[`${PATH}.osDisk.osType`, /"linux".*"Linux", "Windows"/]],
      },
      {
        name: 'an unknown OS disk caching type',
        input: disk({ cachingType: 'WriteBack' }),
        errors: [[`${PATH}.osDisk.cachingType`, /"WriteBack"/]],
      },
      {
        name: 'an Ultra SSD OS disk',
        input: managed({ storageAccountType: 'UltraSSD_LRS' }),
        errors: [[`${PATH}.osDisk.managedDisk.storageAccountType`, /only for data disks/]],
      },
      {
        name: 'an unknown storage account type',
        input: managed({ storageAccountType: 'Premium' }),
        errors: [
          [`${PATH}.osDisk.managedDisk.storageAccountType`, /"Premium", which is not supported/],
        ],
      },
      {
        name: 'an encrypted OS disk without a storage type',
        input: disk({ managedDisk: { diskEncryptionSet: { id: DES } } }),
        errors: [
          [
            `${PATH}.osDisk.managedDisk.storageAccountType`,
            /^is required when the managed disk sets encryption options/,
          ],
        ],
      },
      {
        name: 'an unknown ephemeral storage location',
        input: disk({
          cachingType: 'ReadOnly',
          diskSettings: { ephemeralStorageLocation: 'Cache' },
        }),
        errors: [[`${PATH}.osDisk.diskSettings.ephemeralStorageLocation`, /"Cache".*"Local"/]],
      },
      {
        name: 'an ephemeral OS disk without ReadOnly caching',
        input: disk({ diskSettings: { ephemeralStorageLocation: 'Local' } }),
        errors: [
          [`${PATH}.osDisk.cachingType`, /^is not set, but Azure supports only ReadOnly caching/],
        ],
      },
      {
        name: 'an ephemeral OS disk with a disk encryption set',
        input: disk({
          cachingType: 'ReadOnly',
          diskSettings: { ephemeralStorageLocation: 'Local' },
          managedDisk: { storageAccountType: 'Standard_LRS', diskEncryptionSet: { id: DES } },
        }),
        errors: [[`${PATH}.osDisk.managedDisk.diskEncryptionSet`, /ephemeral OS disk/]],
      },
      {
        name: 'a security-profile disk encryption set without DiskWithVMGuestState',
        input: {
          ...managed({
            securityProfile: {
              securityEncryptionType: 'VMGuestStateOnly',
              diskEncryptionSet: { id: DES },
            },
          }),
          securityProfile: {
            settings: {
              securityType: 'ConfidentialVM',
              confidentialVM: { uefiSettings: { virtualizedTrustedPlatformModule: 'Enabled' } },
            },
          },
        },
        errors: [
          [
            `${PATH}.osDisk.managedDisk.securityProfile.diskEncryptionSet`,
            /only used when securityEncryptionType is DiskWithVMGuestState/,
          ],
        ],
      },
      {
        name: 'an unknown security encryption type',
        input: managed({ securityProfile: { securityEncryptionType: 'Full' } }),
        errors: [[`${PATH}.osDisk.managedDisk.securityProfile.securityEncryptionType`, /"Full"/]],
      },
      // data disks
      {
        name: 'data disks without nameSuffix, size or deletion policy',
        input: { dataDisks: [{ lun: 1 }] },
        errors: [
          [`${PATH}.dataDisks[0].nameSuffix`, /^is required; /],
          [`${PATH}.dataDisks[0].diskSizeGB`, /^is required; .*between 4 and 32767/],
          [`${PATH}.dataDisks[0].deletionPolicy`, /^is required; set it to Delete/],
        ],
      },
      {
        name: 'data disk names and sizes out of range',
        input: {
          dataDisks: [
            dataDisk({ nameSuffix: '-data', lun: 0 }),
            dataDisk({ nameSuffix: 'x'.repeat(79), lun: 1 }),
            dataDisk({ nameSuffix: 'small', diskSizeGB: 3, lun: 2 }),
            dataDisk({ nameSuffix: 'huge', diskSizeGB: 32768, lun: 3 }),
          ],
        },
        errors: [
          [`${PATH}.dataDisks[0].nameSuffix`, /^is "-data"; use at most 78 letters/],
          [`${PATH}.dataDisks[1].nameSuffix`, /use at most 78 letters/],
          [`${PATH}.dataDisks[2].diskSizeGB`, /^is 3, but a data disk must have 4 to 32767 GB/],
          [`${PATH}.dataDisks[3].diskSizeGB`, /^is 32768, /],
        ],
      },
      {
        name: 'duplicate data disk names and luns (a missing lun is 0)',
        input: {
          dataDisks: [
            dataDisk({ nameSuffix: 'a' }),
            dataDisk({ nameSuffix: 'a', lun: 1 }),
            dataDisk({ nameSuffix: 'b' }),
          ],
        },
        errors: [
          [`${PATH}.dataDisks[1].nameSuffix`, /another data disk already uses/],
          [`${PATH}.dataDisks[2].lun`, /^is 0, which another data disk already uses/],
        ],
      },
      {
        name: 'a lun out of range',
        input: { dataDisks: [dataDisk({ lun: 64 })] },
        errors: [
          [
            `${PATH}.dataDisks[0].lun`,
            /^is 64, but a logical unit number must be between 0 and 63/,
          ],
        ],
      },
      {
        name: 'an Ultra disk with caching',
        input: {
          dataDisks: [
            dataDisk({
              cachingType: 'ReadOnly',
              managedDisk: { storageAccountType: 'UltraSSD_LRS' },
            }),
          ],
        },
        errors: [
          [`${PATH}.dataDisks[0].cachingType`, /^is ReadOnly, but Ultra disks support no caching/],
        ],
      },
      {
        name: 'a data disk kept after its machine (Detach)',
        input: { dataDisks: [dataDisk({ deletionPolicy: 'Detach' })] },
        errors: [
          [
            `${PATH}.dataDisks[0].deletionPolicy`,
            /^is Detach, but Cluster API deletes the data disks/,
          ],
        ],
      },
      {
        name: 'an unknown deletion policy and data disk storage type',
        input: {
          dataDisks: [
            dataDisk({ deletionPolicy: 'Keep', managedDisk: { storageAccountType: 'HDD' } }),
          ],
        },
        errors: [
          [`${PATH}.dataDisks[0].deletionPolicy`, /"Keep"/],
          [`${PATH}.dataDisks[0].managedDisk.storageAccountType`, /"HDD"/],
        ],
      },
      // identity, credentials, placement
      {
        name: 'another credentials secret',
        input: { credentialsSecret: { name: 'my-creds', namespace: 'team-a' } },
        errors: [
          [
            `${PATH}.credentialsSecret.name`,
            /^is "my-creds", but Cluster API machines use the cluster's Azure identity/,
          ],
          [`${PATH}.credentialsSecret.namespace`, /^is "team-a", /],
        ],
      },
      {
        name: 'a managed identity (Cluster API needs its full resource ID)',
        input: { managedIdentity: `${INFRA}-identity` },
        errors: [[`${PATH}.managedIdentity`, /subscription.*remove managedIdentity/]],
      },
      {
        name: 'an existing availability set',
        input: { availabilitySet: `${INFRA}-cluster` },
        errors: [[`${PATH}.availabilitySet`, /cannot use another one; remove availabilitySet/]],
      },
      {
        name: "a resource group that is not the cluster's",
        input: { resourceGroup: 'other-rg' },
        errors: [
          [
            `${PATH}.resourceGroup`,
            new RegExp(`^is "other-rg", but the cluster's resource group is "${RG}"`),
          ],
        ],
      },
      {
        name: "a network resource group that is not the cluster's",
        input: { networkResourceGroup: 'net-rg' },
        errors: [[`${PATH}.networkResourceGroup`, new RegExp(`network resource group is "${RG}"`)]],
      },
      {
        name: 'a capacity reservation group that is not a resource ID',
        input: { capacityReservationGroupID: 'crg' },
        errors: [[`${PATH}.capacityReservationGroupID`, /^is "crg", which is not the resource ID/]],
      },
      {
        name: 'an unknown ultraSSDCapability',
        input: { ultraSSDCapability: 'On' },
        errors: [[`${PATH}.ultraSSDCapability`, /"On".*"Enabled", "Disabled"/]],
      },
      {
        name: 'an SSH key that is not base64',
        input: { sshPublicKey: 'ssh-rsa AAAAB3NzaC1yc2E admin@example' },
        errors: [[`${PATH}.sshPublicKey`, /must be a base64-encoded OpenSSH public key/]],
      },
      {
        name: 'base64 that is not an SSH key',
        input: { sshPublicKey: Buffer.from('hello world').toString('base64') },
        errors: [[`${PATH}.sshPublicKey`, /must be a base64-encoded OpenSSH public key/]],
      },
      // networking
      {
        name: 'a network security group on the interface',
        input: { securityGroup: `${INFRA}-nsg` },
        errors: [[`${PATH}.securityGroup`, /remove securityGroup/]],
      },
      {
        name: 'application security groups',
        input: { applicationSecurityGroups: ['asg-web'] },
        errors: [[`${PATH}.applicationSecurityGroups`, /remove applicationSecurityGroups/]],
      },
      {
        name: 'an inbound NAT rule (0 is a rule too)',
        input: { publicLoadBalancer: INFRA, natRule: 0 },
        errors: [[`${PATH}.natRule`, /^is the number 0, an inbound NAT rule/]],
      },
      {
        name: "a public load balancer that is not the cluster's",
        input: { publicLoadBalancer: 'my-lb' },
        errors: [
          [
            `${PATH}.publicLoadBalancer`,
            new RegExp(`^is "my-lb", which is not the cluster's public load balancer "${INFRA}"`),
          ],
        ],
      },
      {
        name: 'an internal load balancer on a worker',
        input: { internalLoadBalancer: `${INFRA}-internal` },
        errors: [
          [
            `${PATH}.internalLoadBalancer`,
            /only for the control plane.*remove internalLoadBalancer from this worker/,
          ],
        ],
      },
      {
        name: "an internal load balancer that is not the cluster's, on the control plane",
        input: { internalLoadBalancer: 'my-ilb' },
        controlPlane: true,
        errors: [
          [
            `${PATH}.internalLoadBalancer`,
            /^is "my-ilb", which is not the cluster's internal API load balancer/,
          ],
        ],
      },
      // spot
      {
        name: 'a maxPrice that is not a price',
        input: { spotVMOptions: { maxPrice: 'cheap' } },
        errors: [[`${PATH}.spotVMOptions.maxPrice`, /^is "cheap", which is not a decimal number/]],
      },
      {
        name: 'a maxPrice with a binary suffix',
        input: { spotVMOptions: { maxPrice: '1Ki' } },
        errors: [[`${PATH}.spotVMOptions.maxPrice`, /not a decimal number/]],
      },
      {
        name: 'a maxPrice finer than a billionth',
        input: { spotVMOptions: { maxPrice: '0.0000000001' } },
        errors: [[`${PATH}.spotVMOptions.maxPrice`, /more precise than a billionth/]],
      },
      {
        name: 'a maxPrice that is neither string nor number',
        input: { spotVMOptions: { maxPrice: true } },
        errors: [[`${PATH}.spotVMOptions.maxPrice`, /^must be a price .* but is the boolean true/]],
      },
      // security profile
      {
        name: 'an encrypted OS disk without a security profile',
        input: encryptedOsDisk('VMGuestStateOnly'),
        errors: [[`${PATH}.securityProfile`, /^is required when .*securityEncryptionType is set/]],
      },
      {
        name: 'an encrypted OS disk on a Trusted Launch VM',
        input: {
          ...encryptedOsDisk('VMGuestStateOnly'),
          ...settings({
            securityType: 'TrustedLaunch',
            trustedLaunch: { uefiSettings: { secureBoot: 'Enabled' } },
          }),
        },
        errors: [[`${PATH}.securityProfile.settings.securityType`, /^must be ConfidentialVM when/]],
      },
      {
        name: 'ConfidentialVM without an encrypted OS disk or confidentialVM settings',
        input: settings({ securityType: 'ConfidentialVM' }),
        errors: [
          [
            `${PATH}.osDisk.managedDisk.securityProfile.securityEncryptionType`,
            /^is required when securityType is ConfidentialVM/,
          ],
          [
            `${PATH}.securityProfile.settings.confidentialVM`,
            /^is required when securityType is ConfidentialVM/,
          ],
        ],
      },
      {
        name: 'a Confidential VM without vTPM',
        input: {
          ...encryptedOsDisk('VMGuestStateOnly'),
          ...settings({ securityType: 'ConfidentialVM', confidentialVM: { uefiSettings: {} } }),
        },
        errors: [
          [
            `${PATH}.securityProfile.settings.confidentialVM.uefiSettings.virtualizedTrustedPlatformModule`,
            /^must be Enabled/,
          ],
        ],
      },
      {
        name: 'DiskWithVMGuestState without secure boot, with encryption at host',
        input: {
          ...encryptedOsDisk('DiskWithVMGuestState'),
          securityProfile: {
            encryptionAtHost: true,
            settings: {
              securityType: 'ConfidentialVM',
              confidentialVM: { uefiSettings: { virtualizedTrustedPlatformModule: 'Enabled' } },
            },
          },
        },
        errors: [
          [
            `${PATH}.securityProfile.settings.confidentialVM.uefiSettings.secureBoot`,
            /^must be Enabled when the OS disk is encrypted/,
          ],
          [`${PATH}.securityProfile.encryptionAtHost`, /^cannot be true when/],
        ],
      },
      {
        name: 'TrustedLaunch without trustedLaunch settings',
        input: settings({ securityType: 'TrustedLaunch' }),
        errors: [
          [
            `${PATH}.securityProfile.settings.trustedLaunch`,
            /^is required when securityType is TrustedLaunch/,
          ],
        ],
      },
      {
        name: 'UEFI settings under the other security type',
        input: settings({
          trustedLaunch: { uefiSettings: { secureBoot: 'Enabled' } },
          confidentialVM: { uefiSettings: { virtualizedTrustedPlatformModule: 'Enabled' } },
        }),
        errors: [
          [
            `${PATH}.securityProfile.settings.trustedLaunch`,
            /only used when securityType is TrustedLaunch/,
          ],
          [
            `${PATH}.securityProfile.settings.confidentialVM`,
            /only used when securityType is ConfidentialVM/,
          ],
        ],
      },
      {
        name: 'an unknown security type and UEFI policy',
        input: settings({
          securityType: 'Standard',
          trustedLaunch: { uefiSettings: { secureBoot: 'On' } },
        }),
        errors: [
          [`${PATH}.securityProfile.settings.securityType`, /"Standard"/],
          [`${PATH}.securityProfile.settings.trustedLaunch.uefiSettings.secureBoot`, /"On"/],
        ],
      },
      // diagnostics
      {
        name: 'boot diagnostics without a storage account type',
        input: { diagnostics: { boot: {} } },
        errors: [[`${PATH}.diagnostics.boot.storageAccountType`, /^is required; /]],
      },
      {
        name: 'an unknown boot diagnostics storage account type',
        input: { diagnostics: { boot: { storageAccountType: 'Managed' } } },
        errors: [[`${PATH}.diagnostics.boot.storageAccountType`, /"Managed".*"AzureManaged"/]],
      },
      {
        name: 'customer-managed boot diagnostics without a URI',
        input: { diagnostics: { boot: { storageAccountType: 'CustomerManaged' } } },
        errors: [
          [
            `${PATH}.diagnostics.boot.customerManaged.storageAccountURI`,
            /^is required when storageAccountType is CustomerManaged/,
          ],
        ],
      },
      {
        name: 'customer-managed boot diagnostics over plain http',
        input: {
          diagnostics: {
            boot: {
              storageAccountType: 'CustomerManaged',
              customerManaged: { storageAccountURI: 'http://diag.blob.core.windows.net/' },
            },
          },
        },
        errors: [
          [
            `${PATH}.diagnostics.boot.customerManaged.storageAccountURI`,
            /^must be an https:\/\/ URI/,
          ],
        ],
      },
      {
        name: 'a customer-managed account with Azure-managed boot diagnostics',
        input: {
          diagnostics: {
            boot: {
              storageAccountType: 'AzureManaged',
              customerManaged: { storageAccountURI: 'https://diag.blob.core.windows.net/' },
            },
          },
        },
        errors: [
          [
            `${PATH}.diagnostics.boot.customerManaged`,
            /^may not be set when storageAccountType is AzureManaged/,
          ],
        ],
      },
    ];

    for (const c of cases) {
      it(c.name, () => {
        const errors = expectErrors(
          convert(merged(minimalSpec(), c.input), { controlPlane: c.controlPlane ?? false }),
        );
        expectFieldErrors(errors, c.errors);
      });
    }

    it('reports every error of a providerSpec at once, not only the first', () => {
      const errors = expectErrors(
        convert({
          ...minimalSpec(),
          vmSize: '',
          image: { resourceID: '/resourceGroups/rg/providers/Microsoft.Compute/images/img' },
          osDisk: { osType: 'Linux', diskSizeGB: 9000 },
          dataDisks: [{ nameSuffix: 'd', diskSizeGB: 10, deletionPolicy: 'Detach' }],
          managedIdentity: 'id',
          credentialsSecret: { name: 'other' },
          resourceGroup: 'elsewhere',
          securityGroup: 'nsg',
          spotVMOptions: { maxPrice: 'x' },
          extra: true,
        }),
      );
      expect(errors.map((e) => e.path)).to.have.members([
        `${PATH}.vmSize`,
        `${PATH}.image.resourceID`,
        `${PATH}.osDisk.diskSizeGB`,
        `${PATH}.dataDisks[0].deletionPolicy`,
        `${PATH}.managedIdentity`,
        `${PATH}.credentialsSecret.name`,
        `${PATH}.resourceGroup`,
        `${PATH}.securityGroup`,
        `${PATH}.spotVMOptions.maxPrice`,
        `${PATH}.extra`,
      ]);
    });

    it('uses the context path for every error path', () => {
      const errors = expectErrors(
        convert({ ...minimalSpec(), securityGroup: 'nsg' }, { path: 'spec.providerSpec.value' }),
      );
      expect(errors.map((e) => e.path)).to.deep.equal(['spec.providerSpec.value.securityGroup']);
    });
  });

  describe('warns about lossy but safe conversions', () => {
    interface WarningCase {
      name: string;
      input: Record<string, unknown>;
      warning: RegExp;
      template?: Record<string, unknown>;
      infrastructure?: Infrastructure;
      controlPlane?: boolean;
    }

    const cases: WarningCase[] = [
      {
        name: 'providerSpec metadata is dropped',
        input: { metadata: { name: 'worker', labels: { a: 'b' } } },
        warning: new RegExp(`^${PATH}\\.metadata is not used by any machine controller`),
      },
      {
        name: "the cluster's public load balancer is left to the AzureCluster",
        input: { publicLoadBalancer: INFRA },
        warning: new RegExp(
          `^${PATH}\\.publicLoadBalancer names the cluster's public load balancer "${INFRA}"; .*AzureCluster`,
        ),
      },
      {
        name: "the cluster's internal API load balancer on the control plane is left to the AzureCluster",
        input: { internalLoadBalancer: `${INFRA}-internal` },
        controlPlane: true,
        warning: new RegExp(
          `^${PATH}\\.internalLoadBalancer names the cluster's internal API load balancer "${INFRA}-internal"`,
        ),
      },
      {
        name: 'a virtual network the installer did not create cannot be checked',
        input: { vnet: 'byo-vnet' },
        warning: new RegExp(
          `^${PATH}\\.vnet is "byo-vnet", not the installer's virtual network "${INFRA}-vnet"; .*make sure that is "byo-vnet"\\.$`,
        ),
      },
      {
        name: 'resourceGroup cannot be checked when the Infrastructure names no resource group',
        input: { resourceGroup: RG },
        infrastructure: infrastructure(null),
        warning: new RegExp(
          `^${PATH}\\.resourceGroup is "${RG}", but the Infrastructure object names no resource group`,
        ),
      },
      {
        name: 'networkResourceGroup cannot be checked when the Infrastructure names none',
        input: { networkResourceGroup: RG },
        infrastructure: infrastructure({}),
        warning: new RegExp(
          `^${PATH}\\.networkResourceGroup is "${RG}", but the Infrastructure object names no network resource group`,
        ),
      },
      {
        name: 'TrustedLaunch that enables nothing creates a VM without a security type, as in Machine API',
        input: {
          securityProfile: {
            settings: { securityType: 'TrustedLaunch', trustedLaunch: { uefiSettings: {} } },
          },
        },
        warning: new RegExp(
          `^${PATH}\\.securityProfile\\.settings\\.securityType is TrustedLaunch, but .*enables neither`,
        ),
      },
      {
        name: 'Spot VMs with an ephemeral OS disk use the Delete eviction policy',
        input: {
          osDisk: {
            osType: 'Linux',
            diskSizeGB: 64,
            cachingType: 'ReadOnly',
            diskSettings: { ephemeralStorageLocation: 'Local' },
          },
          spotVMOptions: {},
        },
        warning: new RegExp(`^${PATH}\\.spotVMOptions asks for Spot VMs with an ephemeral OS disk`),
        template: {
          osDisk: {
            osType: 'Linux',
            cachingType: 'ReadOnly',
            diskSizeGB: 64,
            diffDiskSettings: { option: 'Local' },
          },
          spotVMOptions: { evictionPolicy: 'Delete' },
        },
      },
      ...defaultedUserDataCases(PATH),
    ];

    for (const c of cases) {
      it(c.name, () => {
        const result = expectOk(
          convert(merged(minimalSpec(), c.input), {
            controlPlane: c.controlPlane ?? false,
            infrastructure: c.infrastructure ?? infrastructure(),
          }),
        );
        expect(result.warnings).to.have.length(1);
        expect(result.warnings[0]).to.match(c.warning);
        expect(result.value.templateSpec).to.deep.equal(templateWith(c.template));
        expect(result.value.userDataSecretName).to.equal('worker-user-data');
      });
    }
  });

  describe('canonicalDecimalQuantity (the form CAPZ stores a Spot price in)', () => {
    const cases: [input: string | number, canonical: string][] = [
      ['0.05', '50m'],
      ['0.5', '500m'],
      ['1.5', '1500m'],
      ['1', '1'],
      ['+2', '2'],
      ['-1', '-1'],
      ['1500', '1500'],
      ['2000', '2k'],
      ['0', '0'],
      ['-0.0', '0'],
      ['0.0425', '42500u'],
      ['50m', '50m'],
      ['0.5k', '500'],
      ['.25', '250m'],
      ['1.', '1'],
      ['123456789n', '123456789n'],
      ['3000000', '3M'],
      [0.25, '250m'],
      [12, '12'],
    ];
    for (const [input, canonical] of cases) {
      it(`${JSON.stringify(input)} → ${canonical}`, () => {
        expect(canonicalDecimalQuantity(input)).to.deep.equal({ ok: true, value: canonical });
      });
    }
    for (const input of ['', '.', 'abc', '1Ki', '1e3', '1.2.3', '0.0000000001', 1e-12, Infinity]) {
      it(`${JSON.stringify(input)} is refused`, () => {
        expect(canonicalDecimalQuantity(input).ok).to.equal(false);
      });
    }
  });

  describe('output', () => {
    const rich = {
      ...minimalSpec(),
      tags: { b: '2', a: '1' },
      dataDisks: [
        { nameSuffix: 'one', diskSizeGB: 8, lun: 1, deletionPolicy: 'Delete' },
        { nameSuffix: 'two', diskSizeGB: 8, lun: 2, deletionPolicy: 'Delete' },
      ],
      spotVMOptions: { maxPrice: '0.1' },
      securityProfile: { encryptionAtHost: true },
      zone: '1',
      userDataSecret: { name: 'worker-user-data' },
    };

    itConvertsPurely(convert, () => structuredClone(rich), { noEmptyObjects: true });

    it('never aliases the input: changing the output leaves the input alone', () => {
      const input = structuredClone(rich);
      const { value } = expectOk(convert(input));
      (value.templateSpec.additionalTags as Record<string, string>).c = '3';
      (value.templateSpec.dataDisks as { lun: number }[])[0]!.lun = 9;
      expect(input).to.deep.equal(rich);
    });
  });

  describe('the shared test fixture (test/support/fixtures/azure.ts)', () => {
    function fixtureContext(): ConversionContext {
      return {
        infrastructure: {
          apiVersion: 'config.openshift.io/v1',
          kind: 'Infrastructure',
          metadata: { name: 'cluster' },
          status: azureFixture.infrastructure,
        },
        path: PATH,
        controlPlane: false,
      };
    }

    it('describes this converter', () => {
      expect(azureFixture.platform).to.equal(azureConverter.platform);
      expect(azureFixture.infrastructure.platformStatus?.type).to.equal(azureConverter.platform);
      expect(azureFixture.infrastructure.infrastructureName).to.equal('demo-abc12');
      const { group, version, plural, kind } = azureFixture.templates;
      expect(`${group}/${version}`).to.equal(azureConverter.template.apiVersion);
      expect({ plural, kind }).to.deep.equal({
        plural: azureConverter.template.plural,
        kind: azureConverter.template.kind,
      });
    });

    it("converts the fixture's MachineSet without errors, to its failure domain", () => {
      const machineSet = azureFixture.machineSet(
        'demo-abc12-worker-eastus1',
        'openshift-machine-api',
      );
      expect(machineSet.metadata).to.include({
        name: 'demo-abc12-worker-eastus1',
        namespace: 'openshift-machine-api',
      });
      const result = expectOk(azureConverter.toCapi(providerSpecOf(machineSet), fixtureContext()));
      expect(result.value.failureDomain).to.equal(azureFixture.failureDomain);
      expect(result.value.userDataSecretName).to.equal('worker-user-data');
      expect(result.value.templateSpec.vmSize).to.equal('Standard_D4s_v3');
    });

    it("applying the fixture's change changes the converted template spec", () => {
      const machineSet = azureFixture.machineSet(
        'demo-abc12-worker-eastus1',
        'openshift-machine-api',
      );
      const changed = applyPatch(machineSet, azureFixture.change);
      const before = expectOk(azureConverter.toCapi(providerSpecOf(machineSet), fixtureContext()));
      const after = expectOk(azureConverter.toCapi(providerSpecOf(changed), fixtureContext()));
      expect(after.value.templateSpec).to.not.deep.equal(before.value.templateSpec);
      expect(after.value.templateSpec.vmSize).to.equal('Standard_D8s_v3');
    });

    it('builds a fresh object per call and keeps long names valid as label values', () => {
      const first = azureFixture.machineSet('a', 'ns');
      const second = azureFixture.machineSet('a', 'ns');
      expect(first).to.deep.equal(second);
      expect(first).to.not.equal(second);
      const long = azureFixture.machineSet('w'.repeat(100), 'ns');
      const labels = long.spec.template?.metadata?.labels ?? {};
      for (const value of Object.values(labels)) expect(value.length).to.be.at.most(63);
    });
  });
});
