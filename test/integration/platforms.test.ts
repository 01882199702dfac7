// Every platform end to end: an installer-style MachineSet is mirrored with the
// platform's template, a providerSpec change rotates it, and a MachineSet of
// another platform is refused with a clear message.
import { expect } from 'chai';
import type { CapiMachineSet, MachineTemplate, MapiMachineSet } from '../../src/api/types.js';
import { eventually } from '../support/eventually.js';
import {
  awsMachineSet,
  CAPI,
  DEFAULT_INFRASTRUCTURE,
  MAPI,
  setInfrastructure,
  startTestController,
  type TestController,
  unadmitted,
} from '../support/controller.js';
import { PLATFORM_FIXTURES } from '../support/fixtures/index.js';
import type { PlatformFixture } from '../support/fixtures/types.js';
import { adminObjects } from '../support/cluster.js';

async function listTemplates(c: TestController, fixture: PlatformFixture) {
  const { group, version, plural } = fixture.templates;
  const list = await adminObjects().list<MachineTemplate>({
    group,
    version,
    plural,
    namespace: c.capiNamespace,
  });
  return list.items;
}

async function getMapi(c: TestController, name: string): Promise<MapiMachineSet> {
  return await adminObjects().get<MapiMachineSet>({
    ...MAPI,
    namespace: c.mapiNamespace,
    name,
  });
}

async function create(c: TestController, body: MapiMachineSet): Promise<void> {
  await adminObjects().create({ ...MAPI, namespace: c.mapiNamespace }, body);
  await adminObjects().patch(
    { ...MAPI, namespace: c.mapiNamespace, name: body.metadata.name },
    {
      type: 'json',
      operations: [{ op: 'add', path: '/status', value: { authoritativeAPI: 'MachineAPI' } }],
    },
    { subresource: 'status' },
  );
}

function synchronized(mapi: MapiMachineSet) {
  return mapi.status?.conditions?.find((cond) => cond.type === 'Synchronized');
}

describe('every platform end to end', function () {
  this.timeout(120_000);

  after(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  for (const fixture of PLATFORM_FIXTURES) {
    it(`${fixture.platform}: mirrors, rotates the ${fixture.templates.kind} on a change, refuses other platforms`, async () => {
      await setInfrastructure(fixture.infrastructure);
      const c = await startTestController();
      const name = `${fixture.platform.toLowerCase()}-worker`;
      await create(c, fixture.machineSet(name, c.mapiNamespace));
      // machine-api-operator's webhooks would refuse it on this platform: one they never saw
      await create(c, unadmitted(awsMachineSet('aws-on-the-wrong-cluster', c.mapiNamespace)));

      const first = await eventually(async () => {
        const mapi = await getMapi(c, name);
        expect(synchronized(mapi), JSON.stringify(mapi.status)).to.include({ status: 'True' });
        const templates = await listTemplates(c, fixture);
        expect(templates).to.have.length(1);
        return templates[0]!;
      });
      const mirror = await adminObjects().get<CapiMachineSet>({
        ...CAPI,
        namespace: c.capiNamespace,
        name,
      });
      expect(mirror.spec.template.spec.infrastructureRef).to.deep.equal({
        apiGroup: 'infrastructure.cluster.x-k8s.io',
        kind: fixture.templates.kind,
        name: first.metadata.name,
      });
      expect(mirror.spec.template.spec.failureDomain).to.equal(fixture.failureDomain);
      expect(first.metadata.ownerReferences?.[0]?.uid).to.equal(mirror.metadata.uid);

      await adminObjects().patch(
        { ...MAPI, namespace: c.mapiNamespace, name },
        { type: 'json', operations: fixture.change },
      );
      await eventually(async () => {
        const mapi = await getMapi(c, name);
        expect(synchronized(mapi)?.status).to.equal('True');
        expect(mapi.status?.synchronizedGeneration).to.equal(mapi.metadata.generation);
        const templates = await listTemplates(c, fixture);
        expect(templates.map((t) => t.metadata.name)).to.have.length(1);
        expect(templates[0]!.metadata.name).to.not.equal(first.metadata.name);
      });

      const wrong = await getMapi(c, 'aws-on-the-wrong-cluster');
      expect(synchronized(wrong)).to.include({
        status: 'False',
        reason: 'FailedToConvertMAPIMachineSetToCAPI',
      });
      expect(synchronized(wrong)?.message).to.contain('AWSMachineProviderConfig');
      expect(synchronized(wrong)?.message).to.contain(fixture.platform);
    });
  }
});
