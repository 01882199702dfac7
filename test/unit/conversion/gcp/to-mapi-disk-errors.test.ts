// Field errors of the GCP reverse conversion about disks and their encryption keys.
import {
  itReportsFieldErrors,
  KMS_KEY_NAME,
  templateWith,
  type ErrorCase,
  UNKNOWN_FIELD,
} from './reverse-support.js';

const P = 'spec.template.spec';
const ROOT_KEY = { keyType: 'Managed', managedKey: { kmsKeyName: KMS_KEY_NAME } };
const UNKNOWN = UNKNOWN_FIELD;

const cases: ErrorCase[] = [
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
];

describe('gcpConverter.toMapi: disk field errors', () => {
  itReportsFieldErrors(cases);
});
