// Round trips of the GCP conversions, for arbitrary valid inputs: MAPI → CAPI → MAPI gives the
// providerSpec back and CAPI → MAPI → CAPI the template spec, each up to the normalisations
// documented in docs/platforms/gcp.md (written here as `normalise…`).
import { expect } from 'chai';
import fc from 'fast-check';
import type { Infrastructure } from '../../../../src/api/types.js';
import { gcpConverter } from '../../../../src/conversion/gcp/index.js';
import type { ReverseContext } from '../../../../src/conversion/types.js';
import { expectOk } from '../../../support/conversion.js';
import { CLUSTER, mapiCase, PROJECT, REGION, templateCase } from './arbitraries.js';

const INFRASTRUCTURE: Infrastructure = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'Infrastructure',
  metadata: { name: 'cluster' },
  status: {
    infrastructureName: CLUSTER,
    platformStatus: {
      type: 'GCP',
      gcp: { region: REGION, projectID: PROJECT, resourceLabels: [] },
    },
  },
};
/** What every instance of the cluster carries; no generated label has these values. */
const RESOURCE_LABELS = [{ key: 'cost-center', value: 'cc-4242-7' }];
INFRASTRUCTURE.status!.platformStatus!.gcp!.resourceLabels = RESOURCE_LABELS;
const OWNED = { [`kubernetes-io-cluster-${CLUSTER}`]: 'owned' };
const MAPI_PATH = 'spec.template.spec.providerSpec.value';
const TEMPLATE_PATH = 'spec.template.spec';
const NUM_RUNS = 150;
const CAPG_SERVICE_ACCOUNT = {
  email: 'default',
  scopes: ['https://www.googleapis.com/auth/cloud-platform'],
};

type Json = Record<string, unknown>;

function toMapi(templateSpec: unknown, context: Omit<ReverseContext, 'infrastructure' | 'path'>) {
  if (gcpConverter.toMapi === undefined) throw new Error('the GCP converter has no toMapi');
  return gcpConverter.toMapi(templateSpec, {
    infrastructure: INFRASTRUCTURE,
    path: TEMPLATE_PATH,
    ...context,
  });
}

function withoutEmpty(spec: Json): Json {
  return Object.fromEntries(
    Object.entries(spec).filter(
      ([, value]) =>
        value !== undefined &&
        value !== null &&
        !(Array.isArray(value) && value.length === 0) &&
        !(
          typeof value === 'object' &&
          !Array.isArray(value) &&
          value !== null &&
          Object.keys(value).length === 0
        ),
    ),
  );
}

/** A MAPI encryption key with its project written out, as the reverse conversion writes it. */
function normaliseKey(key: unknown): Json | undefined {
  if (key === undefined) return undefined;
  const { kmsKey, ...rest } = key as { kmsKey: Json };
  return { ...rest, kmsKey: { projectID: PROJECT, ...kmsKey } };
}

/**
 * The providerSpec as the reverse conversion writes it: current apiVersion and kind, no metadata,
 * the boot disk first with the instance labels, an image path, pd-standard for a disk without a
 * type, no sizeGb 0, explicit key project, region and projectID, canIPForward and
 * deletionProtection; no null values or empty lists; Terminate with GPUs. Without `current`,
 * the fields kept from it get their defaults.
 */
function normaliseMapi(spec: Json, controlPlane: boolean, withCurrent: boolean): Json {
  const disks = spec.disks as Json[];
  const labels = spec.labels as Json | undefined;
  const boot = disks.find((disk) => disk.boot === true) as Json;
  const bootKey = normaliseKey(boot.encryptionKey);
  const image = boot.image as string;
  const normalisedDisks = [boot, ...disks.filter((disk) => disk !== boot)].map((disk) =>
    withoutEmpty({
      autoDelete: true,
      boot: disk.boot,
      type: disk.type ?? 'pd-standard',
      sizeGb: disk.sizeGb === 0 ? undefined : disk.sizeGb,
      image:
        disk === boot
          ? image.includes('/')
            ? image
            : `projects/${PROJECT}/global/images/${image}`
          : undefined,
      labels: disk === boot ? labels : undefined,
      encryptionKey: disk.encryptionKey === undefined ? undefined : bootKey,
    }),
  );
  const [nic] = spec.networkInterfaces as Json[];
  const gpus = spec.gpus as unknown[] | undefined;
  return withoutEmpty({
    ...spec,
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'GCPMachineProviderSpec',
    metadata: undefined,
    credentialsSecret: { name: 'gcp-cloud-credentials' },
    canIPForward: spec.canIPForward ?? false,
    deletionProtection: false,
    disks: normalisedDisks,
    gcpMetadata: (spec.gcpMetadata as Json[] | undefined)?.map((item) => withoutEmpty(item)),
    networkInterfaces: [
      withoutEmpty({
        network: (withCurrent ? nic?.network : undefined) ?? `${CLUSTER}-network`,
        projectID: withCurrent ? nic?.projectID : undefined,
        subnetwork: nic?.subnetwork,
        publicIP: nic?.publicIP === true ? true : undefined,
      }),
    ],
    targetPools: withCurrent && controlPlane ? spec.targetPools : undefined,
    region: REGION,
    projectID: PROJECT,
    onHostMaintenance: gpus !== undefined ? 'Terminate' : spec.onHostMaintenance,
    restartPolicy: withCurrent ? spec.restartPolicy : undefined,
  });
}

/**
 * The template as the forward conversion writes it: CAPG's defaults written out (pd-standard,
 * 30 GB additional disks, the default service account, ipForwarding Enabled), no rootDeviceSize
 * 0, no false publicIP or preemptible, no Standard provisioning model, no empty values.
 */
function normaliseTemplate(spec: Json): Json {
  return withoutEmpty({
    ...spec,
    // The cluster's labels join the template's own (ownership wins over all).
    additionalLabels: {
      ...Object.fromEntries(RESOURCE_LABELS.map(({ key, value }) => [key, value])),
      ...(spec.additionalLabels as Json | undefined),
      ...OWNED,
    },
    rootDeviceSize: spec.rootDeviceSize === 0 ? undefined : spec.rootDeviceSize,
    rootDeviceType: spec.rootDeviceType ?? 'pd-standard',
    additionalDisks: (spec.additionalDisks as Json[] | undefined)?.map((disk) => ({
      ...disk,
      deviceType: disk.deviceType ?? 'pd-standard',
      size: disk.size ?? 30,
    })),
    publicIP: spec.publicIP === true ? true : undefined,
    serviceAccounts: spec.serviceAccounts ?? CAPG_SERVICE_ACCOUNT,
    ipForwarding: spec.ipForwarding ?? 'Enabled',
    preemptible: spec.preemptible === true ? true : undefined,
    provisioningModel: spec.provisioningModel === 'Spot' ? 'Spot' : undefined,
  });
}

describe('GCP round trips', () => {
  it('MAPI → CAPI → MAPI gives the providerSpec back, fields kept from the current one included', () => {
    fc.assert(
      fc.property(mapiCase, ({ providerSpec, controlPlane }) => {
        const forward = expectOk(
          gcpConverter.toCapi(providerSpec, {
            infrastructure: INFRASTRUCTURE,
            path: MAPI_PATH,
            controlPlane,
          }),
        );
        const context = {
          failureDomain: forward.value.failureDomain,
          userDataSecretName: forward.value.userDataSecretName,
          controlPlane,
        };
        const back = expectOk(
          toMapi(forward.value.templateSpec, { ...context, current: providerSpec }),
        );
        expect(back.value).to.deep.equal(normaliseMapi(providerSpec, controlPlane, true));
        const fresh = expectOk(toMapi(forward.value.templateSpec, context));
        expect(fresh.value).to.deep.equal(normaliseMapi(providerSpec, controlPlane, false));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('CAPI → MAPI → CAPI gives the template spec, failure domain and data secret back', () => {
    fc.assert(
      fc.property(templateCase, ({ templateSpec, zone, userDataSecretName, controlPlane }) => {
        const mapi = expectOk(
          toMapi(templateSpec, { failureDomain: zone, userDataSecretName, controlPlane }),
        );
        const forward = expectOk(
          gcpConverter.toCapi(mapi.value, {
            infrastructure: INFRASTRUCTURE,
            path: MAPI_PATH,
            controlPlane,
          }),
        );
        expect(forward.value).to.deep.equal({
          templateSpec: normaliseTemplate(templateSpec),
          failureDomain: zone,
          userDataSecretName,
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('the generators cover every field both conversions map', () => {
    const mapiFields = new Set<string>();
    const templateFields = new Set<string>();
    fc.sample(mapiCase, { numRuns: 300, seed: 1 }).forEach(({ providerSpec }) =>
      Object.keys(providerSpec).forEach((key) => mapiFields.add(key)),
    );
    fc.sample(templateCase, { numRuns: 300, seed: 1 }).forEach(({ templateSpec }) =>
      Object.keys(templateSpec).forEach((key) => templateFields.add(key)),
    );
    expect([...mapiFields]).to.include.members([
      'apiVersion',
      'kind',
      'metadata',
      'userDataSecret',
      'credentialsSecret',
      'canIPForward',
      'deletionProtection',
      'disks',
      'labels',
      'gcpMetadata',
      'networkInterfaces',
      'serviceAccounts',
      'tags',
      'targetPools',
      'machineType',
      'region',
      'zone',
      'projectID',
      'gpus',
      'preemptible',
      'provisioningModel',
      'onHostMaintenance',
      'restartPolicy',
      'shieldedInstanceConfig',
      'confidentialCompute',
      'resourceManagerTags',
    ]);
    expect([...templateFields]).to.include.members([
      'instanceType',
      'image',
      'rootDeviceSize',
      'rootDeviceType',
      'rootDiskEncryptionKey',
      'additionalDisks',
      'subnet',
      'publicIP',
      'serviceAccounts',
      'additionalLabels',
      'additionalMetadata',
      'additionalNetworkTags',
      'resourceManagerTags',
      'ipForwarding',
      'preemptible',
      'provisioningModel',
      'onHostMaintenance',
      'guestAccelerators',
      'shieldedInstanceConfig',
      'confidentialCompute',
    ]);
  });
});
