// Table-driven tests of the PowerVS converter: every mapped field, every rejection, every warning,
// and the shared PowerVS test fixture.
import { expect } from 'chai';
import type { Infrastructure } from '../../../../src/api/types.js';
import { powerVsConverter } from '../../../../src/conversion/powervs/index.js';
import type {
  Conversion,
  ConversionContext,
  ProviderConversion,
} from '../../../../src/conversion/types.js';
import { powerVsFixture } from '../../../support/fixtures/powervs.js';
import {
  applyPatch,
  expectErrors,
  expectFieldErrors,
  expectOk,
  PROVIDER_SPEC_PATH,
  providerSpecOf,
  itConvertsPurely,
} from '../../../support/conversion.js';

const PATH = PROVIDER_SPEC_PATH;
const WORKSPACE = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
const CLUSTER = 'ci-ln-abc12';

function infrastructure(): Infrastructure {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    status: {
      infrastructureName: CLUSTER,
      platformStatus: { type: 'PowerVS', powervs: { region: 'dal', zone: 'dal10' } },
    },
  };
}

function context(overrides: Partial<ConversionContext> = {}): ConversionContext {
  return { infrastructure: infrastructure(), path: PATH, controlPlane: false, ...overrides };
}

/** The smallest providerSpec that converts. */
function minimalSpec(): Record<string, unknown> {
  return {
    apiVersion: 'machine.openshift.io/v1',
    kind: 'PowerVSMachineProviderConfig',
    serviceInstance: { type: 'ID', id: WORKSPACE },
    image: { type: 'Name', name: 'rhcos-ci' },
    network: { type: 'Name', name: 'ci-net' },
    keyPairName: 'ci-key',
    userDataSecret: { name: 'worker-user-data' },
  };
}

/** What the minimal spec converts to: Machine API's defaults are written out. */
function minimalTemplate(): Record<string, unknown> {
  return {
    serviceInstanceID: '',
    serviceInstance: { id: WORKSPACE },
    image: { name: 'rhcos-ci' },
    network: { name: 'ci-net' },
    sshKey: 'ci-key',
    systemType: 's922',
    processorType: 'Shared',
    processors: '0.5',
    memoryGiB: 32,
  };
}

function convert(
  providerSpec: unknown,
  overrides: Partial<ConversionContext> = {},
): Conversion<ProviderConversion> {
  return powerVsConverter.toCapi(providerSpec, context(overrides));
}

/** The minimal spec with `fields` merged in; a field set to undefined is removed. */
function specWith(fields: Record<string, unknown>): Record<string, unknown> {
  const spec: Record<string, unknown> = { ...minimalSpec(), ...fields };
  for (const [key, value] of Object.entries(fields)) if (value === undefined) delete spec[key];
  return spec;
}

describe('powerVsConverter', () => {
  it('describes the PowerVS platform and its template', () => {
    expect(powerVsConverter.platform).to.equal('PowerVS');
    expect(powerVsConverter.providerSpecKind).to.equal('PowerVSMachineProviderConfig');
    expect(powerVsConverter.template).to.deep.equal({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'IBMPowerVSMachineTemplate',
      plural: 'ibmpowervsmachinetemplates',
    });
  });

  it('converts an OpenShift installer worker providerSpec to the full template spec', () => {
    const installerSpec = {
      apiVersion: 'machine.openshift.io/v1',
      credentialsSecret: { name: 'powervs-credentials' },
      image: { name: `rhcos-${CLUSTER}`, type: 'Name' },
      keyPairName: `${CLUSTER}-key`,
      kind: 'PowerVSMachineProviderConfig',
      memoryGiB: 32,
      metadata: { creationTimestamp: null },
      network: { regex: `^DHCPSERVER.*${CLUSTER}.*_Private$`, type: 'RegEx' },
      processorType: 'Shared',
      processors: '0.5',
      serviceInstance: { id: WORKSPACE, type: 'ID' },
      systemType: 's922',
      userDataSecret: { name: 'worker-user-data' },
    };
    const result = expectOk(convert(installerSpec));
    expect(result.value).to.deep.equal({
      templateSpec: {
        serviceInstanceID: '',
        serviceInstance: { id: WORKSPACE },
        image: { name: `rhcos-${CLUSTER}` },
        network: { regex: `^DHCPSERVER.*${CLUSTER}.*_Private$` },
        sshKey: `${CLUSTER}-key`,
        systemType: 's922',
        processorType: 'Shared',
        processors: '0.5',
        memoryGiB: 32,
      },
      userDataSecretName: 'worker-user-data',
    });
    expect(result.value).to.not.have.property('failureDomain');
    expect(result.warnings).to.deep.equal([]);
  });

  describe('maps every field', () => {
    interface MappingCase {
      name: string;
      /** Fields merged into the minimal providerSpec. */
      input: Record<string, unknown>;
      /** Fields merged into the minimal template. */
      template?: Record<string, unknown>;
      userDataSecretName?: string;
      controlPlane?: boolean;
    }

    const cases: MappingCase[] = [
      { name: 'the minimal spec, with the Machine API defaults materialised', input: {} },
      {
        name: 'serviceInstance ID → serviceInstance.id (serviceInstanceID stays "")',
        input: { serviceInstance: { type: 'ID', id: 'f0e1d2c3-0000-4000-8000-000000000001' } },
        template: { serviceInstance: { id: 'f0e1d2c3-0000-4000-8000-000000000001' } },
      },
      {
        name: 'image Name → image.name',
        input: { image: { type: 'Name', name: 'rhcos-418' } },
        template: { image: { name: 'rhcos-418' } },
      },
      {
        name: 'image ID → image.id',
        input: { image: { type: 'ID', id: 'img-0123' } },
        template: { image: { id: 'img-0123' } },
      },
      {
        name: 'network Name → network.name',
        input: { network: { type: 'Name', name: 'pvs-ipi-net' } },
        template: { network: { name: 'pvs-ipi-net' } },
      },
      {
        name: 'network ID → network.id',
        input: { network: { type: 'ID', id: 'net-0123' } },
        template: { network: { id: 'net-0123' } },
      },
      {
        name: 'network RegEx → network.regex',
        input: { network: { type: 'RegEx', regex: '^DHCPSERVER.*_Private$' } },
        template: { network: { regex: '^DHCPSERVER.*_Private$' } },
      },
      {
        name: 'keyPairName → sshKey',
        input: { keyPairName: 'ops key' },
        template: { sshKey: 'ops key' },
      },
      ...['s922', 'e980', 's1022', 'e1050', 'e1080', 's1122'].map((systemType) => ({
        name: `systemType ${systemType} → systemType`,
        input: { systemType },
        template: { systemType },
      })),
      {
        name: 'systemType in upper case → lower case (both APIs send it in lower case)',
        input: { systemType: 'E1080' },
        template: { systemType: 'e1080' },
      },
      {
        name: 'processorType Dedicated → Dedicated, processors default 1',
        input: { processorType: 'Dedicated' },
        template: { processorType: 'Dedicated', processors: 1 },
      },
      {
        name: 'processorType Capped → Capped, processors default "0.5"',
        input: { processorType: 'Capped' },
        template: { processorType: 'Capped' },
      },
      {
        name: 'processorType Shared → Shared',
        input: { processorType: 'Shared' },
      },
      {
        name: 'processorType in lower case → its canonical form (both APIs lower-case it)',
        input: { processorType: 'dedicated', processors: 2 },
        template: { processorType: 'Dedicated', processors: 2 },
      },
      {
        name: 'processors as an integer → the integer',
        input: { processors: 4 },
        template: { processors: 4 },
      },
      {
        name: 'processors as a decimal string → the same string',
        input: { processors: '1.25' },
        template: { processors: '1.25' },
      },
      {
        name: 'processors at the minimum, 0.25',
        input: { processors: '0.25' },
        template: { processors: '0.25' },
      },
      {
        name: 'processors as a whole-number string with Dedicated → the same string',
        input: { processorType: 'Dedicated', processors: '3' },
        template: { processorType: 'Dedicated', processors: '3' },
      },
      {
        name: 'processors 0 (how Go writes an unset int-or-string) → the default',
        input: { processors: 0 },
      },
      {
        name: 'processors 0 with Dedicated → the Dedicated default 1',
        input: { processors: 0, processorType: 'Dedicated' },
        template: { processorType: 'Dedicated', processors: 1 },
      },
      { name: 'memoryGiB → memoryGiB', input: { memoryGiB: 64 }, template: { memoryGiB: 64 } },
      {
        name: 'memoryGiB at the Cluster API minimum, 2',
        input: { memoryGiB: 2 },
        template: { memoryGiB: 2 },
      },
      { name: 'memoryGiB 0 (omitempty) → the default 32', input: { memoryGiB: 0 } },
      {
        name: 'userDataSecret.name → userDataSecretName',
        input: { userDataSecret: { name: 'infra-user-data' } },
        userDataSecretName: 'infra-user-data',
      },
      {
        name: 'the default credentialsSecret and empty metadata are redundant',
        input: {
          credentialsSecret: { name: 'powervs-credentials' },
          metadata: { creationTimestamp: null },
        },
      },
      {
        name: 'empty strings of omitempty fields and nulls mean "not set"',
        input: {
          systemType: '',
          processorType: '',
          processors: '',
          memoryGiB: null,
          credentialsSecret: { name: '' },
          loadBalancers: null,
        },
      },
      { name: 'loadBalancers: [] on a worker', input: { loadBalancers: [] } },
    ];

    for (const c of cases) {
      it(c.name, () => {
        const result = expectOk(
          convert(specWith(c.input), { controlPlane: c.controlPlane ?? false }),
        );
        expect(result.value.templateSpec).to.deep.equal({ ...minimalTemplate(), ...c.template });
        expect(result.value.failureDomain).to.equal(undefined);
        expect(result.value.userDataSecretName).to.equal(
          c.userDataSecretName ?? 'worker-user-data',
        );
        expect(result.warnings).to.deep.equal([]);
      });
    }
  });

  describe('rejects what Cluster API cannot hold, with the field path', () => {
    interface RejectionCase {
      name: string;
      /** Fields merged into the minimal providerSpec; `undefined` removes one. */
      input: Record<string, unknown>;
      /** Every expected error, as path → a pattern its message must match. */
      errors: [path: string, message: RegExp][];
      controlPlane?: boolean;
    }

    const cases: RejectionCase[] = [
      // kind and shape
      {
        name: "another platform's providerSpec: only the kind is reported, not its fields",
        input: {
          apiVersion: 'machine.openshift.io/v1beta1',
          kind: 'AWSMachineProviderConfig',
          instanceType: 'm6i.xlarge',
          serviceInstance: undefined,
          image: undefined,
          network: undefined,
          keyPairName: undefined,
        },
        errors: [
          [
            `${PATH}.kind`,
            /^is AWSMachineProviderConfig, .*PowerVS.*set kind to PowerVSMachineProviderConfig\.$/,
          ],
        ],
      },
      {
        name: 'a kind that is not a string',
        input: { kind: 7 },
        errors: [[`${PATH}.kind`, /^is the number 7, /]],
      },
      {
        name: 'an apiVersion other than machine.openshift.io/v1',
        input: { apiVersion: 'machine.openshift.io/v1beta1' },
        errors: [
          [`${PATH}.apiVersion`, /^is the string .*; set it to machine\.openshift\.io\/v1,/],
        ],
      },
      {
        name: 'an unknown top-level field',
        input: { memoryGB: 32 },
        errors: [[`${PATH}.memoryGB`, /not a field .* remove the field or correct its spelling/]],
      },
      {
        name: 'unknown nested fields, at every depth',
        input: {
          serviceInstance: { type: 'ID', id: WORKSPACE, crn: 'crn:v1:x' },
          image: { type: 'Name', name: 'rhcos', tag: 'latest' },
          network: { type: 'Name', name: 'net', cidr: '10.0.0.0/24' },
          userDataSecret: { name: 'worker-user-data', namespace: 'openshift-machine-api' },
          credentialsSecret: { name: 'powervs-credentials', key: 'ibmcloud_api_key' },
        },
        errors: [
          [`${PATH}.serviceInstance.crn`, /not a field/],
          [`${PATH}.image.tag`, /not a field/],
          [`${PATH}.network.cidr`, /not a field/],
          [`${PATH}.userDataSecret.namespace`, /not a field/],
          [`${PATH}.credentialsSecret.key`, /not a field/],
        ],
      },
      {
        name: 'values of the wrong type',
        input: {
          keyPairName: 5,
          memoryGiB: '32',
          processors: true,
          image: 'rhcos',
          network: [],
          systemType: 922,
          serviceInstance: { type: 'ID', id: 42 },
        },
        errors: [
          [`${PATH}.serviceInstance.id`, /must be a string, but is the number 42/],
          [`${PATH}.image`, /must be an object, but is the string "rhcos"/],
          [`${PATH}.network`, /must be an object, but is an array/],
          [`${PATH}.keyPairName`, /must be a string, but is the number 5/],
          [`${PATH}.systemType`, /must be a string, but is the number 922/],
          [`${PATH}.processors`, /must be an integer or a string .* but is the boolean true/],
          [`${PATH}.memoryGiB`, /must be an integer, but is the string "32"/],
        ],
      },
      // required fields
      {
        name: 'no serviceInstance, image, network or keyPairName',
        input: {
          serviceInstance: undefined,
          image: undefined,
          network: undefined,
          keyPairName: undefined,
        },
        errors: [
          [`${PATH}.serviceInstance`, /^is required; set type to ID and id to the GUID/],
          [`${PATH}.image`, /^is required; name the boot image/],
          [`${PATH}.network`, /^is required; name the network/],
          [
            `${PATH}.keyPairName`,
            /^is required; .*SSH key pair .*\(the installer's is ci-ln-abc12-key\)\.$/,
          ],
        ],
      },
      {
        name: 'an empty keyPairName',
        input: { keyPairName: '' },
        errors: [[`${PATH}.keyPairName`, /^is required;/]],
      },
      // resource references
      {
        name: 'a workspace by name (CAPIBM ignores it and would use the cluster workspace)',
        input: { serviceInstance: { type: 'Name', name: 'ci-workspace' } },
        errors: [
          [
            `${PATH}.serviceInstance.type`,
            /^is Name, but .*ignores a workspace name.*set type to ID and id to the GUID/,
          ],
        ],
      },
      {
        name: 'a workspace by regular expression',
        input: { serviceInstance: { type: 'RegEx', regex: 'ci-.*' } },
        errors: [[`${PATH}.serviceInstance.type`, /^is RegEx, but .*regular expression/]],
      },
      {
        name: 'a boot image by regular expression',
        input: { image: { type: 'RegEx', regex: 'rhcos-.*' } },
        errors: [[`${PATH}.image.type`, /^is RegEx, but .*set type to Name \(with name\) or ID/]],
      },
      {
        name: 'a reference without type (Machine API uses only the field type names)',
        input: { network: { name: 'ci-net' } },
        errors: [
          [
            `${PATH}.network.type`,
            /^is required, .*set type to ID \(with id\) or Name \(with name\) or RegEx \(with regex\)\.$/,
          ],
        ],
      },
      {
        name: 'a reference type Machine API does not know (types are case-sensitive)',
        input: { image: { type: 'name', name: 'rhcos' } },
        errors: [
          [
            `${PATH}.image.type`,
            /^is "name", which is not a PowerVS resource type; set it to ID \(with id\) or Name \(with name\)\.$/,
          ],
        ],
      },
      {
        name: 'type ID without an id',
        input: { serviceInstance: { type: 'ID' } },
        errors: [
          [`${PATH}.serviceInstance.id`, /^is required when type is ID; set it to the GUID/],
        ],
      },
      {
        name: 'type Name with an empty name',
        input: { image: { type: 'Name', name: '' } },
        errors: [[`${PATH}.image.name`, /^is required when type is Name;/]],
      },
      {
        name: 'type RegEx with a name but no regex',
        input: { network: { type: 'RegEx', name: 'ci-net' } },
        errors: [[`${PATH}.network.regex`, /^is required when type is RegEx;/]],
      },
      // machine size
      {
        name: 'a system type Cluster API cannot create machines on (e880)',
        input: { systemType: 'e880' },
        errors: [
          [
            `${PATH}.systemType`,
            /^is "e880", .*; use one of s922, e980, s1022, e1050, e1080, s1122\.$/,
          ],
        ],
      },
      {
        name: 'an unknown processor type',
        input: { processorType: 'Burst' },
        errors: [
          [`${PATH}.processorType`, /^is "Burst", .*use one of Dedicated, Shared, Capped\./],
        ],
      },
      {
        name: 'fractional processors as a JSON number (Machine API cannot decode it)',
        input: { processors: 0.5 },
        errors: [[`${PATH}.processors`, /^is the number 0\.5, .*as a string, e\.g\. "0\.5"\.$/]],
      },
      {
        name: 'processors beyond a 32-bit integer',
        input: { processors: 2 ** 31 },
        errors: [[`${PATH}.processors`, /32-bit integer/]],
      },
      {
        name: 'processors that are not a plain decimal number',
        input: { processors: '1e3' },
        errors: [
          [`${PATH}.processors`, /^is the string "1e3", which is not a number of processors/],
        ],
      },
      {
        name: 'negative processors in a string',
        input: { processors: '-1' },
        errors: [[`${PATH}.processors`, /not a number of processors; write a positive decimal/]],
      },
      {
        name: 'negative processors as an integer',
        input: { processors: -2 },
        errors: [[`${PATH}.processors`, /^is -2, but Cluster API requires at least 0\.25/]],
      },
      {
        name: 'processors below the Cluster API minimum of 0.25',
        input: { processors: '0.2' },
        errors: [[`${PATH}.processors`, /^is "0\.2", but Cluster API requires at least 0\.25/]],
      },
      {
        name: 'processors "0" (only the int-or-string zero value means "not set")',
        input: { processors: '0' },
        errors: [[`${PATH}.processors`, /requires at least 0\.25/]],
      },
      {
        name: 'fractional dedicated processors',
        input: { processorType: 'Dedicated', processors: '1.5' },
        errors: [
          [`${PATH}.processors`, /^is "1\.5", but dedicated processors cannot be fractional/],
        ],
      },
      {
        name: 'memoryGiB below the Cluster API minimum of 2',
        input: { memoryGiB: 1 },
        errors: [[`${PATH}.memoryGiB`, /^is 1, but Cluster API accepts 2 to 2147483647 GiB/]],
      },
      {
        name: 'negative memoryGiB',
        input: { memoryGiB: -32 },
        errors: [[`${PATH}.memoryGiB`, /^is -32, /]],
      },
      {
        name: 'memoryGiB beyond a 32-bit integer',
        input: { memoryGiB: 2 ** 31 },
        errors: [[`${PATH}.memoryGiB`, /^is 2147483648, /]],
      },
      // credentials, load balancers
      {
        name: 'a non-default credentialsSecret',
        input: { credentialsSecret: { name: 'my-powervs-creds' } },
        errors: [
          [
            `${PATH}.credentialsSecret.name`,
            /^is "my-powervs-creds", .*set the name to powervs-credentials or remove credentialsSecret\.$/,
          ],
        ],
      },
      {
        name: 'loadBalancers on a worker',
        input: { loadBalancers: [{ name: 'ci-ln-abc12-loadbalancer-int', type: 'Application' }] },
        errors: [
          [
            `${PATH}.loadBalancers`,
            /cannot express: .*IBMPowerVSCluster.*; remove loadBalancers from this worker MachineSet\.$/,
          ],
        ],
      },
      {
        name: 'invalid loadBalancers on a control-plane MachineSet',
        controlPlane: true,
        input: {
          loadBalancers: [
            { name: 'ci-ln-abc12-loadbalancer', type: 'Network' },
            { type: 'Application' },
            { name: 'ci-ln-abc12-loadbalancer-int', port: 6443 },
            'lb',
          ],
        },
        errors: [
          [`${PATH}.loadBalancers[0].type`, /^is "Network", which is not supported; use one of/],
          [`${PATH}.loadBalancers[1].name`, /^is required; name the IBM Cloud VPC load balancer/],
          [`${PATH}.loadBalancers[2].type`, /^is required; set it to Application\.$/],
          [`${PATH}.loadBalancers[2].port`, /not a field/],
          [`${PATH}.loadBalancers[3]`, /must be an object, but is the string "lb"/],
        ],
      },
    ];

    for (const c of cases) {
      it(c.name, () => {
        const errors = expectErrors(
          convert(specWith(c.input), { controlPlane: c.controlPlane ?? false }),
        );
        expectFieldErrors(errors, c.errors);
      });
    }

    it('reports every error of a providerSpec at once, not only the first', () => {
      const errors = expectErrors(
        convert({
          ...minimalSpec(),
          serviceInstance: { type: 'Name', name: 'ci-workspace' },
          image: { type: 'RegEx', regex: 'rhcos-.*' },
          network: { name: 'ci-net' },
          keyPairName: '',
          systemType: 'e880',
          processorType: 'Dedicated',
          processors: '0.5',
          memoryGiB: 1,
          credentialsSecret: { name: 'other' },
          loadBalancers: [{ name: 'lb', type: 'Application' }],
          extra: true,
        }),
      );
      expect(errors.map((e) => e.path)).to.have.members([
        `${PATH}.serviceInstance.type`,
        `${PATH}.image.type`,
        `${PATH}.network.type`,
        `${PATH}.keyPairName`,
        `${PATH}.systemType`,
        `${PATH}.processors`,
        `${PATH}.memoryGiB`,
        `${PATH}.credentialsSecret.name`,
        `${PATH}.loadBalancers`,
        `${PATH}.extra`,
      ]);
    });

    it('uses the context path for every error path', () => {
      const errors = expectErrors(
        convert(
          { ...minimalSpec(), image: { type: 'ID' }, memoryGiB: 1 },
          { path: 'spec.providerSpec.value' },
        ),
      );
      expect(errors.map((e) => e.path)).to.have.members([
        'spec.providerSpec.value.image.id',
        'spec.providerSpec.value.memoryGiB',
      ]);
    });

    it('names no installer key pair when the Infrastructure has no infrastructureName', () => {
      const bare: Infrastructure = { ...infrastructure(), status: { platformStatus: {} } };
      const errors = expectErrors(
        convert(specWith({ keyPairName: undefined }), { infrastructure: bare }),
      );
      expect(errors).to.deep.equal([
        {
          path: `${PATH}.keyPairName`,
          message: 'is required; set it to the name of an SSH key pair in the PowerVS workspace.',
        },
      ]);
    });
  });

  describe('warns about lossy but safe conversions', () => {
    interface WarningCase {
      name: string;
      input: Record<string, unknown>;
      warning: RegExp;
      template?: Record<string, unknown>;
      controlPlane?: boolean;
    }

    const cases: WarningCase[] = [
      {
        name: 'loadBalancers on a control-plane MachineSet are left to the IBMPowerVSCluster',
        input: {
          loadBalancers: [
            { name: 'ci-ln-abc12-loadbalancer-int', type: 'Application' },
            { name: 'ci-ln-abc12-loadbalancer', type: 'Application' },
          ],
        },
        controlPlane: true,
        warning: new RegExp(
          `^${PATH}\\.loadBalancers is not converted: Cluster API adds control-plane machines .*IBMPowerVSCluster\\.$`,
        ),
      },
      {
        name: 'providerSpec metadata is dropped',
        input: { metadata: { name: 'worker', labels: { a: 'b' } } },
        warning: new RegExp(`^${PATH}\\.metadata is not used by any machine controller`),
      },
      {
        name: 'an id next to type Name is ignored by Machine API, so it is not converted',
        input: { image: { type: 'Name', name: 'rhcos-ci', id: 'img-0123' } },
        warning: new RegExp(
          `^${PATH}\\.image\\.id is not converted: type is Name, so Machine API uses only name and ignores id, ` +
            'and Cluster API accepts only one of id, name and regex\\.$',
        ),
      },
      {
        name: 'a name next to type RegEx is ignored by Machine API, so it is not converted',
        input: { network: { type: 'RegEx', regex: '^ci-.*$', name: 'ci-net' } },
        warning: new RegExp(`^${PATH}\\.network\\.name is not converted: type is RegEx`),
        template: { network: { regex: '^ci-.*$' } },
      },
      {
        name: 'a name next to type ID on the workspace is ignored by Machine API',
        input: { serviceInstance: { type: 'ID', id: WORKSPACE, name: 'ci-workspace' } },
        warning: new RegExp(`^${PATH}\\.serviceInstance\\.name is not converted: type is ID`),
      },
      {
        name: "no userDataSecret: machine-api-operator's default, worker-user-data",
        input: { userDataSecret: null },
        warning: new RegExp(
          `^${PATH}\\.userDataSecret names no Secret; machine-api-operator's webhook sets it to ` +
            'worker-user-data, so the Cluster API machines boot from .*worker-user-data',
        ),
      },
    ];

    for (const c of cases) {
      it(c.name, () => {
        const result = expectOk(
          convert(specWith(c.input), { controlPlane: c.controlPlane ?? false }),
        );
        expect(result.warnings).to.have.length(1);
        expect(result.warnings[0]).to.match(c.warning);
        expect(result.value.templateSpec).to.deep.equal({ ...minimalTemplate(), ...c.template });
        expect(result.value.userDataSecretName).to.equal('worker-user-data');
      });
    }
  });

  describe('output', () => {
    const rich = {
      ...minimalSpec(),
      image: { type: 'ID', id: 'img-0123' },
      network: { type: 'RegEx', regex: '^DHCPSERVER.*_Private$' },
      systemType: 'S1022',
      processorType: 'capped',
      processors: '2.75',
      memoryGiB: 128,
      metadata: { creationTimestamp: null },
      credentialsSecret: { name: 'powervs-credentials' },
      userDataSecret: { name: 'worker-user-data' },
    };

    itConvertsPurely(convert, () => structuredClone(rich));

    it('never aliases the input: changing the output leaves the input alone', () => {
      const input = structuredClone(rich);
      const { value } = expectOk(convert(input));
      (value.templateSpec.image as Record<string, unknown>).id = 'changed';
      (value.templateSpec.serviceInstance as Record<string, unknown>).id = 'changed';
      expect(input).to.deep.equal(rich);
    });

    it('sets every field the CRD requires and names each resource exactly once', () => {
      const { value } = expectOk(convert(structuredClone(rich)));
      expect(value.templateSpec).to.include.keys('serviceInstanceID', 'network');
      for (const key of ['serviceInstance', 'image', 'network']) {
        expect(Object.keys(value.templateSpec[key] as object), key).to.have.length(1);
      }
    });
  });

  describe('the shared PowerVS fixture', () => {
    const fixtureContext = (): ConversionContext => ({
      infrastructure: {
        apiVersion: 'config.openshift.io/v1',
        kind: 'Infrastructure',
        metadata: { name: 'cluster' },
        status: powerVsFixture.infrastructure,
      },
      path: PATH,
      controlPlane: false,
    });

    it('names this converter and its template', () => {
      expect(powerVsFixture.platform).to.equal(powerVsConverter.platform);
      expect(powerVsFixture.infrastructure.platformStatus?.type).to.equal('PowerVS');
      expect(powerVsFixture.infrastructure.infrastructureName).to.equal('demo-abc12');
      const { group, version, plural, kind } = powerVsFixture.templates;
      expect(`${group}/${version}`).to.equal(powerVsConverter.template.apiVersion);
      expect({ plural, kind }).to.deep.equal({
        plural: powerVsConverter.template.plural,
        kind: powerVsConverter.template.kind,
      });
    });

    it('machineSet() converts without errors or warnings', () => {
      const machineSet = powerVsFixture.machineSet('worker-a', 'openshift-machine-api');
      expect(machineSet.metadata).to.include({
        name: 'worker-a',
        namespace: 'openshift-machine-api',
      });
      const result = expectOk(
        powerVsConverter.toCapi(providerSpecOf(machineSet), fixtureContext()),
      );
      expect(result.warnings).to.deep.equal([]);
      expect(result.value.failureDomain).to.equal(powerVsFixture.failureDomain);
      expect(result.value.userDataSecretName).to.equal('worker-user-data');
      expect(result.value.templateSpec).to.deep.include({
        image: { name: 'rhcos-demo-abc12' },
        network: { regex: '^DHCPSERVER.*demo-abc12.*_Private$' },
        sshKey: 'demo-abc12-key',
      });
    });

    it('change makes a different template spec that still converts', () => {
      const machineSet = powerVsFixture.machineSet('worker-a', 'openshift-machine-api');
      const changed = applyPatch(machineSet, powerVsFixture.change);
      const before = expectOk(
        powerVsConverter.toCapi(providerSpecOf(machineSet), fixtureContext()),
      );
      const after = expectOk(powerVsConverter.toCapi(providerSpecOf(changed), fixtureContext()));
      expect(powerVsFixture.change).to.have.length.above(0);
      expect(after.value.templateSpec).to.not.deep.equal(before.value.templateSpec);
      expect(after.value.templateSpec).to.include({ memoryGiB: 64, processors: '1.5' });
      expect(after.warnings).to.deep.equal([]);
    });

    it('machineSet() keeps label values valid for a long name', () => {
      const name = `${'w'.repeat(60)}-workers-long`;
      const machineSet = powerVsFixture.machineSet(name, 'openshift-machine-api');
      const labels = {
        ...machineSet.spec.selector.matchLabels,
        ...machineSet.spec.template?.metadata?.labels,
      };
      for (const value of Object.values(labels)) expect(value.length).to.be.at.most(63);
      expect(machineSet.metadata.name).to.equal(name);
    });
  });
});
