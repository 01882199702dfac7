// The reconciler's handling of what the API server answers: races are retried
// quietly, refusals are reported once and retried when something changes or
// after a capped backoff, a DELETE's answer is kept. The API server is a fake writer here; the
// real one is exercised by the integration tests.
import { expect } from 'chai';
import type { KubeObject, MapiMachineSet, Patch } from '../../../src/api/types.js';
import { machineSetReconciler } from '../../../src/controller/machine-set.js';
import type { ObjectCache } from '../../../src/runtime/step-reconciler.js';
import type { ObjectWriter } from '../../../src/kube/writer.js';
import type { Resource } from '../../../src/kube/resources.js';
import { FINALIZER } from '../../../src/model/markers.js';
import { recordingLogger } from '../../support/logger.js';
import { applyPatch } from '../../support/patch.js';
import { FakeClock } from '../../support/fake-clock.js';
import { refusalRetryDelay } from '../../../src/runtime/step-reconciler.js';
import {
  CAPI_NS,
  fakeConverter,
  infrastructure,
  MAPI_NS,
  mapiMachineSet,
} from '../sync/machine-set/world.js';

class MapCache<T extends KubeObject> implements ObjectCache<T> {
  readonly store = new Map<string, T>();
  get = (key: string) => this.store.get(key);
  list = () => [...this.store.values()];
  hasSynced = () => true;
  upsert = (object: T) =>
    void this.store.set(`${object.metadata.namespace}/${object.metadata.name}`, object);
  remove = (key: string) => void this.store.delete(key);
}

class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** The server's Status, as the API client keeps it. */
    readonly body?: string,
  ) {
    super(message);
  }
}

type Failure = { code: number; message: string; body?: object } | undefined;

/** Accepts every write, like an API server would, unless `fail` says otherwise. */
class FakeWriter implements ObjectWriter {
  calls: string[] = [];
  fail: (verb: string, object: KubeObject, patch?: Patch) => Failure = () => undefined;
  private rv = 100;

  private check(verb: string, object: KubeObject, patch?: Patch): void {
    this.calls.push(`${verb} ${object.apiVersion.split('/')[0]} ${object.kind}`);
    const failure = this.fail(verb, object, patch);
    if (failure) {
      throw new ApiError(
        failure.code,
        failure.message,
        failure.body && JSON.stringify(failure.body),
      );
    }
  }
  private stamp<T extends KubeObject>(object: T): T {
    const copy = structuredClone(object);
    copy.metadata.resourceVersion = String(++this.rv);
    copy.metadata.uid ??= `uid-${copy.metadata.name}-${this.rv}`;
    copy.metadata.generation ??= 1;
    return copy;
  }
  create = <T extends KubeObject>(_r: Resource, object: T) => {
    this.check('create', object);
    return Promise.resolve(this.stamp(object));
  };
  update = <T extends KubeObject>(_r: Resource, object: T) => {
    this.check('update', object);
    return Promise.resolve(this.stamp(object));
  };
  patch = <T extends KubeObject>(_r: Resource, object: T, patch: Patch) => {
    this.check('patch', object, patch);
    const patched = applyPatch(object, patch);
    return Promise.resolve(this.stamp(patched));
  };
  delete = <T extends KubeObject>(_r: Resource, object: T) => {
    this.check('delete', object);
    if (!object.metadata.finalizers?.length) return Promise.resolve(undefined);
    const answer = this.stamp(object);
    answer.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    return Promise.resolve(answer);
  };
}

function setUp(
  mapi: MapiMachineSet = mapiMachineSet(),
  record: (reason: string) => Promise<void> = () => Promise.resolve(),
) {
  const caches = {
    mapiMachineSets: new MapCache<MapiMachineSet>(),
    capiMachineSets: new MapCache<never>(),
    clusters: new MapCache<KubeObject>(),
    infrastructures: new MapCache<typeof infrastructure>(),
    templateCache: new MapCache<never>(),
  };
  caches.mapiMachineSets.upsert(mapi);
  caches.infrastructures.store.set('cluster', infrastructure);
  const writer = new FakeWriter();
  const events: string[] = [];
  const logger = recordingLogger();
  const clock = new FakeClock(1_000_000);
  const reconciler = machineSetReconciler({
    mapiNamespace: MAPI_NS,
    capiNamespace: CAPI_NS,
    caches: { ...caches, templates: () => caches.templateCache },
    converterFor: () => fakeConverter,
    writer,
    events: {
      record: (_object, event) => {
        events.push(event.reason);
        return record(event.reason);
      },
    },
    now: () => new Date('2026-01-01T00:00:00Z'),
    logger,
    clock,
  });
  return { caches, writer, events, logs: logger.records, reconciler, clock };
}

/** A reconcile that ended on a refusal: it comes back after the first retry's delay. */
const REFUSED = { requeueAfterMs: refusalRetryDelay(0) };

const synchronized = (mapi: MapiMachineSet | undefined) =>
  mapi?.status?.conditions?.find((c) => c.type === 'Synchronized');

describe('reconciler', () => {
  it('converges with a writer that accepts everything, then writes nothing', async () => {
    const { reconciler, writer, caches } = setUp();
    expect(await reconciler.reconcile('worker-a')).to.deep.equal({});
    expect(synchronized(caches.mapiMachineSets.get(`${MAPI_NS}/worker-a`))?.status).to.equal(
      'True',
    );
    const calls = writer.calls.length;
    expect(await reconciler.reconcile('worker-a')).to.deep.equal({});
    expect(writer.calls).to.have.length(calls);
  });

  it('logs what it creates and changes at info, its status mirrors at debug', async () => {
    const { reconciler, logs } = setUp();
    expect(await reconciler.reconcile('worker-a')).to.deep.equal({});
    const logged = (level: string) =>
      logs.filter((l) => l.level === level && l.meta?.kind).map((l) => l.message);
    expect(logged('info')).to.include.members(['creating paused CAPI machine set']);
    expect(logged('info').join('\n')).to.not.match(/status/i);
    expect(logged('debug').join('\n')).to.match(/status/i);
  });

  it('logs authority moving at info: entering Migrating is a status write an administrator follows', async () => {
    const { reconciler, logs, caches } = setUp();
    expect(await reconciler.reconcile('worker-a')).to.deep.equal({});
    const mapi = structuredClone(caches.mapiMachineSets.get(`${MAPI_NS}/worker-a`)!);
    mapi.spec.authoritativeAPI = 'ClusterAPI';
    mapi.metadata.generation = (mapi.metadata.generation ?? 1) + 1;
    caches.mapiMachineSets.upsert(mapi);
    await reconciler.reconcile('worker-a');
    const logged = (level: string) =>
      logs.filter((l) => l.level === level && l.meta?.kind).map((l) => l.message);
    expect(logged('info')).to.include('entering Migrating (MachineAPI → ClusterAPI)');
    expect(logged('info').filter((m) => m.startsWith('reporting'))).to.deep.equal([]);
  });

  it('records events best effort: an Event the API server refuses never fails the write it follows', async () => {
    const { reconciler, writer, caches, events, logs } = setUp(mapiMachineSet(), () =>
      Promise.reject(new ApiError(403, 'events is forbidden')),
    );
    writer.fail = (verb, object) =>
      verb === 'create' && object.apiVersion.startsWith('cluster.x-k8s.io')
        ? { code: 422, message: 'admission webhook "x" denied the request: no' }
        : undefined;
    expect(await reconciler.reconcile('worker-a')).to.deep.equal(REFUSED);
    expect(events, 'the refusal was reported, its event tried').to.deep.equal([
      'FailedToCreateCAPIMachineSet',
    ]);
    expect(synchronized(caches.mapiMachineSets.get(`${MAPI_NS}/worker-a`))).to.include({
      status: 'False',
      reason: 'FailedToCreateCAPIMachineSet',
    });
    expect(logs.some((l) => l.message === 'could not record an event')).to.equal(true);
  });

  it('retries a conflict quietly: no error, no report on the MachineSet, nothing above debug', async () => {
    const { reconciler, writer, logs, events } = setUp();
    writer.fail = (verb, object) =>
      verb === 'create' && object.kind === 'MachineSet'
        ? { code: 409, message: 'the object has been modified' }
        : undefined;
    expect(await reconciler.reconcile('worker-a')).to.deep.equal({ retry: true });
    expect(events).to.deep.equal([]);
    expect(logs.filter((l) => l.level === 'warn' || l.level === 'error')).to.deep.equal([]);
  });

  it('treats a failed JSON-patch test (422) as a race, not a refusal', async () => {
    const { reconciler, writer, caches } = setUp();
    await reconciler.reconcile('worker-a');
    const mapi = structuredClone(caches.mapiMachineSets.get(`${MAPI_NS}/worker-a`)!);
    mapi.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    caches.mapiMachineSets.upsert(mapi);
    writer.fail = (verb) =>
      verb === 'patch' ? { code: 422, message: 'testing value failed' } : undefined;
    const result = await reconciler.reconcile('worker-a');
    expect(result).to.deep.equal({ retry: true });
  });

  const policyMessage =
    "ValidatingAdmissionPolicy 'no-finalizers' with binding 'no-finalizers' denied request: finalizers are managed by the platform";
  const policyDenial = {
    code: 422,
    message: policyMessage,
    body: {
      kind: 'Status',
      status: 'Failure',
      code: 422,
      reason: 'Invalid',
      message: policyMessage,
      details: { causes: [{ message: policyMessage }] },
    },
  };
  const touchesFinalizers = (patch: Patch | undefined) =>
    patch?.type === 'json'
      ? patch.operations.some((o) => o.path.startsWith('/metadata/finalizers'))
      : (patch?.body.metadata as { finalizers?: unknown } | undefined)?.finalizers !== undefined;

  it('reports a write denied by an admission policy even when its step names no reason (our finalizer), once', async () => {
    const { reconciler, writer, caches, events, logs } = setUp();
    writer.fail = (verb, object, patch) =>
      verb === 'patch' && object.kind === 'MachineSet' && touchesFinalizers(patch)
        ? policyDenial
        : undefined;
    expect(await reconciler.reconcile('worker-a')).to.deep.equal(REFUSED);
    const reported = synchronized(caches.mapiMachineSets.get(`${MAPI_NS}/worker-a`));
    expect(reported).to.include({ status: 'False', reason: 'FailedToUpdateMAPIMachineSet' });
    expect(reported?.message).to.contain("ValidatingAdmissionPolicy 'no-finalizers'");
    expect(events).to.deep.equal(['FailedToUpdateMAPIMachineSet']);
    expect(logs.some((l) => l.level === 'warn' && l.message.includes('refused'))).to.equal(true);

    const writes = writer.calls.length;
    expect(await reconciler.reconcile('worker-a')).to.deep.equal(REFUSED);
    expect(writer.calls, 'nothing sent again without a change').to.have.length(writes);
  });

  it('takes a JSON patch denied by an admission policy (422 with causes) for a refusal, not a race', async () => {
    const { reconciler, writer, caches, logs } = setUp();
    await reconciler.reconcile('worker-a');
    const mapi = structuredClone(caches.mapiMachineSets.get(`${MAPI_NS}/worker-a`)!);
    mapi.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    caches.mapiMachineSets.upsert(mapi);
    writer.fail = (verb, _object, patch) =>
      verb === 'patch' && patch?.type === 'json' ? policyDenial : undefined;
    expect(await reconciler.reconcile('worker-a'), 'not retried as a race').to.deep.equal(REFUSED);
    expect(logs.some((l) => l.level === 'warn' && l.message.includes('refused'))).to.equal(true);
    const writes = writer.calls.length;
    expect(await reconciler.reconcile('worker-a')).to.deep.equal(REFUSED);
    expect(writer.calls, 'nothing sent again without a change').to.have.length(writes);
  });

  it('reports a write refused for good once, and tries it again at once when something changes', async () => {
    const { reconciler, writer, caches, events } = setUp();
    const refusal = {
      code: 422,
      message:
        'admission webhook "validation.machineset.cluster.x-k8s.io" denied the request: spec.template.spec.bootstrap: Required value',
    };
    writer.fail = (verb, object) =>
      verb === 'create' && object.apiVersion.startsWith('cluster.x-k8s.io') ? refusal : undefined;
    expect(await reconciler.reconcile('worker-a')).to.deep.equal(REFUSED);
    const reported = caches.mapiMachineSets.get(`${MAPI_NS}/worker-a`);
    expect(synchronized(reported)).to.include({
      status: 'False',
      reason: 'FailedToCreateCAPIMachineSet',
    });
    expect(synchronized(reported)?.message).to.contain('spec.template.spec.bootstrap');
    expect(events).to.deep.equal(['FailedToCreateCAPIMachineSet']);

    const attempts = () => writer.calls.filter((c) => c.startsWith('create cluster.x-k8s.io'));
    const before = attempts().length;
    expect(await reconciler.reconcile('worker-a')).to.deep.equal(REFUSED);
    expect(attempts(), 'not tried again without a change').to.have.length(before);

    const changed = structuredClone(reported!);
    changed.spec.replicas = 3;
    changed.metadata.generation = 2;
    caches.mapiMachineSets.upsert(changed);
    writer.fail = () => undefined;
    expect(await reconciler.reconcile('worker-a')).to.deep.equal({});
    expect(attempts()).to.have.length(before + 1);
    expect(synchronized(caches.mapiMachineSets.get(`${MAPI_NS}/worker-a`))?.status).to.equal(
      'True',
    );
  });

  it('tries a refused write again after a capped backoff, reporting it once: what refused it may be mended', async () => {
    const { reconciler, writer, caches, events, logs, clock } = setUp();
    writer.fail = (verb, object) =>
      verb === 'create' && object.apiVersion.startsWith('cluster.x-k8s.io')
        ? { code: 422, message: 'admission webhook "x" denied the request: no' }
        : undefined;
    const attempts = () => writer.calls.filter((c) => c.startsWith('create cluster.x-k8s.io'));
    expect(await reconciler.reconcile('worker-a')).to.deep.equal(REFUSED);
    expect(attempts()).to.have.length(1);

    // not before its time
    await clock.advance(refusalRetryDelay(0) - 1);
    expect(await reconciler.reconcile('worker-a')).to.deep.equal({ requeueAfterMs: 1 });
    expect(attempts()).to.have.length(1);
    // then again, refused again: not reported or logged as new, and the next wait is longer
    await clock.advance(1);
    expect(await reconciler.reconcile('worker-a')).to.deep.equal({
      requeueAfterMs: refusalRetryDelay(1),
    });
    expect(attempts()).to.have.length(2);
    expect(events).to.deep.equal(['FailedToCreateCAPIMachineSet']);
    expect(logs.filter((l) => l.level === 'warn' && l.message.includes('refused'))).to.have.length(
      1,
    );
    expect(refusalRetryDelay(1)).to.equal(2 * refusalRetryDelay(0));
    expect(refusalRetryDelay(50), 'capped at 5 minutes').to.equal(300_000);

    // mended (the webhook or policy fixed), nothing else changed: the write goes through
    writer.fail = () => undefined;
    await clock.advance(refusalRetryDelay(1));
    expect(await reconciler.reconcile('worker-a')).to.deep.equal({});
    expect(attempts()).to.have.length(3);
    expect(synchronized(caches.mapiMachineSets.get(`${MAPI_NS}/worker-a`))?.status).to.equal(
      'True',
    );
  });

  it('reports a refused write even when the report itself races with another writer', async () => {
    const { reconciler, writer, caches, events } = setUp();
    const refusal = {
      code: 403,
      message:
        'admission webhook "validation.machineset.cluster.x-k8s.io" denied the request: spec.template.spec.bootstrap: Required value',
    };
    writer.fail = (verb, object) =>
      verb === 'create' && object.apiVersion.startsWith('cluster.x-k8s.io') ? refusal : undefined;
    // machine-api-operator writes the MachineSet's status just before our first report.
    let reportRaces = 1;
    const patch = writer.patch;
    writer.patch = <T extends KubeObject>(r: Resource, object: T, body: Patch) => {
      if (JSON.stringify(body).includes('FailedToCreateCAPIMachineSet') && reportRaces-- > 0) {
        return Promise.reject(new ApiError(409, 'the object has been modified'));
      }
      return patch(r, object, body);
    };
    expect(await reconciler.reconcile('worker-a'), 'retried: the report is missing').to.deep.equal({
      retry: true,
    });
    expect(synchronized(caches.mapiMachineSets.get(`${MAPI_NS}/worker-a`))?.status).to.not.equal(
      'False',
    );
    const attempts = () => writer.calls.filter((c) => c.startsWith('create cluster.x-k8s.io'));
    const before = attempts().length;
    expect(await reconciler.reconcile('worker-a')).to.deep.equal(REFUSED);
    expect(attempts(), 'the refused write is not sent again').to.have.length(before);
    const reported = caches.mapiMachineSets.get(`${MAPI_NS}/worker-a`);
    expect(synchronized(reported)).to.include({
      status: 'False',
      reason: 'FailedToCreateCAPIMachineSet',
    });
    expect(events).to.deep.equal(['FailedToCreateCAPIMachineSet']);
  });

  it('keeps the answer to a DELETE, so a deleted mirror held by finalizers is released, not deleted again', async () => {
    const { reconciler, writer, caches } = setUp();
    await reconciler.reconcile('worker-a');
    const mapi = structuredClone(caches.mapiMachineSets.get(`${MAPI_NS}/worker-a`)!);
    expect(mapi.metadata.finalizers).to.include(FINALIZER);
    mapi.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    caches.mapiMachineSets.upsert(mapi);
    writer.calls = [];
    await reconciler.reconcile('worker-a');
    const deletes = writer.calls.filter((c) => c === 'delete cluster.x-k8s.io MachineSet');
    expect(deletes, writer.calls.join('\n')).to.have.length(1);
    expect(writer.calls).to.include('patch cluster.x-k8s.io MachineSet');
  });

  it('backs off a plan that does not settle instead of spinning', async () => {
    const { reconciler, writer } = setUp();
    // every write "succeeds" but the server's answer never shows it: the plan repeats itself
    writer.create = <T extends KubeObject>(_r: Resource, object: T) =>
      Promise.resolve(
        structuredClone({ ...object, metadata: { ...object.metadata, name: 'elsewhere' } }),
      );
    writer.patch = <T extends KubeObject>(_r: Resource, object: T) =>
      Promise.resolve(structuredClone(object));
    expect(await reconciler.reconcile('worker-a')).to.deep.equal({ retry: true });
  });
});
