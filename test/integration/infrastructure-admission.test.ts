// Policy 9, mapi-capi-sync-infrastructure-expressible (manifests/), through the real API server
// and the providers' webhooks: a person's infrastructure template or machine that sets a field
// Machine API has no equivalent for is refused, naming the field; the same object without it,
// and the controllers' writes, are admitted; and a field already there is not held against an
// unrelated edit. The refused lists themselves are checked against the converters by
// test/unit/conversion/infrastructure-expressible-policy.test.ts.
import { expect } from 'chai';
import { admissionPolicies, installForTheTest } from '../support/admission.js';
import { adminConfig, controllerConfig, testNamespace, uniqueName } from '../support/cluster.js';
import {
  platformMachineSets,
  providerSpecOf,
  type PlatformMachineSet,
} from '../support/conversion.js';
import { createAs, mergePatchAs, refusedOnceInEffect } from '../support/requests.js';

const POLICY = 'mapi-capi-sync-infrastructure-expressible';

/** Where an object is, as mergePatchAs names it. */
const at = (o: InfraObject) => ({
  apiVersion: o.apiVersion,
  kind: o.kind,
  namespace: o.metadata.namespace,
  name: o.metadata.name,
});

interface InfraObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; labels?: Record<string, string> };
  spec: Record<string, unknown>;
}

/** Per platform, one refused field (its path in the policy's message) and how to set it. */
const REFUSED: Record<string, { path: string; set(spec: Record<string, unknown>): void }> = {
  AWS: { path: 'imageLookupOrg', set: (spec) => (spec.imageLookupOrg = '258751437250') },
  Azure: { path: 'dnsServers', set: (spec) => (spec.dnsServers = ['10.0.0.10']) },
  GCP: {
    path: 'aliasIPRanges',
    set: (spec) => (spec.aliasIPRanges = [{ ipCidrRange: '10.1.0.0/24' }]),
  },
  // a field in each item of a list, set on the first of the template's ports
  OpenStack: {
    path: 'ports[].hostID',
    set: (spec) => ((spec.ports as Record<string, unknown>[])[0]!.hostID = 'compute-1'),
  },
  PowerVS: { path: 'imageRef', set: (spec) => (spec.imageRef = { name: 'rhcos-image' }) },
  VSphere: {
    path: 'customVMXKeys',
    set: (spec) => (spec.customVMXKeys = { 'guestinfo.example': 'value' }),
  },
};

/** A namespace standing for openshift-cluster-api, with this policy (only) bound to it. */
async function namespaceWithPolicy(): Promise<string> {
  const mapiNamespace = await testNamespace('mapi');
  const capiNamespace = await testNamespace('capi');
  const objects = (await admissionPolicies({ mapiNamespace, capiNamespace })).filter((o) =>
    o.metadata.name.startsWith(`${POLICY}-`),
  );
  expect(objects.map((o) => o.kind)).to.deep.equal([
    'ValidatingAdmissionPolicy',
    'ValidatingAdmissionPolicyBinding',
  ]);
  await installForTheTest(objects);
  return capiNamespace;
}

/** The template and the infrastructure machine of a platform's converted worker MachineSet. */
function objectsOf(platform: PlatformMachineSet, namespace: string) {
  const { converter } = platform;
  const converted = converter.toCapi(providerSpecOf(platform.machineSet()), {
    infrastructure: platform.infrastructure,
    path: 'spec.template.spec.providerSpec.value',
    controlPlane: false,
  });
  if (!converted.ok) throw new Error(JSON.stringify(converted.errors));
  const spec = converted.value.templateSpec;
  const template = (withField: boolean): InfraObject => {
    const copy = structuredClone(spec);
    if (withField) REFUSED[platform.platform]!.set(copy);
    return {
      apiVersion: converter.template.apiVersion,
      kind: converter.template.kind,
      metadata: { name: uniqueName('template'), namespace },
      spec: { template: { spec: copy } },
    };
  };
  const machine = (withField: boolean): InfraObject => {
    const copy = structuredClone(spec);
    if (withField) REFUSED[platform.platform]!.set(copy);
    return {
      apiVersion: converter.machine!.apiVersion,
      kind: converter.machine!.kind,
      metadata: { name: uniqueName('machine'), namespace },
      spec: copy,
    };
  };
  return { template, machine };
}

describe(`admission policy ${POLICY}`, function () {
  this.timeout(120_000);

  for (const platform of platformMachineSets()) {
    const { path } = REFUSED[platform.platform]!;
    const { kind } = platform.converter.template;
    const machineKind = platform.converter.machine!.kind;

    it(`${platform.platform}: refuses a person's ${kind} or ${machineKind} setting ${path}; admits it without, or from the controller`, async () => {
      const namespace = await namespaceWithPolicy();
      const { template, machine } = objectsOf(platform, namespace);
      const person = adminConfig();

      const refused = await refusedOnceInEffect(() => createAs(person, template(true)));
      expect(refused).to.contain(`ValidatingAdmissionPolicy '${POLICY}-`);
      expect(refused).to.contain(`sets spec.template.spec.${path}, which Machine API has no`);
      expect(refused).to.contain('Remove the field.');
      expect(await createAs(person, template(false))).to.equal(undefined);

      const refusedMachine = await createAs(person, machine(true));
      expect(refusedMachine).to.contain(`ValidatingAdmissionPolicy '${POLICY}-`);
      expect(refusedMachine).to.contain(`${machineKind} machine-`);
      expect(refusedMachine).to.contain(`sets spec.${path}, which`);
      expect(await createAs(person, machine(false))).to.equal(undefined);

      const controller = controllerConfig();
      expect(await createAs(controller, template(true))).to.equal(undefined);
      expect(await createAs(controller, machine(true))).to.equal(undefined);
    });

    it(`${platform.platform}: admits a person's label edit of ${kind} and ${machineKind} objects that already set ${path}`, async () => {
      const namespace = await namespaceWithPolicy();
      const { template, machine } = objectsOf(platform, namespace);
      const person = adminConfig();
      // the policy is in effect once it refuses a person's create
      await refusedOnceInEffect(() => createAs(person, template(true)));
      // made by the controller, which is exempt; a person then only labels them (the webhooks
      // of AWS's and OpenStack's templates refuse any change of the spec)
      for (const object of [template(true), machine(true)]) {
        expect(await createAs(controllerConfig(), object)).to.equal(undefined);
        const label = { metadata: { labels: { team: 'infra' } } };
        expect(await mergePatchAs(person, at(object), label), object.kind).to.equal(undefined);
      }
    });
  }

  it('refuses on UPDATE only the field newly set, not the one already there', async () => {
    const namespace = await namespaceWithPolicy();
    const aws = platformMachineSets().find((p) => p.platform === 'AWS')!;
    const { template, machine } = objectsOf(aws, namespace);
    const person = adminConfig();
    await refusedOnceInEffect(() => createAs(person, template(true)));
    const awsMachine = machine(true);
    expect(await createAs(controllerConfig(), awsMachine)).to.equal(undefined);
    const message = await mergePatchAs(person, at(awsMachine), {
      spec: { imageLookupBaseOS: 'rhel-9' },
    });
    expect(message).to.contain(`ValidatingAdmissionPolicy '${POLICY}-`);
    expect(message).to.contain(
      `AWSMachine ${awsMachine.metadata.name} sets spec.imageLookupBaseOS, which Machine API`,
    );
    expect(message).not.to.contain('spec.imageLookupOrg');
  });
});
