// Running in a cluster: probes, metrics, leader election, graceful shutdown —
// each against separate controller processes and the real API server.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { adminConfig, adminObjects, testNamespace } from '../support/cluster.js';
import { CAPI, DEFAULT_INFRASTRUCTURE, setInfrastructure } from '../support/controller.js';
import { eventually } from '../support/eventually.js';
import { FaultProxy } from '../support/fault-proxy.js';
import {
  createAwsMachineSet,
  startProgram,
  synchronizedStatus,
  type ProgramProcess,
} from '../support/program.js';
import { readLease } from '../support/leases.js';

async function get(port: number, path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, body: await res.text() };
}

function metricValue(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const labelText = line.slice(name.length + 1, line.indexOf('}'));
    const present = labelText.split(',');
    if (wanted.every((w) => present.includes(w))) return Number(line.split(' ').pop());
  }
  return Number.NaN;
}

const SHORT_LEASE = [
  '--leader-elect',
  '--leader-elect-lease-duration=4s',
  '--leader-elect-renew-deadline=3s',
  '--leader-elect-retry-period=1s',
];

/** Messages of writes a controller process logged. */
function writes(program: ProgramProcess): string[] {
  const writeMessages = /^(creating|updating|adopting|added|releasing|deleting)/;
  return program
    .logs()
    .map((l) => l.message)
    .filter((m) => writeMessages.test(m));
}

describe('running in a cluster', function () {
  this.timeout(180_000);

  before(() => setInfrastructure(DEFAULT_INFRASTRUCTURE));

  it('serves /healthz, /readyz and /metrics with reconcile totals and the sync-state gauge', async () => {
    const mapi = await testNamespace('mapi');
    const capi = await testNamespace('capi');
    await createAwsMachineSet(mapi, 'metered-a');
    await createAwsMachineSet(mapi, 'metered-b');
    const program = startProgram([`--mapi-namespace=${mapi}`, `--capi-namespace=${capi}`]);
    const { metricsPort, probePort } = await program.ports();
    expect(metricsPort).to.not.equal(probePort);

    await eventually(async () => expect((await get(probePort, '/readyz')).status).to.equal(200));
    expect((await get(probePort, '/healthz')).status).to.equal(200);
    expect((await get(metricsPort, '/healthz')).status).to.equal(404);
    await eventually(async () => {
      expect(await synchronizedStatus(mapi, 'metered-a')).to.equal('True');
      expect(await synchronizedStatus(mapi, 'metered-b')).to.equal('True');
    });
    await eventually(async () => {
      const { status, body } = await get(metricsPort, '/metrics');
      expect(status).to.equal(200);
      const gauge = (synchronized: string) =>
        metricValue(body, 'mapi_capi_sync_machinesets', { synchronized, authority: 'MachineAPI' });
      expect(gauge('True')).to.equal(2);
      expect(gauge('False')).to.equal(0);
      expect(
        metricValue(body, 'controller_runtime_reconcile_total', {
          controller: 'machineset-sync',
          result: 'success',
        }),
      ).to.be.at.least(2);
      expect(
        metricValue(body, 'controller_runtime_reconcile_errors_total', {
          controller: 'machineset-sync',
        }),
      ).to.equal(0);
      expect(metricValue(body, 'workqueue_adds_total', { name: 'machineset-sync' })).to.be.at.least(
        2,
      );
      expect(body).to.contain('controller_runtime_reconcile_time_seconds_bucket');
      expect(body).to.contain('workqueue_queue_duration_seconds_bucket');
      expect(
        metricValue(body, 'leader_election_master_status', { name: 'mapi-capi-sync' }),
      ).to.equal(1);
    });
  });

  it('lets only the leader write, and fails over when the leader is killed', async () => {
    const mapi = await testNamespace('mapi');
    const capi = await testNamespace('capi');
    const flags = [`--mapi-namespace=${mapi}`, `--capi-namespace=${capi}`, ...SHORT_LEASE];
    const first = startProgram(flags);
    await eventually(() => expect(first.logs().map((l) => l.message)).to.include('became leader'));
    const second = startProgram(flags);
    await second.ports();
    await eventually(() =>
      expect(second.logs().map((l) => l.message)).to.include('waiting for the leader lease'),
    );

    await createAwsMachineSet(mapi, 'before-failover');
    await eventually(async () =>
      expect(await synchronizedStatus(mapi, 'before-failover')).to.equal('True'),
    );
    expect(writes(first)).to.have.length.greaterThan(0);
    expect(writes(second), 'the standby wrote').to.deep.equal([]);
    expect(second.logs().map((l) => l.message)).to.not.include('became leader');

    first.kill('SIGKILL');
    await first.exit(10_000);
    await createAwsMachineSet(mapi, 'after-failover');
    await eventually(
      async () => expect(await synchronizedStatus(mapi, 'after-failover')).to.equal('True'),
      { timeoutMs: 60_000 },
    );
    expect(second.logs().map((l) => l.message)).to.include('became leader');
    const lease = await readLease(capi, 'mapi-capi-sync-leader');
    expect(lease.spec?.leaseTransitions).to.equal(1);
    const mirrors = await adminObjects().list<unknown>({ ...CAPI, namespace: capi });
    expect(mirrors.items).to.have.length(2);
  });

  it('releases the lease on SIGTERM so a standby takes over at once', async () => {
    const mapi = await testNamespace('mapi');
    const capi = await testNamespace('capi');
    // A lease long enough that only a release explains a quick takeover.
    const flags = [
      `--mapi-namespace=${mapi}`,
      `--capi-namespace=${capi}`,
      '--leader-elect',
      '--leader-elect-lease-duration=120s',
      '--leader-elect-renew-deadline=90s',
      '--leader-elect-retry-period=1s',
    ];
    const first = startProgram(flags);
    await eventually(() => expect(first.logs().map((l) => l.message)).to.include('became leader'));
    const second = startProgram(flags);
    await second.ports();
    first.kill('SIGTERM');
    expect(await first.exit(30_000)).to.equal(0);
    expect(first.logs().map((l) => l.message)).to.include('released leader lease');
    await eventually(
      () => expect(second.logs().map((l) => l.message)).to.include('became leader'),
      { timeoutMs: 20_000 },
    );
  });

  it('exits cleanly on SIGTERM during a burst of work, and the next instance converges', async () => {
    const mapi = await testNamespace('mapi');
    const capi = await testNamespace('capi');
    const names = Array.from({ length: 15 }, (_, i) => `burst-${i}`);
    const first = startProgram([
      `--mapi-namespace=${mapi}`,
      `--capi-namespace=${capi}`,
      '--shutdown-timeout=10s',
      '--workers=4',
    ]);
    await first.ports();
    await Promise.all(names.map((name) => createAwsMachineSet(mapi, name)));
    first.kill('SIGTERM');
    expect(await first.exit(30_000), first.text).to.equal(0);
    expect(first.logs().map((l) => l.message)).to.include('stopped');

    const second = startProgram([`--mapi-namespace=${mapi}`, `--capi-namespace=${capi}`]);
    await second.ports();
    await eventually(
      async () => {
        for (const name of names)
          expect(await synchronizedStatus(mapi, name), name).to.equal('True');
      },
      { timeoutMs: 60_000 },
    );
    const mirrors = await adminObjects().list<unknown>({ ...CAPI, namespace: capi });
    expect(mirrors.items).to.have.length(names.length);
  });

  it('fails /healthz while its writes hang, and passes again once they go through', async () => {
    const mapi = await testNamespace('mapi');
    const capi = await testNamespace('capi');
    const { proxy, kubeConfig } = await FaultProxy.inFrontOf(adminConfig());
    const dir = await mkdtemp(join(tmpdir(), 'mapi-capi-sync-proxied-'));
    try {
      const kubeconfigPath = join(dir, 'kubeconfig');
      await writeFile(kubeconfigPath, kubeConfig.exportConfig(), { mode: 0o600 });
      const program = startProgram(
        [
          `--mapi-namespace=${mapi}`,
          `--capi-namespace=${capi}`,
          '--health-stall-threshold=2s',
          '--request-timeout=60s',
        ],
        { KUBECONFIG: kubeconfigPath },
      );
      const { probePort } = await program.ports();
      await createAwsMachineSet(mapi, 'before');
      await eventually(async () =>
        expect(await synchronizedStatus(mapi, 'before'), program.text).to.equal('True'),
      );
      expect((await get(probePort, '/healthz')).status).to.equal(200);

      // The watches keep flowing, but every new request (each write) hangs.
      proxy.hangNew();
      await createAwsMachineSet(mapi, 'during');
      const failing = await eventually(async () => {
        const result = await get(probePort, '/healthz');
        expect(result.status, program.text).to.equal(500);
        return result;
      });
      // 'before' may be the one stuck: machine-api-operator keeps updating its status (machines
      // created for its replicas), which its paused mirror follows with a write.
      // the stuck key is a MachineSet, or one of its Machines (`machine/<name>`)
      expect(failing.body).to.match(
        /^unhealthy: reconcile of (machine\/)?(during|before)\S* running for \d+ s/,
      );
      expect(program.logs().map((l) => l.message)).to.include('workers stalled; /healthz fails');

      proxy.pass();
      await eventually(async () =>
        expect(await synchronizedStatus(mapi, 'during'), program.text).to.equal('True'),
      );
      await eventually(async () => expect((await get(probePort, '/healthz')).status).to.equal(200));
      expect(program.logs().map((l) => l.message)).to.include(
        'workers progress again; /healthz passes',
      );
    } finally {
      await proxy.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
