// Field errors of the GCP reverse conversion: the full template path, what is wrong and what
// to do; and that no input makes it throw. Disks and scheduling have their own files.
import { expect } from 'chai';
import fc from 'fast-check';
import { expectErrors } from '../../../support/conversion.js';
import {
  itReportsFieldErrors,
  minimalTemplate,
  templateWith,
  toMapi,
  type ErrorCase,
  UNKNOWN_FIELD,
} from './reverse-support.js';

const P = 'spec.template.spec';
const UNKNOWN = UNKNOWN_FIELD;
const NO_EQUIVALENT =
  /has no Machine API equivalent; remove it from the template or keep the MachineSet on Cluster API\.$/;

const cases: ErrorCase[] = [
  [
    'a template spec that is not an object',
    'n2-standard-4',
    [[P, /must be an object, but is the string "n2-standard-4"/]],
  ],
  [
    'no failure domain',
    minimalTemplate(),
    [[P, /failureDomain is not set, .*set the failure domain to a zone of us-central1\./]],
    { failureDomain: undefined },
  ],
  [
    'a failure domain outside the region',
    minimalTemplate(),
    [[P, /failure domain "europe-west4-a" is not a zone of the cluster's region "us-central1"/]],
    { failureDomain: 'europe-west4-a' },
  ],
  ['an unknown field', templateWith({ instanceTyp: 'n2' }), [[`${P}.instanceTyp`, UNKNOWN]]],
  [
    'no instanceType',
    templateWith({ instanceType: undefined }),
    [[`${P}.instanceType`, /is required; set the Compute Engine machine type/]],
  ],
  [
    'an instanceType of the wrong type',
    templateWith({ instanceType: 4 }),
    [[`${P}.instanceType`, /must be a string, but is the number 4/]],
  ],
  [
    'providerID',
    templateWith({ providerID: 'gce://p/z/vm' }),
    [[`${P}.providerID`, NO_EQUIVALENT]],
  ],
  [
    'aliasIPRanges',
    templateWith({ aliasIPRanges: [{ ipCidrRange: '/24' }] }),
    [[`${P}.aliasIPRanges`, NO_EQUIVALENT]],
  ],
  [
    'no subnet',
    templateWith({ subnet: undefined }),
    [[`${P}.subnet`, /is required, because Machine API needs the machines' subnetwork/]],
  ],
  [
    'publicIP of the wrong type',
    templateWith({ publicIP: 'yes' }),
    [[`${P}.publicIP`, /must be true or false/]],
  ],
  [
    'ipForwarding not Enabled or Disabled',
    templateWith({ ipForwarding: 'On' }),
    [[`${P}.ipForwarding`, /is "On", which is not supported; use one of "Enabled", "Disabled"/]],
  ],
  // Service account.
  [
    'a service account without email',
    templateWith({ serviceAccounts: { scopes: ['s'] } }),
    [[`${P}.serviceAccounts.email`, /is required; set the email/]],
  ],
  [
    'a service account without scopes',
    templateWith({ serviceAccounts: { email: 'a@b' } }),
    [
      [
        `${P}.serviceAccounts.scopes`,
        /is empty, so Cluster API gives the machines no access scopes, but Machine API needs at least one/,
      ],
    ],
  ],
  [
    'a service account with neither',
    templateWith({ serviceAccounts: { scopes: [] } }),
    [
      [`${P}.serviceAccounts.email`, /is required/],
      [`${P}.serviceAccounts.scopes`, /is empty/],
    ],
  ],
  [
    'a list of service accounts',
    templateWith({ serviceAccounts: [{ email: 'a@b' }] }),
    [[`${P}.serviceAccounts`, /must be an object, but is an array/]],
  ],
  [
    'a scope of the wrong type',
    templateWith({ serviceAccounts: { email: 'a@b', scopes: [1] } }),
    [[`${P}.serviceAccounts.scopes[0]`, /must be a string/]],
  ],
  // Labels, metadata, tags.
  [
    'a label that is not a string',
    templateWith({ additionalLabels: { team: 1 } }),
    [[`${P}.additionalLabels.team`, /must be a string, but is the number 1/]],
  ],
  [
    'the user-data metadata key',
    templateWith({ additionalMetadata: [{ key: 'user-data', value: 'x' }] }),
    [
      [
        `${P}.additionalMetadata[0].key`,
        /is user-data, which Machine API fills with the bootstrap data/,
      ],
    ],
  ],
  [
    'a metadata key listed twice',
    templateWith({ additionalMetadata: [{ key: 'a' }, { key: 'a' }] }),
    [[`${P}.additionalMetadata[1].key`, /repeats the key "a"/]],
  ],
  [
    'a metadata item without key',
    templateWith({ additionalMetadata: [{ value: 'v' }] }),
    [[`${P}.additionalMetadata[0].key`, /is required/]],
  ],
  [
    'an unknown metadata item field',
    templateWith({ additionalMetadata: [{ key: 'a', ttl: 1 }] }),
    [[`${P}.additionalMetadata[0].ttl`, UNKNOWN]],
  ],
  [
    'a network tag of the wrong type',
    templateWith({ additionalNetworkTags: [7] }),
    [[`${P}.additionalNetworkTags[0]`, /must be a string/]],
  ],
  [
    'an invalid resource manager tag',
    templateWith({
      resourceManagerTags: [{ parentID: '0', key: 'env', value: 'prod', extra: true }],
    }),
    [
      [`${P}.resourceManagerTags[0].parentID`, /is "0", which is neither an organization ID/],
      [`${P}.resourceManagerTags[0].extra`, UNKNOWN],
    ],
  ],
];

describe('gcpConverter.toMapi: field errors', () => {
  itReportsFieldErrors(cases);

  it('reports every error of a template at once', () => {
    const errors = expectErrors(
      toMapi(templateWith({ instanceType: undefined, subnet: undefined, providerID: 'x' }), {
        failureDomain: undefined,
      }),
    );
    expect(errors.map((e) => e.path)).to.have.members([
      P,
      `${P}.instanceType`,
      `${P}.subnet`,
      `${P}.providerID`,
    ]);
  });

  it('never throws, whatever the template, the context and the current providerSpec', () => {
    const known = fc.constantFrom(
      ...Object.keys(minimalTemplate()),
      'additionalDisks',
      'rootDiskEncryptionKey',
      'guestAccelerators',
      'shieldedInstanceConfig',
      'additionalMetadata',
      'resourceManagerTags',
      'additionalLabels',
      'constructor',
      '__proto__',
    );
    const template = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(known, fc.jsonValue()),
      fc.record({
        additionalDisks: fc.array(
          fc.dictionary(fc.constantFrom('size', 'deviceType', 'encryptionKey'), fc.jsonValue()),
        ),
      }),
    );
    fc.assert(
      fc.property(
        template,
        fc.option(fc.string()),
        fc.jsonValue(),
        fc.boolean(),
        (spec, zone, current, controlPlane) => {
          const result = toMapi(spec, { failureDomain: zone ?? undefined, current, controlPlane });
          if (result.ok) {
            expect(result.value.kind).to.equal('GCPMachineProviderSpec');
            return;
          }
          expect(result.errors).to.have.length.above(0);
          for (const error of result.errors) {
            expect(error.path.startsWith(P), error.path).to.equal(true);
            expect(error.message).to.be.a('string').and.match(/\.$/);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
