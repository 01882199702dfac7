// The MAPI → CAPI port rules that follow what Machine API's OpenStack provider does at run time:
// a user-managed load balancer keeps every allowed address pair off the ports, and an empty
// port security group list means the machine's groups.
import { expect } from 'chai';
import type { Infrastructure } from '../../../../src/api/types.js';
import { openstackConverter } from '../../../../src/conversion/openstack/index.js';
import { expectOk, PROVIDER_SPEC_PATH } from '../../../support/conversion.js';

const PATH = PROVIDER_SPEC_PATH;
const NET = '0b2a1c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const SUBNET = '2d4c3e5f-6071-4c8d-ae9f-1a2b3c4d5e6f';
const API_VIP = '10.0.0.5';
const INGRESS_VIP = '10.0.0.7';

function infrastructure(loadBalancerType?: string): Infrastructure {
  const openstack: Record<string, unknown> = {
    cloudName: 'openstack',
    apiServerInternalIPs: [API_VIP],
    ingressIPs: [INGRESS_VIP],
  };
  if (loadBalancerType !== undefined) openstack.loadBalancer = { type: loadBalancerType };
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    status: { infrastructureName: 'demo-abc12', platformStatus: { type: 'OpenStack', openstack } },
  };
}

function spec(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'machine.openshift.io/v1alpha1',
    kind: 'OpenstackProviderSpec',
    cloudName: 'openstack',
    cloudsSecret: { name: 'openstack-cloud-credentials' },
    flavor: 'm1.xlarge',
    image: 'rhcos',
    userDataSecret: { name: 'worker-user-data' },
    ...fields,
  };
}

function convert(fields: Record<string, unknown>, loadBalancerType?: string) {
  return expectOk(
    openstackConverter.toCapi(spec(fields), {
      infrastructure: infrastructure(loadBalancerType),
      path: PATH,
      controlPlane: false,
    }),
  );
}

const networkAndPort = {
  networks: [{ uuid: NET, subnets: [{ uuid: SUBNET }] }],
  ports: [{ networkID: NET, allowedAddressPairs: [{ ipAddress: '192.0.2.10' }] }],
};

describe('openstackConverter ports', () => {
  describe('with the load balancer type of the Infrastructure', () => {
    it('OpenShiftManagedDefault: network ports let the VIPs through, port pairs are kept', () => {
      const { value, warnings } = convert(networkAndPort, 'OpenShiftManagedDefault');
      expect(value.templateSpec.ports).to.deep.equal([
        {
          network: { id: NET },
          fixedIPs: [{ subnet: { id: SUBNET } }],
          allowedAddressPairs: [{ ipAddress: API_VIP }, { ipAddress: INGRESS_VIP }],
        },
        { network: { id: NET }, allowedAddressPairs: [{ ipAddress: '192.0.2.10' }] },
      ]);
      expect(warnings).to.deep.equal([]);
    });

    it('UserManaged: no port gets an allowed address pair, and the dropped ones are named', () => {
      const { value, warnings } = convert(networkAndPort, 'UserManaged');
      expect(value.templateSpec.ports).to.deep.equal([
        { network: { id: NET }, fixedIPs: [{ subnet: { id: SUBNET } }] },
        { network: { id: NET } },
      ]);
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.match(
        new RegExp(
          `^${PATH.replaceAll('.', '\\.')}\\.ports\\[0\\]\\.allowedAddressPairs is ignored by ` +
            "Machine API because the cluster's load balancer is user-managed",
        ),
      );
    });

    it('UserManaged: address pairs next to portSecurity false are dropped, not rejected', () => {
      const { value } = convert(
        {
          ports: [
            {
              networkID: NET,
              portSecurity: false,
              allowedAddressPairs: [{ ipAddress: '192.0.2.10' }],
            },
          ],
        },
        'UserManaged',
      );
      expect(value.templateSpec.ports).to.deep.equal([
        { network: { id: NET }, disablePortSecurity: true },
      ]);
    });
  });

  describe('a port security group list', () => {
    it('empty: converts like an absent one, so the port gets the machine groups', () => {
      const empty = convert({ ports: [{ networkID: NET, securityGroups: [] }] });
      const absent = convert({ ports: [{ networkID: NET }] });
      expect(empty.value.templateSpec.ports).to.deep.equal([{ network: { id: NET } }]);
      expect(empty.value.templateSpec).to.deep.equal(absent.value.templateSpec);
      expect(empty.warnings).to.deep.equal([]);
    });
  });
});
