// Table-driven tests of the GCP converter: every mapped field, every rejection, every warning.
import { expect } from 'chai';
import type { Infrastructure } from '../../../../src/api/types.js';
import { gcpConverter } from '../../../../src/conversion/gcp/index.js';
import type {
  Conversion,
  ConversionContext,
  ProviderConversion,
} from '../../../../src/conversion/types.js';
import { gcpFixture } from '../../../support/fixtures/gcp.js';
import {
  applyPatch,
  expectErrors,
  expectFieldErrors,
  expectOk,
  PROVIDER_SPEC_PATH,
  itConvertsPurely,
  defaultedUserDataCases,
} from '../../../support/conversion.js';

const PATH = PROVIDER_SPEC_PATH;
const CLUSTER = 'ci-ln-abc12';
const PROJECT = 'openshift-ci-project';
const REGION = 'us-central1';
const ZONE = 'us-central1-a';
const IMAGE = 'projects/rhcos-cloud/global/images/rhcos-9-6-20250523-0-gcp-x86-64';
const SERVICE_ACCOUNT = `${CLUSTER}-w@${PROJECT}.iam.gserviceaccount.com`;
const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const KMS_KEY = {
  kmsKey: { name: 'disk-key', keyRing: 'cluster-ring', location: 'global' },
  kmsKeyServiceAccount: `kms-user@${PROJECT}.iam.gserviceaccount.com`,
};
const CAPG_KMS_KEY = {
  keyType: 'Managed',
  managedKey: {
    kmsKeyName: `projects/${PROJECT}/locations/global/keyRings/cluster-ring/cryptoKeys/disk-key`,
  },
  kmsKeyServiceAccount: `kms-user@${PROJECT}.iam.gserviceaccount.com`,
};

function infrastructure(gcp: { region?: string; projectID?: string } = {}): Infrastructure {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    status: {
      infrastructureName: CLUSTER,
      platformStatus: { type: 'GCP', gcp: { region: REGION, projectID: PROJECT, ...gcp } },
    },
  };
}

function context(overrides: Partial<ConversionContext> = {}): ConversionContext {
  return { infrastructure: infrastructure(), path: PATH, controlPlane: false, ...overrides };
}

function bootDisk(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { autoDelete: true, boot: true, image: IMAGE, ...fields };
}

function dataDisk(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { autoDelete: true, boot: false, sizeGb: 100, type: 'pd-ssd', ...fields };
}

/** The smallest providerSpec that converts. */
function minimalSpec(): Record<string, unknown> {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'GCPMachineProviderSpec',
    machineType: 'n2-standard-4',
    zone: ZONE,
    disks: [bootDisk()],
    networkInterfaces: [{ subnetwork: `${CLUSTER}-worker-subnet` }],
    serviceAccounts: [{ email: SERVICE_ACCOUNT, scopes: [SCOPE] }],
    userDataSecret: { name: 'worker-user-data' },
  };
}

/** The label Machine API's GCP provider gives every instance, which the template carries. */
const OWNED = { [`kubernetes-io-cluster-${CLUSTER}`]: 'owned' };

/**
 * What the minimal spec converts to: the CRD's default (ipForwarding) is written out, and the
 * cluster's ownership label.
 */
function minimalTemplate(): Record<string, unknown> {
  return {
    additionalLabels: OWNED,
    instanceType: 'n2-standard-4',
    image: IMAGE,
    rootDeviceType: 'pd-standard',
    subnet: `${CLUSTER}-worker-subnet`,
    serviceAccounts: { email: SERVICE_ACCOUNT, scopes: [SCOPE] },
    ipForwarding: 'Disabled',
  };
}

function convert(
  providerSpec: unknown,
  overrides: Partial<ConversionContext> = {},
): Conversion<ProviderConversion> {
  return gcpConverter.toCapi(providerSpec, context(overrides));
}

/** Input fields merged over the minimal spec; `undefined` removes one. */
function specWith(fields: Record<string, unknown>): Record<string, unknown> {
  const spec: Record<string, unknown> = { ...minimalSpec(), ...fields };
  for (const [key, value] of Object.entries(fields)) if (value === undefined) delete spec[key];
  return spec;
}

/** Template fields merged over the minimal template; `undefined` removes one. */
function templateWith(fields: Record<string, unknown> = {}): Record<string, unknown> {
  const template: Record<string, unknown> = { ...minimalTemplate(), ...fields };
  for (const [key, value] of Object.entries(fields)) if (value === undefined) delete template[key];
  const labels = fields.additionalLabels as Record<string, string> | undefined;
  if (labels) template.additionalLabels = { ...labels, ...OWNED };
  return template;
}

describe('gcpConverter', () => {
  it('describes the GCP platform and its template', () => {
    expect(gcpConverter.platform).to.equal('GCP');
    expect(gcpConverter.providerSpecKind).to.equal('GCPMachineProviderSpec');
    expect(gcpConverter.template).to.deep.equal({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'GCPMachineTemplate',
      plural: 'gcpmachinetemplates',
    });
  });

  describe("the cluster's labels and tags, which Machine API gives every instance", () => {
    const tagged = (): Infrastructure => {
      const infra = infrastructure();
      infra.status!.platformStatus!.gcp = {
        ...infra.status!.platformStatus!.gcp,
        resourceLabels: [
          { key: 'cost-center', value: 'c42' },
          { key: 'team', value: 'everyone' },
        ],
        resourceTags: [
          { parentID: '123456789012', key: 'env', value: 'prod' },
          { parentID: '123456789012', key: 'tier', value: 'gold' },
        ],
      };
      return infra;
    };
    const own = {
      labels: { team: 'ops', [`kubernetes-io-cluster-${CLUSTER}`]: 'shared' },
      resourceManagerTags: [{ parentID: '123456789012', key: 'tier', value: 'silver' }],
    };

    it('labels join the providerSpec’s, which win on the same key; the ownership label wins over all', () => {
      const { value } = expectOk(convert(specWith(own), { infrastructure: tagged() }));
      expect(value.templateSpec.additionalLabels).to.deep.equal({
        'cost-center': 'c42',
        team: 'ops',
        [`kubernetes-io-cluster-${CLUSTER}`]: 'owned',
      });
      // immutable in a GCPMachine, so never merged: the migration waits for them instead
      expect(value.templateSpec.resourceManagerTags).to.deep.equal(own.resourceManagerTags);
    });

    it('labels leave the reverse conversion: Machine API adds them by itself', () => {
      const infra = tagged();
      const { value } = expectOk(convert(specWith(own), { infrastructure: infra }));
      const back = gcpConverter.toMapi?.(value.templateSpec, {
        infrastructure: infra,
        path: 'spec.template.spec',
        failureDomain: ZONE,
        controlPlane: false,
      });
      expect(back?.ok, JSON.stringify(back)).to.equal(true);
      expect((back as { value: Record<string, unknown> }).value.labels).to.deep.equal({
        team: 'ops',
      });
    });

    it('resource tags the providerSpec does not list hold the migration, named with the way out', () => {
      const blockers = (spec: unknown) =>
        gcpConverter.migrationBlockers?.(spec, {
          infrastructure: tagged(),
          path: PATH,
          controlPlane: false,
        });
      expectFieldErrors(blockers(specWith(own))!, [
        [
          `${PATH}.resourceManagerTags`,
          /^lacks the Infrastructure's resource tags 123456789012\/env=prod \(status\.platformStatus\.gcp\.resourceTags\), .*add them here/,
        ],
      ]);
      const listed = specWith({
        resourceManagerTags: [
          { parentID: '123456789012', key: 'env', value: 'prod' },
          { parentID: '123456789012', key: 'tier', value: 'silver' },
        ],
      });
      expect(blockers(listed)).to.deep.equal([]);
      expect(
        gcpConverter.migrationBlockers?.(minimalSpec(), context()),
        'an Infrastructure without resource tags',
      ).to.deep.equal([]);
    });
  });

  it('converts an OpenShift installer worker providerSpec to the full expected template', () => {
    const result = expectOk(
      convert({
        apiVersion: 'machine.openshift.io/v1beta1',
        kind: 'GCPMachineProviderSpec',
        canIPForward: false,
        credentialsSecret: { name: 'gcp-cloud-credentials' },
        deletionProtection: false,
        disks: [
          {
            autoDelete: true,
            boot: true,
            image: IMAGE,
            labels: null,
            sizeGb: 128,
            type: 'pd-ssd',
          },
        ],
        machineType: 'n2-standard-4',
        metadata: { creationTimestamp: null },
        networkInterfaces: [
          { network: `${CLUSTER}-network`, subnetwork: `${CLUSTER}-worker-subnet` },
        ],
        projectID: PROJECT,
        region: REGION,
        serviceAccounts: [{ email: SERVICE_ACCOUNT, scopes: [SCOPE] }],
        shieldedInstanceConfig: {},
        tags: [`${CLUSTER}-worker`],
        userDataSecret: { name: 'worker-user-data' },
        zone: 'us-central1-b',
      }),
    );
    expect(result).to.deep.equal({
      value: {
        templateSpec: {
          additionalLabels: OWNED,
          instanceType: 'n2-standard-4',
          image: IMAGE,
          rootDeviceSize: 128,
          rootDeviceType: 'pd-ssd',
          subnet: `${CLUSTER}-worker-subnet`,
          serviceAccounts: { email: SERVICE_ACCOUNT, scopes: [SCOPE] },
          additionalNetworkTags: [`${CLUSTER}-worker`],
          ipForwarding: 'Disabled',
        },
        failureDomain: 'us-central1-b',
        userDataSecretName: 'worker-user-data',
      },
      warnings: [],
      ok: true,
    });
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
      controlPlane?: boolean;
    }

    const cases: MappingCase[] = [
      { name: 'the minimal spec, with the CRD default ipForwarding materialised', input: {} },
      {
        name: 'the legacy apiVersion gcpprovider.openshift.io/v1beta1',
        input: { apiVersion: 'gcpprovider.openshift.io/v1beta1' },
      },
      {
        name: 'machineType → instanceType',
        input: { machineType: 'e2-highmem-16' },
        template: { instanceType: 'e2-highmem-16' },
      },
      {
        name: 'zone → failureDomain',
        input: { zone: 'us-central1-f' },
        failureDomain: 'us-central1-f',
      },
      {
        name: 'canIPForward true → ipForwarding Enabled',
        input: { canIPForward: true },
        template: { ipForwarding: 'Enabled' },
      },
      {
        name: 'canIPForward false → ipForwarding Disabled',
        input: { canIPForward: false },
        template: { ipForwarding: 'Disabled' },
      },
      {
        name: 'the boot disk: image, sizeGb → rootDeviceSize, type → rootDeviceType',
        input: { disks: [bootDisk({ sizeGb: 200, type: 'hyperdisk-balanced' })] },
        template: { rootDeviceSize: 200, rootDeviceType: 'hyperdisk-balanced' },
      },
      {
        name: 'a boot disk of sizeGb 0 keeps the image size; an empty type is pd-standard',
        input: { disks: [bootDisk({ sizeGb: 0, type: '' })] },
      },
      {
        name: 'an image name without a path is resolved in the cluster project, as MAPI does',
        input: { disks: [bootDisk({ image: 'rhcos-custom' })] },
        template: { image: `projects/${PROJECT}/global/images/rhcos-custom` },
      },
      {
        name: 'an image family path passes through',
        input: {
          disks: [bootDisk({ image: 'projects/rhcos-cloud/global/images/family/rhcos-9' })],
        },
        template: { image: 'projects/rhcos-cloud/global/images/family/rhcos-9' },
      },
      {
        name: 'the boot disk encryptionKey → rootDiskEncryptionKey (the key project defaults to the cluster project)',
        input: { disks: [bootDisk({ encryptionKey: KMS_KEY })] },
        template: { rootDiskEncryptionKey: CAPG_KMS_KEY },
      },
      {
        name: 'a KMS key in another project, without a service account',
        input: {
          disks: [
            bootDisk({
              encryptionKey: {
                kmsKey: {
                  name: 'k',
                  keyRing: 'r',
                  location: 'us-central1',
                  projectID: 'kms-project',
                },
              },
            }),
          ],
        },
        template: {
          rootDiskEncryptionKey: {
            keyType: 'Managed',
            managedKey: {
              kmsKeyName: 'projects/kms-project/locations/us-central1/keyRings/r/cryptoKeys/k',
            },
          },
        },
      },
      {
        name: 'an empty encryptionKey → nothing',
        input: { disks: [bootDisk({ encryptionKey: {} })] },
      },
      {
        name: 'other disks → additionalDisks in order, an empty type as pd-standard',
        input: {
          disks: [
            dataDisk({ sizeGb: 500, type: 'pd-balanced' }),
            bootDisk(),
            dataDisk({ sizeGb: 20, type: '', labels: null, image: '' }),
          ],
        },
        template: {
          additionalDisks: [
            { deviceType: 'pd-balanced', size: 500 },
            { deviceType: 'pd-standard', size: 20 },
          ],
        },
      },
      {
        name: "an additional disk with the boot disk's key → the same encryptionKey",
        input: {
          disks: [bootDisk({ encryptionKey: KMS_KEY }), dataDisk({ encryptionKey: KMS_KEY })],
        },
        template: {
          rootDiskEncryptionKey: CAPG_KMS_KEY,
          additionalDisks: [{ deviceType: 'pd-ssd', size: 100, encryptionKey: CAPG_KMS_KEY }],
        },
      },
      {
        name: 'labels → additionalLabels; boot disk labels equal to them are kept by CAPG',
        input: {
          labels: { team: 'platform', 'cost-center': 'c42' },
          disks: [bootDisk({ labels: { team: 'platform', 'cost-center': 'c42' } })],
        },
        template: { additionalLabels: { team: 'platform', 'cost-center': 'c42' } },
      },
      { name: 'empty labels → nothing', input: { labels: {} } },
      {
        name: 'gcpMetadata → additionalMetadata, in order, a null value left out',
        input: {
          gcpMetadata: [
            { key: 'enable-oslogin', value: 'TRUE' },
            { key: 'empty', value: '' },
            { key: 'flag', value: null },
          ],
        },
        template: {
          additionalMetadata: [
            { key: 'enable-oslogin', value: 'TRUE' },
            { key: 'empty', value: '' },
            { key: 'flag' },
          ],
        },
      },
      {
        name: 'networkInterfaces: the installer network, the cluster project and publicIP',
        input: {
          networkInterfaces: [
            {
              network: `${CLUSTER}-network`,
              projectID: PROJECT,
              subnetwork: 'other-subnet',
              publicIP: true,
            },
          ],
        },
        template: { subnet: 'other-subnet', publicIP: true },
      },
      {
        name: 'publicIP false → nothing (no external IP either way)',
        input: { networkInterfaces: [{ subnetwork: `${CLUSTER}-worker-subnet`, publicIP: false }] },
      },
      {
        name: 'a service account without scopes',
        input: { serviceAccounts: [{ email: SERVICE_ACCOUNT, scopes: [] }] },
        template: { serviceAccounts: { email: SERVICE_ACCOUNT } },
      },
      {
        name: 'tags → additionalNetworkTags',
        input: { tags: [`${CLUSTER}-worker`, 'allow-ssh'] },
        template: { additionalNetworkTags: [`${CLUSTER}-worker`, 'allow-ssh'] },
      },
      { name: 'empty tags and targetPools lists → nothing', input: { tags: [], targetPools: [] } },
      {
        name: 'resourceManagerTags → resourceManagerTags',
        input: {
          resourceManagerTags: [
            { parentID: '1234567890', key: 'env', value: 'prod (eu) #1' },
            { parentID: PROJECT, key: 'team.name', value: 'ops' },
          ],
        },
        template: {
          resourceManagerTags: [
            { parentID: '1234567890', key: 'env', value: 'prod (eu) #1' },
            { parentID: PROJECT, key: 'team.name', value: 'ops' },
          ],
        },
      },
      {
        name: 'gpus → guestAccelerators with the zone-relative type path',
        input: {
          machineType: 'n1-standard-8',
          onHostMaintenance: 'Terminate',
          gpus: [{ type: 'nvidia-tesla-t4', count: 2 }],
        },
        template: {
          instanceType: 'n1-standard-8',
          onHostMaintenance: 'Terminate',
          guestAccelerators: [{ type: `zones/${ZONE}/acceleratorTypes/nvidia-tesla-t4`, count: 2 }],
        },
      },
      {
        name: 'preemptible, with restartPolicy Never (what Compute Engine does for them)',
        input: { preemptible: true, restartPolicy: 'Never' },
        template: { preemptible: true },
      },
      {
        name: 'provisioningModel Spot, with restartPolicy Never',
        input: { provisioningModel: 'Spot', restartPolicy: 'Never' },
        template: { provisioningModel: 'Spot' },
      },
      {
        name: 'restartPolicy Always on a standard VM is what Compute Engine does anyway',
        input: { restartPolicy: 'Always', preemptible: false },
      },
      {
        name: 'onHostMaintenance Migrate',
        input: { onHostMaintenance: 'Migrate' },
        template: { onHostMaintenance: 'Migrate' },
      },
      {
        name: 'onHostMaintenance Terminate',
        input: { onHostMaintenance: 'Terminate' },
        template: { onHostMaintenance: 'Terminate' },
      },
      {
        name: 'shieldedInstanceConfig, every field',
        input: {
          shieldedInstanceConfig: {
            secureBoot: 'Enabled',
            virtualizedTrustedPlatformModule: 'Enabled',
            integrityMonitoring: 'Disabled',
          },
        },
        template: {
          shieldedInstanceConfig: {
            secureBoot: 'Enabled',
            virtualizedTrustedPlatformModule: 'Enabled',
            integrityMonitoring: 'Disabled',
          },
        },
      },
      {
        name: 'shieldedInstanceConfig with the vTPM off and integrity monitoring off',
        input: {
          shieldedInstanceConfig: {
            virtualizedTrustedPlatformModule: 'Disabled',
            integrityMonitoring: 'Disabled',
          },
        },
        template: {
          shieldedInstanceConfig: {
            virtualizedTrustedPlatformModule: 'Disabled',
            integrityMonitoring: 'Disabled',
          },
        },
      },
      {
        name: 'an empty shieldedInstanceConfig → nothing (the platform defaults, as in MAPI)',
        input: { shieldedInstanceConfig: { secureBoot: '' } },
      },
      {
        name: 'confidentialCompute Disabled',
        input: { confidentialCompute: 'Disabled' },
        template: { confidentialCompute: 'Disabled' },
      },
      {
        name: 'confidentialCompute AMD SEV-SNP on n2d with onHostMaintenance Terminate',
        input: {
          machineType: 'n2d-standard-4',
          confidentialCompute: 'AMDEncryptedVirtualizationNestedPaging',
          onHostMaintenance: 'Terminate',
        },
        template: {
          instanceType: 'n2d-standard-4',
          confidentialCompute: 'AMDEncryptedVirtualizationNestedPaging',
          onHostMaintenance: 'Terminate',
        },
      },
      {
        name: 'confidentialCompute Intel TDX on c3',
        input: {
          machineType: 'c3-standard-4',
          confidentialCompute: 'IntelTrustedDomainExtensions',
          onHostMaintenance: 'Terminate',
        },
        template: {
          instanceType: 'c3-standard-4',
          confidentialCompute: 'IntelTrustedDomainExtensions',
          onHostMaintenance: 'Terminate',
        },
      },
      {
        name: 'userDataSecret.name → userDataSecretName',
        input: { userDataSecret: { name: 'infra-user-data' } },
        userDataSecretName: 'infra-user-data',
      },
      {
        name: 'the default credentialsSecret, the cluster region and project, deletionProtection false and empty metadata are redundant',
        input: {
          credentialsSecret: { name: 'gcp-cloud-credentials' },
          region: REGION,
          projectID: PROJECT,
          deletionProtection: false,
          metadata: { creationTimestamp: null },
        },
      },
      {
        name: 'empty strings of omitempty fields and nulls mean "not set"',
        input: {
          region: '',
          projectID: '',
          provisioningModel: '',
          onHostMaintenance: '',
          restartPolicy: '',
          confidentialCompute: '',
          preemptible: null,
          labels: null,
          gcpMetadata: null,
          tags: null,
          gpus: [],
          resourceManagerTags: [],
        },
      },
    ];

    for (const c of cases) {
      it(c.name, () => {
        const result = expectOk(
          convert(specWith(c.input), { controlPlane: c.controlPlane ?? false }),
        );
        expect(result.value.templateSpec).to.deep.equal(templateWith(c.template));
        expect(result.value.failureDomain).to.equal(c.failureDomain ?? ZONE);
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
      infrastructure?: Infrastructure;
    }

    const key = (kmsKey: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      disks: [bootDisk({ encryptionKey: { kmsKey, ...extra } })],
    });

    const cases: RejectionCase[] = [
      // kind and shape
      {
        name: "another platform's providerSpec: only the kind is reported, not its fields",
        input: {
          apiVersion: 'machine.openshift.io/v1',
          kind: 'AWSMachineProviderConfig',
          ami: { id: 'ami-1' },
          instanceType: 'm6i.xlarge',
          machineType: undefined,
        },
        errors: [
          [`${PATH}.kind`, /^is AWSMachineProviderConfig, .*set kind to GCPMachineProviderSpec/],
        ],
      },
      {
        name: 'a kind that is not a string',
        input: { kind: 7 },
        errors: [[`${PATH}.kind`, /^is the number 7/]],
      },
      {
        name: 'an unknown apiVersion',
        input: { apiVersion: 'machine.openshift.io/v1' },
        errors: [[`${PATH}.apiVersion`, /machine\.openshift\.io\/v1beta1/]],
      },
      {
        name: 'an unknown top-level field',
        input: { machineTyp: 'n2-standard-4' },
        errors: [[`${PATH}.machineTyp`, /not a field .* remove the field or correct its spelling/]],
      },
      {
        name: 'unknown nested fields, at every depth',
        input: {
          disks: [
            bootDisk({
              encryptionKey: { kmsKey: { name: 'k', keyRing: 'r', location: 'l', version: 1 } },
              mode: 'RW',
            }),
          ],
          networkInterfaces: [{ subnetwork: 's', stackType: 'DualStack' }],
          serviceAccounts: [{ email: SERVICE_ACCOUNT, role: 'admin' }],
          shieldedInstanceConfig: { measuredBoot: 'Enabled' },
          gpus: [{ type: 'nvidia-tesla-t4', count: 1, memory: 16 }],
          gcpMetadata: [{ key: 'k', value: 'v', type: 'string' }],
          resourceManagerTags: [{ parentID: '123', key: 'k', value: 'v', namespaced: true }],
          credentialsSecret: { name: 'gcp-cloud-credentials', namespace: 'x' },
          userDataSecret: { name: 'worker-user-data', key: 'userData' },
          onHostMaintenance: 'Terminate',
          machineType: 'n1-standard-4',
        },
        errors: [
          [`${PATH}.disks[0].encryptionKey.kmsKey.version`, /not a field/],
          [`${PATH}.disks[0].mode`, /not a field/],
          [`${PATH}.networkInterfaces[0].stackType`, /not a field/],
          [`${PATH}.serviceAccounts[0].role`, /not a field/],
          [`${PATH}.shieldedInstanceConfig.measuredBoot`, /not a field/],
          [`${PATH}.gpus[0].memory`, /not a field/],
          [`${PATH}.gcpMetadata[0].type`, /not a field/],
          [`${PATH}.resourceManagerTags[0].namespaced`, /not a field/],
          [`${PATH}.credentialsSecret.namespace`, /not a field/],
          [`${PATH}.userDataSecret.key`, /not a field/],
        ],
      },
      {
        name: 'values of the wrong type',
        input: {
          machineType: 4,
          canIPForward: 'yes',
          labels: ['a'],
          tags: 'worker',
          disks: [bootDisk({ sizeGb: '128', labels: { a: 1 } })],
          networkInterfaces: [{ subnetwork: 's', publicIP: 'true' }],
          serviceAccounts: [{ email: SERVICE_ACCOUNT, scopes: [1] }],
          gpus: [{ type: 'nvidia-tesla-t4', count: 1.5 }],
          zone: 5,
        },
        errors: [
          [`${PATH}.machineType`, /must be a string, but is the number 4/],
          [`${PATH}.canIPForward`, /must be true or false, but is the string "yes"/],
          [`${PATH}.labels`, /must be a map of strings, but is an array/],
          [`${PATH}.tags`, /must be a list, but is the string "worker"/],
          [`${PATH}.disks[0].sizeGb`, /must be an integer, but is the string "128"/],
          [`${PATH}.disks[0].labels.a`, /must be a string, but is the number 1/],
          [`${PATH}.networkInterfaces[0].publicIP`, /must be true or false/],
          [`${PATH}.serviceAccounts[0].scopes[0]`, /must be a string/],
          [`${PATH}.gpus[0].count`, /must be an integer, but is the number 1.5/],
          [`${PATH}.gpus[0].count`, /is required/],
          [`${PATH}.zone`, /must be a string, but is the number 5/],
        ],
      },
      // machine type, location, identity
      {
        name: 'no machineType',
        input: { machineType: undefined },
        errors: [[`${PATH}.machineType`, /^is required; set the Compute Engine machine type/]],
      },
      {
        name: 'no zone',
        input: { zone: '' },
        errors: [
          [`${PATH}.zone`, /^is required; set the zone of the machines, e.g. us-central1-a\./],
        ],
      },
      {
        name: "a zone outside the cluster's region",
        input: { zone: 'europe-west4-a' },
        errors: [
          [`${PATH}.zone`, /"europe-west4-a".*region "us-central1".*choose a zone of us-central1/],
        ],
      },
      {
        name: 'a region and project other than the cluster ones',
        input: { region: 'europe-west4', projectID: 'other-project' },
        errors: [
          [
            `${PATH}.region`,
            /"europe-west4".*"us-central1".*set region to "us-central1" or remove it/,
          ],
          [`${PATH}.projectID`, /"other-project".*"openshift-ci-project".*set projectID/],
        ],
      },
      {
        name: 'a non-default credentialsSecret',
        input: { credentialsSecret: { name: 'my-gcp-creds' } },
        errors: [[`${PATH}.credentialsSecret.name`, /"my-gcp-creds".*gcp-cloud-credentials/]],
      },
      {
        name: 'deletionProtection',
        input: { deletionProtection: true },
        errors: [
          [`${PATH}.deletionProtection`, /cannot protect .*set deletionProtection to false/],
        ],
      },
      {
        name: 'targetPools on a worker MachineSet',
        input: { targetPools: [`${CLUSTER}-ingress`] },
        errors: [
          [`${PATH}.targetPools`, /only does for control-plane machines; remove targetPools/],
        ],
      },
      {
        name: 'no service account',
        input: { serviceAccounts: [] },
        errors: [[`${PATH}.serviceAccounts`, /^is required, because .*default service account/]],
      },
      {
        name: 'two service accounts',
        input: {
          serviceAccounts: [
            { email: SERVICE_ACCOUNT, scopes: [SCOPE] },
            { email: 'other@p.iam.gserviceaccount.com', scopes: [SCOPE] },
          ],
        },
        errors: [[`${PATH}.serviceAccounts`, /lists 2 service accounts.*exactly one/]],
      },
      {
        name: 'a service account without email',
        input: { serviceAccounts: [{ scopes: [SCOPE] }] },
        errors: [[`${PATH}.serviceAccounts[0].email`, /^is required/]],
      },
      // disks
      {
        name: 'no disks',
        input: { disks: undefined },
        errors: [[`${PATH}.disks`, /^is required; list the boot disk/]],
      },
      {
        name: 'no boot disk',
        input: { disks: [dataDisk()] },
        errors: [[`${PATH}.disks`, /has no boot disk.*set boot: true/]],
      },
      {
        name: 'two boot disks',
        input: { disks: [bootDisk(), bootDisk()] },
        errors: [[`${PATH}.disks`, /has 2 boot disks.*one disk only/]],
      },
      {
        name: 'a boot disk without image',
        input: { disks: [bootDisk({ image: '' })] },
        errors: [[`${PATH}.disks[0].image`, /^is required on the boot disk/]],
      },
      {
        name: 'an image name when no project is known',
        input: { disks: [bootDisk({ image: 'rhcos-custom' })] },
        infrastructure: infrastructure({ projectID: '' }),
        errors: [
          [
            `${PATH}.disks[0].image`,
            /without a project.*projects\/<project>\/global\/images\/rhcos-custom/,
          ],
        ],
      },
      {
        name: 'disks kept after the machine is deleted',
        input: { disks: [bootDisk({ autoDelete: false }), dataDisk({ autoDelete: undefined })] },
        errors: [
          [`${PATH}.disks[0].autoDelete`, /^is false, .*set autoDelete to true/],
          [`${PATH}.disks[1].autoDelete`, /^is not set, which means false/],
        ],
      },
      {
        name: 'an image on an additional disk',
        input: { disks: [bootDisk(), dataDisk({ image: IMAGE })] },
        errors: [[`${PATH}.disks[1].image`, /creates additional disks blank; remove the image/]],
      },
      {
        name: 'labels on an additional disk',
        input: { disks: [bootDisk(), dataDisk({ labels: { a: 'b' } })] },
        errors: [[`${PATH}.disks[1].labels`, /labels only the boot disk/]],
      },
      {
        name: 'boot disk labels that are not instance labels',
        input: {
          labels: { team: 'a' },
          disks: [bootDisk({ labels: { team: 'b', disk: 'root' } })],
        },
        errors: [
          [`${PATH}.disks[0].labels`, /sets "team", "disk", .*add the same labels to .*\.labels/],
        ],
      },
      {
        name: 'an additional disk without size',
        input: { disks: [bootDisk(), dataDisk({ sizeGb: 0 })] },
        errors: [[`${PATH}.disks[1].sizeGb`, /^is required on a disk that is not the boot disk/]],
      },
      {
        name: 'a negative disk size',
        input: { disks: [bootDisk({ sizeGb: -1 }), dataDisk({ sizeGb: -5 })] },
        errors: [
          [`${PATH}.disks[0].sizeGb`, /must not be negative/],
          [`${PATH}.disks[1].sizeGb`, /must not be negative/],
        ],
      },
      {
        name: 'a local SSD',
        input: { disks: [bootDisk(), dataDisk({ type: 'local-ssd', sizeGb: 375 })] },
        errors: [[`${PATH}.disks[1].type`, /scratch disk.*use a persistent disk type/]],
      },
      {
        name: 'a disk type that is not a name',
        input: { disks: [bootDisk({ type: 'zones/us-central1-a/diskTypes/pd-ssd' })] },
        errors: [[`${PATH}.disks[0].type`, /not a Compute Engine disk type name/]],
      },
      {
        name: 'a KMS key without its names',
        input: key({}),
        errors: [
          [`${PATH}.disks[0].encryptionKey.kmsKey.location`, /^is required/],
          [`${PATH}.disks[0].encryptionKey.kmsKey.keyRing`, /^is required/],
          [`${PATH}.disks[0].encryptionKey.kmsKey.name`, /^is required/],
        ],
      },
      {
        name: 'a KMS key without project when none is known',
        input: key({ name: 'k', keyRing: 'r', location: 'global' }),
        infrastructure: infrastructure({ projectID: '' }),
        errors: [[`${PATH}.disks[0].encryptionKey.kmsKey.projectID`, /^is required here/]],
      },
      {
        name: 'KMS names Cluster API cannot hold',
        input: key({ name: 'k.1', keyRing: 'r', location: 'global', projectID: 'example.com:p' }),
        errors: [
          [
            `${PATH}.disks[0].encryptionKey.kmsKey.projectID`,
            /"example.com:p".*letters, digits, - and _/,
          ],
          [`${PATH}.disks[0].encryptionKey.kmsKey.name`, /"k.1"/],
        ],
      },
      {
        name: 'a KMS key name longer than 160 characters',
        input: key({ name: 'k'.repeat(100), keyRing: 'r'.repeat(30), location: 'global' }),
        errors: [[`${PATH}.disks[0].encryptionKey.kmsKey`, /longer than the 160 characters/]],
      },
      {
        name: 'a KMS service account Cluster API cannot hold',
        input: key(
          { name: 'k', keyRing: 'r', location: 'global' },
          { kmsKeyServiceAccount: 'service-123@compute-system.iam.gserviceaccount.co' },
        ),
        errors: [
          [
            `${PATH}.disks[0].encryptionKey.kmsKeyServiceAccount`,
            /name@project\.iam\.gserviceaccount\.com/,
          ],
        ],
      },
      {
        name: 'an additional disk key while the boot disk has none',
        input: { disks: [bootDisk(), dataDisk({ encryptionKey: KMS_KEY })] },
        errors: [[`${PATH}.disks[1].encryptionKey`, /boot disk has none/]],
      },
      {
        name: "an additional disk key other than the boot disk's",
        input: {
          disks: [
            bootDisk({ encryptionKey: KMS_KEY }),
            dataDisk({ encryptionKey: { kmsKey: { ...KMS_KEY.kmsKey, name: 'other' } } }),
          ],
        },
        errors: [[`${PATH}.disks[1].encryptionKey`, /differs from the boot disk's encryptionKey/]],
      },
      // network interfaces
      {
        name: 'no network interface',
        input: { networkInterfaces: [] },
        errors: [[`${PATH}.networkInterfaces`, /^is required; set one network interface/]],
      },
      {
        name: 'two network interfaces',
        input: { networkInterfaces: [{ subnetwork: 'a' }, { subnetwork: 'b' }] },
        errors: [[`${PATH}.networkInterfaces`, /has 2 network interfaces.*exactly one/]],
      },
      // metadata items and tags
      {
        name: 'metadata items without key, twice the same key, and user-data',
        input: {
          gcpMetadata: [
            { value: 'x' },
            { key: 'a', value: '1' },
            { key: 'a', value: '2' },
            { key: 'user-data', value: 'ignition' },
          ],
        },
        errors: [
          [`${PATH}.gcpMetadata[0].key`, /^is required/],
          [`${PATH}.gcpMetadata[2].key`, /repeats the key "a" of .*gcpMetadata\[1\]/],
          [`${PATH}.gcpMetadata[3].key`, /bootstrap data from userDataSecret/],
        ],
      },
      {
        name: 'resource manager tags the CRD would refuse',
        input: {
          resourceManagerTags: [
            { parentID: '0123', key: 'env', value: 'prod' },
            { parentID: '123', key: '-env', value: 'prod-' },
            { parentID: '123' },
            { parentID: '123', key: 'env', value: 'a' },
            { parentID: '123', key: 'env', value: 'b' },
          ],
        },
        errors: [
          [
            `${PATH}.resourceManagerTags[0].parentID`,
            /"0123", which is neither an organization ID/,
          ],
          [`${PATH}.resourceManagerTags[1].key`, /"-env", but a tag key/],
          [`${PATH}.resourceManagerTags[1].value`, /"prod-", but a tag value/],
          [`${PATH}.resourceManagerTags[2].key`, /^is required/],
          [`${PATH}.resourceManagerTags[2].value`, /^is required/],
          [`${PATH}.resourceManagerTags[4]`, /repeats the tag key "123\/env"/],
        ],
      },
      {
        name: 'more than 50 resource manager tags',
        input: {
          resourceManagerTags: Array.from({ length: 51 }, (_, i) => ({
            parentID: '123',
            key: `k${i}`,
            value: 'v',
          })),
        },
        errors: [[`${PATH}.resourceManagerTags`, /has 51 tags.*at most 50/]],
      },
      // scheduling
      {
        name: 'preemptible with the Spot provisioning model',
        input: { preemptible: true, provisioningModel: 'Spot' },
        errors: [[`${PATH}.provisioningModel`, /cannot be combined with preemptible/]],
      },
      {
        name: 'restartPolicy Always on a preemptible VM',
        input: { preemptible: true, restartPolicy: 'Always' },
        errors: [[`${PATH}.restartPolicy`, /^is Always, but preemptible and Spot VMs/]],
      },
      {
        name: 'restartPolicy Never on a standard VM',
        input: { restartPolicy: 'Never' },
        errors: [
          [`${PATH}.restartPolicy`, /^is Never, but Cluster API cannot turn automatic restart off/],
        ],
      },
      {
        name: 'more than one GPU type, and a GPU entry without type or count',
        input: {
          machineType: 'n1-standard-8',
          onHostMaintenance: 'Terminate',
          gpus: [{ type: 'nvidia-tesla-t4', count: 1 }, { count: 0 }],
        },
        errors: [
          [`${PATH}.gpus[1].type`, /^is required/],
          [`${PATH}.gpus[1].count`, /^is 0; .*at least 1/],
          [`${PATH}.gpus`, /lists 2 GPU types/],
        ],
      },
      {
        name: 'a GPU type that is a path',
        input: {
          onHostMaintenance: 'Terminate',
          gpus: [{ type: 'zones/us-central1-a/acceleratorTypes/nvidia-tesla-t4', count: 1 }],
        },
        errors: [[`${PATH}.gpus[0].type`, /not an accelerator type name/]],
      },
      {
        name: 'GPUs on a machine type that has its own',
        input: {
          machineType: 'a2-highgpu-1g',
          onHostMaintenance: 'Terminate',
          gpus: [{ type: 'nvidia-tesla-a100', count: 1 }],
        },
        errors: [[`${PATH}.gpus`, /machineType a2-highgpu-1g, which comes with its GPUs/]],
      },
      {
        name: 'GPUs with onHostMaintenance Migrate',
        input: { onHostMaintenance: 'Migrate', gpus: [{ type: 'nvidia-tesla-t4', count: 1 }] },
        errors: [
          [`${PATH}.onHostMaintenance`, /^is Migrate, but VMs with GPUs cannot live-migrate/],
        ],
      },
      {
        name: 'confidential computing without onHostMaintenance Terminate, on a series CAPG refuses',
        input: { confidentialCompute: 'Enabled' },
        errors: [
          [`${PATH}.confidentialCompute`, /need onHostMaintenance Terminate/],
          [
            `${PATH}.confidentialCompute`,
            /series n2d, c2d, c3d, but machineType n2-standard-4 is of series n2/,
          ],
        ],
      },
      {
        name: 'a shielded VM with integrity monitoring but no vTPM',
        input: { shieldedInstanceConfig: { virtualizedTrustedPlatformModule: 'Disabled' } },
        errors: [
          [
            `${PATH}.shieldedInstanceConfig.virtualizedTrustedPlatformModule`,
            /needs the virtual TPM/,
          ],
        ],
      },
      {
        name: 'unknown enum values, each reported',
        input: {
          provisioningModel: 'Standard',
          onHostMaintenance: 'Restart',
          restartPolicy: 'OnFailure',
          confidentialCompute: 'ARMRealms',
          shieldedInstanceConfig: {
            secureBoot: 'On',
            virtualizedTrustedPlatformModule: 'Off',
            integrityMonitoring: 'enabled',
          },
        },
        errors: [
          [`${PATH}.provisioningModel`, /"Standard", which is not supported; use one of "Spot"/],
          [`${PATH}.onHostMaintenance`, /"Restart".*"Migrate", "Terminate"/],
          [`${PATH}.restartPolicy`, /"OnFailure".*"Always", "Never"/],
          [`${PATH}.confidentialCompute`, /"ARMRealms"/],
          [`${PATH}.shieldedInstanceConfig.secureBoot`, /"On".*"Enabled", "Disabled"/],
          [`${PATH}.shieldedInstanceConfig.virtualizedTrustedPlatformModule`, /"Off"/],
          [`${PATH}.shieldedInstanceConfig.integrityMonitoring`, /"enabled"/],
        ],
      },
    ];

    for (const c of cases) {
      it(c.name, () => {
        const errors = expectErrors(
          convert(specWith(c.input), {
            controlPlane: c.controlPlane ?? false,
            infrastructure: c.infrastructure ?? infrastructure(),
          }),
        );
        expectFieldErrors(errors, c.errors);
      });
    }

    it('reports every error of a providerSpec at once, not only the first', () => {
      const errors = expectErrors(
        convert(
          specWith({
            region: 'europe-west4',
            credentialsSecret: { name: 'other' },
            deletionProtection: true,
            targetPools: ['pool'],
            disks: [bootDisk({ autoDelete: false }), dataDisk({ image: IMAGE })],
            networkInterfaces: [],
            serviceAccounts: [],
            restartPolicy: 'Never',
            extra: true,
          }),
        ),
      );
      expect(errors.map((e) => e.path)).to.have.members([
        `${PATH}.region`,
        `${PATH}.credentialsSecret.name`,
        `${PATH}.deletionProtection`,
        `${PATH}.targetPools`,
        `${PATH}.disks[0].autoDelete`,
        `${PATH}.disks[1].image`,
        `${PATH}.networkInterfaces`,
        `${PATH}.serviceAccounts`,
        `${PATH}.restartPolicy`,
        `${PATH}.extra`,
      ]);
    });

    it('uses the context path for every error path', () => {
      const errors = expectErrors(
        convert(specWith({ deletionProtection: true }), { path: 'spec.providerSpec.value' }),
      );
      expect(errors.map((e) => e.path)).to.deep.equal([
        'spec.providerSpec.value.deletionProtection',
      ]);
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
        name: 'targetPools on a control-plane MachineSet are left to the GCPCluster',
        input: { targetPools: [`${CLUSTER}-api`] },
        controlPlane: true,
        warning: new RegExp(`^${PATH}\\.targetPools is not converted: .*GCPCluster\\.$`),
      },
      {
        name: 'a network other than the installer network cannot be checked',
        input: { networkInterfaces: [{ network: 'shared-vpc', subnetwork: 'workers' }] },
        template: { subnet: 'workers' },
        warning: new RegExp(
          `^${PATH}\\.networkInterfaces\\[0\\]\\.network is "shared-vpc", but Cluster API attaches machines to the network of the cluster's GCPCluster`,
        ),
      },
      {
        name: 'a network project other than the cluster project (shared VPC)',
        input: { networkInterfaces: [{ projectID: 'host-project', subnetwork: 'workers' }] },
        template: { subnet: 'workers' },
        warning: new RegExp(
          `^${PATH}\\.networkInterfaces\\[0\\]\\.projectID is "host-project", .*spec\\.network\\.hostProject`,
        ),
      },
      {
        name: 'no subnetwork leaves the choice to Cluster API',
        input: { networkInterfaces: [{ network: `${CLUSTER}-network` }] },
        template: { subnet: undefined },
        warning: new RegExp(
          `^${PATH}\\.networkInterfaces\\[0\\]\\.subnetwork is not set; Cluster API will place the machines in the first subnetwork`,
        ),
      },
      {
        name: 'GPUs without onHostMaintenance get Terminate',
        input: { machineType: 'n1-standard-4', gpus: [{ type: 'nvidia-tesla-t4', count: 1 }] },
        template: {
          instanceType: 'n1-standard-4',
          onHostMaintenance: 'Terminate',
          guestAccelerators: [{ type: `zones/${ZONE}/acceleratorTypes/nvidia-tesla-t4`, count: 1 }],
        },
        warning: new RegExp(
          `^${PATH}\\.onHostMaintenance is not set, but VMs with GPUs cannot live-migrate; the template sets Terminate`,
        ),
      },
      {
        name: 'a KMS service account without a KMS key is ignored, as Machine API ignores it',
        input: {
          disks: [
            bootDisk({ encryptionKey: { kmsKeyServiceAccount: KMS_KEY.kmsKeyServiceAccount } }),
          ],
        },
        warning: new RegExp(
          `^${PATH}\\.disks\\[0\\]\\.encryptionKey\\.kmsKeyServiceAccount is not converted: without kmsKey`,
        ),
      },
      {
        name: 'instance labels are also put on the boot disk',
        input: {
          labels: { team: 'platform', env: 'prod' },
          disks: [bootDisk({ labels: { team: 'platform' } })],
        },
        template: { additionalLabels: { team: 'platform', env: 'prod' } },
        warning: new RegExp(
          `^${PATH}\\.labels \\("env"\\) will also be set on the boot disk, .*only with ${PATH}\\.disks\\[0\\]\\.labels\\.$`,
        ),
      },
      {
        name: 'region cannot be checked when the Infrastructure has no region',
        input: { region: 'us-central1' },
        infrastructure: infrastructure({ region: '' }),
        warning: new RegExp(
          `^${PATH}\\.region is "us-central1", but the Infrastructure object names no GCP region`,
        ),
      },
      {
        name: 'projectID cannot be checked when the Infrastructure has no project',
        input: { projectID: PROJECT },
        infrastructure: infrastructure({ projectID: '' }),
        warning: new RegExp(
          `^${PATH}\\.projectID is "${PROJECT}", but the Infrastructure object names no GCP project`,
        ),
      },
      ...defaultedUserDataCases(PATH),
    ];

    for (const c of cases) {
      it(c.name, () => {
        const result = expectOk(
          convert(specWith(c.input), {
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

  describe('output', () => {
    const rich = specWith({
      labels: { b: '2', a: '1' },
      disks: [
        bootDisk({
          sizeGb: 128,
          type: 'pd-ssd',
          encryptionKey: KMS_KEY,
          labels: { a: '1', b: '2' },
        }),
        dataDisk({ encryptionKey: KMS_KEY }),
      ],
      gcpMetadata: [{ key: 'z', value: '1' }],
      tags: ['t1'],
      resourceManagerTags: [{ parentID: '123', key: 'env', value: 'prod' }],
      shieldedInstanceConfig: { secureBoot: 'Enabled' },
      userDataSecret: { name: 'worker-user-data' },
    });

    itConvertsPurely(convert, () => structuredClone(rich));

    it('never aliases the input or itself: changing the output leaves the input alone', () => {
      const input = structuredClone(rich);
      const { value } = expectOk(convert(input));
      const spec = value.templateSpec as {
        additionalLabels: Record<string, string>;
        additionalNetworkTags: string[];
        serviceAccounts: { scopes: string[] };
        rootDiskEncryptionKey: { managedKey: { kmsKeyName: string } };
        additionalDisks: { encryptionKey: { managedKey: { kmsKeyName: string } } }[];
      };
      spec.additionalLabels.c = '3';
      spec.additionalNetworkTags.push('t2');
      spec.serviceAccounts.scopes.push('changed');
      spec.rootDiskEncryptionKey.managedKey.kmsKeyName = 'changed';
      expect(input).to.deep.equal(rich);
      expect(spec.additionalDisks[0]?.encryptionKey.managedKey.kmsKeyName).to.not.equal('changed');
    });
  });

  describe('the shared GCP test fixture', () => {
    function fixtureContext(): ConversionContext {
      return {
        infrastructure: {
          apiVersion: 'config.openshift.io/v1',
          kind: 'Infrastructure',
          metadata: { name: 'cluster' },
          status: gcpFixture.infrastructure,
        },
        path: PATH,
        controlPlane: false,
      };
    }

    function convertFixture(machineSet = gcpFixture.machineSet('demo-abc12-worker-a', 'ns')) {
      return expectOk(
        gcpConverter.toCapi(machineSet.spec.template?.spec?.providerSpec?.value, fixtureContext()),
      );
    }

    it('names this platform and its template resource', () => {
      expect(gcpFixture.platform).to.equal(gcpConverter.platform);
      expect(gcpFixture.infrastructure.platformStatus?.type).to.equal('GCP');
      expect(gcpFixture.infrastructure.infrastructureName).to.equal('demo-abc12');
      const [group, version] = gcpConverter.template.apiVersion.split('/');
      expect(gcpFixture.templates).to.deep.equal({
        group,
        version,
        plural: gcpConverter.template.plural,
        kind: gcpConverter.template.kind,
      });
    });

    it("converts the fixture's MachineSet without errors or warnings, into its failure domain", () => {
      const { value, warnings } = convertFixture();
      expect(warnings).to.deep.equal([]);
      expect(value.failureDomain).to.equal(gcpFixture.failureDomain);
      expect(value.userDataSecretName).to.equal('worker-user-data');
      expect(value.templateSpec).to.include({
        instanceType: 'n2-standard-4',
        ipForwarding: 'Disabled',
      });
    });

    it("applying the fixture's change changes the converted template spec", () => {
      const machineSet = gcpFixture.machineSet('demo-abc12-worker-a', 'ns');
      const changed = applyPatch(machineSet, gcpFixture.change);
      const before = convertFixture(machineSet).value.templateSpec;
      const after = convertFixture(changed).value.templateSpec;
      expect(after).to.not.deep.equal(before);
      expect(after).to.include({ instanceType: 'n2-standard-8', rootDeviceSize: 256 });
    });
  });
});
