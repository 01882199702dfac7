// Round trips of the Azure converters, over generated inputs:
// MAPI → CAPI → MAPI gives the providerSpec back (exactly with the current providerSpec, in the
// documented normal form without it), and CAPI → MAPI → CAPI gives the template back.
import { expect } from 'chai';
import fc from 'fast-check';
import type { Infrastructure } from '../../../../src/api/types.js';
import { azureConverter } from '../../../../src/conversion/azure/index.js';
import { KEPT_FROM_CURRENT } from '../../../../src/conversion/azure/kept-from-current.js';
import { canonicalDecimalQuantity } from '../../../../src/conversion/azure/quantity.js';
import { expectOk } from '../../../support/conversion.js';
import { compact, INFRA, mapiProviderSpec, RG, templateSpec } from './arbitraries.js';

type Json = Record<string, unknown>;
const TEMPLATE_PATH = 'spec.template.spec';
const PROVIDER_SPEC_PATH = 'spec.template.spec.providerSpec.value';
const RUNS = { numRuns: 150 };

const infrastructure: Infrastructure = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'Infrastructure',
  metadata: { name: 'cluster' },
  status: {
    infrastructureName: INFRA,
    platformStatus: {
      type: 'Azure',
      // No generated tag has these values.
      azure: { resourceGroupName: RG, resourceTags: [{ key: 'cost-center', value: 'cc 4242/7' }] },
    },
  },
};
/** The tags every VM carries: the Infrastructure's, then the template's own, then ownership. */
const clusterTagged = (own: Json | undefined): Json => ({
  'cost-center': 'cc 4242/7',
  ...own,
  [`kubernetes.io_cluster.${INFRA}`]: 'owned',
});

/** MAPI → CAPI → MAPI. */
function roundTrip(providerSpec: Json, controlPlane: boolean, current: unknown): Json {
  const forward = expectOk(
    azureConverter.toCapi(providerSpec, {
      infrastructure,
      path: PROVIDER_SPEC_PATH,
      controlPlane,
    }),
  ).value;
  return expectOk(
    azureConverter.toMapi!(forward.templateSpec, {
      infrastructure,
      path: TEMPLATE_PATH,
      controlPlane,
      failureDomain: forward.failureDomain,
      userDataSecretName: forward.userDataSecretName,
      current,
    }),
  ).value;
}

const object = (value: unknown): Json => (value ?? {}) as Json;

/** The normal form toMapi writes, per docs/platforms/azure.md (kept fields left out). */
function normalForm(spec: Json): Json {
  const image = object(spec.image);
  const osDisk = object(spec.osDisk);
  const osManaged = object(osDisk.managedDisk);
  const osProfile = object(osManaged.securityProfile);
  const id = (set: unknown) => (object(set).id ? { id: object(set).id } : undefined);
  const dataDisks = (spec.dataDisks as Json[] | undefined) ?? [];
  const tags = object(spec.tags);
  const securityProfile = object(spec.securityProfile);
  const settings = object(securityProfile.settings);
  const uefi = object(object(settings.trustedLaunch ?? settings.confidentialVM).uefiSettings);
  const enabled = (value: unknown) => (value === 'Enabled' ? 'Enabled' : 'Disabled');
  const boot = object(spec.diagnostics).boot as Json | undefined;
  const spot = spec.spotVMOptions as Json | undefined;
  const price = spot?.maxPrice as string | number | undefined;
  const canonicalPrice = price === undefined ? undefined : canonicalDecimalQuantity(price);
  return compact({
    kind: 'AzureMachineProviderSpec',
    apiVersion: 'machine.openshift.io/v1beta1',
    vmSize: spec.vmSize,
    image: {
      publisher: image.publisher,
      offer: image.offer,
      sku: image.sku,
      version: image.version,
      type: image.type === 'MarketplaceWithPlan' ? image.type : 'MarketplaceNoPlan',
    },
    osDisk: compact({
      osType: osDisk.osType || 'Linux',
      diskSizeGB: osDisk.diskSizeGB,
      cachingType: osDisk.cachingType || 'None',
      managedDisk: osManaged.storageAccountType
        ? compact({
            storageAccountType: osManaged.storageAccountType,
            diskEncryptionSet: id(osManaged.diskEncryptionSet),
            securityProfile: osProfile.securityEncryptionType
              ? compact({
                  securityEncryptionType: osProfile.securityEncryptionType,
                  diskEncryptionSet: id(osProfile.diskEncryptionSet),
                })
              : undefined,
          })
        : undefined,
      diskSettings: object(osDisk.diskSettings).ephemeralStorageLocation
        ? { ephemeralStorageLocation: 'Local' }
        : undefined,
    }),
    dataDisks:
      dataDisks.length === 0
        ? undefined
        : dataDisks.map((disk) =>
            compact({
              nameSuffix: disk.nameSuffix,
              diskSizeGB: disk.diskSizeGB,
              managedDisk: compact({
                storageAccountType: object(disk.managedDisk).storageAccountType || 'Premium_LRS',
                diskEncryptionSet: id(object(disk.managedDisk).diskEncryptionSet),
              }),
              lun: disk.lun ?? 0,
              cachingType: disk.cachingType || 'None',
              deletionPolicy: 'Delete',
            }),
          ),
    sshPublicKey: spec.sshPublicKey,
    tags: Object.keys(tags).length > 0 ? tags : undefined,
    ultraSSDCapability: spec.ultraSSDCapability || undefined,
    publicIP: spec.publicIP === true,
    acceleratedNetworking: spec.acceleratedNetworking === true ? true : undefined,
    subnet: spec.subnet,
    securityProfile:
      securityProfile.encryptionAtHost === undefined && !settings.securityType
        ? undefined
        : compact({
            encryptionAtHost: securityProfile.encryptionAtHost,
            settings:
              settings.securityType === 'TrustedLaunch'
                ? {
                    securityType: 'TrustedLaunch',
                    trustedLaunch: {
                      uefiSettings: {
                        secureBoot: enabled(uefi.secureBoot),
                        virtualizedTrustedPlatformModule: enabled(
                          uefi.virtualizedTrustedPlatformModule,
                        ),
                      },
                    },
                  }
                : settings.securityType === 'ConfidentialVM'
                  ? {
                      securityType: 'ConfidentialVM',
                      confidentialVM: {
                        uefiSettings: {
                          secureBoot: enabled(uefi.secureBoot),
                          virtualizedTrustedPlatformModule: 'Enabled',
                        },
                      },
                    }
                  : undefined,
          }),
    spotVMOptions:
      spot === undefined
        ? undefined
        : compact({ maxPrice: canonicalPrice?.ok ? canonicalPrice.value : undefined }),
    diagnostics: boot === undefined ? undefined : compact({ ...{ boot } }),
    capacityReservationGroupID: spec.capacityReservationGroupID,
    zone: spec.zone || undefined,
    userDataSecret: object(spec.userDataSecret).name
      ? { name: object(spec.userDataSecret).name }
      : undefined,
  });
}

function withoutKeptFields(spec: Json): Json {
  return Object.fromEntries(
    Object.entries(spec).filter(([key]) => !(KEPT_FROM_CURRENT as readonly string[]).includes(key)),
  );
}

describe('Azure round trips', () => {
  it('MAPI → CAPI → MAPI with the current providerSpec gives it back, with the current apiVersion', () => {
    fc.assert(
      fc.property(mapiProviderSpec, ({ providerSpec, controlPlane }) => {
        expect(roundTrip(providerSpec, controlPlane, providerSpec)).to.deep.equal({
          ...providerSpec,
          kind: 'AzureMachineProviderSpec',
          apiVersion: 'machine.openshift.io/v1beta1',
        });
      }),
      RUNS,
    );
  });

  it('MAPI → CAPI → MAPI without it gives the normal form back, and the kept fields their defaults', () => {
    fc.assert(
      fc.property(mapiProviderSpec, ({ providerSpec, controlPlane }) => {
        const result = roundTrip(providerSpec, controlPlane, undefined);
        expect(withoutKeptFields(result)).to.deep.equal(
          withoutKeptFields(normalForm(providerSpec)),
        );
        expect(
          Object.fromEntries(
            Object.entries(result).filter(([key]) => !(key in withoutKeptFields(result))),
          ),
        ).to.deep.equal({
          credentialsSecret: {
            name: 'azure-cloud-credentials',
            namespace: 'openshift-machine-api',
          },
          resourceGroup: RG,
          networkResourceGroup: RG,
          vnet: `${INFRA}-vnet`,
        });
      }),
      RUNS,
    );
  });

  it('CAPI → MAPI → CAPI gives the template, failure domain and user data secret back', () => {
    const contexts = fc.record({
      failureDomain: fc.constantFrom(undefined, '1', '2', '3'),
      // Cluster API's webhook refuses a MachineSet without a bootstrap data secret.
      userDataSecretName: fc.constantFrom('worker-user-data', 'infra-user-data'),
      controlPlane: fc.boolean(),
    });
    fc.assert(
      fc.property(templateSpec, contexts, (template, context) => {
        const providerSpec = expectOk(
          azureConverter.toMapi!(template, { infrastructure, path: TEMPLATE_PATH, ...context }),
        ).value;
        const back = expectOk(
          azureConverter.toCapi(providerSpec, {
            infrastructure,
            path: PROVIDER_SPEC_PATH,
            controlPlane: context.controlPlane,
          }),
        ).value;
        expect(back).to.deep.equal(
          compact({
            templateSpec: {
              ...template,
              additionalTags: clusterTagged(template.additionalTags as Json | undefined),
            },
            failureDomain: context.failureDomain,
            userDataSecretName: context.userDataSecretName,
          }),
        );
      }),
      RUNS,
    );
  });
});
