// Property test against the real IBMPowerVSMachineTemplate CRD: random valid PowerVS
// providerSpecs must convert to templates the API server accepts as they are. The server applies
// the CRD's defaults on create, so getting back exactly what we sent proves nothing is left for
// it to fill in: a later diff against the stored template settles instead of rewriting forever.
import { expect } from 'chai';
import fc from 'fast-check';
import type { Infrastructure } from '../../src/api/types.js';
import { powerVsConverter } from '../../src/conversion/powervs/index.js';
import type { ConversionContext } from '../../src/conversion/types.js';
import { testNamespace } from '../support/cluster.js';
import { assertCrdAcceptsEveryConversion, dryRunCreateTemplate } from '../support/template-crd.js';

const CLUSTER = 'ci-ln-abc12';

const infrastructure: Infrastructure = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'Infrastructure',
  metadata: { name: 'cluster' },
  status: {
    infrastructureName: CLUSTER,
    platformStatus: { type: 'PowerVS', powervs: { region: 'dal', zone: 'dal10' } },
  },
};
const context: ConversionContext = {
  infrastructure,
  path: 'spec.template.spec.providerSpec.value',
  controlPlane: false,
};

// --- arbitraries for valid providerSpecs ---

const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });
const guid = fc.tuple(hex(8), hex(4), hex(4), hex(4), hex(12)).map((parts) => parts.join('-'));
/** Names as IBM Cloud allows them: letters, digits, dashes, dots, underscores and spaces. */
const resourceName = fc.string({
  unit: fc.constantFrom(...'abcXYZ019-_. '),
  minLength: 1,
  maxLength: 30,
});
const regex = fc.constantFrom(
  `^DHCPSERVER.*${CLUSTER}.*_Private$`,
  '^ocp-net$',
  'pvs-ipi-net-[0-9]+',
);

/** A reference with its `type`, sometimes carrying a field Machine API ignores for that type. */
const reference = (types: ('ID' | 'Name' | 'RegEx')[]) =>
  fc
    .record({
      type: fc.constantFrom(...types),
      id: guid,
      name: resourceName,
      regex,
      ignored: fc.boolean(),
    })
    .map(({ type, id, name, regex: pattern, ignored }) => {
      const values = { ID: { id }, Name: { name }, RegEx: { regex: pattern } };
      const other = type === 'Name' ? values.ID : values.Name;
      return { type, ...values[type], ...(ignored ? other : {}) };
    });

/** processorType, and processors that are valid for it (or unset). */
const sizing = fc
  .record({
    processorType: fc.constantFrom('Dedicated', 'Shared', 'Capped', 'shared', 'DEDICATED', ''),
    whole: fc.integer({ min: 1, max: 15 }),
    quarters: fc.integer({ min: 1, max: 60 }),
    form: fc.constantFrom('integer', 'string', 'fraction', 'unset-zero', 'unset-empty', 'absent'),
  })
  .map(({ processorType, whole, quarters, form }) => {
    const dedicated = processorType.toLowerCase() === 'dedicated';
    const processors = {
      integer: whole,
      string: String(whole),
      // Dedicated processors cannot be fractional.
      fraction: dedicated ? whole : (quarters / 4).toString(),
      'unset-zero': 0,
      'unset-empty': '',
      absent: undefined,
    }[form];
    return processors === undefined ? { processorType } : { processorType, processors };
  });

const optionalFields = fc.record(
  {
    systemType: fc.constantFrom('s922', 'e980', 's1022', 'e1050', 'e1080', 's1122', 'S922', ''),
    memoryGiB: fc.oneof(fc.constant(0), fc.integer({ min: 2, max: 942 })),
    userDataSecret: fc.constant({ name: 'worker-user-data' }),
    credentialsSecret: fc.constant({ name: 'powervs-credentials' }),
    metadata: fc.constant({ creationTimestamp: null }),
    loadBalancers: fc.constant([]),
  },
  { requiredKeys: [] },
);

const providerSpec = fc
  .tuple(
    fc.record({
      serviceInstance: reference(['ID']),
      image: reference(['ID', 'Name']),
      network: reference(['ID', 'Name', 'RegEx']),
      keyPairName: resourceName,
    }),
    sizing,
    optionalFields,
  )
  .map(([required, sizes, optional]) => ({
    apiVersion: 'machine.openshift.io/v1',
    kind: 'PowerVSMachineProviderConfig',
    ...required,
    ...sizes,
    ...optional,
  }));

// --- the test ---

/** The HTTP status of a failed request, or undefined when it succeeded. */
async function failureCode(request: Promise<unknown>): Promise<number | undefined> {
  try {
    await request;
    return undefined;
  } catch (err) {
    return (err as { code?: number }).code;
  }
}

describe('PowerVS conversion against the real IBMPowerVSMachineTemplate CRD', () => {
  it('the CRD accepts every converted template unchanged, and conversion is deterministic', async function () {
    this.timeout(120_000);
    const namespace = await testNamespace('powervs-crd');
    await assertCrdAcceptsEveryConversion(powerVsConverter, providerSpec, context, namespace);
  });

  it('would notice a template the server fills in or rejects (control)', async () => {
    const namespace = await testNamespace('powervs-crd');
    const converted = powerVsConverter.toCapi(
      {
        apiVersion: 'machine.openshift.io/v1',
        kind: 'PowerVSMachineProviderConfig',
        serviceInstance: { type: 'ID', id: '3f7b2c1e-8d4a-4b6f-9a2e-5c1d7e9f0a3b' },
        image: { type: 'Name', name: 'rhcos-ci' },
        network: { type: 'Name', name: 'ci-net' },
        keyPairName: 'ci-key',
      },
      context,
    );
    if (!converted.ok) throw new Error(JSON.stringify(converted.errors));
    const spec = converted.value.templateSpec;

    // A field the CRD defaults comes back different from what was sent.
    const withDefaultedField = { ...spec, imageRef: {} };
    const stored = await dryRunCreateTemplate(
      powerVsConverter,
      namespace,
      'control-default',
      withDefaultedField,
    );
    expect(stored.spec.template.spec).to.not.deep.equal(withDefaultedField);
    expect(stored.spec.template.spec).to.deep.include({ imageRef: { name: '' } });

    // The CRD enforces what the converter guarantees: required fields, enums, minimum lengths
    // (422 Invalid) and, with strict field validation, no unknown fields (400 BadRequest).
    const { serviceInstanceID: _required, ...withoutServiceInstanceID } = spec;
    const invalid: [string, Record<string, unknown>, number][] = [
      ['control-required', withoutServiceInstanceID, 422],
      ['control-enum', { ...spec, systemType: 'e880' }, 422],
      ['control-min-length', { ...spec, image: { name: '' } }, 422],
      ['control-unknown', { ...spec, keyPairName: 'ci-key' }, 400],
    ];
    for (const [name, body, expected] of invalid) {
      const code = await failureCode(dryRunCreateTemplate(powerVsConverter, namespace, name, body));
      expect(code, name).to.equal(expected);
    }
  });
});
