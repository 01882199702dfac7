import { expect } from 'chai';
import type { CapiMachineSet, MapiCondition, MapiMachineSet } from '../../../../src/api/types.js';
import { exitCodeOf, reportMachineSet, type CheckFacts } from '../../../../src/cli/check/report.js';
import { awsConverter } from '../../../../src/conversion/aws/index.js';
import { CONVERTERS } from '../../../../src/conversion/platforms.js';
import { PROVIDER_SPEC_PATH } from '../../../support/conversion.js';
import { platformCorpus } from './corpus.js';

const OFFLINE: CheckFacts = { capiNamespace: 'openshift-cluster-api', fromCluster: false };
const corpus = platformCorpus();
const aws = corpus.find((c) => c.platform === 'AWS')!;

function synchronized(status: MapiCondition['status'], reason = 'ResourceSynchronized') {
  return {
    type: 'Synchronized',
    status,
    reason,
    message: status === 'True' ? '' : 'spec.x: is wrong; fix it.',
    lastTransitionTime: '2025-01-01T00:00:00Z',
  };
}

/** A MachineSet read from a cluster: generation 3, under Machine API, synchronized at `at`. */
function observed(machineSet: MapiMachineSet, at = 3, status: MapiCondition['status'] = 'True') {
  machineSet.metadata.generation = 3;
  machineSet.spec.authoritativeAPI = 'MachineAPI';
  machineSet.status = {
    authoritativeAPI: 'MachineAPI',
    synchronizedGeneration: at,
    conditions: [synchronized(status, status === 'True' ? 'ResourceSynchronized' : 'Failed')],
  };
  return machineSet;
}

describe('check: the report of one MachineSet', () => {
  for (const c of corpus) {
    describe(c.platform, () => {
      const fromCluster: CheckFacts = {
        capiNamespace: 'capi',
        fromCluster: true,
        platform: c.platform,
        infrastructure: c.infrastructure,
      };

      it('a good MachineSet can be mirrored and migrated, and shows its template and CAPI MachineSet', () => {
        const report = reportMachineSet(observed(c.good()), fromCluster);
        expect(report.blocking).to.deep.equal([]);
        expect(report).to.include({ canMirror: true, canMigrate: true, platform: c.platform });
        expect(report.capiObjects.map((o) => o.kind)).to.deep.equal([c.templateKind, 'MachineSet']);
        const [template, machineSet] = report.capiObjects as [unknown, CapiMachineSet];
        expect(machineSet.metadata).to.include({ name: c.good().metadata.name, namespace: 'capi' });
        expect(machineSet.spec.template.spec.infrastructureRef.name).to.equal(
          (template as { metadata: { name: string } }).metadata.name,
        );
        expect(machineSet.metadata.annotations).to.include({ 'cluster.x-k8s.io/paused': 'true' });
        expect(exitCodeOf([report])).to.equal(0);
      });

      it('a good MachineSet read from a file needs no Infrastructure: the platform comes from its providerSpec kind', () => {
        const report = reportMachineSet(c.good(), OFFLINE);
        expect(report).to.include({ canMirror: true, canMigrate: true, platform: c.platform });
        const machineSet = report.capiObjects[1] as CapiMachineSet;
        expect(machineSet.spec.clusterName).to.equal('demo-abc12');
      });

      it(`a bad MachineSet (${c.badWhat}, a misspelled field, an unknown delete policy) is blocked on each field`, () => {
        const report = reportMachineSet(c.bad(), { ...fromCluster, fromCluster: false });
        expect(report).to.include({ canMirror: false, canMigrate: false, platform: c.platform });
        expect(report.capiObjects).to.deep.equal([]);
        expect(report.blocking.map((p) => p.path)).to.have.members(c.badPaths);
        for (const problem of report.blocking) {
          expect(problem.stage).to.equal('mirror');
          // Each message says what is wrong and then what to do.
          expect(problem.message, problem.message).to.match(/^[a-z].*[;,:] .*\.$/);
        }
        expect(exitCodeOf([report])).to.equal(1);
      });
    });
  }

  it('holds a GCP MachineSet on MachineAPI whose providerSpec lacks the Infrastructure’s resource tags', () => {
    const gcp = corpus.find((c) => c.platform === 'GCP')!;
    const infrastructure = structuredClone(gcp.infrastructure);
    infrastructure.status!.platformStatus!.gcp = {
      ...infrastructure.status!.platformStatus!.gcp,
      resourceTags: [{ parentID: '123456789012', key: 'env', value: 'prod' }],
    };
    const facts: CheckFacts = {
      capiNamespace: 'capi',
      fromCluster: true,
      platform: 'GCP',
      infrastructure,
    };
    const report = reportMachineSet(observed(gcp.good()), facts);
    expect(report.canMirror).to.equal(true);
    expect(report.canMigrate).to.equal(false);
    expect(report.blocking.map((p) => [p.stage, p.path])).to.deep.equal([
      ['migration', `${PROVIDER_SPEC_PATH}.resourceManagerTags`],
    ]);
    // on Cluster API already, there is nothing to hold
    const migrated = observed(gcp.good());
    migrated.status!.authoritativeAPI = 'ClusterAPI';
    migrated.spec.authoritativeAPI = 'ClusterAPI';
    expect(
      reportMachineSet(migrated, facts).blocking.filter((p) => p.path.endsWith('Tags')),
    ).to.deep.equal([]);
  });

  it('keeps the warnings of lossy conversions, once each', () => {
    const report = reportMachineSet(aws.good(), OFFLINE);
    expect(report.warnings).to.have.length(1);
    expect(report.warnings[0]).to.match(/placement\.region.*names no AWS region/);
  });

  it('blocks a providerSpec of another platform than the cluster’s on its kind', () => {
    const gcp = corpus.find((c) => c.platform === 'GCP')!.good();
    const report = reportMachineSet(gcp, { ...OFFLINE, platform: 'AWS' });
    expect(report.blocking.map((p) => p.path)).to.deep.equal([`${PROVIDER_SPEC_PATH}.kind`]);
    expect(report.blocking[0]?.message).to.match(
      /GCPMachineProviderSpec.*AWSMachineProviderConfig/,
    );
  });

  it('blocks, from a file, a providerSpec kind no platform knows, suggesting --platform', () => {
    const machineSet = aws.good();
    (machineSet.spec.template!.spec!.providerSpec!.value as { kind: string }).kind =
      'BareMetalSpec';
    const report = reportMachineSet(machineSet, OFFLINE);
    expect(report).to.include({ canMirror: false, canMigrate: false });
    expect(report).to.not.have.property('platform');
    expect(report.blocking).to.deep.equal([
      {
        stage: 'mirror',
        path: `${PROVIDER_SPEC_PATH}.kind`,
        message: `is BareMetalSpec, which is not the providerSpec of a supported platform (${CONVERTERS.map((c) => c.providerSpecKind).join(', ')}); correct the kind, or pass --platform (AWS, Azure, GCP, OpenStack, PowerVS, VSphere).`,
      },
    ]);
  });

  it('blocks every MachineSet of a cluster whose platform is not supported, on the Infrastructure', () => {
    const report = reportMachineSet(aws.good(), { ...OFFLINE, platform: 'BareMetal' });
    expect(report.blocking.map((p) => p.path)).to.deep.equal([
      'Infrastructure cluster status.platformStatus.type',
    ]);
    expect(report.blocking[0]?.message).to.match(/^is BareMetal, which this version cannot mirror/);
  });

  it('takes the cluster name from --infrastructure-name, else the Infrastructure, else the label', () => {
    const clusterName = (facts: CheckFacts) =>
      (reportMachineSet(aws.good(), facts).capiObjects[1] as CapiMachineSet).spec.clusterName;
    const infrastructure = { ...aws.infrastructure, status: { infrastructureName: 'from-infra' } };
    expect(clusterName(OFFLINE)).to.equal('demo-abc12');
    expect(clusterName({ ...OFFLINE, infrastructure })).to.equal('from-infra');
    expect(clusterName({ ...OFFLINE, infrastructure, infrastructureName: 'flag' })).to.equal(
      'flag',
    );
  });

  it('blocks a MachineSet without the cluster label when no name is known, naming the flag', () => {
    const machineSet = aws.good();
    delete machineSet.metadata.labels;
    const report = reportMachineSet(machineSet, OFFLINE);
    expect(report.blocking.map((p) => p.path)).to.deep.equal([
      'metadata.labels[machine.openshift.io/cluster-api-cluster]',
    ]);
    expect(report.blocking[0]?.message).to.match(/pass --infrastructure-name/);
  });

  it('blocks the migration, not the mirror, when the mirror does not convert back to Machine API', () => {
    const failingBack = {
      ...awsConverter,
      toMapi: () => ({
        ok: false as const,
        errors: [
          { path: 'AWSMachineTemplate t spec.template.spec.ami', message: 'is odd; fix it.' },
        ],
      }),
    };
    const report = reportMachineSet(aws.good(), { ...OFFLINE, converters: [failingBack] });
    expect(report).to.include({ canMirror: true, canMigrate: false });
    expect(report.capiObjects).to.have.length(2);
    expect(report.blocking).to.deep.equal([
      {
        stage: 'reverse',
        path: 'AWSMachineTemplate t spec.template.spec.ami',
        message: 'is odd; fix it.',
      },
    ]);
  });

  describe('the migration gate, from a cluster', () => {
    const facts: CheckFacts = { ...OFFLINE, fromCluster: true, platform: 'AWS' };
    const gate = (machineSet: MapiMachineSet, f = facts) =>
      reportMachineSet(machineSet, f).blocking.map((p) => [p.stage, p.path, p.message]);

    it('holds nothing when Synchronized is True at the generation', () => {
      expect(gate(observed(aws.good()))).to.deep.equal([]);
    });

    it('holds a MachineSet never synchronized', () => {
      const [problem] = gate(aws.good());
      expect(problem?.slice(0, 2)).to.deep.equal(['migration', 'status.conditions[Synchronized]']);
      expect(problem?.[2]).to.match(/^is not reported/);
    });

    it('holds a MachineSet whose Synchronized is False, quoting its reason and message', () => {
      const [problem] = gate(observed(aws.good(), 3, 'False'));
      expect(problem?.[1]).to.equal('status.conditions[Synchronized]');
      expect(problem?.[2]).to.match(/^is False, reason Failed \(spec\.x: is wrong; fix it\.\)/);
    });

    it('holds a MachineSet whose latest change is not mirrored yet', () => {
      const [problem] = gate(observed(aws.good(), 2));
      expect(problem?.[1]).to.equal('status.synchronizedGeneration');
      expect(problem?.[2]).to.match(/^is 2, but metadata\.generation is 3/);
    });

    it('under Cluster API, does not compare generations (the CAPI generation is not read)', () => {
      const machineSet = observed(aws.good(), 7);
      machineSet.status!.authoritativeAPI = 'ClusterAPI';
      expect(gate(machineSet)).to.deep.equal([]);
    });

    it('holds a MachineSet while it is Migrating, and one being deleted', () => {
      const migrating = observed(aws.good());
      Object.assign(migrating.status!, {
        authoritativeAPI: 'Migrating',
        synchronizedAPI: 'MachineAPI',
      });
      expect(gate(migrating).map((p) => p[1])).to.deep.equal(['status.authoritativeAPI']);
      expect(gate(migrating)[0]?.[2]).to.match(/back to MachineAPI to cancel/);
      const deleting = observed(aws.good());
      deleting.metadata.deletionTimestamp = '2025-01-01T00:00:00Z';
      expect(gate(deleting).map((p) => p[1])).to.deep.equal(['metadata.deletionTimestamp']);
    });

    it('adds to the conversion problems, without repeating them from the condition', () => {
      const report = reportMachineSet(observed(aws.bad(), 3, 'False'), facts);
      expect(report.blocking.map((p) => p.stage)).to.include.members(['mirror', 'migration']);
      const held = report.blocking.find((p) => p.stage === 'migration');
      expect(held?.message).to.equal(
        'is False, reason Failed; fix what it names and wait for Synchronized=True: the migration waits for it.',
      );
    });

    it('is not checked for MachineSets read from files, whose status may be stale', () => {
      expect(gate(aws.good(), OFFLINE)).to.deep.equal([]);
    });
  });

  it('exits 1 when any MachineSet cannot migrate, 0 when all can or there are none', () => {
    const good = reportMachineSet(aws.good(), OFFLINE);
    const bad = reportMachineSet(aws.bad(), OFFLINE);
    expect(exitCodeOf([good, bad])).to.equal(1);
    expect(exitCodeOf([good, good])).to.equal(0);
    expect(exitCodeOf([])).to.equal(0);
  });
});
