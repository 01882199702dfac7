// The providerSpec fields Cluster API cannot express come back from the MAPI MachineSet's
// providerSpec when they are valid there, and as the platform default otherwise.
import { expect } from 'chai';
import { providerSpec, template, toMapi, withFields, WORKSPACE } from './to-mapi-support.js';
import { KEPT_FROM_CURRENT } from '../../../../src/conversion/powervs/index.js';
import { expectOk } from '../../../support/conversion.js';

const LOAD_BALANCERS = [
  { name: 'ci-ln-abc12-loadbalancer-int', type: 'Application' },
  { name: 'ci-ln-abc12-loadbalancer', type: 'Application' },
];

describe('powerVsConverter.toMapi keeps from the current providerSpec', () => {
  it('metadata, credentialsSecret and loadBalancers (the reference fields type does not name too)', () => {
    expect(KEPT_FROM_CURRENT).to.deep.equal(['metadata', 'credentialsSecret', 'loadBalancers']);
  });

  interface KeptCase {
    name: string;
    current: unknown;
    controlPlane?: boolean;
    /** Fields merged into the expected providerSpec (undefined removes one). */
    expected?: Record<string, unknown>;
    warning?: RegExp;
  }

  const cases: KeptCase[] = [
    { name: 'nothing without a current providerSpec', current: undefined },
    { name: 'nothing from a current providerSpec that is not an object', current: 'spec' },
    {
      name: 'metadata, as it is',
      current: { metadata: { creationTimestamp: null, labels: { team: 'power' } } },
      expected: { metadata: { creationTimestamp: null, labels: { team: 'power' } } },
    },
    { name: 'no metadata that is not an object', current: { metadata: 'worker' } },
    {
      name: 'the default credentialsSecret',
      current: { credentialsSecret: { name: 'powervs-credentials' } },
    },
    {
      name: 'the default credentialsSecret in place of one without a name (its default too)',
      current: { credentialsSecret: { name: '' } },
    },
    {
      name: 'the default credentialsSecret in place of another one, with a warning',
      current: { credentialsSecret: { name: 'my-powervs-creds' } },
      warning:
        /^credentialsSecret of the Machine API MachineSet's providerSpec is set to powervs-credentials: Cluster API machines are created with the IBM Cloud credentials/,
    },
    {
      name: "a control-plane MachineSet's loadBalancers",
      current: { loadBalancers: LOAD_BALANCERS },
      controlPlane: true,
      expected: { loadBalancers: LOAD_BALANCERS },
    },
    {
      name: 'no empty loadBalancers',
      current: { loadBalancers: [] },
      controlPlane: true,
    },
    {
      name: "no worker MachineSet's loadBalancers, with a warning",
      current: { loadBalancers: LOAD_BALANCERS },
      warning:
        /^loadBalancers of the Machine API MachineSet's providerSpec is not kept: Cluster API adds worker machines to no load balancer/,
    },
    ...[
      [{ name: 'lb', type: 'Network' }],
      [{ type: 'Application' }],
      [{ name: 'lb', type: 'Application', port: 6443 }],
      ['lb'],
      'lb',
    ].map((loadBalancers): KeptCase => ({
      name: `no invalid loadBalancers (${JSON.stringify(loadBalancers)}), with a warning`,
      current: { loadBalancers },
      controlPlane: true,
      warning:
        /^loadBalancers .* is not kept: it is not a list of load balancers with a name and type Application\.$/,
    })),
    {
      name: 'the fields a reference type does not name, when it names the same resource',
      current: {
        serviceInstance: { type: 'ID', id: WORKSPACE, name: 'ci-workspace', regex: '' },
        image: { type: 'Name', name: 'rhcos-ci', id: 'img-0123' },
        network: { type: 'Name', name: 'ci-net', regex: '^ci-' },
      },
      expected: {
        serviceInstance: { type: 'ID', id: WORKSPACE, name: 'ci-workspace', regex: '' },
        image: { type: 'Name', name: 'rhcos-ci', id: 'img-0123' },
        network: { type: 'Name', name: 'ci-net', regex: '^ci-' },
      },
    },
    {
      name: 'no such fields of a reference to another resource',
      current: { image: { type: 'Name', name: 'rhcos-old', id: 'img-0123' } },
    },
    {
      name: 'no such fields of a reference of another type',
      current: { image: { type: 'ID', id: 'img-0123', name: 'rhcos-ci' } },
    },
    {
      name: 'no such fields that are not strings',
      current: { network: { type: 'Name', name: 'ci-net', id: 7 } },
    },
    {
      name: 'nothing the template says: its fields win over the current ones',
      current: withFields(providerSpec(), {
        keyPairName: 'old-key',
        memoryGiB: 64,
        userDataSecret: { name: 'old-user-data' },
      }),
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const result = expectOk(
        toMapi(template(), { current: c.current, controlPlane: c.controlPlane ?? false }),
      );
      expect(result.value).to.deep.equal(withFields(providerSpec(), c.expected ?? {}));
      if (c.warning) {
        expect(result.warnings).to.have.length(1);
        expect(result.warnings[0]).to.match(c.warning);
      } else {
        expect(result.warnings).to.deep.equal([]);
      }
    });
  }
});
