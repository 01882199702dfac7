// Property test against the real GCPMachineTemplate CRD: random valid GCP providerSpecs must
// convert to templates the API server accepts as they are. The server applies the CRD's
// defaults on create, so getting back exactly what we sent proves every default is already
// materialised: a later diff against the stored template settles instead of rewriting forever.
import { expect } from 'chai';
import fc from 'fast-check';
import type { Infrastructure } from '../../src/api/types.js';
import { gcpConverter } from '../../src/conversion/gcp/index.js';
import type { ConversionContext } from '../../src/conversion/types.js';
import { testNamespace } from '../support/cluster.js';
import { assertCrdAcceptsEveryConversion, dryRunCreateTemplate } from '../support/template-crd.js';
import { gcpFixture } from '../support/fixtures/gcp.js';

const CLUSTER = 'ci-ln-abc12';
const PROJECT = 'openshift-ci-project';
const REGION = 'us-central1';

function infrastructure(status: Infrastructure['status']): Infrastructure {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    status,
  };
}

const context: ConversionContext = {
  infrastructure: infrastructure({
    infrastructureName: CLUSTER,
    platformStatus: { type: 'GCP', gcp: { projectID: PROJECT, region: REGION } },
  }),
  path: 'spec.template.spec.providerSpec.value',
  controlPlane: false,
};

// --- arbitraries for valid providerSpecs ---

const text = (alphabet: string, minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength, maxLength });
const lower = 'abcdefghijklmnopqrstuvwxyz';
const digits = '0123456789';
/** A Compute Engine resource name: a lowercase letter, then lowercase letters, digits and -. */
const resourceName = fc
  .tuple(text(lower, 1, 1), text(`${lower}${digits}-`, 0, 20), text(`${lower}${digits}`, 1, 1))
  .map((parts) => parts.join(''));

const labels = fc.dictionary(
  fc.tuple(text(lower, 1, 1), text(`${lower}${digits}_-`, 0, 10)).map((p) => p.join('')),
  text(`${lower}${digits}_-`, 0, 12),
  { maxKeys: 4 },
);

const kmsSegment = text(`${lower}${digits}-_`, 1, 12);
const kmsKey = fc.record(
  {
    kmsKey: fc.record(
      {
        name: kmsSegment,
        keyRing: kmsSegment,
        location: fc.constantFrom('global', REGION),
        projectID: fc.constantFrom('kms-project', PROJECT),
      },
      { requiredKeys: ['name', 'keyRing', 'location'] },
    ),
    kmsKeyServiceAccount: resourceName.map((n) => `${n}@${PROJECT}.iam.gserviceaccount.com`),
  },
  { requiredKeys: ['kmsKey'] },
);

const diskType = fc.constantFrom('', 'pd-standard', 'pd-ssd', 'pd-balanced', 'hyperdisk-balanced');

/** A boot disk and up to two additional disks; an additional disk's key is the boot disk's. */
const disks = (instanceLabels: Record<string, string>) =>
  fc
    .record({
      boot: fc.record(
        {
          image: fc.oneof(
            fc.constant('projects/rhcos-cloud/global/images/rhcos-9-6-20250523-0-gcp-x86-64'),
            fc.constant('projects/rhcos-cloud/global/images/family/rhcos-9'),
            resourceName,
          ),
          sizeGb: fc.integer({ min: 0, max: 65536 }),
          type: diskType,
          encryptionKey: kmsKey,
          // CAPG labels the boot disk with the instance labels: a subset of them converts.
          labels: fc
            .subarray(Object.keys(instanceLabels))
            .map((keys) => Object.fromEntries(keys.map((k) => [k, instanceLabels[k] ?? '']))),
        },
        { requiredKeys: ['image'] },
      ),
      others: fc.array(
        fc.record(
          { sizeGb: fc.integer({ min: 1, max: 65536 }), type: diskType, encrypted: fc.boolean() },
          { requiredKeys: ['sizeGb', 'encrypted'] },
        ),
        { maxLength: 2 },
      ),
      bootIndex: fc.nat(),
    })
    .map(({ boot, others, bootIndex }) => {
      const bootDisk = { autoDelete: true, boot: true, ...boot };
      const list: Record<string, unknown>[] = others.map(({ encrypted, ...disk }) => ({
        autoDelete: true,
        boot: false,
        ...disk,
        ...(encrypted && boot.encryptionKey ? { encryptionKey: boot.encryptionKey } : {}),
      }));
      list.splice(bootIndex % (list.length + 1), 0, bootDisk);
      return list;
    });

const networkInterface = fc.record(
  {
    network: fc.constant(`${CLUSTER}-network`),
    subnetwork: fc.constantFrom(`${CLUSTER}-worker-subnet`, 'custom-subnet'),
    projectID: fc.constant(PROJECT),
    publicIP: fc.boolean(),
  },
  { requiredKeys: [] },
);

const serviceAccount = fc.record(
  {
    email: resourceName.map((n) => `${n}@${PROJECT}.iam.gserviceaccount.com`),
    scopes: fc.subarray([
      'https://www.googleapis.com/auth/cloud-platform',
      'https://www.googleapis.com/auth/compute',
      'https://www.googleapis.com/auth/devstorage.read_only',
    ]),
  },
  { requiredKeys: ['email'] },
);

const metadataItems = fc.uniqueArray(
  fc.record(
    {
      key: resourceName.filter((k) => k !== 'user-data'),
      value: fc.option(text(`${lower}${digits} =:/`, 0, 20), { nil: null }),
    },
    { requiredKeys: ['key'] },
  ),
  { maxLength: 3, selector: (item) => item.key },
);

const alnum = `${lower}ABCXYZ${digits}`;
const resourceManagerTags = fc.uniqueArray(
  fc.record({
    parentID: fc.constantFrom('1234567890', PROJECT),
    key: fc
      .tuple(text(alnum, 1, 1), text(`${alnum}_.-`, 0, 10), text(alnum, 1, 1))
      .map((p) => p.join('')),
    value: fc
      .tuple(text(alnum, 1, 1), text(`${alnum}_.@%=+:,*#&()[]{}- `, 0, 10), text(alnum, 1, 1))
      .map((p) => p.join('')),
  }),
  { maxLength: 3, selector: (tag) => `${tag.parentID}/${tag.key}` },
);

/** The vTPM may be off only when integrity monitoring is off too. */
const shieldedInstanceConfig = fc
  .record(
    {
      secureBoot: fc.constantFrom('Enabled', 'Disabled', ''),
      virtualizedTrustedPlatformModule: fc.constantFrom('Enabled', 'Disabled'),
      integrityMonitoring: fc.constantFrom('Enabled', 'Disabled'),
    },
    { requiredKeys: [] },
  )
  .filter(
    (c) =>
      c.virtualizedTrustedPlatformModule !== 'Disabled' || c.integrityMonitoring === 'Disabled',
  );

/** Machine type, GPUs, confidential computing and host maintenance that go together. */
const machine = fc.oneof(
  fc.record(
    {
      machineType: fc.constantFrom('n2-standard-4', 'e2-standard-8', 'c3-standard-8'),
      onHostMaintenance: fc.constantFrom('Migrate', 'Terminate'),
      confidentialCompute: fc.constant('Disabled'),
    },
    { requiredKeys: ['machineType'] },
  ),
  fc.record(
    {
      machineType: fc.constantFrom('n1-standard-8', 'n1-highmem-16'),
      gpus: fc
        .record({
          type: fc.constantFrom('nvidia-tesla-t4', 'nvidia-tesla-v100'),
          count: fc.integer({ min: 1, max: 4 }),
        })
        .map((gpu) => [gpu]),
      onHostMaintenance: fc.constant('Terminate'),
    },
    { requiredKeys: ['machineType', 'gpus'] },
  ),
  fc.record({
    machineType: fc.constantFrom('n2d-standard-4', 'c2d-standard-8', 'c3d-standard-8'),
    confidentialCompute: fc.constantFrom('Enabled', 'AMDEncryptedVirtualization'),
    onHostMaintenance: fc.constant('Terminate'),
  }),
  fc.record({
    machineType: fc.constant('n2d-standard-8'),
    confidentialCompute: fc.constant('AMDEncryptedVirtualizationNestedPaging'),
    onHostMaintenance: fc.constant('Terminate'),
  }),
  fc.record({
    machineType: fc.constant('c3-standard-4'),
    confidentialCompute: fc.constant('IntelTrustedDomainExtensions'),
    onHostMaintenance: fc.constant('Terminate'),
  }),
);

/** Standard, preemptible or Spot, each with the restart policy Compute Engine applies to it. */
const provisioning = fc.oneof(
  fc.record({ restartPolicy: fc.constantFrom('Always', '') }, { requiredKeys: [] }),
  fc.record(
    { preemptible: fc.constant(true), restartPolicy: fc.constant('Never') },
    { requiredKeys: ['preemptible'] },
  ),
  fc.record(
    { provisioningModel: fc.constant('Spot'), restartPolicy: fc.constant('Never') },
    { requiredKeys: ['provisioningModel'] },
  ),
);

const optionalFields = fc.record(
  {
    canIPForward: fc.boolean(),
    deletionProtection: fc.constant(false),
    gcpMetadata: metadataItems,
    tags: fc.uniqueArray(resourceName, { maxLength: 3 }),
    targetPools: fc.constant([]),
    resourceManagerTags,
    shieldedInstanceConfig,
    region: fc.constant(REGION),
    projectID: fc.constant(PROJECT),
    userDataSecret: fc.constant({ name: 'worker-user-data' }),
    credentialsSecret: fc.constant({ name: 'gcp-cloud-credentials' }),
    metadata: fc.constant({ creationTimestamp: null }),
  },
  { requiredKeys: [] },
);

const providerSpec = labels.chain((instanceLabels) =>
  fc
    .tuple(
      fc.record({
        zone: fc.constantFrom('a', 'b', 'c', 'f').map((z) => `${REGION}-${z}`),
        disks: disks(instanceLabels),
        networkInterfaces: networkInterface.map((nic) => [nic]),
        serviceAccounts: serviceAccount.map((account) => [account]),
      }),
      optionalFields,
      machine,
      provisioning,
    )
    .map(([required, optional, machineFields, provisioningFields]) => ({
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'GCPMachineProviderSpec',
      ...(Object.keys(instanceLabels).length > 0 ? { labels: instanceLabels } : {}),
      ...required,
      ...optional,
      ...machineFields,
      ...provisioningFields,
    })),
);

// --- the test ---

describe('GCP conversion against the real GCPMachineTemplate CRD', () => {
  it('the CRD accepts every converted template unchanged, and conversion is deterministic', async function () {
    this.timeout(120_000);
    const namespace = await testNamespace('gcp-crd');
    await assertCrdAcceptsEveryConversion(gcpConverter, providerSpec, context, namespace);
  });

  it("the CRD accepts the shared fixture's template unchanged", async () => {
    const namespace = await testNamespace('gcp-crd');
    const machineSet = gcpFixture.machineSet('demo-abc12-worker-a', namespace);
    const converted = gcpConverter.toCapi(machineSet.spec.template?.spec?.providerSpec?.value, {
      ...context,
      infrastructure: infrastructure(gcpFixture.infrastructure),
    });
    if (!converted.ok) throw new Error(`conversion failed: ${JSON.stringify(converted.errors)}`);
    const stored = await dryRunCreateTemplate(
      gcpConverter,
      namespace,
      'fixture',
      converted.value.templateSpec,
    );
    expect(stored.spec.template.spec).to.deep.equal(converted.value.templateSpec);
  });

  it('would notice a template that leaves a CRD default to the server (control)', async () => {
    const namespace = await testNamespace('gcp-crd');
    const withoutDefaults = { instanceType: 'n2-standard-4', image: 'projects/p/global/images/i' };
    const stored = await dryRunCreateTemplate(gcpConverter, namespace, 'control', withoutDefaults);
    expect(stored.spec.template.spec).to.not.deep.equal(withoutDefaults);
    expect(stored.spec.template.spec).to.include({ ipForwarding: 'Enabled' });
  });
});
