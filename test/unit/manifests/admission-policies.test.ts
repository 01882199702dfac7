// Rules of manifests/admission-policies.yaml that are written once for two kinds: a policy binds
// one paramKind, so MachineSets and Machines each need their own, and this keeps them the same.
// And the infrastructure machines they guard are those the controller writes.
import { expect } from 'chai';
import {
  INFRASTRUCTURE_MACHINE_RESOURCES,
  loadManifests,
  type ManifestObject,
} from '../../support/manifests.js';

interface PolicySpec {
  variables?: { name: string; expression: string }[];
  matchConstraints?: { resourceRules?: { apiGroups: string[]; resources: string[] }[] };
}

async function policy(name: string): Promise<ManifestObject & { spec: PolicySpec }> {
  const found = (await loadManifests()).find(
    (o) => o.kind === 'ValidatingAdmissionPolicy' && o.metadata.name === name,
  );
  if (!found) throw new Error(`no ValidatingAdmissionPolicy ${name} in manifests/`);
  return found as ManifestObject & { spec: PolicySpec };
}

function variable(object: { spec: PolicySpec }, name: string): string {
  const found = object.spec.variables?.find((v) => v.name === name);
  if (!found) throw new Error(`no variable ${name}`);
  return found.expression;
}

describe('admission policies written once for MachineSets and Machines', () => {
  it('refuse the same fields Machine API cannot express on a CAPI MachineSet and a CAPI Machine', async () => {
    const machineSets = await policy('mapi-capi-sync-cluster-api-machine-set-expressible');
    const machines = await policy('mapi-capi-sync-cluster-api-machine-expressible');
    expect(variable(machines, 'refused')).to.equal(variable(machineSets, 'refused'));
    expect(machineSets.spec).to.not.deep.equal(machines.spec);
    expect(variable(machineSets, 'new')).to.equal('object.spec.template.spec');
    expect(variable(machines, 'new')).to.equal('object.spec');
  });

  it("guard every platform's infrastructure machine of a paused CAPI Machine mirror, as the RBAC grants them", async () => {
    const mirror = await policy('mapi-capi-sync-cluster-api-machine-mirror');
    const guarded = (mirror.spec.matchConstraints?.resourceRules ?? [])
      .filter((rule) => rule.apiGroups.includes('infrastructure.cluster.x-k8s.io'))
      .flatMap((rule) => rule.resources);
    expect([...guarded].sort()).to.deep.equal([...INFRASTRUCTURE_MACHINE_RESOURCES].sort());
  });
});
