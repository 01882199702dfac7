// CAPI → MAPI at the MachineSet level: labels and annotations split between machines and nodes,
// and lifecycle hooks.
import { expect } from 'chai';
import { expectOk } from '../../../support/conversion.js';
import { at, pointer, reverse, reversedSpec } from './reverse-support.js';

const NODE_ROLE = 'node-role.kubernetes.io/';
const ROLE = 'machine.openshift.io/cluster-api-machine-role';
const TYPE = 'machine.openshift.io/cluster-api-machine-type';
const WORKER = { [ROLE]: 'worker', [TYPE]: 'worker' };
const TEMPLATE_LABELS = '/spec/template/metadata/labels';
const TEMPLATE_ANNOTATIONS = '/spec/template/metadata/annotations';
const MACHINE_SPEC = '/spec/template/spec';

describe('machineSetToMapi: labels, annotations and hooks', () => {
  describe('splits Cluster API labels into machine and node labels', () => {
    const label = (key: string, value: string) => ({
      op: 'add',
      path: `${TEMPLATE_LABELS}/${pointer(key)}`,
      value,
    });
    const nodeLabels = (labels: Record<string, string>) => ({
      op: 'replace',
      path: `${MACHINE_SPEC}/metadata`,
      value: { labels },
    });
    const cases: [string, object[], object[], Record<string, string>, Record<string, string>][] = [
      [
        'a new label: on the machines',
        [label('tier', 'gold')],
        [],
        { ...WORKER, tier: 'gold' },
        {},
      ],
      [
        'a label the MAPI MachineSet has on its nodes stays there',
        [label('tier', 'silver')],
        [nodeLabels({ tier: 'gold' })],
        WORKER,
        { tier: 'silver' },
      ],
      [
        'a label the MAPI MachineSet has on both stays on both',
        [label('tier', 'silver')],
        [nodeLabels({ tier: 'gold' }), label('tier', 'gold')],
        { ...WORKER, tier: 'silver' },
        { tier: 'silver' },
      ],
      [
        'a new node-role label: role and type labels',
        [
          { op: 'remove', path: `${TEMPLATE_LABELS}/${pointer(`${NODE_ROLE}worker`)}` },
          label(`${NODE_ROLE}infra`, ''),
        ],
        [],
        { [ROLE]: 'infra', [TYPE]: 'infra' },
        {},
      ],
      [
        'a second node-role label, the role being taken: a node label',
        [label(`${NODE_ROLE}infra`, '')],
        [],
        WORKER,
        { [`${NODE_ROLE}infra`]: '' },
      ],
      [
        'a node-role label the MAPI role label alone gives: the role label alone',
        [],
        [{ op: 'remove', path: `${TEMPLATE_LABELS}/${pointer(TYPE)}` }],
        { [ROLE]: 'worker' },
        {},
      ],
      [
        'a node-role label also among the node labels: both',
        [],
        [nodeLabels({ [`${NODE_ROLE}worker`]: '' })],
        WORKER,
        { [`${NODE_ROLE}worker`]: '' },
      ],
      [
        'a node-role label with a value: a node label',
        [label(`${NODE_ROLE}gpu`, 'yes')],
        [],
        WORKER,
        { [`${NODE_ROLE}gpu`]: 'yes' },
      ],
      [
        'labels of the domains Cluster API puts on nodes: node labels',
        [
          label('node-restriction.kubernetes.io/pool', 'a'),
          label('team.node-restriction.kubernetes.io/x', 'b'),
          label('node.cluster.x-k8s.io/pool', 'c'),
          label('gpu.node.cluster.x-k8s.io/model', 'd'),
        ],
        [],
        WORKER,
        {
          'node-restriction.kubernetes.io/pool': 'a',
          'team.node-restriction.kubernetes.io/x': 'b',
          'node.cluster.x-k8s.io/pool': 'c',
          'gpu.node.cluster.x-k8s.io/model': 'd',
        },
      ],
      [
        "Cluster API's own labels: dropped",
        [
          label('cluster.x-k8s.io/deployment-name', 'web'),
          label('machine-template-hash.cluster.x-k8s.io/x', '1'),
        ],
        [],
        WORKER,
        {},
      ],
      [
        'a Cluster API label the MAPI MachineSet itself has: kept',
        [],
        [label('cluster.x-k8s.io/cluster-name', 'demo-abc12')],
        { ...WORKER, 'cluster.x-k8s.io/cluster-name': 'demo-abc12' },
        {},
      ],
    ];
    const base = {
      'machine.openshift.io/cluster-api-cluster': 'demo-abc12',
      'machine.openshift.io/cluster-api-machineset': 'worker-a',
    };
    for (const [name, capiPatch, mapiPatch, machine, node] of cases) {
      it(name, () => {
        const spec = reversedSpec(capiPatch, mapiPatch);
        const machineLabels = at(spec, 'template.metadata.labels');
        expect(machineLabels, 'machine labels').to.deep.equal({ ...base, ...machine });
        expect(at(spec, 'template.spec.metadata.labels') ?? {}, 'node labels').to.deep.equal(node);
      });
    }
  });

  describe('splits Cluster API annotations into machine and node annotations and hooks', () => {
    const annotations = (value: Record<string, string>) => ({
      op: 'add',
      path: TEMPLATE_ANNOTATIONS,
      value,
    });
    const cases: [string, object[], object[], Record<string, string>, Record<string, string>][] = [
      ['a new annotation: on the machines', [annotations({ a: '1' })], [], { a: '1' }, {}],
      [
        'an annotation the MAPI MachineSet has on its nodes stays there',
        [annotations({ a: '2' })],
        [
          {
            op: 'replace',
            path: `${MACHINE_SPEC}/metadata`,
            value: { annotations: { a: '1' } },
          },
        ],
        {},
        { a: '2' },
      ],
      [
        "Cluster API's delete-machine annotation: Machine API's",
        [annotations({ 'cluster.x-k8s.io/delete-machine': 'yes' })],
        [],
        { 'machine.openshift.io/delete-machine': 'yes' },
        {},
      ],
      [
        'the paused annotation and other Cluster API annotations: dropped',
        [annotations({ 'cluster.x-k8s.io/paused': 'true', 'cluster.x-k8s.io/x': 'y' })],
        [],
        {},
        {},
      ],
      [
        'annotations of the domain Cluster API puts on nodes: node annotations',
        [annotations({ 'node.cluster.x-k8s.io/a': '1', 'x.node.cluster.x-k8s.io/b': '2' })],
        [],
        {},
        { 'node.cluster.x-k8s.io/a': '1', 'x.node.cluster.x-k8s.io/b': '2' },
      ],
    ];
    for (const [name, capiPatch, mapiPatch, machine, node] of cases) {
      it(name, () => {
        const spec = reversedSpec(capiPatch, mapiPatch);
        expect(at(spec, 'template.metadata.annotations') ?? {}, 'machine').to.deep.equal(machine);
        expect(at(spec, 'template.spec.metadata.annotations') ?? {}, 'node').to.deep.equal(node);
      });
    }

    it('lifecycle hooks from their annotations, in the order the MAPI MachineSet has them', () => {
      const hooks = {
        'pre-drain.delete.hook.machine.cluster.x-k8s.io/NewHook': 'team-b',
        'pre-drain.delete.hook.machine.cluster.x-k8s.io/Second': 'team-a',
        'pre-drain.delete.hook.machine.cluster.x-k8s.io/First': 'team-a',
        'pre-terminate.delete.hook.machine.cluster.x-k8s.io/Detach': 'storage',
      };
      const current = {
        preDrain: [
          { name: 'First', owner: 'team-a' },
          { name: 'Second', owner: 'old' },
        ],
      };
      const spec = reversedSpec(
        [annotations(hooks)],
        [{ op: 'add', path: `${MACHINE_SPEC}/lifecycleHooks`, value: current }],
      );
      expect(at(spec, 'template.spec.lifecycleHooks')).to.deep.equal({
        preDrain: [
          { name: 'First', owner: 'team-a' },
          { name: 'Second', owner: 'team-a' },
          { name: 'NewHook', owner: 'team-b' },
        ],
        preTerminate: [{ name: 'Detach', owner: 'storage' }],
      });
      expect(at(spec, 'template.metadata.annotations')).to.equal(undefined);
    });

    it('no lifecycle hooks left: the lists go', () => {
      const current = { preDrain: [{ name: 'First', owner: 'team-a' }] };
      const spec = reversedSpec(
        [],
        [{ op: 'add', path: `${MACHINE_SPEC}/lifecycleHooks`, value: current }],
      );
      expect(at(spec, 'template.spec.lifecycleHooks')).to.deep.equal({});
    });
  });

  describe("the MachineSet's own labels and annotations", () => {
    const CLUSTER_LABEL = { 'machine.openshift.io/cluster-api-cluster': 'demo-abc12' };
    const MIN = 'cluster-api-autoscaler-node-group-min-size';
    const MAX = 'cluster-api-autoscaler-node-group-max-size';
    const capiMetadata = (labels: object, annotations: object) => [
      { op: 'add', path: '/metadata/labels', value: labels },
      { op: 'add', path: '/metadata/annotations', value: annotations },
    ];
    const metadataOf = (capiPatch: object[], mapiPatch: object[] = []) => {
      const { labels, annotations } = expectOk(reverse(capiPatch, mapiPatch)).value as {
        labels?: Record<string, string>;
        annotations?: Record<string, string>;
      };
      return { labels, annotations };
    };

    it("are the CAPI MachineSet's, through the label and annotation transforms", () => {
      const { labels, annotations } = metadataOf(
        capiMetadata(
          {
            ...CLUSTER_LABEL,
            'cluster.x-k8s.io/cluster-name': 'demo-abc12',
            team: 'blue',
            'node-role.kubernetes.io/infra': '',
          },
          {
            [`cluster.x-k8s.io/${MIN}`]: '1',
            [`cluster.x-k8s.io/${MAX}`]: '5',
            'capacity.cluster-autoscaler.kubernetes.io/memory': '16G',
            'cluster.x-k8s.io/paused': 'true',
            'sync.machine.openshift.io/authoritative-api': 'ClusterAPI',
            note: 'kept',
          },
        ),
      );
      expect(labels).to.deep.equal({
        ...CLUSTER_LABEL,
        team: 'blue',
        'machine.openshift.io/cluster-api-machine-role': 'infra',
        'machine.openshift.io/cluster-api-machine-type': 'infra',
      });
      expect(annotations).to.deep.equal({
        [`machine.openshift.io/${MIN}`]: '1',
        [`machine.openshift.io/${MAX}`]: '5',
        'capacity.cluster-autoscaler.kubernetes.io/memory': '16G',
        // scale from zero in OpenShift's spelling too (scale-from-zero.test.ts)
        'machine.openshift.io/memoryMb': '15258',
        note: 'kept',
      });
    });

    it('keep what the MAPI MachineSet has that Cluster API cannot carry, and our own keys', () => {
      const { labels, annotations } = metadataOf(capiMetadata(CLUSTER_LABEL, {}), [
        {
          op: 'add',
          path: '/metadata/labels/machine.openshift.io~1region',
          value: 'us-east-1',
        },
        {
          op: 'add',
          path: '/metadata/annotations',
          value: {
            'sync.machine.openshift.io/cluster-api-uid': 'capi-uid',
            'machine.openshift.io/instance-state': 'running',
            gone: 'from Cluster API',
          },
        },
      ]);
      expect(labels).to.deep.equal({
        ...CLUSTER_LABEL,
        'machine.openshift.io/region': 'us-east-1',
      });
      expect(annotations).to.deep.equal({
        'sync.machine.openshift.io/cluster-api-uid': 'capi-uid',
        'machine.openshift.io/instance-state': 'running',
      });
    });
  });
});
