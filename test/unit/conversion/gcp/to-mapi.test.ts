// Table-driven tests of the GCP reverse conversion: every template field's Machine API value,
// the values CAPG implies, and the fields kept from the MachineSet's current providerSpec.
import { expect } from 'chai';
import { GCP_FIELDS_KEPT_FROM_CURRENT } from '../../../../src/conversion/gcp/kept-from-current.js';
import { expectOk } from '../../../support/conversion.js';
import {
  bootDisk,
  CLUSTER,
  infrastructure,
  KMS_KEY_NAME,
  minimalProviderSpec,
  minimalTemplate,
  PROJECT,
  providerSpecWith,
  SCOPE,
  templateWith,
  toMapi,
  ZONE,
} from './reverse-support.js';

const ROOT_KEY = {
  keyType: 'Managed',
  managedKey: { kmsKeyName: KMS_KEY_NAME },
  kmsKeyServiceAccount: `kms@${PROJECT}.iam.gserviceaccount.com`,
};
const MAPI_KEY = {
  kmsKey: { name: 'disk-key', keyRing: 'ring', projectID: PROJECT, location: 'global' },
  kmsKeyServiceAccount: `kms@${PROJECT}.iam.gserviceaccount.com`,
};
const OTHER_KEY = {
  keyType: 'Managed',
  managedKey: { kmsKeyName: 'projects/other/locations/global/keyRings/r/cryptoKeys/k' },
};
const SUBNET_INTERFACE = { network: `${CLUSTER}-network`, subnetwork: `${CLUSTER}-worker-subnet` };

function dataDisk(fields: Record<string, unknown>): Record<string, unknown> {
  return { autoDelete: true, boot: false, type: 'pd-standard', sizeGb: 30, ...fields };
}

describe('gcpConverter.toMapi', () => {
  it('converts the smallest template to a providerSpec with everything a MAPI user writes', () => {
    const { value, warnings } = expectOk(toMapi(minimalTemplate()));
    expect(value).to.deep.equal(minimalProviderSpec());
    expect(warnings).to.deep.equal([]);
  });

  it('takes the zone from the failure domain and the user data secret from the bootstrap', () => {
    const { value } = expectOk(
      toMapi(minimalTemplate(), { failureDomain: 'us-central1-f', userDataSecretName: 'master' }),
    );
    expect(value.zone).to.equal('us-central1-f');
    expect(value.userDataSecret).to.deep.equal({ name: 'master' });
  });

  it('writes no userDataSecret when the CAPI MachineSet names no data secret', () => {
    const { value } = expectOk(toMapi(minimalTemplate(), { userDataSecretName: undefined }));
    expect(value).to.not.have.property('userDataSecret');
  });

  const cases: [string, Record<string, unknown>, Record<string, unknown>, RegExp[]?][] = [
    [
      'rootDeviceSize → the boot disk sizeGb',
      { rootDeviceSize: 128 },
      { disks: [bootDisk({ sizeGb: 128 })] },
    ],
    ['rootDeviceSize 0 (the image size) → no sizeGb', { rootDeviceSize: 0 }, {}],
    [
      'rootDeviceType → the boot disk type',
      { rootDeviceType: 'pd-ssd' },
      { disks: [bootDisk({ type: 'pd-ssd' })] },
    ],
    [
      'imageFamily without image → the boot disk image (MAPI passes a family path on)',
      { image: undefined, imageFamily: 'projects/rhcos-cloud/global/images/family/rhcos-9' },
      { disks: [bootDisk({ image: 'projects/rhcos-cloud/global/images/family/rhcos-9' })] },
    ],
    [
      'image and imageFamily → image, which CAPG prefers (with a warning)',
      { imageFamily: 'projects/rhcos-cloud/global/images/family/rhcos-9' },
      {},
      [/spec\.template\.spec\.imageFamily is not converted: .*takes precedence/],
    ],
    [
      'rootDiskEncryptionKey → the boot disk encryptionKey, every part of the key name written out',
      { rootDiskEncryptionKey: ROOT_KEY },
      { disks: [bootDisk({ encryptionKey: MAPI_KEY })] },
    ],
    [
      'additionalDisks → more disks, autoDelete true, CAPG defaults (pd-standard, 30 GB) written out',
      { additionalDisks: [{ deviceType: 'pd-ssd', size: 500 }, {}] },
      { disks: [bootDisk(), dataDisk({ type: 'pd-ssd', sizeGb: 500 }), dataDisk({})] },
    ],
    [
      "an additional disk's key → the boot disk's key, which CAPG uses",
      {
        rootDiskEncryptionKey: ROOT_KEY,
        additionalDisks: [{ size: 100, encryptionKey: ROOT_KEY }],
      },
      {
        disks: [
          bootDisk({ encryptionKey: MAPI_KEY }),
          dataDisk({ sizeGb: 100, encryptionKey: MAPI_KEY }),
        ],
      },
    ],
    [
      "an additional disk's other key → the boot disk's key, with a warning",
      {
        rootDiskEncryptionKey: ROOT_KEY,
        additionalDisks: [{ size: 100, encryptionKey: OTHER_KEY }],
      },
      {
        disks: [
          bootDisk({ encryptionKey: MAPI_KEY }),
          dataDisk({ sizeGb: 100, encryptionKey: MAPI_KEY }),
        ],
      },
      [/additionalDisks\[0\]\.encryptionKey differs from .*rootDiskEncryptionKey.*boot disk's key/],
    ],
    [
      'additionalLabels → labels, on the instance and on the boot disk (as CAPG labels it)',
      { additionalLabels: { team: 'infra', env: 'ci' } },
      {
        labels: { team: 'infra', env: 'ci' },
        disks: [bootDisk({ labels: { team: 'infra', env: 'ci' } })],
      },
    ],
    [
      'additionalMetadata → gcpMetadata, an item without value kept so',
      { additionalMetadata: [{ key: 'a', value: '1' }, { key: 'b' }, { key: 'c', value: '' }] },
      { gcpMetadata: [{ key: 'a', value: '1' }, { key: 'b' }, { key: 'c', value: '' }] },
    ],
    ['additionalNetworkTags → tags', { additionalNetworkTags: ['a', 'b'] }, { tags: ['a', 'b'] }],
    [
      'empty lists write nothing',
      {
        additionalNetworkTags: [],
        additionalDisks: [],
        guestAccelerators: [],
        aliasIPRanges: [],
        resourceManagerTags: [],
        additionalMetadata: [],
      },
      {},
    ],
    [
      'resourceManagerTags → the field of the same name',
      { resourceManagerTags: [{ parentID: '123456789', key: 'env', value: 'prod' }] },
      { resourceManagerTags: [{ parentID: '123456789', key: 'env', value: 'prod' }] },
    ],
    [
      'ipForwarding Enabled → canIPForward true',
      { ipForwarding: 'Enabled' },
      { canIPForward: true },
    ],
    [
      'no ipForwarding → canIPForward true (the CRD default)',
      { ipForwarding: undefined },
      { canIPForward: true },
    ],
    [
      'publicIP true → the interface publicIP',
      { publicIP: true },
      { networkInterfaces: [{ ...SUBNET_INTERFACE, publicIP: true }] },
    ],
    ['publicIP false → no publicIP', { publicIP: false }, {}],
    [
      "no serviceAccounts → CAPG's default: the default account with the cloud-platform scope",
      { serviceAccounts: undefined },
      { serviceAccounts: [{ email: 'default', scopes: [SCOPE] }] },
    ],
    ['preemptible → preemptible', { preemptible: true }, { preemptible: true }],
    ['preemptible false → nothing', { preemptible: false }, {}],
    ['provisioningModel Spot → Spot', { provisioningModel: 'Spot' }, { provisioningModel: 'Spot' }],
    [
      'provisioningModel Standard → nothing (MAPI says Standard by leaving it out)',
      { provisioningModel: 'Standard' },
      {},
    ],
    [
      'onHostMaintenance → the same',
      { onHostMaintenance: 'Migrate' },
      { onHostMaintenance: 'Migrate' },
    ],
    [
      'guestAccelerators → gpus by type name, with Terminate (as CAPG does)',
      { guestAccelerators: [{ type: `zones/${ZONE}/acceleratorTypes/nvidia-tesla-t4`, count: 2 }] },
      { gpus: [{ type: 'nvidia-tesla-t4', count: 2 }], onHostMaintenance: 'Terminate' },
    ],
    [
      'guestAccelerators by project path or URL → gpus',
      {
        guestAccelerators: [
          {
            type: `https://www.googleapis.com/compute/v1/projects/${PROJECT}/zones/${ZONE}/acceleratorTypes/nvidia-l4`,
            count: 1,
          },
        ],
      },
      { gpus: [{ type: 'nvidia-l4', count: 1 }], onHostMaintenance: 'Terminate' },
    ],
    [
      'guestAccelerators with Migrate → Terminate, with a warning',
      {
        onHostMaintenance: 'Migrate',
        guestAccelerators: [
          { type: `projects/${PROJECT}/zones/${ZONE}/acceleratorTypes/nvidia-l4`, count: 1 },
        ],
      },
      { gpus: [{ type: 'nvidia-l4', count: 1 }], onHostMaintenance: 'Terminate' },
      [/onHostMaintenance is Migrate, but Cluster API stops VMs with GPUs/],
    ],
    [
      'shieldedInstanceConfig → the same',
      {
        shieldedInstanceConfig: {
          secureBoot: 'Enabled',
          virtualizedTrustedPlatformModule: 'Disabled',
          integrityMonitoring: 'Disabled',
        },
      },
      {
        shieldedInstanceConfig: {
          secureBoot: 'Enabled',
          virtualizedTrustedPlatformModule: 'Disabled',
          integrityMonitoring: 'Disabled',
        },
      },
    ],
    ['shieldedInstanceConfig {} → nothing (platform defaults)', { shieldedInstanceConfig: {} }, {}],
    [
      'confidentialCompute → the same',
      {
        instanceType: 'n2d-standard-4',
        confidentialCompute: 'AMDEncryptedVirtualizationNestedPaging',
        onHostMaintenance: 'Terminate',
      },
      {
        machineType: 'n2d-standard-4',
        confidentialCompute: 'AMDEncryptedVirtualizationNestedPaging',
        onHostMaintenance: 'Terminate',
      },
    ],
    [
      'confidentialCompute Disabled → the same',
      { confidentialCompute: 'Disabled' },
      { confidentialCompute: 'Disabled' },
    ],
    [
      'an empty providerID and nulls → nothing',
      { providerID: '', imageFamily: null, subnet: `${CLUSTER}-worker-subnet`, publicIP: null },
      {},
    ],
  ];
  for (const [name, fields, expected, warnings = []] of cases) {
    it(name, () => {
      const result = expectOk(toMapi(templateWith(fields)));
      expect(result.value).to.deep.equal(providerSpecWith(expected));
      expect(result.warnings).to.have.length(warnings.length);
      warnings.forEach((pattern, i) => expect(result.warnings[i]).to.match(pattern));
    });
  }
});

describe('gcpConverter.toMapi: the cluster and the current providerSpec', () => {
  const current = {
    credentialsSecret: { name: 'my-gcp-credentials' },
    deletionProtection: true,
    networkInterfaces: [{ network: 'shared-vpc', projectID: 'host-project', subnetwork: 'old' }],
    targetPools: ['api-pool'],
    restartPolicy: 'Always',
    region: 'europe-west4',
    projectID: 'current-project',
  };

  it('exports the fields it keeps from the current providerSpec', () => {
    expect(GCP_FIELDS_KEPT_FROM_CURRENT).to.have.members([
      'credentialsSecret',
      'deletionProtection',
      'networkInterfaces[0].network',
      'networkInterfaces[0].projectID',
      'targetPools',
      'restartPolicy',
    ]);
  });

  it('keeps credentialsSecret, the network, its project and a consistent restartPolicy', () => {
    const { value } = expectOk(toMapi(minimalTemplate(), { current }));
    expect(value).to.deep.equal(
      providerSpecWith({
        credentialsSecret: { name: 'my-gcp-credentials' },
        networkInterfaces: [
          {
            network: 'shared-vpc',
            projectID: 'host-project',
            subnetwork: `${CLUSTER}-worker-subnet`,
          },
        ],
        restartPolicy: 'Always',
      }),
    );
  });

  it('keeps targetPools on control-plane machines only', () => {
    expect(
      expectOk(toMapi(minimalTemplate(), { current, controlPlane: true })).value.targetPools,
    ).to.deep.equal(['api-pool']);
    expect(expectOk(toMapi(minimalTemplate(), { current })).value).to.not.have.property(
      'targetPools',
    );
  });

  it('always writes deletionProtection false: Cluster API cannot protect its VMs', () => {
    expect(expectOk(toMapi(minimalTemplate(), { current })).value.deletionProtection).to.equal(
      false,
    );
  });

  it('keeps restartPolicy only when it says what Compute Engine does anyway', () => {
    const spot = templateWith({ provisioningModel: 'Spot' });
    const never = { restartPolicy: 'Never' };
    expect(expectOk(toMapi(spot, { current })).value).to.not.have.property('restartPolicy');
    expect(expectOk(toMapi(spot, { current: never })).value.restartPolicy).to.equal('Never');
    expect(expectOk(toMapi(minimalTemplate(), { current: never })).value).to.not.have.property(
      'restartPolicy',
    );
  });

  const unusable: [string, unknown][] = [
    ['not an object', 'providerSpec'],
    [
      'fields of the wrong type',
      {
        credentialsSecret: { name: 3 },
        networkInterfaces: [{ network: '', projectID: 7 }],
        targetPools: ['a', 1],
        restartPolicy: 'Sometimes',
        region: 5,
      },
    ],
    ['no network interface object', { networkInterfaces: 'eth0', credentialsSecret: 'x' }],
  ];
  for (const [name, value] of unusable) {
    it(`falls back to the defaults when the current providerSpec has ${name}`, () => {
      const result = expectOk(toMapi(minimalTemplate(), { current: value, controlPlane: true }));
      expect(result.value).to.deep.equal(minimalProviderSpec());
    });
  }

  it('takes region and projectID from the Infrastructure before the current providerSpec', () => {
    expect(expectOk(toMapi(minimalTemplate(), { current })).value).to.include({
      region: 'us-central1',
      projectID: PROJECT,
    });
  });

  it('takes region and projectID from the current providerSpec when the Infrastructure has none', () => {
    const bare = infrastructure({ region: '', projectID: '' });
    const { value } = expectOk(
      toMapi(minimalTemplate(), {
        infrastructure: bare,
        current,
        failureDomain: 'europe-west4-b',
      }),
    );
    expect(value).to.include({ region: 'europe-west4', projectID: 'current-project' });
  });

  it('takes the region from the zone and writes no projectID when nothing names them', () => {
    const bare = infrastructure({ region: '', projectID: '' });
    const { value } = expectOk(toMapi(minimalTemplate(), { infrastructure: bare }));
    expect(value.region).to.equal('us-central1');
    expect(value).to.not.have.property('projectID');
  });

  it('writes no network when neither the current providerSpec nor the cluster name one', () => {
    const nameless = infrastructure({}, '');
    const { value } = expectOk(toMapi(minimalTemplate(), { infrastructure: nameless }));
    expect(value.networkInterfaces).to.deep.equal([{ subnetwork: `${CLUSTER}-worker-subnet` }]);
  });
});
