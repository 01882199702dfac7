// What every platform converter does with a providerSpec that is not one of its own.
import { expect } from 'chai';
import type { Infrastructure } from '../../../../src/api/types.js';
import { CONVERTERS } from '../../../../src/conversion/platforms.js';
import type { ConversionContext } from '../../../../src/conversion/types.js';
import { expectErrors, PROVIDER_SPEC_PATH } from '../../../support/conversion.js';
import { PLATFORM_FIXTURES } from '../../../support/fixtures/index.js';
import { awsMachineSet, DEFAULT_INFRASTRUCTURE } from '../../../support/controller.js';

const infrastructure: Infrastructure = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'Infrastructure',
  metadata: { name: 'cluster' },
  status: { infrastructureName: 'demo-abc12' },
};
const context: ConversionContext = {
  infrastructure,
  path: PROVIDER_SPEC_PATH,
  controlPlane: false,
};

/** [value, how the message names it] */
const NOT_OBJECTS: [unknown, string][] = [
  ['a providerSpec', 'the string "a providerSpec"'],
  [42, 'the number 42'],
  [null, 'null'],
  [true, 'the boolean true'],
  [[{}], 'an array'],
  [undefined, 'undefined'],
];

describe('every converter opens its providerSpec the same way', () => {
  for (const converter of CONVERTERS) {
    const kind = converter.providerSpecKind;
    const article = /^[AEIOU]/.test(kind) ? 'an' : 'a';

    describe(converter.platform, () => {
      for (const [value, named] of NOT_OBJECTS) {
        it(`a providerSpec that is not an object: ${named}`, () => {
          expect(expectErrors(converter.toCapi(value, context))).to.deep.equal([
            {
              path: PROVIDER_SPEC_PATH,
              message:
                `must be ${article} ${kind} object, but is ${named}; ` +
                `set the ${converter.platform} machine settings there.`,
            },
          ]);
        });
      }

      for (const other of CONVERTERS.filter((c) => c !== converter)) {
        it(`another platform's providerSpec (${other.providerSpecKind}): one error, on kind`, () => {
          const spec = { kind: other.providerSpecKind, apiVersion: 'machine.openshift.io/v1beta1' };
          const errors = expectErrors(converter.toCapi({ ...spec, flavor: 3 }, context));
          expect(errors).to.deep.equal([
            {
              path: `${PROVIDER_SPEC_PATH}.kind`,
              message:
                `is ${other.providerSpecKind}, but the cluster runs on ${converter.platform}, ` +
                `where the providerSpec must be ${article} ${kind}; set kind to ${kind}.`,
            },
          ]);
        });
      }

      it('a providerSpec without kind or apiVersion converts as if they were set', () => {
        const aws = { machineSet: awsMachineSet, infrastructure: DEFAULT_INFRASTRUCTURE };
        const fixture =
          converter.platform === 'AWS'
            ? aws
            : PLATFORM_FIXTURES.find((f) => f.platform === converter.platform);
        if (!fixture) throw new Error(`no fixture for ${converter.platform}`);
        const withTypeMeta = fixture.machineSet('workers', 'openshift-machine-api').spec?.template
          ?.spec?.providerSpec?.value as Record<string, unknown>;
        const { kind: _kind, apiVersion: _apiVersion, ...bare } = withTypeMeta;
        const platformContext = {
          ...context,
          infrastructure: { ...infrastructure, status: fixture.infrastructure },
        };
        const expected = converter.toCapi(withTypeMeta, platformContext);
        expect(expected.ok, JSON.stringify(expected)).to.equal(true);
        expect(converter.toCapi(bare, platformContext)).to.deep.equal(expected);
      });
    });
  }
});
