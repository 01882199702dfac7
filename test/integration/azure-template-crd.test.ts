// Property test against the real AzureMachineTemplate CRD: random valid Azure providerSpecs must
// convert to templates the API server accepts as they are. The server applies the CRD's
// defaults on create, so getting back exactly what we sent proves every default is already
// materialised: a later diff against the stored template settles instead of rewriting forever.
import { expect } from 'chai';
import fc from 'fast-check';
import type { Infrastructure } from '../../src/api/types.js';
import { azureConverter } from '../../src/conversion/azure/index.js';
import type { ConversionContext } from '../../src/conversion/types.js';
import { testNamespace } from '../support/cluster.js';
import { assertCrdAcceptsEveryConversion, dryRunCreateTemplate } from '../support/template-crd.js';

const INFRA = 'ci-ln-abc12';
const RG = `${INFRA}-rg`;
const DES = `/subscriptions/0000/resourceGroups/${RG}/providers/Microsoft.Compute/diskEncryptionSets/des`;
const SSH_KEY = Buffer.from(
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGmJ0nR7fQm2J0x2m6uZk5Xk8w0Zb3yH3b9sQ3gQx7Yq ops\n',
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
const context: ConversionContext = {
  infrastructure,
  path: 'spec.template.spec.providerSpec.value',
  controlPlane: false,
};

// --- arbitraries for valid providerSpecs ---

const opt = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const word = fc.string({ unit: fc.constantFrom(...'abcxyz019-_.'), minLength: 1, maxLength: 12 });
const storageType = fc.constantFrom(
  'Premium_LRS',
  'PremiumV2_LRS',
  'Premium_ZRS',
  'StandardSSD_LRS',
  'StandardSSD_ZRS',
  'Standard_LRS',
);
const cachingType = fc.constantFrom('None', 'ReadOnly', 'ReadWrite');
const policy = fc.constantFrom('Enabled', 'Disabled', '');

const image = fc.record(
  {
    publisher: fc.constantFrom('azureopenshift', 'redhat'),
    offer: fc.constantFrom('aro4', 'rh-ocp-worker'),
    sku: fc.constantFrom('419-v2', 'aro_419', 'rh-ocp-worker-gen1'),
    version: fc.constantFrom('419.6.20250523', 'latest', '4.15.2024072409'),
    type: fc.constantFrom('', 'MarketplaceNoPlan', 'MarketplaceWithPlan'),
    resourceID: fc.constant(''),
  },
  { requiredKeys: ['publisher', 'offer', 'sku', 'version'] },
);

/** An OS disk on managed storage, or an ephemeral one (ReadOnly caching, no encryption set). */
const plainOsDisk = fc.oneof(
  fc.record(
    {
      osType: fc.constantFrom('Linux', 'Windows', ''),
      diskSizeGB: fc.integer({ min: 1, max: 2048 }),
      cachingType,
      managedDisk: fc.oneof(
        fc.constant({}),
        fc.record(
          {
            storageAccountType: storageType,
            diskEncryptionSet: fc.constantFrom({ id: DES }, {}),
            securityProfile: fc.constant({ diskEncryptionSet: {} }),
          },
          { requiredKeys: ['storageAccountType'] },
        ),
      ),
      diskSettings: fc.constant({}),
    },
    { requiredKeys: ['diskSizeGB'] },
  ),
  fc.record(
    {
      osType: fc.constant('Linux'),
      diskSizeGB: fc.integer({ min: 1, max: 2048 }),
      cachingType: fc.constant('ReadOnly'),
      managedDisk: fc.record({ storageAccountType: storageType }),
      diskSettings: fc.constant({ ephemeralStorageLocation: 'Local' }),
    },
    { requiredKeys: ['diskSizeGB', 'cachingType', 'diskSettings'] },
  ),
);

/** The VM security profile, with the OS disk encryption a Confidential VM needs. */
const security = fc.oneof(
  plainOsDisk.map((osDisk) => ({ osDisk })),
  fc
    .tuple(plainOsDisk, opt(fc.boolean()), policy, policy)
    .filter(([, , secureBoot, vTpm]) => secureBoot === 'Enabled' || vTpm === 'Enabled')
    .map(([osDisk, encryptionAtHost, secureBoot, vTpm]) => ({
      osDisk,
      securityProfile: {
        ...(encryptionAtHost === undefined ? {} : { encryptionAtHost }),
        settings: {
          securityType: 'TrustedLaunch',
          trustedLaunch: {
            uefiSettings: { secureBoot, virtualizedTrustedPlatformModule: vTpm },
          },
        },
      },
    })),
  fc
    .tuple(
      fc.integer({ min: 30, max: 2048 }),
      fc.constantFrom('VMGuestStateOnly', 'DiskWithVMGuestState'),
      fc.boolean(),
      fc.boolean(),
    )
    .map(([diskSizeGB, encryption, withSet, secureBoot]) => {
      const full = encryption === 'DiskWithVMGuestState';
      return {
        osDisk: {
          osType: 'Linux',
          diskSizeGB,
          managedDisk: {
            storageAccountType: 'Premium_LRS',
            securityProfile: {
              securityEncryptionType: encryption,
              ...(full && withSet ? { diskEncryptionSet: { id: DES } } : {}),
            },
          },
        },
        securityProfile: {
          encryptionAtHost: false,
          settings: {
            securityType: 'ConfidentialVM',
            confidentialVM: {
              uefiSettings: {
                secureBoot: full || secureBoot ? 'Enabled' : 'Disabled',
                virtualizedTrustedPlatformModule: 'Enabled',
              },
            },
          },
        },
      };
    }),
  fc.boolean().map((encryptionAtHost) => ({
    osDisk: {
      osType: 'Linux',
      diskSizeGB: 128,
      managedDisk: { storageAccountType: 'Premium_LRS' },
    },
    securityProfile: { encryptionAtHost },
  })),
);

/** Up to three data disks with unique names and luns; the first may leave lun out (0). */
const dataDisks = fc
  .array(
    fc.record(
      {
        diskSizeGB: fc.integer({ min: 4, max: 32767 }),
        managedDisk: fc.record(
          {
            storageAccountType: fc.constantFrom('Standard_LRS', 'Premium_LRS', 'UltraSSD_LRS'),
            diskEncryptionSet: fc.constantFrom({ id: DES }, {}),
          },
          { requiredKeys: [] },
        ),
        cachingType,
        deletionPolicy: fc.constant('Delete'),
      },
      { requiredKeys: ['diskSizeGB', 'deletionPolicy'] },
    ),
    { maxLength: 3 },
  )
  .map((disks) =>
    disks.map((disk, i) => {
      const ultra = disk.managedDisk?.storageAccountType === 'UltraSSD_LRS';
      return {
        ...disk,
        ...(ultra && disk.cachingType !== undefined ? { cachingType: 'None' } : {}),
        nameSuffix: `disk_${i}`,
        ...(i === 0 ? {} : { lun: i * 7 }),
      };
    }),
  );

const diagnostics = fc.constantFrom(
  {},
  { boot: { storageAccountType: 'AzureManaged' } },
  {
    boot: {
      storageAccountType: 'CustomerManaged',
      customerManaged: { storageAccountURI: 'https://diag.blob.core.windows.net/' },
    },
  },
);

const optionalFields = fc.record(
  {
    dataDisks,
    sshPublicKey: fc.constantFrom('', SSH_KEY),
    tags: fc.dictionary(word, fc.string({ maxLength: 12 }), { maxKeys: 4 }),
    ultraSSDCapability: fc.constantFrom('Enabled', 'Disabled', ''),
    publicIP: fc.boolean(),
    acceleratedNetworking: fc.boolean(),
    spotVMOptions: fc.record(
      { maxPrice: fc.constantFrom<string | number>('0.05', '-1', -1, 1, '0.12345', '250m', 2000) },
      { requiredKeys: [] },
    ),
    diagnostics,
    capacityReservationGroupID: fc.constant(
      `/subscriptions/0000/resourceGroups/${RG}/providers/Microsoft.Compute/capacityReservationGroups/crg`,
    ),
    zone: fc.constantFrom('1', '2', '3', ''),
    // Fields that only repeat what the cluster already says.
    credentialsSecret: fc.constant({
      name: 'azure-cloud-credentials',
      namespace: 'openshift-machine-api',
    }),
    userDataSecret: fc.constant({ name: 'worker-user-data' }),
    location: fc.constant('eastus'),
    resourceGroup: fc.constant(RG),
    networkResourceGroup: fc.constant(RG),
    vnet: fc.constant(`${INFRA}-vnet`),
    publicLoadBalancer: fc.constant(INFRA),
    metadata: fc.constant({ creationTimestamp: null }),
  },
  { requiredKeys: [] },
);

const providerSpec = fc
  .tuple(
    fc.record({
      vmSize: fc.constantFrom('Standard_D4s_v3', 'Standard_D8s_v5', 'Standard_NC24ads_A100_v4'),
      image,
      subnet: fc.constantFrom(`${INFRA}-worker-subnet`, 'gpu-subnet'),
    }),
    security,
    optionalFields,
  )
  .map(([required, securityFields, optional]) => ({
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'AzureMachineProviderSpec',
    ...required,
    ...securityFields,
    ...optional,
  }));

// --- the test ---

describe('Azure conversion against the real AzureMachineTemplate CRD', () => {
  it('the CRD accepts every converted template unchanged, and conversion is deterministic', async function () {
    this.timeout(120_000);
    const namespace = await testNamespace('azure-crd');
    await assertCrdAcceptsEveryConversion(azureConverter, providerSpec, context, namespace);
  });

  it('would notice a template that leaves a CRD default to the server (control)', async () => {
    const namespace = await testNamespace('azure-crd');
    const withoutDefaults = { vmSize: 'Standard_D4s_v3', osDisk: { diskSizeGB: 128 } };
    const stored = await dryRunCreateTemplate(
      azureConverter,
      namespace,
      'control',
      withoutDefaults,
    );
    expect(stored.spec.template.spec).to.not.deep.equal(withoutDefaults);
    expect(stored.spec.template.spec).to.deep.include({
      identity: 'None',
      osDisk: { diskSizeGB: 128, osType: 'Linux', cachingType: 'None' },
    });
  });

  it('would notice a field the CRD does not know (Strict field validation)', async () => {
    const namespace = await testNamespace('azure-crd');
    const converted = azureConverter.toCapi(
      {
        apiVersion: 'machine.openshift.io/v1beta1',
        kind: 'AzureMachineProviderSpec',
        vmSize: 'Standard_D4s_v3',
        image: { publisher: 'azureopenshift', offer: 'aro4', sku: '419-v2', version: 'latest' },
        osDisk: { diskSizeGB: 128 },
        subnet: `${INFRA}-worker-subnet`,
      },
      context,
    );
    if (!converted.ok) throw new Error(JSON.stringify(converted.errors));
    const misspelt = { ...converted.value.templateSpec, vmSise: 'Standard_D4s_v3' };
    let failure: unknown;
    try {
      await dryRunCreateTemplate(azureConverter, namespace, 'strict', misspelt);
    } catch (err) {
      failure = err;
    }
    expect((failure as { code?: number } | undefined)?.code).to.equal(400);
  });
});
