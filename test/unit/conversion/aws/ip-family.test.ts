// The cluster's IP family decides how machine-api-provider-aws launches instances; the
// template must make CAPA launch the same ones (IMDS over IPv6, resource-name hostnames with
// A and AAAA records, a primary IPv6 address only when IPv6 is primary).
import { expect } from 'chai';
import type { Infrastructure } from '../../../../src/api/types.js';
import { awsConverter } from '../../../../src/conversion/aws/index.js';
import {
  expectErrors,
  expectFieldErrors,
  expectOk,
  PROVIDER_SPEC_PATH,
} from '../../../support/conversion.js';

function infrastructure(ipFamily: unknown): Infrastructure {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    status: {
      infrastructureName: 'ci-ln-abc12',
      platformStatus: {
        type: 'AWS',
        // Any JSON, as an API server might send it.
        aws: {
          region: 'us-east-1',
          ...(ipFamily === undefined ? {} : { ipFamily: ipFamily as string }),
        },
      },
    },
  };
}

const SPEC = {
  ami: { id: 'ami-0123456789abcdef0' },
  instanceType: 'm6i.xlarge',
  metadataServiceOptions: { authentication: 'Required' },
};

function templateFor(ipFamily: unknown): Record<string, unknown> {
  const result = awsConverter.toCapi(SPEC, {
    infrastructure: infrastructure(ipFamily),
    path: PROVIDER_SPEC_PATH,
    controlPlane: false,
  });
  return expectOk(result).value.templateSpec;
}

const DUAL_STACK_DNS = {
  enableResourceNameDnsAAAARecord: true,
  enableResourceNameDnsARecord: true,
  hostnameType: 'resource-name',
};

describe('awsConverter and the cluster IP family', () => {
  const cases: {
    ipFamily: unknown;
    httpProtocolIpv6: string;
    privateDnsName?: object;
    assignPrimaryIPv6?: string;
  }[] = [
    { ipFamily: undefined, httpProtocolIpv6: 'disabled' },
    { ipFamily: '', httpProtocolIpv6: 'disabled' },
    { ipFamily: 'IPv4', httpProtocolIpv6: 'disabled' },
    // CAPA would give a primary IPv6 address on a dual-stack subnet by default; MAPA does not.
    {
      ipFamily: 'DualStackIPv4Primary',
      httpProtocolIpv6: 'enabled',
      privateDnsName: DUAL_STACK_DNS,
      assignPrimaryIPv6: 'disabled',
    },
    {
      ipFamily: 'DualStackIPv6Primary',
      httpProtocolIpv6: 'enabled',
      privateDnsName: DUAL_STACK_DNS,
      assignPrimaryIPv6: 'enabled',
    },
  ];
  for (const c of cases) {
    it(`ipFamily ${JSON.stringify(c.ipFamily)} → the instance MAPA would launch`, () => {
      const template = templateFor(c.ipFamily);
      expect(template.instanceMetadataOptions).to.deep.equal({
        httpEndpoint: 'enabled',
        httpProtocolIpv6: c.httpProtocolIpv6,
        httpPutResponseHopLimit: 1,
        httpTokens: 'required',
        instanceMetadataTags: 'disabled',
      });
      expect(template.privateDnsName).to.deep.equal(c.privateDnsName);
      expect(template.assignPrimaryIPv6).to.equal(c.assignPrimaryIPv6);
    });
  }

  for (const ipFamily of ['DualStack', 'ipv4', 6]) {
    it(`refuses the unknown ipFamily ${JSON.stringify(ipFamily)}, naming the Infrastructure`, () => {
      const errors = expectErrors(
        awsConverter.toCapi(SPEC, {
          infrastructure: infrastructure(ipFamily),
          path: PROVIDER_SPEC_PATH,
          controlPlane: false,
        }),
      );
      expectFieldErrors(errors, [
        [
          'Infrastructure/cluster.status.platformStatus.aws.ipFamily',
          /which this controller does not know.*IPv4, DualStackIPv4Primary, DualStackIPv6Primary/,
        ],
      ]);
    });
  }
});
