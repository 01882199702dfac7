// Every field error of the GCP reverse conversion: the full template path, what is wrong and
// what to do; and that no input makes it throw.
import { expect } from 'chai';
import fc from 'fast-check';
import type { ReverseContext } from '../../../../src/conversion/types.js';
import { expectErrors, expectFieldErrors } from '../../../support/conversion.js';
import {
  KMS_KEY_NAME,
  minimalTemplate,
  PROJECT,
  templateWith,
  toMapi,
  ZONE,
} from './reverse-support.js';

const P = 'spec.template.spec';
const ROOT_KEY = { keyType: 'Managed', managedKey: { kmsKeyName: KMS_KEY_NAME } };
const T4 = `zones/${ZONE}/acceleratorTypes/nvidia-tesla-t4`;
const UNKNOWN = /is not a field this controller knows how to convert to Machine API/;
const NO_EQUIVALENT =
  /has no Machine API equivalent; remove it from the template or keep the MachineSet on Cluster API\.$/;

type Case = [
  name: string,
  template: unknown,
  expected: [string, RegExp][],
  context?: Partial<ReverseContext>,
];

const cases: Case[] = [
  [
    'a template spec that is not an object',
    'n2-standard-4',
    [[P, /must be an object, but is the string "n2-standard-4"/]],
  ],
  [
    'no failure domain',
    minimalTemplate(),
    [[P, /failureDomain is not set, .*set the failure domain to a zone of us-central1\./]],
    { failureDomain: undefined },
  ],
  [
    'a failure domain outside the region',
    minimalTemplate(),
    [[P, /failure domain "europe-west4-a" is not a zone of the cluster's region "us-central1"/]],
    { failureDomain: 'europe-west4-a' },
  ],
  ['an unknown field', templateWith({ instanceTyp: 'n2' }), [[`${P}.instanceTyp`, UNKNOWN]]],
  [
    'no instanceType',
    templateWith({ instanceType: undefined }),
    [[`${P}.instanceType`, /is required; set the Compute Engine machine type/]],
  ],
  [
    'an instanceType of the wrong type',
    templateWith({ instanceType: 4 }),
    [[`${P}.instanceType`, /must be a string, but is the number 4/]],
  ],
  [
    'providerID',
    templateWith({ providerID: 'gce://p/z/vm' }),
    [[`${P}.providerID`, NO_EQUIVALENT]],
  ],
  [
    'aliasIPRanges',
    templateWith({ aliasIPRanges: [{ ipCidrRange: '/24' }] }),
    [[`${P}.aliasIPRanges`, NO_EQUIVALENT]],
  ],
  [
    'no subnet',
    templateWith({ subnet: undefined }),
    [[`${P}.subnet`, /is required, because Machine API needs the machines' subnetwork/]],
  ],
  [
    'publicIP of the wrong type',
    templateWith({ publicIP: 'yes' }),
    [[`${P}.publicIP`, /must be true or false/]],
  ],
  [
    'ipForwarding not Enabled or Disabled',
    templateWith({ ipForwarding: 'On' }),
    [[`${P}.ipForwarding`, /is "On", which is not supported; use one of "Enabled", "Disabled"/]],
  ],
  // Disks.
  [
    'no image nor imageFamily',
    templateWith({ image: undefined }),
    [
      [
        `${P}.image`,
        /is required, because without image or imageFamily Cluster API starts the machines from its own default image family/,
      ],
    ],
  ],
  [
    'a boot disk below 16 GB',
    templateWith({ rootDeviceSize: 10 }),
    [[`${P}.rootDeviceSize`, /is 10, but Machine API accepts disk sizes from 16 to 65536 GB/]],
  ],
  [
    'a boot disk above 65536 GB',
    templateWith({ rootDeviceSize: 70000 }),
    [[`${P}.rootDeviceSize`, /is 70000, but Machine API accepts/]],
  ],
  [
    'a negative boot disk size',
    templateWith({ rootDeviceSize: -1 }),
    [[`${P}.rootDeviceSize`, /is -1, but Machine API accepts/]],
  ],
  [
    'a boot disk size of the wrong type',
    templateWith({ rootDeviceSize: '100' }),
    [[`${P}.rootDeviceSize`, /must be an integer/]],
  ],
  [
    'a local-ssd boot disk',
    templateWith({ rootDeviceType: 'local-ssd' }),
    [
      [
        `${P}.rootDeviceType`,
        /is local-ssd, .*scratch disk.*use a persistent disk type or keep the MachineSet on Cluster API/,
      ],
    ],
  ],
  [
    'a disk type MAPI refuses',
    templateWith({ rootDeviceType: 'hyperdisk-extreme' }),
    [
      [
        `${P}.rootDeviceType`,
        /is "hyperdisk-extreme", which Machine API does not accept as a disk type; use one of pd-standard, pd-ssd, pd-balanced, hyperdisk-balanced/,
      ],
    ],
  ],
  [
    'additionalDisks that are not a list',
    templateWith({ additionalDisks: {} }),
    [[`${P}.additionalDisks`, /must be a list/]],
  ],
  [
    'an additional disk that is not an object',
    templateWith({ additionalDisks: ['pd-ssd'] }),
    [[`${P}.additionalDisks[0]`, /must be an object/]],
  ],
  [
    'a local-ssd additional disk',
    templateWith({ additionalDisks: [{ deviceType: 'local-ssd' }] }),
    [[`${P}.additionalDisks[0].deviceType`, /is local-ssd/]],
  ],
  [
    'an additional disk of size 0',
    templateWith({ additionalDisks: [{ size: 0 }] }),
    [[`${P}.additionalDisks[0].size`, /is 0, but Machine API accepts disk sizes from 16/]],
  ],
  [
    'an unknown additional disk field',
    templateWith({ additionalDisks: [{ size: 20, mode: 'RO' }] }),
    [[`${P}.additionalDisks[0].mode`, UNKNOWN]],
  ],
  [
    'an additional disk key without a root disk key',
    templateWith({ additionalDisks: [{ encryptionKey: ROOT_KEY }] }),
    [
      [
        `${P}.additionalDisks[0].encryptionKey`,
        /is set, but spec\.template\.spec\.rootDiskEncryptionKey is not, .*set rootDiskEncryptionKey or remove this key/,
      ],
    ],
  ],
  // Encryption keys.
  [
    'a customer-supplied key',
    templateWith({
      rootDiskEncryptionKey: { keyType: 'Supplied', suppliedKey: { rawKey: 'a2V5' } },
    }),
    [
      [
        `${P}.rootDiskEncryptionKey.keyType`,
        /is Supplied, but Machine API encrypts disks only with Cloud KMS keys/,
      ],
      [
        `${P}.rootDiskEncryptionKey.suppliedKey`,
        /is a customer-supplied key, which has no Machine API equivalent/,
      ],
    ],
  ],
  [
    'a key without keyType',
    templateWith({ rootDiskEncryptionKey: { managedKey: { kmsKeyName: KMS_KEY_NAME } } }),
    [[`${P}.rootDiskEncryptionKey.keyType`, /is required; set it to Managed/]],
  ],
  [
    'a key of an unknown type',
    templateWith({ rootDiskEncryptionKey: { keyType: 'Google' } }),
    [
      [
        `${P}.rootDiskEncryptionKey.keyType`,
        /is "Google", which is not supported; use one of "Managed", "Supplied"/,
      ],
    ],
  ],
  [
    'a Managed key without a name',
    templateWith({ rootDiskEncryptionKey: { keyType: 'Managed' } }),
    [[`${P}.rootDiskEncryptionKey.managedKey.kmsKeyName`, /is required when keyType is Managed/]],
  ],
  [
    'a KMS key name of the wrong form',
    templateWith({
      rootDiskEncryptionKey: {
        keyType: 'Managed',
        managedKey: { kmsKeyName: 'projects/p/keyRings/r/cryptoKeys/k' },
      },
    }),
    [
      [
        `${P}.rootDiskEncryptionKey.managedKey.kmsKeyName`,
        /is "projects\/p\/keyRings\/r\/cryptoKeys\/k", which is not a Cloud KMS key name of the form/,
      ],
    ],
  ],
  [
    'an unknown managedKey field',
    templateWith({
      rootDiskEncryptionKey: { ...ROOT_KEY, managedKey: { kmsKeyName: KMS_KEY_NAME, version: 2 } },
    }),
    [[`${P}.rootDiskEncryptionKey.managedKey.version`, UNKNOWN]],
  ],
  [
    'an invalid root key and an additional disk key',
    templateWith({
      rootDiskEncryptionKey: { keyType: 'Managed' },
      additionalDisks: [{ encryptionKey: ROOT_KEY }],
    }),
    [[`${P}.rootDiskEncryptionKey.managedKey.kmsKeyName`, /is required/]],
  ],
  // Service account.
  [
    'a service account without email',
    templateWith({ serviceAccounts: { scopes: ['s'] } }),
    [[`${P}.serviceAccounts.email`, /is required; set the email/]],
  ],
  [
    'a service account without scopes',
    templateWith({ serviceAccounts: { email: 'a@b' } }),
    [
      [
        `${P}.serviceAccounts.scopes`,
        /is empty, so Cluster API gives the machines no access scopes, but Machine API needs at least one/,
      ],
    ],
  ],
  [
    'a service account with neither',
    templateWith({ serviceAccounts: { scopes: [] } }),
    [
      [`${P}.serviceAccounts.email`, /is required/],
      [`${P}.serviceAccounts.scopes`, /is empty/],
    ],
  ],
  [
    'a list of service accounts',
    templateWith({ serviceAccounts: [{ email: 'a@b' }] }),
    [[`${P}.serviceAccounts`, /must be an object, but is an array/]],
  ],
  [
    'a scope of the wrong type',
    templateWith({ serviceAccounts: { email: 'a@b', scopes: [1] } }),
    [[`${P}.serviceAccounts.scopes[0]`, /must be a string/]],
  ],
  // Labels, metadata, tags.
  [
    'a label that is not a string',
    templateWith({ additionalLabels: { team: 1 } }),
    [[`${P}.additionalLabels.team`, /must be a string, but is the number 1/]],
  ],
  [
    'the user-data metadata key',
    templateWith({ additionalMetadata: [{ key: 'user-data', value: 'x' }] }),
    [
      [
        `${P}.additionalMetadata[0].key`,
        /is user-data, which Machine API fills with the bootstrap data/,
      ],
    ],
  ],
  [
    'a metadata key listed twice',
    templateWith({ additionalMetadata: [{ key: 'a' }, { key: 'a' }] }),
    [[`${P}.additionalMetadata[1].key`, /repeats the key "a"/]],
  ],
  [
    'a metadata item without key',
    templateWith({ additionalMetadata: [{ value: 'v' }] }),
    [[`${P}.additionalMetadata[0].key`, /is required/]],
  ],
  [
    'an unknown metadata item field',
    templateWith({ additionalMetadata: [{ key: 'a', ttl: 1 }] }),
    [[`${P}.additionalMetadata[0].ttl`, UNKNOWN]],
  ],
  [
    'a network tag of the wrong type',
    templateWith({ additionalNetworkTags: [7] }),
    [[`${P}.additionalNetworkTags[0]`, /must be a string/]],
  ],
  [
    'an invalid resource manager tag',
    templateWith({
      resourceManagerTags: [{ parentID: '0', key: 'env', value: 'prod', extra: true }],
    }),
    [
      [`${P}.resourceManagerTags[0].parentID`, /is "0", which is neither an organization ID/],
      [`${P}.resourceManagerTags[0].extra`, UNKNOWN],
    ],
  ],
  // Scheduling.
  [
    'preemptible and Spot',
    templateWith({ preemptible: true, provisioningModel: 'Spot' }),
    [
      [
        `${P}.provisioningModel`,
        /is Spot, which Machine API does not accept together with preemptible: true/,
      ],
    ],
  ],
  [
    'an unknown provisioning model',
    templateWith({ provisioningModel: 'Flex' }),
    [
      [
        `${P}.provisioningModel`,
        /is "Flex", which is not supported; use one of "Standard", "Spot"/,
      ],
    ],
  ],
  [
    'an unknown host maintenance policy',
    templateWith({ onHostMaintenance: 'Stop' }),
    [[`${P}.onHostMaintenance`, /is "Stop", which is not supported/]],
  ],
  [
    'Migrate on an a2 machine type',
    templateWith({ instanceType: 'a2-highgpu-1g', onHostMaintenance: 'Migrate' }),
    [[`${P}.onHostMaintenance`, /is Migrate, but instanceType a2-highgpu-1g comes with GPUs/]],
  ],
  [
    'vTPM off with integrity monitoring on',
    templateWith({ shieldedInstanceConfig: { virtualizedTrustedPlatformModule: 'Disabled' } }),
    [
      [
        `${P}.shieldedInstanceConfig.virtualizedTrustedPlatformModule`,
        /is Disabled, but integrity monitoring .* needs the virtual TPM/,
      ],
    ],
  ],
  [
    'an unknown Shielded VM setting',
    templateWith({ shieldedInstanceConfig: { secureBoot: 'On', measuredBoot: 'Enabled' } }),
    [
      [`${P}.shieldedInstanceConfig.secureBoot`, /is "On", which is not supported/],
      [`${P}.shieldedInstanceConfig.measuredBoot`, UNKNOWN],
    ],
  ],
  [
    'confidential computing without Terminate',
    templateWith({ instanceType: 'n2d-standard-4', confidentialCompute: 'Enabled' }),
    [
      [
        `${P}.confidentialCompute`,
        /is Enabled, but confidential VMs need onHostMaintenance Terminate/,
      ],
    ],
  ],
  [
    'confidential computing on the wrong series',
    templateWith({
      confidentialCompute: 'IntelTrustedDomainExtensions',
      onHostMaintenance: 'Terminate',
    }),
    [
      [
        `${P}.confidentialCompute`,
        /accepts only on the machine series c3, but instanceType n2-standard-4 is of series n2/,
      ],
    ],
  ],
  // GPUs.
  [
    'two accelerator types',
    templateWith({
      guestAccelerators: [
        { type: T4, count: 1 },
        { type: T4.replace('t4', 'p4'), count: 1 },
      ],
    }),
    [
      [
        `${P}.guestAccelerators`,
        /lists 2 accelerator types, but Machine API attaches one GPU type/,
      ],
    ],
  ],
  [
    'GPUs on an a2 machine type',
    templateWith({ instanceType: 'a2-highgpu-1g', guestAccelerators: [{ type: T4, count: 1 }] }),
    [
      [
        `${P}.guestAccelerators`,
        /cannot be used with instanceType a2-highgpu-1g, which comes with its GPUs attached/,
      ],
    ],
  ],
  [
    'an accelerator type that is not a path',
    templateWith({ guestAccelerators: [{ type: 'nvidia-tesla-t4', count: 1 }] }),
    [
      [
        `${P}.guestAccelerators[0].type`,
        /is "nvidia-tesla-t4", which is not an accelerator type path/,
      ],
    ],
  ],
  [
    'an accelerator of another zone',
    templateWith({
      guestAccelerators: [
        { type: 'zones/us-central1-b/acceleratorTypes/nvidia-tesla-t4', count: 1 },
      ],
    }),
    [
      [
        `${P}.guestAccelerators[0].type`,
        /names the zone "us-central1-b", but the machines run in "us-central1-a".*use zones\/us-central1-a\/acceleratorTypes\/nvidia-tesla-t4\./,
      ],
    ],
  ],
  [
    'an accelerator of another project',
    templateWith({ guestAccelerators: [{ type: `projects/other/${T4}`, count: 1 }] }),
    [
      [
        `${P}.guestAccelerators[0].type`,
        new RegExp(
          `names the project "other", but Machine API attaches GPUs of the cluster's project "${PROJECT}"`,
        ),
      ],
    ],
  ],
  [
    'an accelerator type name that is not one',
    templateWith({
      guestAccelerators: [{ type: `zones/${ZONE}/acceleratorTypes/Tesla_T4`, count: 1 }],
    }),
    [[`${P}.guestAccelerators[0].type`, /names "Tesla_T4", which is not an accelerator type name/]],
  ],
  [
    'the a100, which comes only with a2 machines',
    templateWith({
      guestAccelerators: [{ type: `zones/${ZONE}/acceleratorTypes/nvidia-tesla-a100`, count: 1 }],
    }),
    [
      [
        `${P}.guestAccelerators[0].type`,
        /names nvidia-tesla-a100, which comes only with a2 machine types/,
      ],
    ],
  ],
  [
    'an accelerator without type and count',
    templateWith({ guestAccelerators: [{}] }),
    [
      [`${P}.guestAccelerators[0].type`, /is required; set the accelerator type/],
      [`${P}.guestAccelerators[0].count`, /is required; set the number of GPUs/],
    ],
  ],
  [
    'an accelerator count of 0',
    templateWith({ guestAccelerators: [{ type: T4, count: 0 }] }),
    [[`${P}.guestAccelerators[0].count`, /is 0; set the number of GPUs to attach \(at least 1\)/]],
  ],
  [
    'an accelerator count of the wrong type',
    templateWith({ guestAccelerators: [{ type: 5, count: '1' }] }),
    [
      [`${P}.guestAccelerators[0].type`, /must be a string/],
      [`${P}.guestAccelerators[0].count`, /must be an integer/],
    ],
  ],
];

describe('gcpConverter.toMapi: field errors', () => {
  for (const [name, template, expected, context = {}] of cases) {
    it(`reports ${name}`, () => {
      expectFieldErrors(expectErrors(toMapi(template, context)), expected);
    });
  }

  it('reports every error of a template at once', () => {
    const errors = expectErrors(
      toMapi(templateWith({ instanceType: undefined, subnet: undefined, providerID: 'x' }), {
        failureDomain: undefined,
      }),
    );
    expect(errors.map((e) => e.path)).to.have.members([
      P,
      `${P}.instanceType`,
      `${P}.subnet`,
      `${P}.providerID`,
    ]);
  });

  it('never throws, whatever the template, the context and the current providerSpec', () => {
    const known = fc.constantFrom(
      ...Object.keys(minimalTemplate()),
      'additionalDisks',
      'rootDiskEncryptionKey',
      'guestAccelerators',
      'shieldedInstanceConfig',
      'additionalMetadata',
      'resourceManagerTags',
      'additionalLabels',
      'constructor',
      '__proto__',
    );
    const template = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(known, fc.jsonValue()),
      fc.record({
        additionalDisks: fc.array(
          fc.dictionary(fc.constantFrom('size', 'deviceType', 'encryptionKey'), fc.jsonValue()),
        ),
      }),
    );
    fc.assert(
      fc.property(
        template,
        fc.option(fc.string()),
        fc.jsonValue(),
        fc.boolean(),
        (spec, zone, current, controlPlane) => {
          const result = toMapi(spec, { failureDomain: zone ?? undefined, current, controlPlane });
          if (result.ok) {
            expect(result.value.kind).to.equal('GCPMachineProviderSpec');
            return;
          }
          expect(result.errors).to.have.length.above(0);
          for (const error of result.errors) {
            expect(error.path.startsWith(P), error.path).to.equal(true);
            expect(error.message).to.be.a('string').and.match(/\.$/);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
