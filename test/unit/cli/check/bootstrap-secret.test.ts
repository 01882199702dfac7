// check: the Secret a MachineSet's mirror boots its machines from, in the Cluster API namespace.
import { expect } from 'chai';
import type { MapiMachineSet } from '../../../../src/api/types.js';
import {
  bootstrapSecretNotes,
  bootstrapSecretsToRead,
  withBootstrapSecret,
} from '../../../../src/cli/check/bootstrap-secret.js';
import { reportMachineSet, type CheckFacts } from '../../../../src/cli/check/report.js';
import { platformCorpus } from './corpus.js';

const FACTS: CheckFacts = { capiNamespace: 'openshift-cluster-api', fromCluster: false };
const PATH = 'spec.template.spec.providerSpec.value.userDataSecret.name';

function withAuthority(machineSet: MapiMachineSet, authority?: 'MachineAPI' | 'ClusterAPI') {
  if (authority) machineSet.status = { authoritativeAPI: authority };
  return machineSet;
}

describe('check: the bootstrap Secret in the Cluster API namespace', () => {
  for (const c of platformCorpus()) {
    it(`${c.platform}: names the mirror's Secret, and holds the migration while it is missing`, () => {
      const report = reportMachineSet(c.good(), FACTS);
      const [name] = bootstrapSecretsToRead([report]);
      expect(name).to.be.a('string').and.not.equal('');
      const held = withBootstrapSecret(report, {
        namespace: 'openshift-cluster-api',
        missing: new Set([name!]),
      });
      expect(held.canMigrate).to.equal(false);
      expect(held.blocking.at(-1)).to.deep.include({ stage: 'migration', path: PATH });
      expect(held.blocking.at(-1)?.message).to.match(
        new RegExp(`^names the Secret ${name}, which does not exist in openshift-cluster-api`),
      );
      const present = { namespace: 'openshift-cluster-api', missing: new Set<string>() };
      expect(withBootstrapSecret(report, present)).to.equal(report);
    });
  }

  it('reads only for MachineSets Machine API runs, once per Secret', () => {
    const aws = platformCorpus().find((c) => c.platform === 'AWS')!;
    const reports = [
      reportMachineSet(withAuthority(aws.good()), FACTS),
      reportMachineSet(withAuthority(aws.good(), 'MachineAPI'), FACTS),
      reportMachineSet(withAuthority(aws.good(), 'ClusterAPI'), FACTS),
    ];
    expect(bootstrapSecretsToRead(reports)).to.have.length(1);
    expect(bootstrapSecretsToRead(reports.slice(2))).to.deep.equal([]);
    const onClusterApi = reports[2]!;
    const missing = { namespace: 'ns', missing: new Set(bootstrapSecretsToRead(reports)) };
    expect(withBootstrapSecret(onClusterApi, missing)).to.equal(onClusterApi);
  });

  it('says once when the Secrets could not be read, and holds nothing for it', () => {
    const aws = platformCorpus().find((c) => c.platform === 'AWS')!;
    const report = reportMachineSet(aws.good(), FACTS);
    const unread = { namespace: 'ns', notRead: 'cannot get secrets in ns: forbidden' };
    expect(withBootstrapSecret(report, unread)).to.equal(report);
    expect(bootstrapSecretNotes(unread)).to.deep.equal([
      'bootstrap Secrets in ns not checked: cannot get secrets in ns: forbidden.',
    ]);
    expect(bootstrapSecretNotes(undefined)).to.deep.equal([]);
  });
});
