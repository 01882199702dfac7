// Round trips at the MachineSet level with the AWS converter: MAPI → CAPI → MAPI gives back the
// MAPI spec (its machines now Cluster API's), CAPI → MAPI → CAPI gives back the CAPI spec.
import { expect } from 'chai';
import fc from 'fast-check';
import type { CapiMachineSet, MapiMachineSet } from '../../../../src/api/types.js';
import { machineSetToCapi } from '../../../../src/conversion/machine-set/to-capi.js';
import { machineSetToMapi } from '../../../../src/conversion/machine-set/to-mapi.js';
import { SCALE_FROM_ZERO_SPELLINGS } from '../../../../src/conversion/common/scale-from-zero.js';
import { expectOk, platformMachineSets } from '../../../support/conversion.js';

const AWS = platformMachineSets()[0]!;
const ROLE = 'machine.openshift.io/cluster-api-machine-role';
const TYPE = 'machine.openshift.io/cluster-api-machine-type';
const HOOKS = {
  preDrain: 'pre-drain.delete.hook.machine.cluster.x-k8s.io/',
  preTerminate: 'pre-terminate.delete.hook.machine.cluster.x-k8s.io/',
};

function toCapi(mapi: MapiMachineSet) {
  return machineSetToCapi({
    mapi,
    infrastructure: AWS.infrastructure,
    converter: AWS.converter,
    capiNamespace: 'openshift-cluster-api',
    paused: false,
  });
}

function toMapi(capi: CapiMachineSet, template: unknown, mapi: MapiMachineSet) {
  return machineSetToMapi({
    capi,
    template: template as never,
    mapi,
    infrastructure: AWS.infrastructure,
    converter: AWS.converter,
  });
}

const name = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const labelValue = fc.stringMatching(/^([a-z0-9]([-a-z0-9.]{0,6}[a-z0-9])?)?$/);
const nonEmptyValue = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,6}[a-z0-9])?$/);
const plainKey = fc
  .tuple(fc.constantFrom('', 'example.com/', 'team.io/'), name)
  .map(([p, n]) => p + n);
const prefixed = (prefix: string) => name.map((n) => prefix + n);
const hookName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{2,12}$/);
const hooks = fc.uniqueArray(
  fc.record({ name: hookName, owner: fc.string({ minLength: 3, maxLength: 12 }) }),
  { selector: (h) => h.name, maxLength: 3 },
);
const effect = fc.constantFrom('NoSchedule', 'PreferNoSchedule', 'NoExecute');
const dict = <T extends string>(key: fc.Arbitrary<string>, value: fc.Arbitrary<T>) =>
  fc.dictionary(key, value, { maxKeys: 4, noNullPrototype: true });

/** Labels MAPI users put on machines: plain ones, role and type, and what CAPI drops. */
const mapiMachineLabel = fc.oneof(
  plainKey,
  fc.constantFrom(ROLE, TYPE, 'machine.openshift.io/zone', 'node-role.kubernetes.io/infra'),
  prefixed('node.cluster.x-k8s.io/'),
);
const mapiNodeLabel = fc.oneof(
  plainKey,
  prefixed('node-role.kubernetes.io/'),
  prefixed('node-restriction.kubernetes.io/'),
);
const mapiAnnotationKey = fc.oneof(
  plainKey,
  fc.constantFrom('machine.openshift.io/delete-machine', 'machine.openshift.io/instance-state'),
);
const AUTOSCALER_SIZES = [
  'cluster-api-autoscaler-node-group-min-size',
  'cluster-api-autoscaler-node-group-max-size',
];
/** Annotations of a MachineSet itself: the autoscaler's among them, and this controller's. */
const mapiMachineSetAnnotationKey = fc.oneof(
  mapiAnnotationKey,
  fc.constantFrom(
    ...AUTOSCALER_SIZES.map((size) => `machine.openshift.io/${size}`),
    'capacity.cluster-autoscaler.kubernetes.io/labels',
    'sync.machine.openshift.io/cluster-api-uid',
  ),
);
/** Scale-from-zero annotations in either spelling, with values that convert and some that do not. */
const scaleFromZero = dict(
  fc.constantFrom(
    ...SCALE_FROM_ZERO_SPELLINGS.flatMap((spelling) => [spelling.mapi, spelling.capi]),
  ),
  fc.oneof(fc.nat(1_000_000).map(String), fc.constantFrom('16Gi', '1.5G', '500m', 'x', '')),
);

const mapiSpec = fc.record({
  labels: dict(mapiMachineLabel, labelValue),
  annotations: dict(mapiMachineSetAnnotationKey, fc.string({ maxLength: 8 })),
  scaleFromZero,
  templateLabels: dict(mapiMachineLabel, labelValue),
  nodeLabels: dict(mapiNodeLabel, labelValue),
  templateAnnotations: dict(mapiAnnotationKey, fc.string({ maxLength: 8 })),
  nodeAnnotations: dict(plainKey, fc.string({ maxLength: 8 })),
  preDrain: hooks,
  preTerminate: hooks,
  replicas: fc.nat(500),
  deletePolicy: fc.option(fc.constantFrom('Random', 'Newest', 'Oldest'), { nil: undefined }),
  minReadySeconds: fc.option(fc.nat(600), { nil: undefined }),
  taints: fc.uniqueArray(
    fc.record(
      {
        key: plainKey,
        value: nonEmptyValue,
        effect,
        timeAdded: fc.constant('2024-05-01T10:00:00Z'),
      },
      { requiredKeys: ['key', 'effect'] },
    ),
    { selector: (t) => `${t.key}:${t.effect}`, maxLength: 3 },
  ),
});

describe('MachineSet round trips (AWS)', () => {
  it('property: MAPI → CAPI → MAPI gives back the MAPI spec, labels and annotations', () => {
    let converted = 0;
    fc.assert(
      fc.property(mapiSpec, (generated) => {
        const mapi = AWS.machineSet();
        Object.assign((mapi.metadata.labels ??= {}), generated.labels);
        const annotations = { ...generated.annotations, ...generated.scaleFromZero };
        if (Object.keys(annotations).length > 0) mapi.metadata.annotations = annotations;
        const spec = mapi.spec;
        const template = spec.template!;
        Object.assign(template.metadata!.labels!, generated.templateLabels);
        if (Object.keys(generated.templateAnnotations).length > 0) {
          template.metadata!.annotations = generated.templateAnnotations;
        }
        template.spec!.metadata = {
          ...(Object.keys(generated.nodeLabels).length > 0 ? { labels: generated.nodeLabels } : {}),
          ...(Object.keys(generated.nodeAnnotations).length > 0
            ? { annotations: generated.nodeAnnotations }
            : {}),
        };
        const lifecycleHooks = {
          ...(generated.preDrain.length > 0 ? { preDrain: generated.preDrain } : {}),
          ...(generated.preTerminate.length > 0 ? { preTerminate: generated.preTerminate } : {}),
        };
        if (Object.keys(lifecycleHooks).length > 0) template.spec!.lifecycleHooks = lifecycleHooks;
        if (generated.taints.length > 0) template.spec!.taints = generated.taints;
        spec.replicas = generated.replicas;
        if (generated.deletePolicy) spec.deletePolicy = generated.deletePolicy;
        if (generated.minReadySeconds !== undefined) {
          spec.minReadySeconds = generated.minReadySeconds;
        }

        const capi = toCapi(mapi);
        // Generated labels may collide (a node label and a converted role label); that is the
        // forward conversion's error to report, tested on its own.
        fc.pre(capi.ok);
        if (!capi.ok) return;
        converted++;
        const back = expectOk(toMapi(capi.value.machineSet, capi.value.template, mapi)).value;
        const expected = structuredClone(mapi.spec);
        expected.template!.spec!.authoritativeAPI = 'ClusterAPI';
        expect(back.spec).to.deep.equal(expected);
        expect(back.labels).to.deep.equal(mapi.metadata.labels);
        expect(back.annotations).to.deep.equal(mapi.metadata.annotations ?? {});
      }),
      { numRuns: 150 },
    );
    expect(converted).to.be.above(100);
  });

  const capiLabel = fc.oneof(
    plainKey,
    prefixed('node-role.kubernetes.io/'),
    prefixed('node-restriction.kubernetes.io/'),
    prefixed('node.cluster.x-k8s.io/'),
  );
  const capiAnnotationKey = fc.oneof(
    plainKey,
    prefixed('node.cluster.x-k8s.io/'),
    fc.constant('cluster.x-k8s.io/delete-machine'),
  );
  const capiMachineSetAnnotationKey = fc.oneof(
    capiAnnotationKey,
    fc.constantFrom(
      ...AUTOSCALER_SIZES.map((size) => `cluster.x-k8s.io/${size}`),
      // the scale-from-zero annotations gain OpenShift's spelling once (scale-from-zero.test.ts)
      'capacity.cluster-autoscaler.kubernetes.io/labels',
    ),
  );
  const capiChange = fc.record({
    machineSetLabels: dict(capiLabel, labelValue),
    machineSetAnnotations: dict(capiMachineSetAnnotationKey, fc.string({ maxLength: 8 })),
    labels: dict(capiLabel, labelValue),
    annotations: dict(capiAnnotationKey, fc.string({ maxLength: 8 })),
    preDrain: hooks,
    preTerminate: hooks,
    replicas: fc.nat(500),
    order: fc.constantFrom('Random' as const, 'Newest' as const, 'Oldest' as const),
    minReadySeconds: fc.option(fc.integer({ min: 1, max: 600 }), { nil: undefined }),
    taints: fc.uniqueArray(
      fc.record(
        {
          key: plainKey,
          value: nonEmptyValue,
          effect,
          propagation: fc.constant('Always' as const),
        },
        { requiredKeys: ['key', 'effect', 'propagation'] },
      ),
      { selector: (t) => `${t.key}:${t.effect}`, maxLength: 3 },
    ),
  });

  it('property: CAPI → MAPI → CAPI gives back the CAPI spec, labels and annotations', () => {
    const mapi = AWS.machineSet();
    const mirror = expectOk(toCapi(mapi)).value;
    fc.assert(
      fc.property(capiChange, (change) => {
        const capi = structuredClone(mirror.machineSet);
        Object.assign((capi.metadata.labels ??= {}), change.machineSetLabels);
        capi.metadata.annotations = change.machineSetAnnotations;
        const { spec } = capi;
        const metadata = (spec.template.metadata ??= {});
        Object.assign((metadata.labels ??= {}), change.labels);
        const annotations: Record<string, string> = { ...change.annotations };
        for (const [list, prefix] of Object.entries(HOOKS)) {
          for (const hook of change[list as keyof typeof HOOKS]) {
            annotations[prefix + hook.name] = hook.owner;
          }
        }
        if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
        spec.replicas = change.replicas;
        spec.deletion = { order: change.order };
        if (change.minReadySeconds !== undefined) {
          spec.template.spec.minReadySeconds = change.minReadySeconds;
        }
        if (change.taints.length > 0) {
          Object.assign(spec.template.spec, { taints: change.taints });
        }

        const back = expectOk(toMapi(capi, mirror.template, mapi)).value;
        const again = expectOk(
          toCapi({
            ...mapi,
            metadata: { ...mapi.metadata, labels: back.labels, annotations: back.annotations },
            spec: back.spec as MapiMachineSet['spec'],
          }),
        ).value;
        expect(again.machineSet.spec).to.deep.equal(capi.spec);
        expect(again.machineSet.metadata.labels).to.deep.equal(capi.metadata.labels);
        expect(again.machineSet.metadata.annotations).to.deep.equal(capi.metadata.annotations);
        expect(again.template.spec).to.deep.equal(mirror.template.spec);
      }),
      { numRuns: 150 },
    );
  });
});
