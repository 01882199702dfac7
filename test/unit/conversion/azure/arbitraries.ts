// fast-check generators for the Azure round trips: valid MAPI providerSpecs (every field the
// forward converter accepts, in every spelling Machine API allows) and valid templates in the
// form the forward converter writes.
import fc from 'fast-check';
import { canonicalDecimalQuantity } from '../../../../src/conversion/azure/quantity.js';

export const INFRA = 'demo-abc12';
export const RG = 'demo-abc12-rg';
const DES = [
  `/subscriptions/0000/resourceGroups/${RG}/providers/Microsoft.Compute/diskEncryptionSets/des-a`,
  `/subscriptions/0000/resourceGroups/${RG}/providers/Microsoft.Compute/diskEncryptionSets/des-b`,
];
const CRG = `/subscriptions/0000/resourceGroups/${RG}/providers/Microsoft.Compute/capacityReservationGroups/crg`;
const STORAGE_TYPES = [
  'Premium_LRS',
  'PremiumV2_LRS',
  'Premium_ZRS',
  'StandardSSD_LRS',
  'StandardSSD_ZRS',
  'Standard_LRS',
];
const CACHING = ['None', 'ReadOnly', 'ReadWrite'];

type Json = Record<string, unknown>;

/** `value` without its undefined fields, as JSON would carry it. */
export function compact<T extends Json>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/);
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const sshKey = fc
  .stringMatching(/^[A-Za-z0-9+/]{8,40}$/)
  .map((body) => Buffer.from(`ssh-ed25519 AAAAC3Nz${body} user@host`).toString('base64'));
const tags = fc.dictionary(name, fc.string({ maxLength: 12 }), { maxKeys: 3 });
const uri = name.map((account) => `https://${account}.blob.core.windows.net/`);

/** The OS disk's confidential encryption and the VM security settings go together. */
type Security =
  | { kind: 'none'; encryptionAtHost?: boolean }
  | { kind: 'trusted'; encryptionAtHost?: boolean; secureBoot: boolean; vTpm: boolean }
  | {
      kind: 'confidential';
      encryptionAtHost?: boolean;
      encryption: 'VMGuestStateOnly' | 'DiskWithVMGuestState';
      profileEncryptionSet?: string;
      secureBoot: boolean;
    };

const security: fc.Arbitrary<Security> = fc.oneof(
  fc.record(
    { kind: fc.constant('none' as const), encryptionAtHost: optional(fc.boolean()) },
    { requiredKeys: ['kind'] },
  ),
  fc
    .record({
      kind: fc.constant('trusted' as const),
      encryptionAtHost: optional(fc.boolean()),
      secureBoot: fc.boolean(),
      vTpm: fc.boolean(),
    })
    .filter((s) => s.secureBoot || s.vTpm),
  fc.oneof(
    fc.record({
      kind: fc.constant('confidential' as const),
      encryptionAtHost: optional(fc.boolean()),
      encryption: fc.constant('VMGuestStateOnly' as const),
      secureBoot: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('confidential' as const),
      encryptionAtHost: optional(fc.constant(false)),
      encryption: fc.constant('DiskWithVMGuestState' as const),
      profileEncryptionSet: optional(fc.constantFrom(...DES)),
      secureBoot: fc.constant(true),
    }),
  ),
);

const policy = (enabled: boolean) => (enabled ? 'Enabled' : 'Disabled');

// ---- MAPI providerSpecs ----

function mapiSecurityProfile(
  s: Security,
  spelling: { undefinedDisabled: boolean },
): Json | undefined {
  const uefiValue = (enabled: boolean) =>
    !enabled && spelling.undefinedDisabled ? undefined : policy(enabled);
  const settings =
    s.kind === 'trusted'
      ? {
          securityType: 'TrustedLaunch',
          trustedLaunch: {
            uefiSettings: compact({
              secureBoot: uefiValue(s.secureBoot),
              virtualizedTrustedPlatformModule: uefiValue(s.vTpm),
            }),
          },
        }
      : s.kind === 'confidential'
        ? {
            securityType: 'ConfidentialVM',
            confidentialVM: {
              uefiSettings: compact({
                secureBoot: uefiValue(s.secureBoot),
                virtualizedTrustedPlatformModule: 'Enabled',
              }),
            },
          }
        : undefined;
  if (settings === undefined && s.encryptionAtHost === undefined) return undefined;
  return compact({ encryptionAtHost: s.encryptionAtHost, settings });
}

function mapiOsDisk(s: Security) {
  return fc
    .record({
      osType: fc.constantFrom(undefined, '', 'Linux', 'Windows'),
      diskSizeGB: fc.integer({ min: 1, max: 2048 }),
      ephemeral: fc.boolean(),
      cachingType: fc.constantFrom(undefined, '', ...CACHING),
      storageAccountType: fc.constantFrom(undefined, ...STORAGE_TYPES),
      encryptionSet: optional(fc.constantFrom(...DES)),
      emptySettings: fc.boolean(),
    })
    .map((d) => {
      const confidential = s.kind === 'confidential' ? s : undefined;
      const encryptionSet = d.ephemeral ? undefined : d.encryptionSet;
      const needsType = encryptionSet !== undefined || confidential !== undefined;
      const storageAccountType = d.storageAccountType ?? (needsType ? 'Premium_LRS' : undefined);
      const securityProfile = confidential
        ? compact({
            securityEncryptionType: confidential.encryption,
            diskEncryptionSet: confidential.profileEncryptionSet && {
              id: confidential.profileEncryptionSet,
            },
          })
        : d.emptySettings
          ? { diskEncryptionSet: {} }
          : undefined;
      return compact({
        osType: d.osType,
        diskSizeGB: d.diskSizeGB,
        cachingType: d.ephemeral ? 'ReadOnly' : d.cachingType,
        managedDisk:
          storageAccountType === undefined && !d.emptySettings
            ? undefined
            : compact({
                storageAccountType: storageAccountType ?? '',
                diskEncryptionSet: encryptionSet && { id: encryptionSet },
                securityProfile,
              }),
        diskSettings: d.ephemeral
          ? { ephemeralStorageLocation: 'Local' }
          : d.emptySettings
            ? {}
            : undefined,
      });
    });
}

const mapiDataDisks = fc
  .uniqueArray(
    fc.record({
      lun: fc.integer({ min: 0, max: 63 }),
      diskSizeGB: fc.integer({ min: 4, max: 32767 }),
      storageAccountType: fc.constantFrom(undefined, '', ...STORAGE_TYPES, 'UltraSSD_LRS'),
      cachingType: fc.constantFrom(undefined, '', ...CACHING),
      encryptionSet: optional(fc.constantFrom(...DES)),
      omitLunZero: fc.boolean(),
    }),
    { selector: (d) => d.lun, maxLength: 3 },
  )
  .map((disks) =>
    disks.map((d, index) =>
      compact({
        nameSuffix: `disk-${index}`,
        diskSizeGB: d.diskSizeGB,
        lun: d.lun === 0 && d.omitLunZero ? undefined : d.lun,
        cachingType: d.storageAccountType === 'UltraSSD_LRS' ? 'None' : d.cachingType,
        managedDisk:
          d.storageAccountType === undefined && d.encryptionSet === undefined
            ? undefined
            : compact({
                storageAccountType: d.storageAccountType,
                diskEncryptionSet: d.encryptionSet && { id: d.encryptionSet },
              }),
        deletionPolicy: 'Delete',
      }),
    ),
  );

const mapiPrice = fc.oneof(
  fc.constant('-1'),
  fc.constant(-1),
  fc.integer({ min: 1, max: 100000 }).map((n) => String(n / 1000)),
  fc.integer({ min: 1, max: 100000 }).map((n) => n / 100),
);

const mapiDiagnostics = fc.constantFrom<Json | undefined>(
  undefined,
  {},
  { boot: { storageAccountType: 'AzureManaged' } },
);

export interface MapiCase {
  providerSpec: Json;
  controlPlane: boolean;
}

/** Valid MAPI providerSpecs (the forward converter accepts every one) with their role. */
export const mapiProviderSpec: fc.Arbitrary<MapiCase> = fc
  .tuple(security, fc.boolean(), fc.boolean())
  .chain(([s, controlPlane, undefinedDisabled]) =>
    fc
      .record({
        kind: optional(fc.constant('AzureMachineProviderSpec')),
        apiVersion: optional(
          fc.constantFrom(
            'machine.openshift.io/v1beta1',
            'azureproviderconfig.openshift.io/v1beta1',
          ),
        ),
        metadata: optional(
          fc.constantFrom<Json>({ creationTimestamp: null }, { labels: { team: 'ops' } }),
        ),
        credentialsSecret: optional(
          fc.constantFrom<Json>(
            { name: 'azure-cloud-credentials', namespace: 'openshift-machine-api' },
            { name: 'azure-cloud-credentials' },
            {},
          ),
        ),
        location: optional(name),
        resourceGroup: optional(fc.constantFrom(RG, RG.toUpperCase())),
        networkResourceGroup: optional(fc.constant(RG)),
        vnet: optional(fc.constantFrom(`${INFRA}-vnet`, 'byo-vnet')),
        publicLoadBalancer: optional(fc.constant(INFRA)),
        internalLoadBalancer: controlPlane
          ? optional(fc.constant(`${INFRA}-internal`))
          : fc.constant(undefined),
        vmSize: name,
        image: fc
          .record({
            publisher: name,
            offer: name,
            sku: name,
            version: name,
            type: fc.constantFrom(undefined, '', 'MarketplaceNoPlan', 'MarketplaceWithPlan'),
            resourceID: fc.constantFrom(undefined, ''),
          })
          .map(compact),
        osDisk: mapiOsDisk(s),
        dataDisks: optional(mapiDataDisks),
        sshPublicKey: optional(sshKey),
        tags: optional(tags),
        ultraSSDCapability: fc.constantFrom(undefined, '', 'Enabled', 'Disabled'),
        publicIP: optional(fc.boolean()),
        acceleratedNetworking: optional(fc.boolean()),
        subnet: name,
        spotVMOptions: optional(fc.record({ maxPrice: optional(mapiPrice) }).map(compact)),
        diagnostics: fc.oneof(
          mapiDiagnostics,
          uri.map((u) => ({
            boot: {
              storageAccountType: 'CustomerManaged',
              customerManaged: { storageAccountURI: u },
            },
          })),
        ),
        capacityReservationGroupID: optional(fc.constant(CRG)),
        zone: fc.constantFrom(undefined, '', '1', '2', '3'),
        // machine-api-operator's webhook writes one into every providerSpec it admits.
        userDataSecret: fc.constantFrom<Json>(
          { name: 'worker-user-data' },
          { name: 'master-user-data', namespace: 'openshift-machine-api' },
        ),
      })
      .map((fields) => ({
        providerSpec: compact({
          ...fields,
          securityProfile: mapiSecurityProfile(s, { undefinedDisabled }),
        }),
        controlPlane,
      })),
  );

// ---- CAPZ templates, as the forward converter writes them ----

function templateSecurityProfile(s: Security): Json | undefined {
  const fields =
    s.kind === 'trusted'
      ? {
          securityType: 'TrustedLaunch',
          uefiSettings: { secureBootEnabled: s.secureBoot, vTpmEnabled: s.vTpm },
        }
      : s.kind === 'confidential'
        ? {
            securityType: 'ConfidentialVM',
            uefiSettings: { secureBootEnabled: s.secureBoot, vTpmEnabled: true },
          }
        : {};
  const profile = compact({ encryptionAtHost: s.encryptionAtHost, ...fields });
  return Object.keys(profile).length > 0 ? profile : undefined;
}

function templateOsDisk(s: Security) {
  return fc
    .record({
      osType: fc.constantFrom('Linux', 'Windows'),
      diskSizeGB: fc.integer({ min: 1, max: 2048 }),
      ephemeral: fc.boolean(),
      cachingType: fc.constantFrom(...CACHING),
      storageAccountType: fc.constantFrom(undefined, ...STORAGE_TYPES),
      encryptionSet: optional(fc.constantFrom(...DES)),
    })
    .map((d) => {
      const confidential = s.kind === 'confidential' ? s : undefined;
      const encryptionSet = d.ephemeral ? undefined : d.encryptionSet;
      const storageAccountType =
        d.storageAccountType ??
        (encryptionSet !== undefined || confidential ? 'Standard_LRS' : undefined);
      return {
        ephemeral: d.ephemeral,
        osDisk: compact({
          osType: d.osType,
          cachingType: d.ephemeral ? 'ReadOnly' : d.cachingType,
          diskSizeGB: d.diskSizeGB,
          managedDisk:
            storageAccountType &&
            compact({
              storageAccountType,
              diskEncryptionSet: encryptionSet && { id: encryptionSet },
              securityProfile:
                confidential &&
                compact({
                  securityEncryptionType: confidential.encryption,
                  diskEncryptionSet: confidential.profileEncryptionSet && {
                    id: confidential.profileEncryptionSet,
                  },
                }),
            }),
          diffDiskSettings: d.ephemeral ? { option: 'Local' } : undefined,
        }),
      };
    });
}

const templateDataDisks = fc
  .uniqueArray(
    fc.record({
      lun: fc.integer({ min: 0, max: 63 }),
      diskSizeGB: fc.integer({ min: 4, max: 32767 }),
      storageAccountType: fc.constantFrom(...STORAGE_TYPES, 'UltraSSD_LRS'),
      cachingType: fc.constantFrom(...CACHING),
      encryptionSet: optional(fc.constantFrom(...DES)),
    }),
    { selector: (d) => d.lun, minLength: 1, maxLength: 3 },
  )
  .map((disks) =>
    disks.map((d, index) => ({
      nameSuffix: `disk_${index}`,
      diskSizeGB: d.diskSizeGB,
      managedDisk: compact({
        storageAccountType: d.storageAccountType,
        diskEncryptionSet: d.encryptionSet && { id: d.encryptionSet },
      }),
      lun: d.lun,
      cachingType: d.storageAccountType === 'UltraSSD_LRS' ? 'None' : d.cachingType,
    })),
  );

const templatePrice = fc.oneof(
  fc.constant('-1'),
  fc.integer({ min: 1, max: 10_000_000 }).map((n) => {
    const canonical = canonicalDecimalQuantity(`${n}m`);
    return canonical.ok ? canonical.value : '-1';
  }),
);

/** Valid template specs in the forward converter's form (every CAPZ default written out). */
export const templateSpec: fc.Arbitrary<Json> = security.chain((s) =>
  fc
    .record({
      vmSize: name,
      image: fc
        .record({
          publisher: name,
          offer: name,
          sku: name,
          version: name,
          thirdPartyImage: fc.boolean(),
        })
        .map((marketplace) => ({ marketplace })),
      os: templateOsDisk(s),
      dataDisks: optional(templateDataDisks),
      sshPublicKey: optional(sshKey),
      additionalTags: optional(tags.filter((t) => Object.keys(t).length > 0)),
      additionalCapabilities: optional(
        fc.boolean().map((ultraSSDEnabled) => ({ ultraSSDEnabled })),
      ),
      allocatePublicIP: optional(fc.constant(true)),
      maxPrice: fc.option(templatePrice, { nil: undefined }),
      spot: fc.boolean(),
      diagnostics: fc.oneof(
        fc
          .constantFrom('Disabled', 'Managed')
          .map((storageAccountType) => ({ boot: { storageAccountType } })),
        uri.map((storageAccountURI) => ({
          boot: { storageAccountType: 'UserManaged', userManaged: { storageAccountURI } },
        })),
      ),
      nic: fc.record({
        acceleratedNetworking: fc.boolean(),
        privateIPConfigs: fc.constant(1),
        subnetName: name,
      }),
      capacityReservationGroupID: optional(fc.constant(CRG)),
    })
    .map(({ os, maxPrice, spot, nic, ...fields }) =>
      compact({
        ...fields,
        identity: 'None',
        osDisk: os.osDisk,
        securityProfile: templateSecurityProfile(s),
        spotVMOptions: spot
          ? compact({ maxPrice, evictionPolicy: os.ephemeral ? 'Delete' : 'Deallocate' })
          : undefined,
        networkInterfaces: [nic],
      }),
    ),
);
