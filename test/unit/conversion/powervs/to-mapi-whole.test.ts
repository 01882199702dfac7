// The PowerVS reverse converter as a whole: it reports every problem at once under the context
// path, knows exactly CAPIBM's fields, and never throws, whatever the JSON.
import { expect } from 'chai';
import fc from 'fast-check';
import { infrastructure, template, TEMPLATE_PATH, toMapi, withFields } from './to-mapi-support.js';
import type { Infrastructure } from '../../../../src/api/types.js';
import { expectErrors } from '../../../support/conversion.js';

const PATH = TEMPLATE_PATH;

/** The fields of CAPIBM's IBMPowerVSMachineSpec v1beta2. */
const TEMPLATE_FIELDS = [
  'image',
  'imageRef',
  'memoryGiB',
  'network',
  'processorType',
  'processors',
  'providerID',
  'serviceInstance',
  'serviceInstanceID',
  'sshKey',
  'systemType',
];

/** The paths the conversion of `spec` reports as fields it does not know. */
function unknownFieldPaths(spec: Record<string, unknown>): string[] {
  const result = toMapi(spec);
  if (result.ok) return [];
  return result.errors.filter((e) => e.message.startsWith('is not a field')).map((e) => e.path);
}

describe('powerVsConverter.toMapi as a whole', () => {
  it('an unknown field named like an Object.prototype member', () => {
    const spec = JSON.parse(`{"__proto__": {"x": 1}, "constructor": 1}`) as Record<string, unknown>;
    const errors = expectErrors(toMapi({ ...template(), ...spec }));
    expect(errors.map((e) => e.path)).to.have.members([`${PATH}.__proto__`, `${PATH}.constructor`]);
  });

  it('reports every error of a template at once, not only the first', () => {
    const errors = expectErrors(
      toMapi({
        serviceInstance: { name: 'ci-workspace' },
        image: { regex: '^rhcos-' },
        imageRef: { name: 'rhcos' },
        network: { id: 'a', name: 'b' },
        systemType: 'e880',
        processorType: 'Burst',
        processors: '0.1',
        memoryGiB: 1,
        providerID: 'x',
        extra: true,
      }),
    );
    expect(errors.map((e) => e.path)).to.have.members([
      `${PATH}.serviceInstance.name`,
      `${PATH}.image.regex`,
      `${PATH}.imageRef`,
      `${PATH}.network`,
      `${PATH}.sshKey`,
      `${PATH}.systemType`,
      `${PATH}.processorType`,
      `${PATH}.processors`,
      `${PATH}.memoryGiB`,
      `${PATH}.providerID`,
      `${PATH}.extra`,
    ]);
  });

  it('uses the context path for every error path', () => {
    const errors = expectErrors(
      toMapi(withFields(template(), { image: {}, memoryGiB: 1 }), { path: 'spec.template.spec.x' }),
    );
    expect(errors.map((e) => e.path)).to.have.members([
      'spec.template.spec.x.image',
      'spec.template.spec.x.memoryGiB',
    ]);
  });

  it('names no installer key pair when the Infrastructure has no infrastructureName', () => {
    const bare: Infrastructure = { ...infrastructure(), status: { platformStatus: {} } };
    const errors = expectErrors(
      toMapi(withFields(template(), { sshKey: undefined }), { infrastructure: bare }),
    );
    expect(errors).to.have.length(1);
    expect(errors[0]?.message).to.match(/in the PowerVS workspace\.$/);
  });

  it('knows every field of IBMPowerVSMachineSpec v1beta2 and no other', () => {
    expect(unknownFieldPaths({ ...template(), bootVolume: null })).to.deep.equal([
      `${PATH}.bootVolume`,
    ]);
    // Whatever a known field holds, the converter reads it rather than calling it unknown.
    fc.assert(
      fc.property(fc.constantFrom(...TEMPLATE_FIELDS), fc.jsonValue(), (field, value) => {
        expect(unknownFieldPaths({ ...template(), [field]: value })).to.not.include(
          `${PATH}.${field}`,
        );
      }),
      { numRuns: 200 },
    );
  });

  it('never throws, and names every error under the context path, whatever the JSON', () => {
    const field = fc.constantFrom(...TEMPLATE_FIELDS, 'id', 'name', 'regex', 'other');
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 1 }),
        fc.dictionary(field, tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    const spec = fc.dictionary(field, json, { maxKeys: 8 });
    fc.assert(
      fc.property(fc.oneof(spec, fc.jsonValue()), fc.anything(), (input, current) => {
        const result = toMapi(input, { current });
        if (!result.ok) {
          for (const error of result.errors) expect(error.path.startsWith(PATH)).to.equal(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});
