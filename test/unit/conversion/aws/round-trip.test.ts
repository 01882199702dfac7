// Round trips of the AWS converter, property-tested: MAPI → CAPI → MAPI gives the providerSpec
// back (exactly with the current providerSpec at hand, up to the documented normal form without
// it), and CAPI → MAPI → CAPI gives the template spec back, with the Infrastructure's resource tags.
import { expect } from 'chai';
import fc from 'fast-check';
import type { Infrastructure } from '../../../../src/api/types.js';
import { awsConverter } from '../../../../src/conversion/aws/index.js';
import { tagMap } from '../../../../src/conversion/common/cluster-tags.js';
import { KEPT_FROM_CURRENT } from '../../../../src/conversion/aws/kept-from-current.js';
import { MAPI_TYPE_META } from '../../../../src/conversion/aws/to-mapi.js';
import type { ProviderConversion, ReverseContext } from '../../../../src/conversion/types.js';
import { keptFields, normalProviderSpec, REGION } from './arbitraries.js';
import { templateCase } from './template-arbitraries.js';
import { variations, vary } from './variations.js';

type Json = Record<string, unknown>;
const NUM_RUNS = 150;
const PROVIDER_SPEC_PATH = 'spec.template.spec.providerSpec.value';
const TEMPLATE_PATH = 'spec.template.spec';

/** Tags every instance of the cluster carries; no generated tag has their values. */
const RESOURCE_TAGS = [
  { key: 'cost-center', value: 'cc 4242/7' },
  { key: 'owner', value: 'platform team@example' },
];

function infrastructure(ipFamily = 'IPv4'): Infrastructure {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    status: {
      infrastructureName: 'ci-ln-abc12',
      platformStatus: {
        type: 'AWS',
        // The API type in this program predates ipFamily.
        aws: Object.assign({ region: REGION, resourceTags: RESOURCE_TAGS }, { ipFamily }),
      },
    },
  };
}

function toCapi(spec: unknown, infra: Infrastructure, controlPlane: boolean): ProviderConversion {
  const result = awsConverter.toCapi(spec, {
    infrastructure: infra,
    path: PROVIDER_SPEC_PATH,
    controlPlane,
  });
  if (!result.ok) throw new Error(`MAPI → CAPI failed: ${JSON.stringify(result.errors)}`);
  return result.value;
}

function toMapi(converted: ProviderConversion, context: Omit<ReverseContext, 'path'>): Json {
  const result = awsConverter.toMapi?.(converted.templateSpec, { ...context, path: TEMPLATE_PATH });
  if (result === undefined) throw new Error('the AWS converter has no toMapi');
  if (!result.ok) throw new Error(`CAPI → MAPI failed: ${JSON.stringify(result.errors)}`);
  return result.value;
}

/** `spec` with the kept fields (and the region in placement) set from `kept`. */
function withKept(spec: Json, kept: Json): Json {
  const { region, ...topLevel } = kept;
  const result = { ...spec, ...topLevel };
  if (region !== undefined) result.placement = { ...(spec.placement as Json | undefined), region };
  return result;
}

/** `spec` without the fields CAPI → MAPI keeps from the current providerSpec. */
function withoutKept(spec: Json): Json {
  const result = structuredClone(spec);
  for (const path of KEPT_FROM_CURRENT) {
    const [head, tail] = path.split('.') as [string, string | undefined];
    if (tail === undefined) delete result[head];
    else {
      const inner = result[head] as Json | undefined;
      if (inner === undefined) continue;
      delete inner[tail];
      if (Object.keys(inner).length === 0) delete result[head];
    }
  }
  return result;
}

const mapiCase = fc.boolean().chain((controlPlane) =>
  fc.record({
    controlPlane: fc.constant(controlPlane),
    normal: normalProviderSpec,
    kept: keptFields(controlPlane),
    chosen: variations,
  }),
);

describe('awsConverter round trips', () => {
  it('MAPI → CAPI → MAPI with the current providerSpec gives the providerSpec back', () => {
    fc.assert(
      fc.property(mapiCase, ({ controlPlane, normal, kept, chosen }) => {
        const input = vary(withKept(normal, kept), chosen);
        const converted = toCapi(input, infrastructure(), controlPlane);
        const back = toMapi(converted, {
          infrastructure: infrastructure(),
          failureDomain: converted.failureDomain,
          userDataSecretName: converted.userDataSecretName,
          current: input,
          controlPlane,
        });
        expect(back).to.deep.equal({ ...input, ...MAPI_TYPE_META });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('MAPI → CAPI → MAPI without it gives the normal form back, except the kept fields', () => {
    fc.assert(
      fc.property(mapiCase, ({ controlPlane, normal, kept, chosen }) => {
        const input = vary(withKept(normal, kept), chosen);
        const converted = toCapi(input, infrastructure(), controlPlane);
        const back = toMapi(converted, {
          infrastructure: infrastructure(),
          failureDomain: converted.failureDomain,
          userDataSecretName: converted.userDataSecretName,
          controlPlane,
        });
        expect(withoutKept(back)).to.deep.equal(withoutKept(normal));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('CAPI → MAPI → CAPI gives the template spec, failure domain and bootstrap secret back', () => {
    fc.assert(
      fc.property(templateCase, fc.boolean(), (c, controlPlane) => {
        const infra = infrastructure(c.ipFamily);
        const providerSpec = toMapi(
          { templateSpec: c.templateSpec },
          {
            infrastructure: infra,
            failureDomain: c.failureDomain,
            userDataSecretName: c.userDataSecretName,
            controlPlane,
          },
        );
        // The Infrastructure's resource tags join the template's own, which win.
        const own = (c.templateSpec as { additionalTags?: Record<string, string> }).additionalTags;
        const additionalTags = { ...tagMap(RESOURCE_TAGS), ...own };
        const expected: ProviderConversion = {
          templateSpec: { ...c.templateSpec, additionalTags },
        };
        if (c.failureDomain !== undefined) expected.failureDomain = c.failureDomain;
        if (c.userDataSecretName !== undefined) expected.userDataSecretName = c.userDataSecretName;
        expect(toCapi(providerSpec, infra, controlPlane)).to.deep.equal(expected);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
