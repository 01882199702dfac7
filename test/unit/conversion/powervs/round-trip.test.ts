// Round trips through both PowerVS converters, over generated specs: MAPI → CAPI → MAPI gives the
// providerSpec back up to the documented normalisation (docs/platforms/powervs.md), and
// CAPI → MAPI → CAPI gives the template spec back.
import { expect } from 'chai';
import fc from 'fast-check';
import {
  canonicalProcessorType,
  compact,
  FIELD_OF_TYPE,
  looseTemplateSpec,
  mapiProviderSpec,
  templateSpec,
  type Json,
} from './round-trip-arbitraries.js';
import { infrastructure, TEMPLATE_PATH } from './to-mapi-support.js';
import { powerVsConverter } from '../../../../src/conversion/powervs/index.js';
import type { ProviderConversion, ReverseContext } from '../../../../src/conversion/types.js';
import { expectOk, PROVIDER_SPEC_PATH } from '../../../support/conversion.js';

const RUNS = { numRuns: 150 };

function toCapi(providerSpec: unknown, controlPlane: boolean): ProviderConversion {
  const context = { infrastructure: infrastructure(), path: PROVIDER_SPEC_PATH, controlPlane };
  return expectOk(powerVsConverter.toCapi(providerSpec, context)).value;
}

function toMapi(
  capi: ProviderConversion,
  context: Omit<ReverseContext, 'infrastructure' | 'path' | 'failureDomain' | 'userDataSecretName'>,
): { value: Json; warnings: string[] } {
  const result = powerVsConverter.toMapi?.(capi.templateSpec, {
    infrastructure: infrastructure(),
    path: TEMPLATE_PATH,
    failureDomain: capi.failureDomain,
    userDataSecretName: capi.userDataSecretName,
    ...context,
  });
  if (result === undefined) expect.fail('the PowerVS converter has no toMapi');
  return expectOk(result);
}

/** A reference with only the field its type names (what Cluster API keeps of it). */
function namedOnly(reference: unknown): Json {
  const { type } = reference as { type: keyof typeof FIELD_OF_TYPE };
  const field = FIELD_OF_TYPE[type];
  return { type, [field]: (reference as Json)[field] };
}

/**
 * The documented normalisation: kind and apiVersion set; the size written out in its canonical
 * form with Machine API's defaults; the default credentialsSecret. Without the current
 * providerSpec, metadata, loadBalancers and the reference fields type does not name are gone.
 */
function normalised(spec: Json, controlPlane: boolean, withCurrent: boolean): Json {
  const processorType = canonicalProcessorType(spec.processorType);
  const processors = spec.processors;
  const unsetProcessors = processors === undefined || processors === 0 || processors === '';
  const loadBalancers = spec.loadBalancers as unknown[] | undefined;
  const reference = (key: string) => (withCurrent ? spec[key] : namedOnly(spec[key]));
  return compact({
    apiVersion: 'machine.openshift.io/v1',
    kind: 'PowerVSMachineProviderConfig',
    metadata: withCurrent ? spec.metadata : undefined,
    serviceInstance: reference('serviceInstance'),
    image: reference('image'),
    network: reference('network'),
    keyPairName: spec.keyPairName,
    systemType:
      typeof spec.systemType === 'string' && spec.systemType !== ''
        ? spec.systemType.toLowerCase()
        : 's922',
    processorType,
    processors: unsetProcessors ? (processorType === 'Dedicated' ? 1 : '0.5') : processors,
    memoryGiB: typeof spec.memoryGiB === 'number' && spec.memoryGiB !== 0 ? spec.memoryGiB : 32,
    userDataSecret: spec.userDataSecret,
    credentialsSecret: { name: 'powervs-credentials' },
    loadBalancers:
      withCurrent && controlPlane && loadBalancers && loadBalancers.length > 0
        ? loadBalancers
        : undefined,
  });
}

describe('PowerVS round trips', () => {
  describe('MAPI → CAPI → MAPI', () => {
    it('gives the providerSpec back, up to the normalisation, with the current providerSpec', () => {
      fc.assert(
        fc.property(mapiProviderSpec, ({ spec, controlPlane }) => {
          const back = toMapi(toCapi(spec, controlPlane), { current: spec, controlPlane });
          expect(back.value).to.deep.equal(normalised(spec, controlPlane, true));
          expect(back.warnings).to.deep.equal([]);
        }),
        RUNS,
      );
    });

    it('gives it back without the fields kept from the current providerSpec when there is none', () => {
      fc.assert(
        fc.property(mapiProviderSpec, ({ spec, controlPlane }) => {
          const back = toMapi(toCapi(spec, controlPlane), { current: undefined, controlPlane });
          expect(back.value).to.deep.equal(normalised(spec, controlPlane, false));
        }),
        RUNS,
      );
    });

    it('gives a normalised providerSpec back exactly', () => {
      fc.assert(
        fc.property(mapiProviderSpec, ({ spec, controlPlane }) => {
          const canonical = normalised(spec, controlPlane, true);
          const back = toMapi(toCapi(canonical, controlPlane), {
            current: canonical,
            controlPlane,
          });
          expect(back.value).to.deep.equal(canonical);
        }),
        RUNS,
      );
    });

    it('the generator covers every field and every spelling the forward converter accepts', () => {
      const seen = new Set<string>();
      fc.assert(
        fc.property(mapiProviderSpec, ({ spec }) => {
          for (const [key, value] of Object.entries(spec)) {
            seen.add(key);
            if (key === 'processors') seen.add(`processors:${typeof value}`);
          }
          if (typeof spec.systemType === 'string' && /[A-Z]/.test(spec.systemType))
            seen.add('systemType:upper');
          for (const key of ['serviceInstance', 'image', 'network']) {
            const reference = spec[key] as Json;
            seen.add(`${key}:${String(reference.type)}`);
            if (Object.keys(reference).length > 2) seen.add(`${key}:ignored`);
          }
        }),
        { numRuns: 300 },
      );
      expect([...seen]).to.include.members([
        'apiVersion',
        'kind',
        'metadata',
        'keyPairName',
        'systemType',
        'processorType',
        'processors',
        'memoryGiB',
        'userDataSecret',
        'credentialsSecret',
        'loadBalancers',
        'processors:number',
        'processors:string',
        'systemType:upper',
        'serviceInstance:ID',
        'image:ID',
        'image:Name',
        'network:ID',
        'network:Name',
        'network:RegEx',
        'serviceInstance:ignored',
        'image:ignored',
        'network:ignored',
      ]);
    });
  });

  describe('CAPI → MAPI → CAPI', () => {
    const context = fc.record({
      // Cluster API's webhook refuses a MachineSet without a bootstrap data secret.
      userDataSecretName: fc.string({ minLength: 1, maxLength: 24 }),
      controlPlane: fc.boolean(),
      current: fc.option(
        mapiProviderSpec.map(({ spec }) => spec),
        { nil: undefined },
      ),
    });

    it('gives the template spec back, whatever the current providerSpec says', () => {
      fc.assert(
        fc.property(
          templateSpec,
          context,
          (template, { userDataSecretName, controlPlane, current }) => {
            const back = toMapi(
              { templateSpec: template, userDataSecretName },
              { current, controlPlane },
            );
            const capi = toCapi(back.value, controlPlane);
            expect(capi.templateSpec).to.deep.equal(template);
            expect(capi.userDataSecretName).to.equal(userDataSecretName);
            expect(capi.failureDomain).to.equal(undefined);
          },
        ),
        RUNS,
      );
    });

    it("gives other forms back as CAPIBM's webhook stores them, and as the forward converter writes them", () => {
      fc.assert(
        fc.property(looseTemplateSpec, (loose) => {
          const capi = toCapi(
            toMapi({ templateSpec: loose }, { controlPlane: false }).value,
            false,
          );
          const workspace = loose.serviceInstanceID || (loose.serviceInstance as Json).id;
          expect(capi.templateSpec).to.deep.equal({
            ...loose,
            serviceInstanceID: '',
            serviceInstance: { id: workspace },
            systemType: loose.systemType ?? 's922',
            processorType: loose.processorType ?? 'Shared',
            processors: loose.processors ?? '0.25',
            memoryGiB: loose.memoryGiB ?? 2,
          });
        }),
        RUNS,
      );
    });
  });
});
