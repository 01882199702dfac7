// Leader election against the real API server, with the leader behind a proxy that can make its
// connection hang while the standby's stays fine.
import { expect } from 'chai';
import { LeaderElector } from '../../src/kube/leader-election.js';
import { silentLogger } from '../../src/logging.js';
import { adminConfig, testNamespace } from '../support/cluster.js';
import { eventually } from '../support/eventually.js';
import { FaultProxy } from '../support/fault-proxy.js';
import { clientFor } from '../support/kube-client.js';
import { readLease } from '../support/leases.js';

const TIMINGS = { leaseDurationMs: 4_000, renewDeadlineMs: 3_000, retryPeriodMs: 1_000 };

interface Candidate {
  elector: LeaderElector;
  startedAt?: number;
  stoppedAt?: number;
}

describe('leader election against the API server', function () {
  this.timeout(90_000);
  const candidates: Candidate[] = [];
  let proxy: FaultProxy | undefined;

  afterEach(async () => {
    proxy?.pass();
    await Promise.all(candidates.splice(0).map((c) => c.elector.release()));
    await proxy?.close();
    proxy = undefined;
  });

  function candidate(identity: string, namespace: string, kubeConfig = adminConfig()): Candidate {
    const created: Candidate = {} as Candidate;
    created.elector = new LeaderElector({
      client: clientFor(kubeConfig),
      namespace,
      name: 'leader',
      identity,
      logger: silentLogger,
      ...TIMINGS,
      onStartedLeading: () => (created.startedAt = Date.now()),
      onStoppedLeading: () => (created.stoppedAt = Date.now()),
    });
    candidates.push(created);
    created.elector.start();
    return created;
  }

  for (const fault of ['hang', 'cut'] as const) {
    it(`a leader whose connection ${fault === 'hang' ? 'hangs' : 'is cut'} stops leading before the standby takes over`, async () => {
      const namespace = await testNamespace('lease');
      const through = await FaultProxy.inFrontOf(adminConfig());
      proxy = through.proxy;
      const leader = candidate('leader', namespace, through.kubeConfig);
      await eventually(() => expect(leader.startedAt).to.be.a('number'));
      const standby = candidate('standby', namespace);
      // A few renewals go through before the fault.
      const renewTime = async () =>
        new Date((await readLease(namespace, 'leader')).spec?.renewTime ?? 0).getTime();
      const first = await renewTime();
      await eventually(async () => expect(await renewTime()).to.be.greaterThan(first));

      if (fault === 'hang') proxy.hang();
      else proxy.cut();
      await eventually(() => expect(standby.startedAt, 'the standby leads').to.be.a('number'), {
        timeoutMs: 30_000,
      });
      expect(leader.stoppedAt, 'the old leader stopped').to.be.a('number');
      expect(leader.stoppedAt).to.be.below(standby.startedAt ?? 0);
      expect(leader.elector.isLeader()).to.equal(false);
      const lease = await readLease(namespace, 'leader');
      expect(lease.spec?.holderIdentity).to.equal('standby');
      expect(lease.spec?.leaseTransitions).to.equal(1);
    });
  }
});
