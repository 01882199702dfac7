// CAPI → MAPI at the MachineSet level: what Machine API cannot carry is a field error on the CAPI
// MachineSet or its template, never an exception.
import { expect } from 'chai';
import fc from 'fast-check';
import type { CapiMachineSet } from '../../../../src/api/types.js';
import {
  allPaths,
  applyPatch,
  expectErrors,
  expectFieldErrors,
  jsonPointer,
} from '../../../support/conversion.js';
import { fakeConverter, mapiMachineSet, toCapi, toMapi } from './reverse-support.js';

const MACHINE_SPEC = '/spec/template/spec';
const HOOK = 'pre-drain.delete.hook.machine.cluster.x-k8s.io/';
const REF = 'spec.template.spec.infrastructureRef';

function errorsOf(capiPatch: object[], mapiPatch: object[] = []) {
  const { machineSet, template } = toCapi(mapiMachineSet());
  return expectErrors(
    toMapi({
      capi: applyPatch(machineSet, capiPatch),
      mapi: applyPatch(mapiMachineSet(), mapiPatch),
      template,
    }),
  );
}

describe('machineSetToMapi: errors', () => {
  const { template } = toCapi(mapiMachineSet());
  const templatePath = `AWSMachineTemplate ${template.metadata.name} spec.template.spec`;
  const taint = (fields: object) => ({
    op: 'add',
    path: `${MACHINE_SPEC}/taints`,
    value: [{ key: 'a', effect: 'NoSchedule', ...fields }],
  });

  const cases: [string, object[], object[], [string, RegExp][]][] = [
    [
      'a template of another platform',
      [
        {
          op: 'replace',
          path: `${MACHINE_SPEC}/infrastructureRef/kind`,
          value: 'GCPMachineTemplate',
        },
      ],
      [],
      [
        [
          `${REF}.kind`,
          /^is GCPMachineTemplate, but this cluster runs on AWS, .*AWSMachineTemplate/,
        ],
      ],
    ],
    [
      'no template kind',
      [{ op: 'remove', path: `${MACHINE_SPEC}/infrastructureRef/kind` }],
      [],
      [[`${REF}.kind`, /^is required, but this cluster runs on AWS/]],
    ],
    [
      'a template outside the infrastructure group',
      [{ op: 'replace', path: `${MACHINE_SPEC}/infrastructureRef/apiGroup`, value: 'example.com' }],
      [],
      [[`${REF}.apiGroup`, /^is "example\.com", but machine templates are in infrastructure/]],
    ],
    [
      'no template name',
      [{ op: 'remove', path: `${MACHINE_SPEC}/infrastructureRef/name` }],
      [],
      [[`${REF}.name`, /^is required; /]],
    ],
    [
      'a bootstrap config',
      [
        {
          op: 'replace',
          path: `${MACHINE_SPEC}/bootstrap`,
          value: { configRef: { apiGroup: 'bootstrap', kind: 'KubeadmConfigTemplate', name: 'x' } },
        },
      ],
      [],
      [['spec.template.spec.bootstrap.configRef', /^has no Machine API equivalent: /]],
    ],
    [
      'no bootstrap data secret',
      [{ op: 'replace', path: `${MACHINE_SPEC}/bootstrap`, value: {} }],
      [],
      [['spec.template.spec.bootstrap.dataSecretName', /^is required; /]],
    ],
    [
      'readiness gates',
      [{ op: 'add', path: `${MACHINE_SPEC}/readinessGates`, value: [{ conditionType: 'Ok' }] }],
      [],
      [['spec.template.spec.readinessGates', /^has no Machine API equivalent: /]],
    ],
    [
      'drain, volume detach and node deletion timeouts',
      [
        {
          op: 'add',
          path: `${MACHINE_SPEC}/deletion`,
          value: {
            nodeDrainTimeoutSeconds: 60,
            nodeVolumeDetachTimeoutSeconds: 5,
            nodeDeletionTimeoutSeconds: 30,
          },
        },
      ],
      [],
      [
        ['spec.template.spec.deletion.nodeDrainTimeoutSeconds', /^is 60, but Machine API drains/],
        ['spec.template.spec.deletion.nodeVolumeDetachTimeoutSeconds', /^is 5, but Machine API /],
        ['spec.template.spec.deletion.nodeDeletionTimeoutSeconds', /^is 30, but .*set 10/],
      ],
    ],
    [
      'a provider ID',
      [{ op: 'add', path: `${MACHINE_SPEC}/providerID`, value: 'aws:///us-east-1a/i-1' }],
      [],
      [['spec.template.spec.providerID', /^must not be set on a MachineSet template/]],
    ],
    [
      'another cluster',
      [
        { op: 'replace', path: '/spec/clusterName', value: 'other' },
        { op: 'replace', path: `${MACHINE_SPEC}/clusterName`, value: 'other' },
      ],
      [],
      [
        ['spec.clusterName', /^is "other", but this cluster's Cluster API cluster is "demo-abc12"/],
        ['spec.template.spec.clusterName', /^is "other", but /],
      ],
    ],
    [
      'fields this version does not know',
      [
        { op: 'add', path: '/spec/futureField', value: 1 },
        { op: 'add', path: `${MACHINE_SPEC}/futureField`, value: 1 },
        { op: 'add', path: '/spec/template/metadata/name', value: 'x' },
      ],
      [],
      [
        ['spec.futureField', /^is not a field .* to Machine API/],
        ['spec.template.spec.futureField', /^is not a field .* to Machine API/],
        ['spec.template.metadata.name', /^is not a field .* to Machine API/],
      ],
    ],
    [
      'an unknown deletion order',
      [{ op: 'replace', path: '/spec/deletion/order', value: 'Smallest' }],
      [],
      [['spec.deletion.order', /^is "Smallest", which is not supported; /]],
    ],
    [
      'negative replicas',
      [{ op: 'replace', path: '/spec/replicas', value: -1 }],
      [],
      [['spec.replicas', /^is -1, but must be between 0 and 2147483647; /]],
    ],
    [
      'labels the kept MAPI selector no longer matches',
      [
        {
          op: 'remove',
          path: '/spec/template/metadata/labels/machine.openshift.io~1cluster-api-machineset',
        },
      ],
      [],
      [
        [
          'spec.template.metadata.labels',
          /^no longer meet the selector of the Machine API MachineSet, .*spec\.selector\.matchLabels\[machine\.openshift\.io\/cluster-api-machineset\] requires .*: "worker-a"/,
        ],
      ],
    ],
    [
      'labels that a match expression of the kept selector excludes',
      [{ op: 'add', path: '/spec/template/metadata/labels/tier', value: 'gold' }],
      [
        {
          op: 'add',
          path: '/spec/selector/matchExpressions',
          value: [{ key: 'tier', operator: 'NotIn', values: ['gold'] }],
        },
      ],
      [['spec.template.metadata.labels', /requires tier NotIn "gold"\), so it would own none/]],
    ],
    [
      'a MAPI MachineSet without a selector to keep',
      [],
      [{ op: 'remove', path: '/spec/selector' }],
      [['spec.selector', /^cannot be kept from the Machine API MachineSet/]],
    ],
    [
      'a lifecycle hook name too short for Machine API',
      [
        {
          op: 'add',
          path: '/spec/template/metadata/annotations',
          value: { [`${HOOK}ab`]: 'me-too' },
        },
      ],
      [],
      [[`spec.template.metadata.annotations[${HOOK}ab]`, /^names the lifecycle hook "ab", but /]],
    ],
    [
      'a lifecycle hook owner too short for Machine API',
      [
        {
          op: 'add',
          path: '/spec/template/metadata/annotations',
          value: { [`${HOOK}Drain`]: 'me' },
        },
      ],
      [],
      [[`spec.template.metadata.annotations[${HOOK}Drain]`, /^is "me", the owner of the /]],
    ],
    [
      'a taint set only once',
      [taint({ propagation: 'OnInitialization' })],
      [],
      [['spec.template.spec.taints[0].propagation', /^is OnInitialization, but Machine API /]],
    ],
    [
      'a taint without propagation',
      [taint({})],
      [],
      [['spec.template.spec.taints[0].propagation', /^is required; use Always\./]],
    ],
    [
      'a taint with an unknown propagation',
      [taint({ propagation: 'Sometimes' })],
      [],
      [['spec.template.spec.taints[0].propagation', /^is "Sometimes", which is not a taint /]],
    ],
    [
      'a taint with an unknown field',
      [taint({ propagation: 'Always', since: 'now' })],
      [],
      [['spec.template.spec.taints[0].since', /^is not a field .* to Machine API/]],
    ],
  ];
  for (const [name, capiPatch, mapiPatch, expected] of cases) {
    it(name, () => expectFieldErrors(errorsOf(capiPatch, mapiPatch), expected));
  }

  it('a template that does not exist', () => {
    const { machineSet } = toCapi(mapiMachineSet());
    const errors = expectErrors(
      toMapi({ capi: machineSet, mapi: mapiMachineSet(), template: undefined }),
    );
    expectFieldErrors(errors, [
      [`${REF}.name`, /^names the AWSMachineTemplate "worker-a-\w+", which does not exist/],
    ]);
  });

  it('a template object of another kind', () => {
    const { machineSet } = toCapi(mapiMachineSet());
    const other = { ...template, kind: 'GCPMachineTemplate' };
    const errors = expectErrors(
      toMapi({ capi: machineSet, mapi: mapiMachineSet(), template: other }),
    );
    expectFieldErrors(errors, [[`${REF}.name`, /, which is a GCPMachineTemplate, not an AWS/]]);
  });

  it('a platform that cannot convert templates back yet', () => {
    const { converter } = fakeConverter({ reverse: false });
    const { machineSet } = toCapi(mapiMachineSet(), converter);
    const errors = expectErrors(toMapi({ capi: machineSet, mapi: mapiMachineSet(), converter }));
    expectFieldErrors(errors, [
      [
        templatePath,
        /^cannot be converted to a Machine API providerSpec: .* AWS machine templates/,
      ],
    ]);
  });

  it("the platform converter's errors, on the template's fields", () => {
    const { machineSet } = toCapi(mapiMachineSet());
    const empty = { ...template, spec: { template: { spec: {} } } };
    const errors = expectErrors(
      toMapi({ capi: machineSet, mapi: mapiMachineSet(), template: empty }),
    );
    expectFieldErrors(errors, [[`${templatePath}.instanceType`, /^is required; /]]);
  });

  it('a CAPI MachineSet that is not an object at all', () => {
    for (const value of [null, 'ms', 3, [], undefined]) {
      const capi = value as unknown as CapiMachineSet;
      const paths = expectErrors(toMapi({ capi, mapi: mapiMachineSet(), template })).map(
        (e) => e.path,
      );
      expect(paths).to.include(`${REF}.kind`);
    }
  });

  it('property: no mutation of a CAPI MachineSet or its MAPI mirror makes it throw', () => {
    const { machineSet } = toCapi(mapiMachineSet());
    const mutation = fc.record({
      pick: fc.nat(),
      op: fc.constantFrom('remove' as const, 'replace' as const),
      value: fc.jsonValue({ maxDepth: 3 }),
    });
    fc.assert(
      fc.property(
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        fc.array(mutation, { maxLength: 2 }),
        (capiMutations, mapiMutations) => {
          const capi = mutate(machineSet, capiMutations) as CapiMachineSet;
          const mapi = mutate(mapiMachineSet(), mapiMutations) as ReturnType<typeof mapiMachineSet>;
          const result = toMapi({ capi, mapi, template });
          if (result.ok) return;
          for (const error of result.errors) {
            expect(error.path, JSON.stringify(error)).to.be.a('string').and.not.equal('');
            expect(error.message, JSON.stringify(error)).to.be.a('string').and.not.equal('');
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

interface Mutation {
  pick: number;
  op: 'remove' | 'replace';
  value: unknown;
}

function mutate(document: unknown, mutations: Mutation[]): unknown {
  let current: unknown = structuredClone(document);
  for (const { pick, op, value } of mutations) {
    const paths = allPaths(current);
    if (paths.length === 0) break;
    const keys = paths[pick % paths.length]!;
    current = JSON.parse(
      JSON.stringify(applyPatch(current, [{ op, path: jsonPointer(keys), value }])),
    );
  }
  return current;
}
