// Field errors of the GCP reverse conversion about scheduling, Shielded VM, confidential
// computing and GPUs.
import {
  itReportsFieldErrors,
  PROJECT,
  templateWith,
  type ErrorCase,
  UNKNOWN_FIELD,
  ZONE,
} from './reverse-support.js';

const P = 'spec.template.spec';
const T4 = `zones/${ZONE}/acceleratorTypes/nvidia-tesla-t4`;
const UNKNOWN = UNKNOWN_FIELD;

const cases: ErrorCase[] = [
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

describe('gcpConverter.toMapi: scheduling field errors', () => {
  itReportsFieldErrors(cases);
});
