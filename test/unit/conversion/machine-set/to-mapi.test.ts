// CAPI → MAPI at the MachineSet level: every mapping, every kept field and every error.
import { expect } from 'chai';
import { applyPatch, expectOk } from '../../../support/conversion.js';
import {
  at,
  fakeConverter,
  mapiMachineSet,
  pointer,
  reverse,
  reversedSpec,
  toCapi,
  toMapi,
} from './reverse-support.js';

const NODE_ROLE = 'node-role.kubernetes.io/';
const ROLE = 'machine.openshift.io/cluster-api-machine-role';
const TYPE = 'machine.openshift.io/cluster-api-machine-type';
const TEMPLATE_LABELS = '/spec/template/metadata/labels';
const TEMPLATE_ANNOTATIONS = '/spec/template/metadata/annotations';
const MACHINE_SPEC = '/spec/template/spec';

describe('machineSetToMapi', () => {
  it('gives back the MachineSet it mirrors, its machines now created by Cluster API', () => {
    const mapi = mapiMachineSet();
    const { value, warnings } = expectOk(reverse([]));
    const expected = structuredClone(mapi.spec);
    expected.template!.spec!.authoritativeAPI = 'ClusterAPI';
    expect(value.spec).to.deep.equal(expected);
    expect(warnings).to.deep.equal(['the fake converter warns']);
  });

  it('does not change the MAPI MachineSet it is given', () => {
    const mapi = mapiMachineSet();
    const before = structuredClone(mapi);
    const { machineSet } = toCapi(mapi);
    expectOk(
      toMapi({
        capi: applyPatch(machineSet, [{ op: 'replace', path: '/spec/replicas', value: 9 }]),
        mapi,
      }),
    );
    expect(mapi).to.deep.equal(before);
  });

  describe('maps the MachineSet fields', () => {
    it('replicas, and 1 when Cluster API has none', () => {
      expect(reversedSpec([{ op: 'replace', path: '/spec/replicas', value: 7 }]).replicas).to.equal(
        7,
      );
      expect(reversedSpec([{ op: 'remove', path: '/spec/replicas' }]).replicas).to.equal(1);
    });

    const deletion: [string, object[], object[], string | undefined][] = [
      ['Newest', [{ op: 'replace', path: '/spec/deletion/order', value: 'Newest' }], [], 'Newest'],
      ['Oldest', [{ op: 'replace', path: '/spec/deletion/order', value: 'Oldest' }], [], 'Oldest'],
      ['Random, left out as MAPI does by default', [], [], undefined],
      ['no order: Random', [{ op: 'remove', path: '/spec/deletion' }], [], undefined],
      [
        'Random over another policy',
        [],
        [{ op: 'add', path: '/spec/deletePolicy', value: 'Oldest' }],
        'Random',
      ],
      [
        'Random kept when MAPI says so',
        [],
        [{ op: 'add', path: '/spec/deletePolicy', value: 'Random' }],
        'Random',
      ],
    ];
    for (const [name, capiPatch, mapiPatch, expected] of deletion) {
      it(`deletePolicy from spec.deletion.order: ${name}`, () => {
        expect(reversedSpec(capiPatch, mapiPatch).deletePolicy).to.equal(expected);
      });
    }

    it('minReadySeconds from spec.template.spec.minReadySeconds; 0 and absent alike', () => {
      const set = [{ op: 'add', path: `${MACHINE_SPEC}/minReadySeconds`, value: 30 }];
      expect(reversedSpec(set).minReadySeconds).to.equal(30);
      expect(reversedSpec([])).to.not.have.property('minReadySeconds');
      const zero = [{ op: 'add', path: '/spec/minReadySeconds', value: 0 }];
      expect(reversedSpec([], zero).minReadySeconds).to.equal(0);
      const twenty = [{ op: 'add', path: '/spec/minReadySeconds', value: 20 }];
      expect(reversedSpec([], twenty).minReadySeconds).to.equal(0);
    });

    it('the providerSpec from the platform converter, with the MachineSet fields it needs', () => {
      const { converter, contexts } = fakeConverter();
      const mapi = mapiMachineSet();
      const { machineSet, template } = toCapi(mapi, converter);
      const capi = applyPatch(machineSet, [
        { op: 'replace', path: `${MACHINE_SPEC}/failureDomain`, value: 'us-east-1c' },
        { op: 'replace', path: `${MACHINE_SPEC}/bootstrap/dataSecretName`, value: 'other-data' },
      ]);
      const spec = expectOk(toMapi({ capi, mapi, template, converter })).value.spec;
      expect(at(spec, 'template.spec.providerSpec.value')).to.deep.equal({
        apiVersion: 'machine.openshift.io/v1beta1',
        kind: 'AWSMachineProviderConfig',
        instanceType: 'm6i.xlarge',
        placement: { availabilityZone: 'us-east-1c' },
        userDataSecret: { name: 'other-data' },
      });
      expect(contexts).to.have.length(1);
      expect(contexts[0]).to.deep.include({
        path: `AWSMachineTemplate ${template.metadata.name} spec.template.spec`,
        failureDomain: 'us-east-1c',
        userDataSecretName: 'other-data',
        current: mapi.spec.template?.spec?.providerSpec?.value,
        controlPlane: false,
      });
    });

    it('tells the converter about control-plane machines', () => {
      const { converter, contexts } = fakeConverter();
      const mapi = mapiMachineSet();
      const { machineSet, template } = toCapi(mapi, converter);
      const capi = applyPatch(machineSet, [
        { op: 'remove', path: `${TEMPLATE_LABELS}/${pointer(`${NODE_ROLE}worker`)}` },
        { op: 'add', path: `${TEMPLATE_LABELS}/${pointer(`${NODE_ROLE}master`)}`, value: '' },
      ]);
      const spec = expectOk(toMapi({ capi, mapi, template, converter })).value.spec;
      expect(at(spec, 'template.metadata.labels')).to.include({
        [ROLE]: 'master',
        [TYPE]: 'master',
      });
      expect(contexts[0]?.controlPlane).to.equal(true);
    });
  });

  describe('keeps what Cluster API cannot express', () => {
    it('the selector, spec.authoritativeAPI and MAPI-only fields; machines get ClusterAPI', () => {
      const mapiPatch = [
        { op: 'add', path: '/spec/template/metadata/namespace', value: 'x' },
        { op: 'add', path: `${MACHINE_SPEC}/metadata/generateName`, value: 'node-' },
        { op: 'add', path: `${MACHINE_SPEC}/authoritativeAPI`, value: 'MachineAPI' },
      ];
      const capiPatch = [
        { op: 'add', path: '/spec/selector/matchLabels/extra', value: 'x' },
        { op: 'add', path: `${TEMPLATE_LABELS}/extra`, value: 'x' },
      ];
      const spec = reversedSpec(capiPatch, mapiPatch);
      expect(spec.selector).to.deep.equal(mapiMachineSet().spec.selector);
      expect(spec.authoritativeAPI).to.equal('ClusterAPI');
      expect(at(spec, 'template.metadata.namespace')).to.equal('x');
      expect(at(spec, 'template.spec.metadata.generateName')).to.equal('node-');
      expect(at(spec, 'template.spec.authoritativeAPI')).to.equal('ClusterAPI');
    });

    it('labels and annotations the conversion to Cluster API drops', () => {
      const mapiPatch = [
        {
          op: 'add',
          path: `${TEMPLATE_LABELS}/${pointer('machine.openshift.io/zone')}`,
          value: 'a',
        },
        {
          op: 'add',
          path: TEMPLATE_ANNOTATIONS,
          value: { 'machine.openshift.io/instance-state': 'running' },
        },
      ];
      const spec = reversedSpec([], mapiPatch);
      expect(at(spec, 'template.metadata.labels')).to.include({ 'machine.openshift.io/zone': 'a' });
      expect(at(spec, 'template.metadata.annotations')).to.deep.equal({
        'machine.openshift.io/instance-state': 'running',
      });
    });
  });
  describe('taints', () => {
    const taints = (value: unknown[]) => ({ op: 'add', path: `${MACHINE_SPEC}/taints`, value });

    it('each Always taint, keeping the time MAPI has for the same key and effect', () => {
      const spec = reversedSpec(
        [
          taints([
            { key: 'a', value: 'x', effect: 'NoExecute', propagation: 'Always' },
            { key: 'b', effect: 'NoSchedule', propagation: 'Always' },
          ]),
        ],
        [taints([{ key: 'a', effect: 'NoExecute', timeAdded: '2024-01-01T00:00:00Z' }])],
      );
      expect(at(spec, 'template.spec.taints')).to.deep.equal([
        { key: 'a', value: 'x', effect: 'NoExecute', timeAdded: '2024-01-01T00:00:00Z' },
        { key: 'b', effect: 'NoSchedule' },
      ]);
    });

    it('none left: the MAPI taints go', () => {
      const spec = reversedSpec([], [taints([{ key: 'a', effect: 'NoSchedule' }])]);
      expect(spec.template).to.not.have.nested.property('spec.taints');
    });
  });

  describe('warns about what Machine API machines do the same without', () => {
    const cases: [string, object[], RegExp][] = [
      [
        'a Kubernetes version',
        [{ op: 'add', path: `${MACHINE_SPEC}/version`, value: 'v1.31.0' }],
        /^spec\.template\.spec\.version "v1\.31\.0" is not converted: /,
      ],
      [
        'a machine naming template',
        [{ op: 'add', path: '/spec/machineNaming', value: { template: '{{ .random }}' } }],
        /^spec\.machineNaming\.template "\{\{ \.random \}\}" is not converted: /,
      ],
    ];
    for (const [name, capiPatch, pattern] of cases) {
      it(name, () => {
        const { warnings } = expectOk(reverse(capiPatch));
        expect(warnings.filter((w) => pattern.test(w))).to.have.length(1);
        expect(warnings).to.have.length(2); // and the converter's own
      });
    }

    it("nothing for Cluster API's default naming, drain and deletion timeouts", () => {
      const { warnings } = expectOk(
        reverse([
          {
            op: 'add',
            path: '/spec/machineNaming',
            value: { template: '{{ .machineSet.name }}-{{ .random }}' },
          },
          {
            op: 'add',
            path: `${MACHINE_SPEC}/deletion`,
            value: {
              nodeDrainTimeoutSeconds: 0,
              nodeVolumeDetachTimeoutSeconds: 0,
              nodeDeletionTimeoutSeconds: 10,
            },
          },
          { op: 'add', path: `${MACHINE_SPEC}/readinessGates`, value: [] },
        ]),
      );
      expect(warnings).to.deep.equal(['the fake converter warns']);
    });
  });
});
