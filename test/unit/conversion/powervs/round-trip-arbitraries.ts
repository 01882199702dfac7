// fast-check generators for the PowerVS round trips: valid MAPI providerSpecs over every field
// the forward converter accepts (in every spelling it accepts), and valid template specs over
// every template field that has a Machine API equivalent.
import fc from 'fast-check';
import {
  PROCESSOR_TYPES,
  SYSTEM_TYPES,
  type ProcessorType,
} from '../../../../src/conversion/powervs/compute.js';

export type Json = Record<string, unknown>;

type ResourceType = 'ID' | 'Name' | 'RegEx';
export const FIELD_OF_TYPE = { ID: 'id', Name: 'name', RegEx: 'regex' } as const;

const MAX_INT32 = 2 ** 31 - 1;
const nonEmpty = fc.string({ minLength: 1, maxLength: 24 });

/** The keys whose value is undefined removed, as a JSON document has them. */
export function compact(fields: Json): Json {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function randomCase(word: string): fc.Arbitrary<string> {
  return fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) =>
      [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''),
    );
}

/** A MAPI reference of one of `types`, sometimes with fields its type does not name. */
function mapiReference(types: readonly ResourceType[]): fc.Arbitrary<Json> {
  const ignored = fc.record(
    {
      id: fc.string({ maxLength: 8 }),
      name: fc.string({ maxLength: 8 }),
      regex: fc.string({ maxLength: 8 }),
    },
    { requiredKeys: [] },
  );
  return fc
    .tuple(fc.constantFrom(...types), nonEmpty, ignored)
    .map(([type, value, others]) => ({ ...others, type, [FIELD_OF_TYPE[type]]: value }));
}

/** Whole processors, as an integer or a string. */
const wholeProcessors = fc.oneof(
  fc.integer({ min: 1, max: MAX_INT32 }),
  fc.integer({ min: 1, max: 4096 }).map(String),
);

/** Decimal strings of at least 0.25, in each form a plain decimal can take ("1.5", "2.", ".75"). */
const fractionalProcessors = fc
  .tuple(
    fc.option(fc.integer({ min: 0, max: 256 }), { nil: undefined }),
    fc.stringMatching(/^[0-9]{0,3}$/),
  )
  .filter(([whole, fraction]) => whole !== undefined || fraction !== '')
  .map(([whole, fraction]) => `${whole ?? ''}.${fraction}`)
  .filter((text) => Number(text) >= 0.25);

/** Valid processors of a (canonical) processor type; Dedicated ones are whole. */
function processorsOf(processorType: ProcessorType): fc.Arbitrary<number | string> {
  return processorType === 'Dedicated'
    ? wholeProcessors
    : fc.oneof(wholeProcessors, fractionalProcessors);
}

/** How Go and users write "not set" for processors. */
const unsetProcessors = fc.constantFrom(undefined, 0, '');

const size = fc
  .record({
    systemType: fc.option(
      fc.oneof(fc.constantFrom(...SYSTEM_TYPES).chain(randomCase), fc.constant('')),
      {
        nil: undefined,
      },
    ),
    processorType: fc.option(
      fc.oneof(fc.constantFrom(...PROCESSOR_TYPES).chain(randomCase), fc.constant('')),
      { nil: undefined },
    ),
    memoryGiB: fc.option(fc.oneof(fc.constant(0), fc.integer({ min: 2, max: MAX_INT32 })), {
      nil: undefined,
    }),
  })
  .chain((fields) => {
    const canonical = canonicalProcessorType(fields.processorType);
    return fc
      .oneof(unsetProcessors, processorsOf(canonical))
      .map((processors) => ({ ...fields, processors }));
  });

/** The processor type Machine API reads from `written` (case-insensitive; unset is Shared). */
export function canonicalProcessorType(written: unknown): ProcessorType {
  const match = PROCESSOR_TYPES.find(
    (t) => typeof written === 'string' && t.toLowerCase() === written.toLowerCase(),
  );
  return match ?? 'Shared';
}

const loadBalancers = fc.array(fc.record({ name: nonEmpty, type: fc.constant('Application') }), {
  maxLength: 3,
});

/** A valid MAPI providerSpec and whether its MachineSet is a control-plane one. */
export const mapiProviderSpec: fc.Arbitrary<{ spec: Json; controlPlane: boolean }> = fc
  .record({
    typeMeta: fc.boolean(),
    metadata: fc.option(
      fc.constantFrom<Json>(
        { creationTimestamp: null },
        {},
        { name: 'worker', labels: { a: 'b' } },
      ),
      { nil: undefined },
    ),
    serviceInstance: mapiReference(['ID']),
    image: mapiReference(['ID', 'Name']),
    network: mapiReference(['ID', 'Name', 'RegEx']),
    keyPairName: nonEmpty,
    size,
    // machine-api-operator's webhook writes one into every providerSpec it admits.
    userDataSecret: fc.record({ name: nonEmpty }),
    credentialsSecret: fc.option(
      fc.constantFrom<Json>({ name: 'powervs-credentials' }, {}, { name: '' }),
      { nil: undefined },
    ),
    controlPlane: fc.boolean(),
    loadBalancers,
  })
  .map(({ typeMeta, size: sizeFields, controlPlane, loadBalancers: lbs, ...fields }) => ({
    controlPlane,
    spec: compact({
      ...(typeMeta
        ? { apiVersion: 'machine.openshift.io/v1', kind: 'PowerVSMachineProviderConfig' }
        : {}),
      ...fields,
      ...sizeFields,
      // A worker's load balancers are rejected by the forward converter.
      loadBalancers: controlPlane ? lbs : undefined,
    }),
  }));

const capibmReference = (fields: readonly ('id' | 'name' | 'regex')[]): fc.Arbitrary<Json> =>
  fc.tuple(fc.constantFrom(...fields), nonEmpty).map(([field, value]) => ({ [field]: value }));

/** A template spec as the API server stores it (CAPIBM's webhook has written every size field). */
export const templateSpec: fc.Arbitrary<Json> = fc
  .record({
    serviceInstanceID: fc.constant(''),
    serviceInstance: fc.uuid().map((id) => ({ id })),
    image: capibmReference(['id', 'name']),
    network: capibmReference(['id', 'name', 'regex']),
    sshKey: nonEmpty,
    systemType: fc.constantFrom(...SYSTEM_TYPES),
    processorType: fc.constantFrom(...PROCESSOR_TYPES),
    memoryGiB: fc.integer({ min: 2, max: MAX_INT32 }),
  })
  .chain((fields) =>
    processorsOf(fields.processorType).map((processors) => ({ ...fields, processors })),
  );

/**
 * A template spec in the other forms Cluster API takes: the workspace in the deprecated
 * serviceInstanceID, and size fields left for CAPIBM's defaults.
 */
export const looseTemplateSpec: fc.Arbitrary<Json> = fc
  .record({
    spec: templateSpec,
    workspaceInDeprecatedField: fc.boolean(),
    unset: fc.subarray(['systemType', 'processorType', 'processors', 'memoryGiB']),
  })
  .map(({ spec, workspaceInDeprecatedField, unset }) => {
    const loose: Json = { ...spec };
    if (workspaceInDeprecatedField) {
      loose.serviceInstanceID = (spec.serviceInstance as { id: string }).id;
      delete loose.serviceInstance;
    }
    for (const field of unset) delete loose[field];
    return loose;
  })
  // CAPIBM makes unset processors 0.25, which dedicated ones cannot be.
  .filter((loose) => !(loose.processorType === 'Dedicated' && loose.processors === undefined));
