// Table-driven tests of the PowerVS reverse converter (IBMPowerVSMachineTemplate spec →
// PowerVSMachineProviderConfig): every mapped field, Cluster API's defaults, and every warning.
import { expect } from 'chai';
import {
  CLUSTER,
  infrastructure,
  providerSpec,
  template,
  TEMPLATE_PATH,
  toMapi,
  withFields,
  WORKSPACE,
} from './to-mapi-support.js';
import { powerVsConverter } from '../../../../src/conversion/powervs/index.js';
import type { ReverseContext } from '../../../../src/conversion/types.js';
import { expectOk } from '../../../support/conversion.js';

describe('powerVsConverter.toMapi', () => {
  it('converts the template of an installer worker providerSpec back to that providerSpec', () => {
    const installerTemplate = {
      serviceInstanceID: '',
      serviceInstance: { id: WORKSPACE },
      image: { name: `rhcos-${CLUSTER}` },
      network: { regex: `^DHCPSERVER.*${CLUSTER}.*_Private$` },
      sshKey: `${CLUSTER}-key`,
      systemType: 's922',
      processorType: 'Shared',
      processors: '0.5',
      memoryGiB: 32,
    };
    const result = expectOk(toMapi(installerTemplate, { userDataSecretName: 'worker-user-data' }));
    expect(result.value).to.deep.equal({
      apiVersion: 'machine.openshift.io/v1',
      kind: 'PowerVSMachineProviderConfig',
      serviceInstance: { type: 'ID', id: WORKSPACE },
      image: { type: 'Name', name: `rhcos-${CLUSTER}` },
      network: { type: 'RegEx', regex: `^DHCPSERVER.*${CLUSTER}.*_Private$` },
      keyPairName: `${CLUSTER}-key`,
      systemType: 's922',
      processorType: 'Shared',
      processors: '0.5',
      memoryGiB: 32,
      userDataSecret: { name: 'worker-user-data' },
      credentialsSecret: { name: 'powervs-credentials' },
    });
    expect(result.warnings).to.deep.equal([]);
  });

  describe('maps every field', () => {
    interface MappingCase {
      name: string;
      /** Fields merged into the template (undefined removes one). */
      input: Record<string, unknown>;
      /** Fields merged into the expected providerSpec. */
      expected?: Record<string, unknown>;
      context?: Partial<ReverseContext>;
    }

    const cases: MappingCase[] = [
      { name: 'the template the forward converter writes', input: {} },
      {
        name: 'serviceInstance.id → serviceInstance {type: ID, id}',
        input: { serviceInstance: { id: 'f0e1d2c3-0000-4000-8000-000000000001' } },
        expected: { serviceInstance: { type: 'ID', id: 'f0e1d2c3-0000-4000-8000-000000000001' } },
      },
      {
        name: 'the deprecated serviceInstanceID alone → serviceInstance {type: ID, id}',
        input: {
          serviceInstanceID: 'f0e1d2c3-0000-4000-8000-000000000002',
          serviceInstance: undefined,
        },
        expected: { serviceInstance: { type: 'ID', id: 'f0e1d2c3-0000-4000-8000-000000000002' } },
      },
      {
        name: 'serviceInstanceID equal to serviceInstance.id',
        input: { serviceInstanceID: WORKSPACE },
      },
      {
        name: 'serviceInstanceID absent (the CRD requires it, but "" and absent say the same)',
        input: { serviceInstanceID: undefined },
      },
      {
        name: 'image.id → image {type: ID, id}',
        input: { image: { id: 'img-0123' } },
        expected: { image: { type: 'ID', id: 'img-0123' } },
      },
      {
        name: 'image.name → image {type: Name, name}',
        input: { image: { name: 'rhcos-418' } },
        expected: { image: { type: 'Name', name: 'rhcos-418' } },
      },
      {
        name: 'network.id → network {type: ID, id}',
        input: { network: { id: 'net-0123' } },
        expected: { network: { type: 'ID', id: 'net-0123' } },
      },
      {
        name: 'network.regex → network {type: RegEx, regex}',
        input: { network: { regex: '^DHCPSERVER.*_Private$' } },
        expected: { network: { type: 'RegEx', regex: '^DHCPSERVER.*_Private$' } },
      },
      {
        name: 'sshKey → keyPairName',
        input: { sshKey: 'ops key' },
        expected: { keyPairName: 'ops key' },
      },
      ...['s922', 'e980', 's1022', 'e1050', 'e1080', 's1122'].map((systemType) => ({
        name: `systemType ${systemType} → systemType`,
        input: { systemType },
        expected: { systemType },
      })),
      ...['Dedicated', 'Capped'].map((processorType) => ({
        name: `processorType ${processorType} → processorType`,
        input: { processorType, processors: 2 },
        expected: { processorType, processors: 2 },
      })),
      {
        name: 'processors as a decimal string → the same string',
        input: { processors: '2.75' },
        expected: { processors: '2.75' },
      },
      {
        name: 'processors as a whole-number string with Dedicated → the same string',
        input: { processorType: 'Dedicated', processors: '3' },
        expected: { processorType: 'Dedicated', processors: '3' },
      },
      {
        name: 'processors at the minimum, "0.25"',
        input: { processors: '0.25' },
        expected: { processors: '0.25' },
      },
      { name: 'memoryGiB → memoryGiB', input: { memoryGiB: 128 }, expected: { memoryGiB: 128 } },
      {
        name: 'memoryGiB at the maximum, 2147483647',
        input: { memoryGiB: 2 ** 31 - 1 },
        expected: { memoryGiB: 2 ** 31 - 1 },
      },
      {
        name: "an unset size → CAPIBM's defaults, written out (Machine API's are larger)",
        input: {
          systemType: undefined,
          processorType: undefined,
          processors: undefined,
          memoryGiB: undefined,
        },
        expected: { systemType: 's922', processorType: 'Shared', processors: '0.25', memoryGiB: 2 },
      },
      {
        name: 'the zero values of an unset size ("", 0) → CAPIBM\'s defaults',
        input: { systemType: '', processorType: '', processors: 0, memoryGiB: 0 },
        expected: { processors: '0.25', memoryGiB: 2 },
      },
      {
        name: 'processors "" → "0.25"',
        input: { processors: '' },
        expected: { processors: '0.25' },
      },
      {
        name: 'null fields mean "not set"',
        input: { imageRef: null, providerID: null, serviceInstanceID: null, memoryGiB: null },
        expected: { memoryGiB: 2 },
      },
      {
        name: 'the bootstrap data secret → userDataSecret.name',
        input: {},
        context: { userDataSecretName: 'worker-user-data' },
        expected: { userDataSecret: { name: 'worker-user-data' } },
      },
      {
        name: 'an empty bootstrap data secret → no userDataSecret',
        input: {},
        context: { userDataSecretName: '' },
      },
    ];

    for (const c of cases) {
      it(c.name, () => {
        const result = expectOk(toMapi(withFields(template(), c.input), c.context));
        expect(result.value).to.deep.equal({ ...providerSpec(), ...c.expected });
        expect(result.warnings).to.deep.equal([]);
      });
    }
  });

  describe('warns about what Cluster API ignores', () => {
    interface WarningCase {
      name: string;
      input: Record<string, unknown>;
      warning: RegExp;
      expected?: Record<string, unknown>;
      context?: Partial<ReverseContext>;
    }

    const cases: WarningCase[] = [
      {
        name: 'a workspace name next to its id',
        input: { serviceInstance: { id: WORKSPACE, name: 'ci-workspace' } },
        warning: new RegExp(
          `^${TEMPLATE_PATH}\\.serviceInstance\\.name is not converted: Cluster API uses the ` +
            "workspace's ID and ignores its name\\.$",
        ),
      },
      {
        name: 'a workspace regex next to serviceInstanceID',
        input: { serviceInstanceID: WORKSPACE, serviceInstance: { regex: '^ci-' } },
        warning: new RegExp(
          `^${TEMPLATE_PATH}\\.serviceInstance\\.regex is not converted: .*ignores its regex\\.$`,
        ),
      },
      {
        name: 'serviceInstance.id that serviceInstanceID overrides (CAPIBM reads serviceInstanceID first)',
        input: { serviceInstanceID: WORKSPACE, serviceInstance: { id: 'another-workspace' } },
        warning: new RegExp(
          `^${TEMPLATE_PATH}\\.serviceInstance\\.id is not converted: Cluster API uses serviceInstanceID, which takes precedence\\.$`,
        ),
      },
      {
        name: 'an image regex next to its name',
        input: { image: { name: 'rhcos-ci', regex: '^rhcos' } },
        warning: new RegExp(
          `^${TEMPLATE_PATH}\\.image\\.regex is not converted: Cluster API looks the boot image up by name and ignores regex\\.$`,
        ),
      },
      {
        name: 'an image regex next to its id',
        input: { image: { id: 'img-0123', regex: '^rhcos' } },
        warning: /image\.regex is not converted: Cluster API looks the boot image up by id/,
        expected: { image: { type: 'ID', id: 'img-0123' } },
      },
      {
        name: "the Cluster API MachineSet's failure domain",
        input: {},
        context: { failureDomain: 'dal10' },
        warning:
          /^The Cluster API MachineSet's failureDomain "dal10" is not converted: a PowerVS machine runs in the zone of its workspace/,
      },
    ];

    for (const c of cases) {
      it(c.name, () => {
        const result = expectOk(toMapi(withFields(template(), c.input), c.context));
        expect(result.warnings).to.have.length(1);
        expect(result.warnings[0]).to.match(c.warning);
        expect(result.value).to.deep.equal({ ...providerSpec(), ...c.expected });
      });
    }
  });

  describe('output', () => {
    const rich = withFields(template(), {
      image: { id: 'img-0123' },
      network: { regex: '^DHCPSERVER.*_Private$' },
      systemType: 's1022',
      processorType: 'Capped',
      processors: '2.75',
      memoryGiB: 128,
    });
    const current = withFields(providerSpec(), {
      metadata: { labels: { team: 'power' } },
      image: { type: 'ID', id: 'img-0123', name: 'rhcos-old' },
      loadBalancers: [{ name: 'ci-ln-abc12-loadbalancer-int', type: 'Application' }],
    });

    it('is deterministic: the same input converts to deep-equal output', () => {
      const first = toMapi(structuredClone(rich), { current: structuredClone(current) });
      const second = toMapi(structuredClone(rich), { current: structuredClone(current) });
      expect(JSON.stringify(second)).to.equal(JSON.stringify(first));
    });

    it('leaves the template and the current providerSpec untouched', () => {
      const input = structuredClone(rich);
      const currentInput = structuredClone(current);
      toMapi(input, { current: currentInput, controlPlane: true });
      expect(input).to.deep.equal(rich);
      expect(currentInput).to.deep.equal(current);
    });

    it('never aliases its inputs: changing the output leaves them alone', () => {
      const input = structuredClone(rich);
      const currentInput = structuredClone(current);
      const { value } = expectOk(toMapi(input, { current: currentInput, controlPlane: true }));
      (value.image as Record<string, unknown>).id = 'changed';
      const metadata = value.metadata as { labels: Record<string, string> };
      metadata.labels.team = 'changed';
      const [loadBalancer] = value.loadBalancers as Record<string, unknown>[];
      expect(loadBalancer).to.not.equal(undefined);
      if (loadBalancer) loadBalancer.name = 'changed';
      expect(input).to.deep.equal(rich);
      expect(currentInput).to.deep.equal(current);
    });

    it('holds no undefined values, so it survives a JSON round trip unchanged', () => {
      const { value } = expectOk(toMapi(structuredClone(rich), { userDataSecretName: undefined }));
      expect(JSON.parse(JSON.stringify(value))).to.deep.equal(value);
      expect(Object.values(value)).to.not.include(undefined);
    });

    it('is a providerSpec the forward converter takes without a warning', () => {
      const { value } = expectOk(
        toMapi(structuredClone(rich), { userDataSecretName: 'worker-user-data' }),
      );
      const forward = expectOk(
        powerVsConverter.toCapi(value, {
          infrastructure: infrastructure(),
          path: 'spec.template.spec.providerSpec.value',
          controlPlane: false,
        }),
      );
      expect(forward.warnings).to.deep.equal([]);
      expect(forward.value.templateSpec).to.deep.equal(rich);
    });
  });
});
