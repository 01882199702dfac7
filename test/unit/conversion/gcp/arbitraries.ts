// fast-check generators of valid GCP inputs for the round-trip properties: MAPI providerSpecs
// and CAPG template specs covering every field the conversions map, within the rules both
// sides' admission checks and the converters enforce.
import fc from 'fast-check';

export const CLUSTER = 'demo-abc12';
export const PROJECT = 'demo-project-483920';
export const REGION = 'us-central1';
const SCOPES = [
  'https://www.googleapis.com/auth/cloud-platform',
  'https://www.googleapis.com/auth/compute',
  'https://www.googleapis.com/auth/devstorage.read_only',
];
const MAPI_DISK_TYPES = ['pd-standard', 'pd-ssd', 'pd-balanced', 'hyperdisk-balanced'];
const GPU_TYPES = ['nvidia-tesla-t4', 'nvidia-l4', 'nvidia-tesla-p4', 'nvidia-tesla-v100'];
/** Machine series, each with the confidential computing values CAPG and MAPI accept on it. */
const SERIES: Record<string, string[]> = {
  n2: [],
  e2: [],
  n2d: ['Enabled', 'AMDEncryptedVirtualization', 'AMDEncryptedVirtualizationNestedPaging'],
  c2d: ['Enabled', 'AMDEncryptedVirtualization'],
  c3d: ['Enabled', 'AMDEncryptedVirtualization'],
  c3: ['IntelTrustedDomainExtensions'],
};

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/);
const optional = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.option(arbitrary, { nil: undefined });
const diskSize = fc.integer({ min: 16, max: 65536 });
const zoneLetter = fc.constantFrom('a', 'b', 'c', 'f');
const labels = fc.dictionary(name, fc.stringMatching(/^[a-z0-9_-]{0,12}$/), {
  minKeys: 1,
  maxKeys: 3,
});
const metadataKey = name.filter((key) => key !== 'user-data');
const serviceAccountEmail = fc
  .tuple(name, name)
  .map(([account, project]) => `${account}@${project}.iam.gserviceaccount.com`);
const scopes = fc.uniqueArray(fc.constantFrom(...SCOPES), { minLength: 1, maxLength: 3 });
const resourceManagerTags = fc.uniqueArray(
  fc.record({
    parentID: fc.oneof(fc.stringMatching(/^[1-9][0-9]{0,11}$/), fc.constant(PROJECT)),
    key: fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,8}[a-zA-Z0-9]$/),
    value: fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9_.@%=+:,*#& -]{0,8}[a-zA-Z0-9]$/),
  }),
  { maxLength: 4, selector: (tag) => `${tag.parentID}/${tag.key}` },
);
const machine = fc
  .tuple(fc.constantFrom(...Object.keys(SERIES)), fc.constantFrom('standard-4', 'highmem-8'))
  .map(([series, size]) => ({ series, machineType: `${series}-${size}` }));
const interruption = fc.constantFrom('none', 'preemptible', 'spot');
const shielded = fc.record(
  {
    secureBoot: fc.constantFrom('Enabled', 'Disabled'),
    virtualizedTrustedPlatformModule: fc.constantFrom('Enabled', 'Disabled'),
    integrityMonitoring: fc.constantFrom('Enabled', 'Disabled'),
  },
  { requiredKeys: [] },
);

/** Integrity monitoring needs the virtual TPM: a config without it has monitoring off. */
function consistentShielded(config: Record<string, string>): Record<string, string> {
  return config.virtualizedTrustedPlatformModule === 'Disabled'
    ? { ...config, integrityMonitoring: 'Disabled' }
    : config;
}

/** The confidential computing value to use on `series`, or undefined when it supports none. */
function confidentialValue(series: string, pick: number): string | undefined {
  const values = SERIES[series] ?? [];
  return values.length === 0 ? undefined : values[pick % values.length];
}

export interface MapiCase {
  providerSpec: Record<string, unknown>;
  controlPlane: boolean;
}

const mapiKmsKey = fc.record(
  {
    kmsKey: fc.record(
      { name, keyRing: name, location: fc.constantFrom('global', REGION), projectID: name },
      { requiredKeys: ['name', 'keyRing', 'location'] },
    ),
    kmsKeyServiceAccount: serviceAccountEmail,
  },
  { requiredKeys: ['kmsKey'] },
);

export const mapiCase: fc.Arbitrary<MapiCase> = fc
  .record({
    apiVersion: optional(
      fc.constantFrom('machine.openshift.io/v1beta1', 'gcpprovider.openshift.io/v1beta1'),
    ),
    kind: optional(fc.constant('GCPMachineProviderSpec')),
    metadata: optional(fc.constant({ creationTimestamp: null })),
    // machine-api-operator's webhook writes one into every providerSpec it admits.
    userDataSecret: fc.record({ name }),
    credentialsSecret: optional(fc.constant({ name: 'gcp-cloud-credentials' })),
    canIPForward: optional(fc.boolean()),
    deletionProtection: optional(fc.constant(false)),
    machine,
    zone: zoneLetter.map((letter) => `${REGION}-${letter}`),
    writeRegion: fc.boolean(),
    writeProject: fc.boolean(),
    image: fc.oneof(
      name,
      name.map((image) => `projects/rhcos-cloud/global/images/${image}`),
    ),
    bootSize: optional(fc.oneof(fc.constant(0), diskSize)),
    bootType: optional(fc.constantFrom(...MAPI_DISK_TYPES)),
    bootLabels: fc.constantFrom('instance', 'absent', 'null'),
    encryptionKey: optional(mapiKmsKey),
    additionalDisks: fc.array(
      fc.record({
        sizeGb: diskSize,
        type: optional(fc.constantFrom(...MAPI_DISK_TYPES)),
        encrypted: fc.boolean(),
      }),
      { maxLength: 3 },
    ),
    bootIndex: fc.nat(),
    labels: optional(labels),
    gcpMetadata: fc.uniqueArray(
      fc.record(
        { key: metadataKey, value: fc.option(fc.string({ maxLength: 8 })) },
        {
          requiredKeys: ['key'],
        },
      ),
      { maxLength: 3, selector: (item) => item.key },
    ),
    network: optional(fc.oneof(fc.constant(`${CLUSTER}-network`), name)),
    networkProjectID: optional(name),
    subnetwork: name,
    publicIP: optional(fc.boolean()),
    serviceAccount: fc.record({ email: serviceAccountEmail, scopes }),
    tags: optional(fc.array(name, { maxLength: 3 })),
    controlPlane: fc.boolean(),
    targetPools: optional(fc.array(name, { minLength: 1, maxLength: 2 })),
    gpu: optional(
      fc.record({ type: fc.constantFrom(...GPU_TYPES), count: fc.integer({ min: 1, max: 8 }) }),
    ),
    interruption,
    restartPolicy: fc.boolean(),
    onHostMaintenance: optional(fc.constantFrom('Migrate', 'Terminate')),
    shieldedInstanceConfig: optional(shielded),
    confidential: optional(fc.oneof(fc.constant(-1), fc.nat())),
    resourceManagerTags,
  })
  .map((g): MapiCase => {
    const spec: Record<string, unknown> = {};
    const set = (key: string, value: unknown) => {
      if (value !== undefined) spec[key] = value;
    };
    set('apiVersion', g.apiVersion);
    set('kind', g.kind);
    set('metadata', g.metadata);
    set('userDataSecret', g.userDataSecret);
    set('credentialsSecret', g.credentialsSecret);
    set('canIPForward', g.canIPForward);
    set('deletionProtection', g.deletionProtection);
    set('machineType', g.machine.machineType);
    set('zone', g.zone);
    if (g.writeRegion) spec.region = REGION;
    if (g.writeProject) spec.projectID = PROJECT;
    const boot: Record<string, unknown> = { autoDelete: true, boot: true, image: g.image };
    if (g.bootSize !== undefined) boot.sizeGb = g.bootSize;
    if (g.bootType !== undefined) boot.type = g.bootType;
    if (g.bootLabels === 'instance' && g.labels !== undefined) boot.labels = { ...g.labels };
    if (g.bootLabels === 'null') boot.labels = null;
    if (g.encryptionKey !== undefined) boot.encryptionKey = g.encryptionKey;
    const others = g.additionalDisks.map((disk) => {
      const additional: Record<string, unknown> = {
        autoDelete: true,
        boot: false,
        sizeGb: disk.sizeGb,
      };
      if (disk.type !== undefined) additional.type = disk.type;
      if (disk.encrypted && g.encryptionKey !== undefined) {
        additional.encryptionKey = structuredClone(g.encryptionKey);
      }
      return additional;
    });
    others.splice(g.bootIndex % (others.length + 1), 0, boot);
    spec.disks = others;
    set('labels', g.labels);
    if (g.gcpMetadata.length > 0) spec.gcpMetadata = g.gcpMetadata;
    const nic: Record<string, unknown> = { subnetwork: g.subnetwork };
    if (g.network !== undefined) nic.network = g.network;
    if (g.networkProjectID !== undefined) nic.projectID = g.networkProjectID;
    if (g.publicIP !== undefined) nic.publicIP = g.publicIP;
    spec.networkInterfaces = [nic];
    spec.serviceAccounts = [g.serviceAccount];
    set('tags', g.tags);
    if (g.controlPlane) set('targetPools', g.targetPools);
    let onHostMaintenance = g.onHostMaintenance;
    if (g.gpu !== undefined) {
      spec.gpus = [g.gpu];
      if (onHostMaintenance === 'Migrate') onHostMaintenance = 'Terminate';
    }
    if (g.interruption === 'preemptible') spec.preemptible = true;
    if (g.interruption === 'spot') spec.provisioningModel = 'Spot';
    if (g.restartPolicy) spec.restartPolicy = g.interruption === 'none' ? 'Always' : 'Never';
    if (g.shieldedInstanceConfig !== undefined) {
      spec.shieldedInstanceConfig = consistentShielded(g.shieldedInstanceConfig);
    }
    if (g.confidential !== undefined) {
      const value =
        g.confidential < 0 ? 'Disabled' : confidentialValue(g.machine.series, g.confidential);
      if (value !== undefined) spec.confidentialCompute = value;
      if (value !== undefined && value !== 'Disabled') onHostMaintenance = 'Terminate';
    }
    set('onHostMaintenance', onHostMaintenance);
    if (g.resourceManagerTags.length > 0) spec.resourceManagerTags = g.resourceManagerTags;
    return { providerSpec: spec, controlPlane: g.controlPlane };
  });

export interface TemplateCase {
  templateSpec: Record<string, unknown>;
  zone: string;
  userDataSecretName: string;
  controlPlane: boolean;
}

const capgKey = fc.record(
  {
    keyType: fc.constant('Managed'),
    managedKey: fc
      .tuple(name, fc.constantFrom('global', REGION), name, name)
      .map(([project, location, ring, key]) => ({
        kmsKeyName: `projects/${project}/locations/${location}/keyRings/${ring}/cryptoKeys/${key}`,
      })),
    kmsKeyServiceAccount: serviceAccountEmail,
  },
  { requiredKeys: ['keyType', 'managedKey'] },
);

export const templateCase: fc.Arbitrary<TemplateCase> = fc
  .record({
    machine,
    zone: zoneLetter.map((letter) => `${REGION}-${letter}`),
    userDataSecretName: name,
    controlPlane: fc.boolean(),
    image: name.map((image) => `projects/rhcos-cloud/global/images/${image}`),
    rootDeviceSize: optional(fc.oneof(fc.constant(0), diskSize)),
    rootDeviceType: optional(fc.constantFrom(...MAPI_DISK_TYPES)),
    rootDiskEncryptionKey: optional(capgKey),
    additionalDisks: fc.array(
      fc.record(
        {
          deviceType: fc.constantFrom(...MAPI_DISK_TYPES),
          size: diskSize,
          encrypted: fc.boolean(),
        },
        { requiredKeys: ['encrypted'] },
      ),
      { maxLength: 3 },
    ),
    subnet: name,
    publicIP: optional(fc.boolean()),
    serviceAccounts: optional(fc.record({ email: serviceAccountEmail, scopes })),
    additionalLabels: optional(labels),
    additionalMetadata: fc.uniqueArray(
      fc.record(
        { key: metadataKey, value: fc.string({ maxLength: 8 }) },
        { requiredKeys: ['key'] },
      ),
      { maxLength: 3, selector: (item) => item.key },
    ),
    additionalNetworkTags: optional(fc.array(name, { maxLength: 3 })),
    resourceManagerTags,
    ipForwarding: optional(fc.constantFrom('Enabled', 'Disabled')),
    interruption,
    standardWritten: fc.boolean(),
    onHostMaintenance: optional(fc.constantFrom('Migrate', 'Terminate')),
    gpu: optional(
      fc.record({ type: fc.constantFrom(...GPU_TYPES), count: fc.integer({ min: 1, max: 8 }) }),
    ),
    shieldedInstanceConfig: optional(shielded),
    confidential: optional(fc.oneof(fc.constant(-1), fc.nat())),
  })
  .map((g): TemplateCase => {
    const { machine: m, zone, userDataSecretName, controlPlane, interruption: mode } = g;
    const spec: Record<string, unknown> = {
      instanceType: m.machineType,
      image: g.image,
      subnet: g.subnet,
    };
    const set = (key: string, value: unknown) => {
      if (value !== undefined) spec[key] = value;
    };
    set('rootDeviceSize', g.rootDeviceSize);
    set('rootDeviceType', g.rootDeviceType);
    set('rootDiskEncryptionKey', g.rootDiskEncryptionKey);
    if (g.additionalDisks.length > 0) {
      spec.additionalDisks = g.additionalDisks.map(({ encrypted, ...disk }) =>
        encrypted && g.rootDiskEncryptionKey !== undefined
          ? { ...disk, encryptionKey: structuredClone(g.rootDiskEncryptionKey) }
          : disk,
      );
    }
    set('publicIP', g.publicIP);
    set('serviceAccounts', g.serviceAccounts);
    set('additionalLabels', g.additionalLabels);
    if (g.additionalMetadata.length > 0) spec.additionalMetadata = g.additionalMetadata;
    set('additionalNetworkTags', g.additionalNetworkTags);
    if (g.resourceManagerTags.length > 0) spec.resourceManagerTags = g.resourceManagerTags;
    set('ipForwarding', g.ipForwarding);
    if (mode === 'preemptible') spec.preemptible = true;
    if (mode === 'spot') spec.provisioningModel = 'Spot';
    else if (g.standardWritten) spec.provisioningModel = 'Standard';
    let onHostMaintenance = g.onHostMaintenance;
    if (g.gpu !== undefined) {
      spec.guestAccelerators = [
        { type: `zones/${zone}/acceleratorTypes/${g.gpu.type}`, count: g.gpu.count },
      ];
      onHostMaintenance = 'Terminate';
    }
    if (g.shieldedInstanceConfig !== undefined) {
      spec.shieldedInstanceConfig = consistentShielded(g.shieldedInstanceConfig);
    }
    if (g.confidential !== undefined) {
      const value = g.confidential < 0 ? 'Disabled' : confidentialValue(m.series, g.confidential);
      if (value !== undefined) spec.confidentialCompute = value;
      if (value !== undefined && value !== 'Disabled') onHostMaintenance = 'Terminate';
    }
    set('onHostMaintenance', onHostMaintenance);
    return { templateSpec: spec, zone, userDataSecretName, controlPlane };
  });
