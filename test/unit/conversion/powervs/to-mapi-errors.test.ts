// The PowerVS reverse converter's rejections: every template field Machine API cannot express,
// each with its full path and a message that says what to do.
import { template, TEMPLATE_PATH, toMapi, withFields, WORKSPACE } from './to-mapi-support.js';
import { expectErrors, expectFieldErrors } from '../../../support/conversion.js';

const PATH = TEMPLATE_PATH;

describe('powerVsConverter.toMapi rejects', () => {
  for (const value of [null, 'spec', 3, [template()]]) {
    it(`a machine spec that is not an object (${JSON.stringify(value)})`, () => {
      expectFieldErrors(expectErrors(toMapi(value)), [
        [PATH, /^must be an object \(an IBMPowerVSMachineTemplate's machine spec\), but is /],
      ]);
    });
  }

  interface ErrorCase {
    name: string;
    /** Fields merged into the valid template (undefined removes one). */
    input: Record<string, unknown>;
    errors: [string, RegExp][];
  }

  const cases: ErrorCase[] = [
    // the workspace
    {
      name: 'no workspace: CAPIBM would use the cluster’s, which a providerSpec cannot name',
      input: { serviceInstance: undefined },
      errors: [
        [`${PATH}.serviceInstance`, /^names no workspace, .*; set serviceInstance\.id to the GUID/],
      ],
    },
    {
      name: 'a workspace named by name only (CAPIBM ignores it)',
      input: { serviceInstance: { name: 'ci-workspace' } },
      errors: [
        [
          `${PATH}.serviceInstance.name`,
          /^is "ci-workspace", but Cluster API's IBMPowerVSMachine ignores a workspace's name and uses the IBMPowerVSCluster's workspace/,
        ],
      ],
    },
    {
      name: 'a workspace named by regex only',
      input: { serviceInstance: { regex: '^ci-' } },
      errors: [[`${PATH}.serviceInstance.regex`, /ignores a workspace's regex/]],
    },
    {
      name: 'an empty serviceInstance',
      input: { serviceInstance: {} },
      errors: [[`${PATH}.serviceInstance`, /^names no workspace/]],
    },
    {
      name: 'serviceInstance that is not an object',
      input: { serviceInstance: WORKSPACE },
      errors: [[`${PATH}.serviceInstance`, /^must be an object, but is the string/]],
    },
    {
      name: 'a workspace id that is not a string',
      input: { serviceInstance: { id: 42 } },
      errors: [[`${PATH}.serviceInstance.id`, /^must be a string, but is the number 42\.$/]],
    },
    {
      name: 'serviceInstanceID that is not a string',
      input: { serviceInstanceID: false },
      errors: [[`${PATH}.serviceInstanceID`, /^must be a string, but is the boolean false\.$/]],
    },
    {
      name: 'an unknown field in serviceInstance',
      input: { serviceInstance: { id: 'x', crn: 'crn:v1:x' } },
      errors: [[`${PATH}.serviceInstance.crn`, /^is not a field .* convert to Machine API/]],
    },
    // the boot image
    {
      name: 'no image',
      input: { image: undefined },
      errors: [[`${PATH}.image`, /^is required, .*; set image\.name or image\.id\.$/]],
    },
    {
      name: 'imageRef (an IBMPowerVSImage object)',
      input: { image: undefined, imageRef: { name: 'rhcos-image' } },
      errors: [
        [
          `${PATH}.imageRef`,
          /^points at an IBMPowerVSImage object, which has no Machine API equivalent; .*or keep the MachineSet on Cluster API\.$/,
        ],
      ],
    },
    {
      name: 'imageRef next to image',
      input: { imageRef: { name: 'rhcos-image' } },
      errors: [[`${PATH}.imageRef`, /no Machine API equivalent/]],
    },
    {
      name: 'an image by both id and name (CAPIBM refuses it)',
      input: { image: { id: 'img-0123', name: 'rhcos-ci' } },
      errors: [
        [`${PATH}.image`, /^names the boot image by both id and name, .*keep only one of them\.$/],
      ],
    },
    {
      name: 'an image by regex',
      input: { image: { regex: '^rhcos-' } },
      errors: [
        [
          `${PATH}.image.regex`,
          /^is "\^rhcos-", but neither Cluster API nor Machine API looks a boot image up by regular expression/,
        ],
      ],
    },
    {
      name: 'an empty image',
      input: { image: {} },
      errors: [[`${PATH}.image`, /^names no boot image; set image\.name or image\.id\.$/]],
    },
    {
      name: 'an image whose fields are empty strings (the CRD requires a character)',
      input: { image: { name: '', id: '' } },
      errors: [[`${PATH}.image`, /^names no boot image/]],
    },
    // the network
    {
      name: 'no network',
      input: { network: undefined },
      errors: [[`${PATH}.network`, /^is required; name the network with/]],
    },
    {
      name: 'an empty network',
      input: { network: {} },
      errors: [[`${PATH}.network`, /^names no network; set one of/]],
    },
    {
      name: 'a network by more than one field (CAPIBM refuses it)',
      input: { network: { id: 'net-0123', name: 'ci-net', regex: '^ci-' } },
      errors: [
        [
          `${PATH}.network`,
          /^names the network by id and name and regex, .*keep only one of them\.$/,
        ],
      ],
    },
    {
      name: 'a network regex that is not a string',
      input: { network: { regex: ['^ci-'] } },
      errors: [[`${PATH}.network.regex`, /^must be a string, but is an array\.$/]],
    },
    // the key pair
    {
      name: 'no sshKey (Machine API requires keyPairName)',
      input: { sshKey: undefined },
      errors: [
        [
          `${PATH}.sshKey`,
          /^is required, .*set it to the name of an SSH key pair in the PowerVS workspace \(the installer's is ci-ln-abc12-key\)\.$/,
        ],
      ],
    },
    {
      name: 'an empty sshKey',
      input: { sshKey: '' },
      errors: [[`${PATH}.sshKey`, /^is required/]],
    },
    {
      name: 'an sshKey that is not a string',
      input: { sshKey: { name: 'ci-key' } },
      errors: [[`${PATH}.sshKey`, /^must be a string, but is an object\.$/]],
    },
    // the machine size
    {
      name: 'a system type outside the CRD enum',
      input: { systemType: 'e880' },
      errors: [
        [
          `${PATH}.systemType`,
          /^is "e880", which is not a system type of IBMPowerVSMachineTemplate; use one of s922, e980/,
        ],
      ],
    },
    {
      name: 'a system type in upper case (the CRD takes lower case only)',
      input: { systemType: 'S922' },
      errors: [[`${PATH}.systemType`, /^is "S922", /]],
    },
    {
      name: 'a processor type in lower case (the CRD takes the canonical case only)',
      input: { processorType: 'shared' },
      errors: [
        [
          `${PATH}.processorType`,
          /^is "shared", which is not supported; use one of "Dedicated", "Shared", "Capped"\.$/,
        ],
      ],
    },
    {
      name: 'fractional processors as a JSON number',
      input: { processors: 0.5 },
      errors: [[`${PATH}.processors`, /^is the number 0\.5, .*as a string, e\.g\. "0\.5"\.$/]],
    },
    {
      name: 'processors beyond a 32-bit integer',
      input: { processors: 2 ** 31 },
      errors: [[`${PATH}.processors`, /32-bit integer/]],
    },
    {
      name: 'processors that are not a plain decimal number',
      input: { processors: '1e3' },
      errors: [[`${PATH}.processors`, /^is the string "1e3", which is not a number of processors/]],
    },
    {
      name: 'processors that are neither a number nor a string',
      input: { processors: true },
      errors: [[`${PATH}.processors`, /^must be an integer or a string holding a decimal number/]],
    },
    {
      name: 'processors below the minimum of 0.25',
      input: { processors: '0.2' },
      errors: [[`${PATH}.processors`, /^is "0\.2", but Cluster API requires at least 0\.25/]],
    },
    {
      name: 'negative processors',
      input: { processors: -1 },
      errors: [[`${PATH}.processors`, /^is -1, but Cluster API requires at least 0\.25/]],
    },
    {
      name: 'fractional dedicated processors',
      input: { processorType: 'Dedicated', processors: '1.5' },
      errors: [[`${PATH}.processors`, /^is "1\.5", but dedicated processors cannot be fractional/]],
    },
    {
      name: 'dedicated processors left unset (CAPIBM makes them 0.25)',
      input: { processorType: 'Dedicated', processors: undefined },
      errors: [
        [
          `${PATH}.processors`,
          /^is not set, so Cluster API makes it 0\.25, but dedicated processors cannot be fractional; set processors to a whole number\.$/,
        ],
      ],
    },
    {
      name: 'memoryGiB below the minimum of 2',
      input: { memoryGiB: 1 },
      errors: [
        [
          `${PATH}.memoryGiB`,
          /^is 1, but Cluster API accepts 2 to 2147483647 GiB; set the memory in GiB \(at least 2\)\.$/,
        ],
      ],
    },
    {
      name: 'memoryGiB beyond a 32-bit integer',
      input: { memoryGiB: 2 ** 31 },
      errors: [[`${PATH}.memoryGiB`, /^is 2147483648, /]],
    },
    {
      name: 'memoryGiB as a string',
      input: { memoryGiB: '32' },
      errors: [[`${PATH}.memoryGiB`, /^must be an integer, but is the string "32"\.$/]],
    },
    // fields without an equivalent
    {
      name: 'providerID',
      input: { providerID: 'ibmpowervs://dal/dal10/ws/vm' },
      errors: [
        [
          `${PATH}.providerID`,
          /^has no Machine API equivalent: .*; remove it from the template\.$/,
        ],
      ],
    },
    {
      name: 'an unknown field',
      input: { bootVolume: { sizeGiB: 120 } },
      errors: [
        [
          `${PATH}.bootVolume`,
          /^is not a field this controller knows how to convert to Machine API, so it refuses rather than drop it; .*keep the MachineSet on Cluster API\.$/,
        ],
      ],
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      expectFieldErrors(expectErrors(toMapi(withFields(template(), c.input))), c.errors);
    });
  }
});
