// The admission policy mapi-capi-sync-infrastructure-expressible refuses, per kind, exactly the
// fields the reverse conversion of that platform refuses whatever their value: what the policy
// admits must convert, and what it refuses would never convert. Its lists are read from
// manifests/, the converters' from their exported lists, and each listed field is checked to be
// refused by the converter itself.
import { expect } from 'chai';
import { TEMPLATE_FIELDS_WITHOUT_EQUIVALENT as AWS } from '../../../src/conversion/aws/to-mapi.js';
import { TEMPLATE_FIELDS_WITHOUT_EQUIVALENT as AZURE } from '../../../src/conversion/azure/to-mapi.js';
import { TEMPLATE_FIELDS_WITHOUT_EQUIVALENT as GCP } from '../../../src/conversion/gcp/to-mapi.js';
import { TEMPLATE_FIELDS_WITHOUT_EQUIVALENT as OPENSTACK } from '../../../src/conversion/openstack/to-mapi.js';
import { TEMPLATE_FIELDS_WITHOUT_EQUIVALENT as POWERVS } from '../../../src/conversion/powervs/to-mapi.js';
import { TEMPLATE_FIELDS_WITHOUT_EQUIVALENT as VSPHERE } from '../../../src/conversion/vsphere/to-mapi.js';
import { CONVERTERS } from '../../../src/conversion/platforms.js';
import type { FieldError, PlatformConverter } from '../../../src/conversion/types.js';
import { platformMachineSets, providerSpecOf } from '../../support/conversion.js';
import { loadManifests } from '../../support/manifests.js';

const POLICY = 'mapi-capi-sync-infrastructure-expressible';

/** Each converter's list, by platform. */
const CONVERTER_LISTS: Record<string, readonly string[]> = {
  AWS,
  Azure: AZURE,
  GCP,
  OpenStack: OPENSTACK,
  PowerVS: POWERVS,
  VSphere: VSPHERE,
};

/** A well-formed providerID per platform: its identity fields are the machine's own. */
const PROVIDER_IDS: Record<string, string> = {
  AWS: 'aws:///us-east-1a/i-0123456789abcdef0',
  Azure:
    'azure:///subscriptions/0000-1111/resourceGroups/demo-rg/providers/Microsoft.Compute/virtualMachines/demo-worker-1',
  GCP: 'gce://openshift-dev/us-central1-a/demo-abc12-worker-a-x7k2p',
  OpenStack: 'openstack:///3f0c8a2e-6b1d-4d7e-9a55-0c6c1e2f7b10',
  PowerVS: 'ibmpowervs://dal/dal10/4e3c1a7b-service/9b2f-instance',
  VSphere: 'vsphere://4217c4a1-8b0e-3c3e-9f6d-0a1b2c3d4e5f',
};

interface Policy {
  spec: {
    matchConstraints: { resourceRules: { resources: string[] }[] };
    variables: { name: string; expression: string }[];
  };
}

async function policy(): Promise<Policy> {
  const found = (await loadManifests()).find(
    (o) => o.kind === 'ValidatingAdmissionPolicy' && o.metadata.name === POLICY,
  );
  if (!found) throw new Error(`no ValidatingAdmissionPolicy ${POLICY} in manifests/`);
  return found as unknown as Policy;
}

/** The policy's `fields` variable: a CEL map literal written as JSON. */
async function policyFields(): Promise<Record<string, string[]>> {
  const fields = (await policy()).spec.variables.find((v) => v.name === 'fields');
  if (!fields) throw new Error(`${POLICY} has no variable "fields"`);
  return JSON.parse(fields.expression) as Record<string, string[]>;
}

function converterList(converter: PlatformConverter): readonly string[] {
  const list = CONVERTER_LISTS[converter.platform];
  if (!list) throw new Error(`no list of fields without equivalent for ${converter.platform}`);
  return list;
}

/** The spec fields an infrastructure machine's providerID gives it (providerID among them). */
function identityFields(converter: PlatformConverter): string[] {
  const identity = converter.machine!.identity(PROVIDER_IDS[converter.platform]!);
  if (!identity.ok) throw new Error(JSON.stringify(identity.errors));
  return Object.keys(identity.value);
}

/** `spec` with `value` at `path` (`name[]`: the first item of the list, made if missing). */
function withField(spec: Record<string, unknown>, path: string, value: unknown) {
  const copy = structuredClone(spec);
  const [first, ...rest] = path.split('.') as [string, ...string[]];
  let at: Record<string, unknown> = copy;
  let concrete = first;
  if (first.endsWith('[]')) {
    const name = first.slice(0, -2);
    const items = (Array.isArray(copy[name]) ? copy[name] : []) as Record<string, unknown>[];
    if (items.length === 0) items.push({});
    copy[name] = items;
    at = items[0]!;
    concrete = `${name}[0]`;
  } else {
    rest.unshift(first);
  }
  const leaf = rest.pop()!;
  for (const key of rest) {
    at[key] = { ...(at[key] as Record<string, unknown> | undefined) };
    at = at[key] as Record<string, unknown>;
  }
  at[leaf] = value;
  const concretePath = first.endsWith('[]') ? [concrete, ...rest, leaf].join('.') : path;
  return { spec: copy, path: concretePath };
}

/** Values of every JSON type that are not empty: one of them has the field's type. */
const NON_EMPTY = ['x', true, 1, ['x'], { x: 'x' }];

const UNREAD = /^is not a field this controller knows/;
const WRONG_TYPE = /^must be /;

describe(`admission policy ${POLICY} and the reverse converters`, () => {
  const platforms = platformMachineSets();

  it('names exactly the template and infrastructure machine kinds of the converters', async () => {
    const fields = await policyFields();
    const kinds = CONVERTERS.flatMap((c) => [c.template.kind, c.machine!.kind]);
    expect(Object.keys(fields).sort()).to.deep.equal(kinds.sort());
    const resources = (await policy()).spec.matchConstraints.resourceRules.flatMap(
      (r) => r.resources,
    );
    const plurals = CONVERTERS.flatMap((c) => [c.template.plural, c.machine!.plural]);
    expect([...resources].sort()).to.deep.equal(plurals.sort());
  });

  it('writes every path in a shape its CEL walks: up to three steps, a list only at the first', async () => {
    const shape = /^(\w+\[\](\.\w+){1,2}|\w+(\.\w+){0,2})$/;
    for (const [kind, paths] of Object.entries(await policyFields())) {
      for (const path of paths) expect(path, kind).to.match(shape);
    }
  });

  for (const converter of CONVERTERS) {
    const { kind } = converter.template;
    const machineKind = converter.machine!.kind;

    it(`refuses on ${kind}s the fields the ${converter.platform} converter refuses`, async () => {
      expect((await policyFields())[kind]).to.deep.equal([...converterList(converter)]);
    });

    it(`refuses on ${machineKind}s the same, but for the fields of its own instance`, async () => {
      const own = identityFields(converter);
      expect(own).to.include('providerID');
      const expected = converterList(converter).filter((path) => !own.includes(path));
      expect((await policyFields())[machineKind]).to.deep.equal(expected);
    });

    it(`the ${converter.platform} converter refuses each of its listed fields when set`, () => {
      const platform = platforms.find((p) => p.converter === converter)!;
      const context = {
        infrastructure: platform.infrastructure,
        path: 'spec.template.spec',
        controlPlane: false,
      };
      const providerSpec = providerSpecOf(platform.machineSet());
      const forward = converter.toCapi(providerSpec, context);
      if (!forward.ok) throw new Error(JSON.stringify(forward.errors));
      const base = forward.value.templateSpec;
      // as the MachineSet sync calls it: with the mirror's failure domain and data secret
      const { failureDomain, userDataSecretName } = forward.value;
      const reverse = { ...context, current: providerSpec, failureDomain, userDataSecretName };
      expect(converter.toMapi!(base, reverse).ok, 'the template without them converts').to.equal(
        true,
      );
      for (const field of converterList(converter)) {
        const refusals = NON_EMPTY.flatMap((value) => {
          const { spec, path } = withField(base, field, value);
          const result = converter.toMapi!(spec, reverse);
          const errors: FieldError[] = result.ok ? [] : result.errors;
          return errors.filter(
            (e) =>
              e.path === `spec.template.spec.${path}` &&
              !UNREAD.test(e.message) &&
              !WRONG_TYPE.test(e.message),
          );
        });
        expect(refusals, `${field} is not refused`).to.have.length.above(0);
      }
    });
  }
});
