// Converted machine templates against a platform's real CRD. The server applies the CRD's
// defaults on create, so getting back exactly what was sent proves every default is already
// materialised: a later diff against the stored template settles instead of rewriting forever.
import { expect } from 'chai';
import fc from 'fast-check';
import type { ConversionContext, PlatformConverter } from '../../src/conversion/types.js';
import { adminObjects } from './cluster.js';

export interface StoredTemplate {
  spec: { template: { spec: Record<string, unknown> } };
}

/** What the API server would store for a template of this spec (dry run, Strict validation). */
export async function dryRunCreateTemplate(
  converter: PlatformConverter,
  namespace: string,
  name: string,
  templateSpec: Record<string, unknown>,
): Promise<StoredTemplate> {
  const { apiVersion, kind, plural } = converter.template;
  const [group, version] = apiVersion.split('/') as [string, string];
  return await adminObjects().create<StoredTemplate>(
    { group, version, plural, namespace },
    { apiVersion, kind, metadata: { name }, spec: { template: { spec: templateSpec } } },
    // Strict: a field the CRD does not know would be an error, not silently pruned.
    { dryRun: true, fieldValidation: 'Strict' },
  );
}

/**
 * Every providerSpec the arbitrary generates converts, the same way twice, to a template spec
 * the CRD stores unchanged.
 */
export async function assertCrdAcceptsEveryConversion(
  converter: PlatformConverter,
  providerSpec: fc.Arbitrary<unknown>,
  context: ConversionContext,
  namespace: string,
): Promise<void> {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(providerSpec, async (spec) => {
      const first = converter.toCapi(structuredClone(spec), context);
      if (!first.ok) throw new Error(`conversion failed: ${JSON.stringify(first.errors)}`);
      const second = converter.toCapi(structuredClone(spec), context);
      expect(second).to.deep.equal(first);

      const templateSpec = first.value.templateSpec;
      const stored = await dryRunCreateTemplate(converter, namespace, `t-${run++}`, templateSpec);
      expect(stored.spec.template.spec).to.deep.equal(templateSpec);
    }),
    { numRuns: 40 },
  );
}
