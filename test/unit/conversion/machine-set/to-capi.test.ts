// The platform-independent half of MAPI → CAPI: the MachineSet around the providerSpec.
import { expect } from 'chai';
import fc from 'fast-check';
import type { MapiMachineSet } from '../../../../src/api/types.js';
import { machineSetToCapi } from '../../../../src/conversion/machine-set/to-capi.js';
import type { Conversion } from '../../../../src/conversion/types.js';
import type { Mirror } from '../../../../src/conversion/machine-set/to-capi.js';
import {
  allPaths,
  applyPatch,
  expectErrors,
  expectFieldErrors,
  expectOk,
  jsonPointer,
  objectPaths,
  platformMachineSets,
  type PlatformMachineSet,
  scalarLeaves,
} from '../../../support/conversion.js';

const CAPI_NAMESPACE = 'openshift-cluster-api';
const PLATFORMS = platformMachineSets();
const AWS = PLATFORMS[0]!;
const ROLE = 'machine.openshift.io/cluster-api-machine-role';
const MACHINE_SET_LABEL = 'machine.openshift.io/cluster-api-machineset';

function convert(mapi: unknown, platform: PlatformMachineSet = AWS): Conversion<Mirror> {
  return machineSetToCapi({
    mapi: mapi as MapiMachineSet,
    infrastructure: platform.infrastructure,
    converter: platform.converter,
    capiNamespace: CAPI_NAMESPACE,
    paused: true,
  });
}

function patched(operations: object[], platform: PlatformMachineSet = AWS): MapiMachineSet {
  return applyPatch(platform.machineSet(), operations);
}

describe('machineSetToCapi', () => {
  it('mirrors an installer-style worker MachineSet of every platform', () => {
    for (const platform of PLATFORMS) {
      const { machineSet } = expectOk(convert(platform.machineSet(), platform)).value;
      expect(machineSet.spec.selector).to.deep.equal({
        matchLabels: {
          'machine.openshift.io/cluster-api-cluster': 'demo-abc12',
          [MACHINE_SET_LABEL]: 'worker-a',
          'cluster.x-k8s.io/cluster-name': 'demo-abc12',
        },
      });
      expect(machineSet.spec.template.metadata?.labels).to.deep.equal({
        'machine.openshift.io/cluster-api-cluster': 'demo-abc12',
        'node-role.kubernetes.io/worker': '',
        [MACHINE_SET_LABEL]: 'worker-a',
        'cluster.x-k8s.io/cluster-name': 'demo-abc12',
      });
      expect(machineSet.spec.template.spec.bootstrap).to.deep.equal({
        dataSecretName: 'worker-user-data',
      });
    }
  });

  describe('control-plane machines, by the role label Machine API puts on them', () => {
    /** Whether the platform converter was told the machines are control-plane machines. */
    function controlPlane(mapi: MapiMachineSet): boolean | undefined {
      let seen: boolean | undefined;
      const converter = {
        ...AWS.converter,
        toCapi: (spec: unknown, context: Parameters<typeof AWS.converter.toCapi>[1]) => {
          seen = context.controlPlane;
          return AWS.converter.toCapi(spec, context);
        },
      };
      machineSetToCapi({
        mapi,
        infrastructure: AWS.infrastructure,
        converter,
        capiNamespace: CAPI_NAMESPACE,
        paused: true,
      });
      return seen;
    }
    const labelPath = (where: string) => `${where}/${ROLE.replace('/', '~1')}`;

    it('the role in spec.template.metadata.labels, where Machine API puts it', () => {
      const mapi = patched([
        { op: 'replace', path: labelPath('/spec/template/metadata/labels'), value: 'master' },
      ]);
      expect(mapi.metadata.labels).to.not.have.property(ROLE);
      expect(controlPlane(mapi)).to.equal(true);
    });

    it("the role in the MachineSet's own labels", () => {
      const mapi = patched([
        { op: 'remove', path: labelPath('/spec/template/metadata/labels') },
        { op: 'add', path: labelPath('/metadata/labels'), value: 'master' },
      ]);
      expect(controlPlane(mapi)).to.equal(true);
    });

    it('a worker role in both: not the control plane', () => {
      expect(controlPlane(AWS.machineSet())).to.equal(false);
    });
  });

  describe('never throws: a malformed MachineSet is a list of field errors', () => {
    const cases: [string, object[], [string, RegExp][]][] = [
      [
        'no spec.selector',
        [{ op: 'remove', path: '/spec/selector' }],
        [['spec.selector', /^is required; .*matchLabels/]],
      ],
      [
        'an empty spec.selector',
        [{ op: 'replace', path: '/spec/selector', value: {} }],
        [['spec.selector', /^selects every Machine/]],
      ],
      [
        'spec.selector of the wrong type',
        [{ op: 'replace', path: '/spec/selector', value: ['a'] }],
        [['spec.selector', /^must be an object, but is an array/]],
      ],
      [
        'spec.selector.matchLabels of the wrong type',
        [{ op: 'replace', path: '/spec/selector/matchLabels', value: 'app=x' }],
        [['spec.selector.matchLabels', /^must be an object, but is the string "app=x"/]],
      ],
      [
        'a selector label value that is not a string',
        [{ op: 'add', path: '/spec/selector/matchLabels/tier', value: 3 }],
        [['spec.selector.matchLabels[tier]', /^must be a string, but is the number 3/]],
      ],
      [
        'spec.selector.matchExpressions of the wrong type',
        [{ op: 'add', path: '/spec/selector/matchExpressions', value: { key: 'a' } }],
        [['spec.selector.matchExpressions', /^must be a list, but is an object/]],
      ],
      [
        'a match expression that is not an object',
        [{ op: 'add', path: '/spec/selector/matchExpressions', value: ['tier In (a)'] }],
        [['spec.selector.matchExpressions[0]', /^must be an object, but is the string/]],
      ],
      [
        'a match expression value that is not a string',
        [
          {
            op: 'add',
            path: '/spec/selector/matchExpressions',
            value: [{ key: 'tier', operator: 'In', values: [1] }],
          },
        ],
        [['spec.selector.matchExpressions[0].values[0]', /^must be a string, but is the number 1/]],
      ],
      [
        'spec of the wrong type',
        [{ op: 'replace', path: '/spec', value: 'spec' }],
        [['spec', /^must be an object, but is the string "spec"/]],
      ],
      [
        'spec.template of the wrong type',
        [{ op: 'replace', path: '/spec/template', value: 7 }],
        [['spec.template', /^must be an object, but is the number 7/]],
      ],
      [
        'spec.template.spec of the wrong type',
        [{ op: 'replace', path: '/spec/template/spec', value: true }],
        [['spec.template.spec', /^must be an object, but is the boolean true/]],
      ],
      [
        'template labels of the wrong type',
        [{ op: 'replace', path: '/spec/template/metadata/labels', value: [] }],
        [['spec.template.metadata.labels', /^must be an object, but is an array/]],
      ],
      [
        'node labels with a value that is not a string',
        [{ op: 'replace', path: '/spec/template/spec/metadata', value: { labels: { a: {} } } }],
        [['spec.template.spec.metadata.labels[a]', /^must be a string, but is an object/]],
      ],
      [
        'lifecycle hooks of the wrong type',
        [{ op: 'add', path: '/spec/template/spec/lifecycleHooks', value: { preDrain: {} } }],
        [['spec.template.spec.lifecycleHooks.preDrain', /^must be a list, but is an object/]],
      ],
      [
        'a lifecycle hook without an owner',
        [
          {
            op: 'add',
            path: '/spec/template/spec/lifecycleHooks',
            value: { preTerminate: [{ name: 'drain-check' }] },
          },
        ],
        [['spec.template.spec.lifecycleHooks.preTerminate[0].owner', /^is required; /]],
      ],
      [
        'taints of the wrong type',
        [{ op: 'add', path: '/spec/template/spec/taints', value: 'NoSchedule' }],
        [['spec.template.spec.taints', /^must be a list, but is the string "NoSchedule"/]],
      ],
      [
        'owner references of the wrong type',
        [{ op: 'add', path: '/metadata/ownerReferences', value: { kind: 'X' } }],
        [['metadata.ownerReferences', /^must be a list, but is an object/]],
      ],
      ['no metadata', [{ op: 'remove', path: '/metadata' }], [['metadata.name', /^is required; /]]],
      [
        'metadata.labels of the wrong type',
        [{ op: 'replace', path: '/metadata/labels', value: 'x' }],
        [['metadata.labels', /^must be an object, but is the string "x"/]],
      ],
      [
        'replicas that is not an integer',
        [{ op: 'replace', path: '/spec/replicas', value: 1.5 }],
        [['spec.replicas', /^must be an integer, but is the number 1\.5/]],
      ],
      [
        'a deletePolicy that is not a string',
        [{ op: 'add', path: '/spec/deletePolicy', value: ['Newest'] }],
        [['spec.deletePolicy', /^must be a string, but is an array/]],
      ],
    ];
    for (const [name, operations, expected] of cases) {
      it(name, () => {
        const mapi = patched(operations);
        expectFieldErrors(expectErrors(convert(mapi)), expected);
      });
    }

    it('no spec at all: the selector and the providerSpec are reported', () => {
      const mapi = patched([{ op: 'remove', path: '/spec' }]);
      const paths = expectErrors(convert(mapi)).map((e) => e.path);
      expect(paths).to.include.members(['spec.selector', 'spec.template.spec.providerSpec.value']);
    });

    it('a MachineSet that is not an object at all', () => {
      for (const value of [null, 'ms', 3, [], undefined]) {
        const paths = expectErrors(convert(value)).map((e) => e.path);
        expect(paths).to.include.members(['metadata.name', 'spec.selector']);
      }
    });

    it('property: no mutation of a valid MachineSet makes it throw', () => {
      for (const platform of PLATFORMS) {
        fc.assert(
          fc.property(fc.array(mutation(), { minLength: 1, maxLength: 4 }), (mutations) => {
            const mapi = mutate(platform.machineSet(), mutations);
            const result = convert(mapi, platform);
            if (result.ok) {
              expectSelectorMatchesTemplate(result.value);
              return;
            }
            expect(result.errors).to.have.length.above(0);
            for (const error of result.errors) {
              expect(error.path, JSON.stringify(error)).to.be.a('string').and.not.equal('');
              expect(error.message, JSON.stringify(error)).to.be.a('string').and.not.equal('');
            }
          }),
          { numRuns: 200 },
        );
      }
    });
  });

  describe('rejects what the API server or the Cluster API webhook would refuse', () => {
    const expression = (key: string, operator: string, values?: unknown[]) => ({
      op: 'add',
      path: '/spec/selector/matchExpressions',
      value: [{ key, operator, ...(values ? { values } : {}) }],
    });
    const cases: [string, object[], [string, RegExp][]][] = [
      [
        'an unknown selector operator',
        [expression(MACHINE_SET_LABEL, 'Equals', ['worker-a'])],
        [['spec.selector.matchExpressions[0].operator', /^is "Equals", .*; use In, NotIn, /]],
      ],
      [
        'In without values',
        [expression(MACHINE_SET_LABEL, 'In')],
        [['spec.selector.matchExpressions[0].values', /^is required for the In operator; /]],
      ],
      [
        'NotIn with an empty list of values',
        [expression('tier', 'NotIn', [])],
        [['spec.selector.matchExpressions[0].values', /^is required for the NotIn operator; /]],
      ],
      [
        'Exists with values',
        [expression(MACHINE_SET_LABEL, 'Exists', ['worker-a'])],
        [['spec.selector.matchExpressions[0].values', /^must be empty for the Exists operator; /]],
      ],
      [
        'DoesNotExist with values',
        [expression('tier', 'DoesNotExist', ['a'])],
        [
          [
            'spec.selector.matchExpressions[0].values',
            /^must be empty for the DoesNotExist operator; /,
          ],
        ],
      ],
      [
        'a match expression with an invalid key',
        [expression('tier/a/b', 'Exists')],
        [
          [
            'spec.selector.matchExpressions[0].key',
            /^is "tier\/a\/b", which is not a valid label key/,
          ],
        ],
      ],
      [
        'a match expression with an invalid value',
        [expression('tier', 'NotIn', ['a', 'b c'])],
        [
          [
            'spec.selector.matchExpressions[0].values[1]',
            /^is "b c", which is not a valid label value/,
          ],
        ],
      ],
      [
        'a selector label with an invalid key',
        [{ op: 'add', path: '/spec/selector/matchLabels/-tier', value: 'a' }],
        [['spec.selector.matchLabels[-tier]', /^is not a valid label key: .*alphanumeric/]],
      ],
      [
        'a selector label with an invalid value',
        [{ op: 'add', path: '/spec/selector/matchLabels/tier', value: 'a'.repeat(64) }],
        [
          [
            'spec.selector.matchLabels[tier]',
            /^is "a{64}", which is not a valid label value: .*63/,
          ],
        ],
      ],
      [
        'a selector label key with an empty prefix',
        [{ op: 'add', path: '/spec/selector/matchLabels/~1tier', value: 'a' }],
        [['spec.selector.matchLabels[/tier]', /^is not a valid label key: its prefix is empty/]],
      ],
      [
        'a selector label key with an invalid prefix',
        [{ op: 'add', path: '/spec/selector/matchLabels/Example.com~1tier', value: 'a' }],
        [['spec.selector.matchLabels[Example.com/tier]', /^is not a valid label key: its prefix/]],
      ],
      [
        'template labels the selector does not match',
        [{ op: 'add', path: '/spec/selector/matchLabels/tier', value: 'gold' }],
        [
          [
            'spec.selector.matchLabels[tier]',
            /^requires the label tier: "gold", but the Cluster API machine template has no such label; make/,
          ],
        ],
      ],
      [
        'a match expression on a label the conversion replaces',
        [expression(ROLE, 'In', ['worker'])],
        [
          [
            'spec.selector.matchExpressions[0]',
            /^requires the label .*machine-role to be one of "worker", but .* no such label, because the conversion turns it into node-role\.kubernetes\.io\/<role>; select/,
          ],
        ],
      ],
      [
        'a match expression that node labels contradict',
        [
          expression('tier', 'DoesNotExist'),
          { op: 'replace', path: '/spec/template/spec/metadata', value: { labels: { tier: 'a' } } },
        ],
        [['spec.selector.matchExpressions[0]', /^requires that the label tier is absent/]],
      ],
      [
        'a template label with an invalid key',
        [{ op: 'add', path: '/spec/template/metadata/labels/a~1b~1c', value: 'x' }],
        [['spec.template.metadata.labels[a/b/c]', /^is not a valid label key: /]],
      ],
      [
        'a template label with an invalid value',
        [{ op: 'add', path: '/spec/template/metadata/labels/tier', value: 'gold!' }],
        [['spec.template.metadata.labels[tier]', /^is "gold!", which is not a valid label value/]],
      ],
      [
        'a role label whose value cannot become a node-role label',
        [
          {
            op: 'replace',
            path: `/spec/template/metadata/labels/${ROLE.replace('/', '~1')}`,
            value: 'big worker',
          },
        ],
        [
          [
            `spec.template.metadata.labels[${ROLE}]`,
            /^becomes the label node-role\.kubernetes\.io\/big worker, which is not a valid label key/,
          ],
        ],
      ],
      [
        'a node label with an invalid key',
        [
          {
            op: 'replace',
            path: '/spec/template/spec/metadata',
            value: { labels: { 'node.example.com/': 'x' } },
          },
        ],
        [
          [
            'spec.template.spec.metadata.labels[node.example.com/]',
            /^is not a valid label key: its name part is empty/,
          ],
        ],
      ],
      [
        'a MachineSet label with an invalid value',
        [{ op: 'add', path: '/metadata/labels/tier', value: '-a' }],
        [['metadata.labels[tier]', /^is "-a", which is not a valid label value/]],
      ],
      [
        'a template annotation with an invalid key',
        [{ op: 'add', path: '/spec/template/metadata/annotations', value: { 'a b': 'x' } }],
        [['spec.template.metadata.annotations[a b]', /^is not a valid annotation key: /]],
      ],
      [
        'a node annotation with an invalid key',
        [
          {
            op: 'replace',
            path: '/spec/template/spec/metadata',
            value: { annotations: { [`${'x'.repeat(64)}`]: 'x' } },
          },
        ],
        [
          [
            'spec.template.spec.metadata.annotations[' + 'x'.repeat(64) + ']',
            /^is not a valid annotation key: .*63/,
          ],
        ],
      ],
      [
        'template annotations over 256 KiB',
        [
          {
            op: 'add',
            path: '/spec/template/metadata/annotations',
            value: { a: 'x'.repeat(200 * 1024), b: 'y'.repeat(60 * 1024) },
          },
        ],
        [['spec.template.metadata.annotations', /^add up to 266242 bytes .*262144/]],
      ],
      [
        'MachineSet annotations that the paused annotation pushes over 256 KiB',
        [{ op: 'add', path: '/metadata/annotations', value: { a: 'x'.repeat(256 * 1024 - 1) } }],
        [['metadata.annotations', /^add up to \d+ bytes .*262144/]],
      ],
      [
        'a lifecycle hook whose name cannot be an annotation key',
        [
          {
            op: 'add',
            path: '/spec/template/spec/lifecycleHooks',
            value: { preDrain: [{ name: 'example.com/drain', owner: 'me' }] },
          },
        ],
        [
          [
            'spec.template.spec.lifecycleHooks.preDrain[0].name',
            /^becomes the annotation pre-drain\.delete\.hook\.machine\.cluster\.x-k8s\.io\/example\.com\/drain, which is not a valid annotation key/,
          ],
        ],
      ],
      [
        'an unsupported skip-preflight-checks annotation',
        [
          {
            op: 'add',
            path: '/metadata/annotations',
            value: { 'machineset.cluster.x-k8s.io/skip-preflight-checks': 'All,Everything' },
          },
        ],
        [
          [
            'metadata.annotations[machineset.cluster.x-k8s.io/skip-preflight-checks]',
            /^lists "Everything", which is not a Cluster API preflight check; use .*KubernetesVersionSkew/,
          ],
        ],
      ],
      [
        'negative replicas',
        [{ op: 'replace', path: '/spec/replicas', value: -1 }],
        [['spec.replicas', /^is -1, but must be 0 or more; /]],
      ],
      [
        'replicas beyond int32',
        [{ op: 'replace', path: '/spec/replicas', value: 2 ** 31 }],
        [['spec.replicas', /^is 2147483648, but must be at most 2147483647; /]],
      ],
      [
        'negative minReadySeconds',
        [{ op: 'add', path: '/spec/minReadySeconds', value: -30 }],
        [['spec.minReadySeconds', /^is -30, but must be 0 or more; /]],
      ],
      [
        'a delete policy named like an object property',
        [{ op: 'add', path: '/spec/deletePolicy', value: 'toString' }],
        [['spec.deletePolicy', /^is "toString", which is not a delete policy; use Random/]],
      ],
      [
        'a cluster-name label of another cluster',
        [
          {
            op: 'add',
            path: '/spec/template/metadata/labels/cluster.x-k8s.io~1cluster-name',
            value: 'other',
          },
        ],
        [
          [
            'spec.template.metadata.labels[cluster.x-k8s.io/cluster-name]',
            /^is "other", but this cluster's Cluster API cluster is "demo-abc12"; /,
          ],
        ],
      ],
      [
        'a user data secret name longer than a Secret name can be',
        [
          {
            op: 'replace',
            path: '/spec/template/spec/providerSpec/value/userDataSecret/name',
            value: 'a'.repeat(254),
          },
        ],
        [
          [
            'spec.template.spec.providerSpec.value.userDataSecret.name',
            /^is 254 characters long, but Cluster API .* at most 253/,
          ],
        ],
      ],
    ];
    for (const [name, operations, expected] of cases) {
      it(name, () => {
        expectFieldErrors(expectErrors(convert(patched(operations))), expected);
      });
    }

    it('accepts label keys that are names of object properties', () => {
      const mapi = patched([
        { op: 'add', path: '/spec/template/metadata/labels/constructor', value: 'a' },
        { op: 'add', path: '/spec/template/metadata/annotations', value: { toString: 'b' } },
        { op: 'add', path: '/metadata/annotations', value: { constructor: 'c' } },
      ]);
      const { machineSet } = expectOk(convert(mapi)).value;
      expect(machineSet.spec.template.metadata?.labels).to.have.property('constructor', 'a');
      expect(machineSet.spec.template.metadata?.annotations).to.deep.equal({ toString: 'b' });
      expect(machineSet.metadata.annotations).to.include({ constructor: 'c' });
    });

    it('accepts every valid selector operator the template satisfies', () => {
      const mapi = patched([
        {
          op: 'add',
          path: '/spec/selector/matchExpressions',
          value: [
            { key: MACHINE_SET_LABEL, operator: 'In', values: ['worker-a', 'worker-b'] },
            { key: 'tier', operator: 'NotIn', values: ['gold'] },
            { key: MACHINE_SET_LABEL, operator: 'Exists' },
            { key: 'tier', operator: 'DoesNotExist', values: [] },
          ],
        },
      ]);
      const { machineSet } = expectOk(convert(mapi)).value;
      expect(machineSet.spec.selector.matchExpressions).to.deep.equal([
        { key: MACHINE_SET_LABEL, operator: 'In', values: ['worker-a', 'worker-b'] },
        { key: 'tier', operator: 'NotIn', values: ['gold'] },
        { key: MACHINE_SET_LABEL, operator: 'Exists' },
        { key: 'tier', operator: 'DoesNotExist' },
      ]);
    });

    it('accepts zero replicas and zero minReadySeconds', () => {
      const mapi = patched([
        { op: 'replace', path: '/spec/replicas', value: 0 },
        { op: 'add', path: '/spec/minReadySeconds', value: 0 },
      ]);
      const { machineSet } = expectOk(convert(mapi)).value;
      expect(machineSet.spec.replicas).to.equal(0);
      expect(machineSet.spec.template.spec).to.not.have.property('minReadySeconds');
    });
  });

  describe('warns about what it drops', () => {
    for (const field of ['name', 'generateName', 'namespace'] as const) {
      it(`spec.template.spec.metadata.${field}`, () => {
        const mapi = patched([
          { op: 'replace', path: '/spec/template/spec/metadata', value: { [field]: 'node-a' } },
        ]);
        const { warnings } = expectOk(convert(mapi));
        expect(warnings).to.have.length(1);
        expect(warnings[0]).to.match(
          new RegExp(
            `^spec\\.template\\.spec\\.metadata\\.${field} is not used by .*, so it is not converted\\.$`,
          ),
        );
      });

      it(`spec.template.metadata.${field}`, () => {
        const mapi = patched([
          { op: 'add', path: `/spec/template/metadata/${field}`, value: 'machine-a' },
        ]);
        const { warnings } = expectOk(convert(mapi));
        expect(warnings).to.have.length(1);
        expect(warnings[0]).to.match(new RegExp(`^spec\\.template\\.metadata\\.${field} `));
      });
    }

    it('owner references in the machine and node metadata', () => {
      const owner = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'u' }];
      const mapi = patched([
        { op: 'replace', path: '/spec/template/spec/metadata', value: { ownerReferences: owner } },
        { op: 'add', path: '/spec/template/metadata/ownerReferences', value: owner },
      ]);
      const { warnings } = expectOk(convert(mapi));
      expect(warnings).to.have.length(2);
      expect(warnings.join('\n')).to.contain('spec.template.spec.metadata.ownerReferences');
      expect(warnings.join('\n')).to.contain('spec.template.metadata.ownerReferences');
    });

    it('nothing for empty values', () => {
      const mapi = patched([
        {
          op: 'replace',
          path: '/spec/template/spec/metadata',
          value: { name: '', generateName: '', namespace: '', ownerReferences: [] },
        },
      ]);
      expect(expectOk(convert(mapi)).warnings).to.deep.equal([]);
    });
  });

  describe('quotes user values in bounded messages', () => {
    const HUGE = 'Huge value! '.repeat(90_000); // > 1 MB
    const LIMIT = 1024;

    function expectBounded(result: Conversion<Mirror>): number {
      const texts = result.ok
        ? result.warnings
        : result.errors.map((e) => `${e.path}: ${e.message}`);
      for (const text of texts) expect(text.length, text.slice(0, 300)).to.be.below(LIMIT);
      return result.ok ? 0 : result.errors.length;
    }

    // The providerSpec itself is covered per platform in bounded-messages.test.ts.
    const outsideProviderSpec = (keys: (string | number)[]) =>
      !jsonPointer(keys).startsWith('/spec/template/spec/providerSpec/');

    it('a huge string in any MachineSet field, or as any key', () => {
      const original = AWS.machineSet();
      let rejected = 0;
      for (const [keys, value] of scalarLeaves(original).filter(([k]) => outsideProviderSpec(k))) {
        if (typeof value !== 'string') continue;
        const mapi = applyPatch(original, [
          { op: 'replace', path: jsonPointer(keys), value: HUGE },
        ]);
        if (expectBounded(convert(mapi)) > 0) rejected++;
      }
      for (const keys of objectPaths(original).filter(outsideProviderSpec)) {
        const mapi = applyPatch(original, [
          { op: 'add', path: jsonPointer([...keys, HUGE]), value: HUGE },
        ]);
        if (expectBounded(convert(mapi)) > 0) rejected++;
      }
      expect(rejected).to.be.above(10);
    });

    it('a huge providerSpec kind, delete policy and selector', () => {
      for (const operations of [
        [{ op: 'replace', path: '/spec/template/spec/providerSpec/value/kind', value: HUGE }],
        [{ op: 'add', path: '/spec/deletePolicy', value: HUGE }],
        [
          {
            op: 'add',
            path: '/spec/selector/matchExpressions',
            value: [{ key: 'a', operator: HUGE }],
          },
        ],
        [
          {
            op: 'add',
            path: '/spec/selector/matchExpressions',
            value: [{ key: HUGE, operator: 'In', values: Array(5000).fill(HUGE.slice(0, 60)) }],
          },
        ],
        [{ op: 'add', path: '/metadata/ownerReferences', value: [{ kind: HUGE, name: HUGE }] }],
      ]) {
        expect(expectBounded(convert(patched(operations)))).to.be.above(0);
      }
    });
  });
});

interface Mutation {
  pick: number;
  op: 'remove' | 'replace';
  value: unknown;
}

function mutation(): fc.Arbitrary<Mutation> {
  return fc.record({
    pick: fc.nat(),
    op: fc.constantFrom('remove' as const, 'replace' as const),
    value: fc.jsonValue({ maxDepth: 3 }),
  });
}

function mutate(document: MapiMachineSet, mutations: Mutation[]): unknown {
  let current: unknown = document;
  for (const { pick, op, value } of mutations) {
    const paths = allPaths(current);
    if (paths.length === 0) break;
    const keys = paths[pick % paths.length]!;
    // Through JSON, as the API server would serve it: a removed array item becomes null.
    current = JSON.parse(
      JSON.stringify(applyPatch(current, [{ op, path: jsonPointer(keys), value }])),
    );
  }
  return current;
}

/** What the Cluster API webhook checks: the selector selects the template's labels. */
function expectSelectorMatchesTemplate({ machineSet }: Mirror): void {
  const labels = machineSet.spec.template.metadata?.labels ?? {};
  const { matchLabels = {}, matchExpressions = [] } = machineSet.spec.selector;
  for (const [key, value] of Object.entries(matchLabels)) {
    expect(Object.hasOwn(labels, key) && labels[key] === value, key).to.equal(true);
  }
  for (const { key, operator, values = [] } of matchExpressions) {
    const has = Object.hasOwn(labels, key);
    const matches =
      operator === 'In'
        ? has && values.includes(labels[key]!)
        : operator === 'NotIn'
          ? !has || !values.includes(labels[key]!)
          : operator === 'Exists'
            ? has
            : operator === 'DoesNotExist' && !has;
    expect(matches, `${key} ${operator} ${values.join(',')}`).to.equal(true);
  }
}
