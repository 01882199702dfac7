// Round trips of the OpenStack converter: MAPI → CAPI → MAPI gives the providerSpec back (in the
// spelling the way back writes; without the current providerSpec, less the kept fields), and
// CAPI → MAPI → CAPI gives the template spec back.
import { expect } from 'chai';
import fc from 'fast-check';
import {
  KEPT_FROM_CURRENT,
  openstackConverter,
} from '../../../../src/conversion/openstack/index.js';
import type { ReverseContext } from '../../../../src/conversion/types.js';
import { expectOk, PROVIDER_SPEC_PATH } from '../../../support/conversion.js';
import { capoTemplate, infrastructure, mapiSpec } from './arbitraries.js';

const RUNS = { numRuns: 150 };
const TEMPLATE_PATH = 'spec.template.spec';

function forward(spec: unknown) {
  return expectOk(
    openstackConverter.toCapi(spec, {
      infrastructure: infrastructure(),
      path: PROVIDER_SPEC_PATH,
      controlPlane: false,
    }),
  ).value;
}

function back(templateSpec: unknown, extra: Partial<ReverseContext> = {}) {
  const result = openstackConverter.toMapi?.(templateSpec, {
    infrastructure: infrastructure(),
    path: TEMPLATE_PATH,
    controlPlane: false,
    ...extra,
  });
  if (result === undefined) throw new Error('the OpenStack converter has no way back');
  return expectOk(result).value;
}

function mapiToMapi(spec: Record<string, unknown>, current: unknown) {
  const converted = forward(spec);
  const context: Partial<ReverseContext> = { current };
  if (converted.failureDomain !== undefined) context.failureDomain = converted.failureDomain;
  if (converted.userDataSecretName !== undefined) {
    context.userDataSecretName = converted.userDataSecretName;
  }
  return back(converted.templateSpec, context);
}

/** `spec` without what only the current providerSpec gives back. */
function withoutKept(spec: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(spec);
  for (const path of KEPT_FROM_CURRENT) {
    const [head = '', tail] = path.split('.');
    if (tail === undefined) {
      // A server group named without an ID is the template's own.
      if (head === 'serverGroupName' && copy.serverGroupID === undefined) continue;
      delete copy[head];
    } else {
      const nested = copy[head];
      if (typeof nested === 'object' && nested !== null)
        delete (nested as Record<string, unknown>)[tail];
    }
  }
  return copy;
}

describe('openstackConverter round trips', () => {
  it('MAPI → CAPI → MAPI with the current providerSpec gives the providerSpec back', () => {
    fc.assert(
      fc.property(mapiSpec({ unambiguous: false }), (spec) => {
        expect(mapiToMapi(spec, spec)).to.deep.equal(spec);
      }),
      RUNS,
    );
  });

  it('MAPI → CAPI → MAPI without a current providerSpec loses only the kept fields', () => {
    fc.assert(
      fc.property(mapiSpec({ unambiguous: true }), (spec) => {
        expect(mapiToMapi(spec, undefined)).to.deep.equal(withoutKept(spec));
      }),
      RUNS,
    );
  });

  it('MAPI → CAPI → MAPI → CAPI gives the same template whatever the current providerSpec', () => {
    fc.assert(
      fc.property(mapiSpec({ unambiguous: false }), fc.boolean(), (spec, withCurrent) => {
        const first = forward(spec);
        const again = forward(mapiToMapi(spec, withCurrent ? spec : undefined));
        expect(again).to.deep.equal(first);
      }),
      RUNS,
    );
  });

  it('CAPI → MAPI → CAPI gives the template spec, failure domain and bootstrap secret back', () => {
    fc.assert(
      fc.property(capoTemplate(), ({ templateSpec, failureDomain, userDataSecretName }) => {
        const context: Partial<ReverseContext> = {};
        if (failureDomain !== undefined) context.failureDomain = failureDomain;
        if (userDataSecretName !== undefined) context.userDataSecretName = userDataSecretName;
        const converted = forward(back(templateSpec, context));
        expect(converted.templateSpec).to.deep.equal(templateSpec);
        expect(converted.failureDomain).to.equal(failureDomain);
        expect(converted.userDataSecretName).to.equal(userDataSecretName);
      }),
      RUNS,
    );
  });

  it('the generators cover every field the way back writes', () => {
    const seen = new Set<string>();
    const walk = (value: unknown, path: string) => {
      if (Array.isArray(value)) value.forEach((item) => walk(item, `${path}[]`));
      else if (typeof value === 'object' && value !== null) {
        for (const [key, inner] of Object.entries(value))
          walk(inner, path === '' ? key : `${path}.${key}`);
      } else seen.add(path);
    };
    for (const spec of fc.sample(mapiSpec({ unambiguous: false }), 400)) walk(spec, '');
    for (const path of [
      'networks[].uuid',
      'networks[].filter.tags',
      'networks[].subnets[].filter.gateway_ip',
      'networks[].noAllowedAddressPairs',
      'networks[].profile.capabilities',
      'ports[].fixedIPs[].ipAddress',
      'ports[].securityGroups[]',
      'ports[].allowedAddressPairs[].macAddress',
      'securityGroups[].filter.notTagsAny',
      'rootVolume.sourceUUID',
      'additionalBlockDevices[].storage.volume.availabilityZone',
      'serverGroupName',
      'userDataSecret.namespace',
    ]) {
      expect([...seen], path).to.include(path);
    }
  });
});
