// MAPI taints become Cluster API v1.13 MachineTaints with propagation Always.
import { expect } from 'chai';
import { machineSetToCapi } from '../../../../src/conversion/machine-set/to-capi.js';
import type { CapiMachineSpec } from '../../../../src/conversion/common/machine-spec.js';
import {
  applyPatch,
  expectErrors,
  expectFieldErrors,
  expectOk,
  platformMachineSets,
} from '../../../support/conversion.js';

const AWS = platformMachineSets()[0]!;
/** What every conversion with taints says: Cluster API takes them only with an alpha gate. */
const FEATURE_GATE =
  /^spec\.template\.spec\.taints become Cluster API machine taints, which Cluster API accepts only with its alpha MachineTaintPropagation feature gate enabled: without it, its webhook refuses the MachineSet\. Enable the gate on the Cluster API controllers, or remove the taints\.$/;

function convertWithTaints(taints: unknown) {
  const mapi = applyPatch(AWS.machineSet(), [
    { op: 'add', path: '/spec/template/spec/taints', value: taints },
  ]);
  return machineSetToCapi({
    mapi,
    infrastructure: AWS.infrastructure,
    converter: AWS.converter,
    capiNamespace: 'openshift-cluster-api',
    paused: true,
  });
}

function machineSpecOf(taints: unknown): { spec: CapiMachineSpec; warnings: string[] } {
  const { value, warnings } = expectOk(convertWithTaints(taints));
  return { spec: value.machineSet.spec.template.spec, warnings };
}

describe('machineSetToCapi: taints', () => {
  it('maps every taint, with propagation Always as nodelink re-applies missing taints', () => {
    const { spec, warnings } = machineSpecOf([
      { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
      { key: 'example.com/drain', effect: 'NoExecute' },
      { key: 'spot', value: '', effect: 'PreferNoSchedule' },
    ]);
    expect(spec.taints).to.deep.equal([
      { key: 'dedicated', value: 'gpu', effect: 'NoSchedule', propagation: 'Always' },
      { key: 'example.com/drain', effect: 'NoExecute', propagation: 'Always' },
      { key: 'spot', effect: 'PreferNoSchedule', propagation: 'Always' },
    ]);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(FEATURE_GATE);
  });

  it('writes no taints field for an empty list (Cluster API requires at least one item)', () => {
    const { spec, warnings } = machineSpecOf([]);
    expect(spec).to.not.have.property('taints');
    expect(warnings).to.deep.equal([]);
  });

  it('drops timeAdded with a warning', () => {
    const { spec, warnings } = machineSpecOf([
      { key: 'a', effect: 'NoExecute', timeAdded: '2024-01-01T00:00:00Z' },
    ]);
    expect(spec.taints).to.deep.equal([{ key: 'a', effect: 'NoExecute', propagation: 'Always' }]);
    expect(warnings).to.have.length(2);
    expect(warnings[0]).to.match(/^spec\.template\.spec\.taints\[0\]\.timeAdded is not converted/);
    expect(warnings[1]).to.match(FEATURE_GATE);
  });

  const invalid: [string, unknown, [string, RegExp][]][] = [
    [
      'a taint that is not an object',
      ['NoSchedule'],
      [['spec.template.spec.taints[0]', /^must be an object, but is the string/]],
    ],
    [
      'a taint without key',
      [{ effect: 'NoSchedule' }],
      [['spec.template.spec.taints[0].key', /^is required; /]],
    ],
    [
      'a taint without effect',
      [{ key: 'a' }],
      [['spec.template.spec.taints[0].effect', /^is required; use one of NoSchedule, /]],
    ],
    [
      'an unknown effect',
      [{ key: 'a', effect: 'NoWay' }],
      [['spec.template.spec.taints[0].effect', /^is "NoWay", which is not a taint effect; /]],
    ],
    [
      'an invalid key',
      [{ key: 'a b', effect: 'NoSchedule' }],
      [['spec.template.spec.taints[0].key', /^is "a b", which is not a valid taint key: /]],
    ],
    [
      'an invalid value',
      [{ key: 'a', value: 'x'.repeat(64), effect: 'NoSchedule' }],
      [['spec.template.spec.taints[0].value', /^is "x{64}", which is not a valid taint value: /]],
    ],
    [
      'two taints with the same key and effect',
      [
        { key: 'a', value: '1', effect: 'NoSchedule' },
        { key: 'a', value: '2', effect: 'NoSchedule' },
      ],
      [
        [
          'spec.template.spec.taints[1]',
          /^repeats the taint "a" with effect NoSchedule of .*\[0\]; /,
        ],
      ],
    ],
    [
      'an unknown field',
      [{ key: 'a', effect: 'NoSchedule', tolerate: true }],
      [['spec.template.spec.taints[0].tolerate', /^is not a field this controller knows /]],
    ],
    [
      'more taints than Cluster API accepts',
      Array.from({ length: 65 }, (_, i) => ({ key: `k${i}`, effect: 'NoSchedule' })),
      [['spec.template.spec.taints', /^has 65 taints, but Cluster API accepts at most 64 /]],
    ],
  ];
  for (const [name, taints, expected] of invalid) {
    it(`rejects ${name}`, () => {
      expectFieldErrors(expectErrors(convertWithTaints(taints)), expected);
    });
  }

  it('accepts the same key with different effects', () => {
    const { spec } = machineSpecOf([
      { key: 'a', effect: 'NoSchedule' },
      { key: 'a', effect: 'NoExecute' },
    ]);
    expect(spec.taints).to.have.length(2);
  });
});
