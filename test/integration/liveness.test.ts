// Liveness against the real API server: workers whose writes hang make /healthz fail, and it
// passes again once the writes go through.
import type { Server } from 'node:http';
import { expect } from 'chai';
import { runWorkers } from '../../src/runtime/workers.js';
import { WorkQueue } from '../../src/runtime/workqueue.js';
import { CONFIG_MAP } from '../../src/kube/builtin-resources.js';
import { isConflict } from '../../src/kube/errors.js';
import { silentLogger } from '../../src/logging.js';
import { serve } from '../../src/observability/http-server.js';
import { ProgressTracker } from '../../src/observability/progress.js';
import { adminConfig, testNamespace } from '../support/cluster.js';
import { eventually } from '../support/eventually.js';
import { FaultProxy } from '../support/fault-proxy.js';
import { objectsFor } from '../support/kube-client.js';

async function healthz(port: number): Promise<{ status: number; body: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`);
  return { status: res.status, body: await res.text() };
}

describe('liveness against the API server', function () {
  this.timeout(90_000);
  let proxy: FaultProxy | undefined;
  let server: Server | undefined;
  let queue: WorkQueue | undefined;

  afterEach(async () => {
    queue?.shutDown();
    proxy?.cut();
    await proxy?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    proxy = server = queue = undefined;
  });

  it('fails /healthz while every worker hangs on a write, and passes once writes go through', async () => {
    const namespace = await testNamespace('liveness');
    const through = await FaultProxy.inFrontOf(adminConfig());
    proxy = through.proxy;
    // Writes that would wait a minute: far past the stall threshold.
    const objects = objectsFor(through.kubeConfig, { timeoutMs: 60_000 });
    const progress = new ProgressTracker({ stallThresholdMs: 1_000 });
    const served = await serve(
      { host: '127.0.0.1', port: 0 },
      { probes: true, metrics: false },
      { health: () => progress.health(), ready: () => true },
    );
    server = served.server;
    const workQueue = new WorkQueue();
    queue = workQueue;
    const written = new Set<string>();
    const running = runWorkers(
      workQueue,
      2,
      async (name) => {
        try {
          await objects.create(
            { ...CONFIG_MAP, namespace },
            { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } },
          );
        } catch (err) {
          if (!isConflict(err)) throw err;
        }
        written.add(name);
      },
      silentLogger,
      { progress },
    );

    workQueue.add('before');
    await eventually(() => expect(written.has('before')).to.equal(true));
    expect((await healthz(served.port)).status).to.equal(200);

    proxy.hang();
    for (const name of ['one', 'two', 'three']) workQueue.add(name);
    const failing = await eventually(async () => {
      const result = await healthz(served.port);
      expect(result.status).to.equal(500);
      return result;
    });
    expect(failing.body).to.match(/^unhealthy: reconcile of (one|two) running for \d+ s/);
    expect(written.size, 'nothing was written meanwhile').to.equal(1);

    // The network comes back: the hung connections are reset, the writes are retried.
    proxy.cut();
    proxy.pass();
    await eventually(() =>
      expect([...written].sort()).to.deep.equal(['before', 'one', 'three', 'two']),
    );
    await eventually(async () => expect((await healthz(served.port)).status).to.equal(200));
    workQueue.shutDown();
    await running;
    objects.close();
  });
});
