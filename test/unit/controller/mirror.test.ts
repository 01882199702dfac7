// What every kind's reconciler gets from its declaration: the observation waits for the platform's
// infrastructure cache (only when the kind has infrastructure objects there), the handshake runs
// before the sync unless it is off, and the observation carries both sides and the cluster's facts.
import { expect } from 'chai';
import type { Infrastructure, KubeObject } from '../../../src/api/types.js';
import {
  mirrorReconciler,
  type ClusterCaches,
  type ReconciledKind,
} from '../../../src/controller/mirror.js';
import type { ObjectCache } from '../../../src/runtime/step-reconciler.js';
import type { PlatformConverter } from '../../../src/conversion/types.js';
import type { MirrorObserved } from '../../../src/sync/observed.js';
import type { ObjectWriter } from '../../../src/kube/writer.js';
import { MachineReason } from '../../../src/sync/conditions.js';
import { done } from '../../../src/sync/steps.js';
import { recordingLogger } from '../../support/logger.js';

function cache<T extends KubeObject>(objects: T[] = [], synced = true): ObjectCache<T> {
  const key = ({ metadata }: KubeObject) =>
    metadata.namespace === undefined ? metadata.name : `${metadata.namespace}/${metadata.name}`;
  const byKey = new Map(objects.map((o) => [key(o), o]));
  return {
    get: (key) => byKey.get(key),
    list: () => [...byKey.values()],
    hasSynced: () => synced,
    upsert: () => undefined,
    remove: () => undefined,
  };
}

const object = (namespace: string, name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Thing',
  metadata: { namespace, name },
});

const infrastructure: Infrastructure = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'Infrastructure',
  metadata: { name: 'cluster' },
  status: { infrastructureName: 'c1', platformStatus: { type: 'AWS' } },
};

interface Caches extends ClusterCaches {
  mapi: ObjectCache<KubeObject>;
  capi: ObjectCache<KubeObject>;
  infrastructureObjects: ObjectCache<KubeObject>;
}

interface Observed extends MirrorObserved {
  infrastructureObjects: boolean;
}

function setUp(options: { hasInfrastructure: boolean; synced: boolean; migration?: boolean }) {
  const caches: Caches = {
    clusters: cache([object('capi', 'c1')]),
    infrastructures: cache([infrastructure]),
    mapi: cache([object('mapi', 'worker')]),
    capi: cache([object('capi', 'worker')]),
    infrastructureObjects: cache([], options.synced),
  };
  const seen: { observed: Pick<Observed, keyof MirrorObserved>[]; plans: string[] } = {
    observed: [],
    plans: [],
  };
  const kind: ReconciledKind<Observed, Caches, KubeObject> = {
    subject: 'thing',
    sides: (c) => ({ mapi: c.mapi, mirror: c.capi }),
    infrastructure: (c) =>
      options.hasInfrastructure
        ? {
            type: { apiVersion: 'infra/v1', kind: 'Infra', plural: 'infras' },
            cache: c.infrastructureObjects,
          }
        : undefined,
    observe: (_c, observed, objects) => {
      seen.observed.push(observed);
      return { ...observed, infrastructureObjects: objects !== undefined };
    },
    handshake: () => {
      seen.plans.push('handshake');
      return undefined;
    },
    sync: () => {
      seen.plans.push('sync');
      return done('in sync');
    },
    writes: () => [],
    refusalReasons: {
      mapi: MachineReason.MapiUpdateFailed,
      capiCreate: MachineReason.CreateFailed,
      capi: MachineReason.UpdateFailed,
      infrastructure: MachineReason.InfraMachineUpdateFailed,
    },
  };
  const reconciler = mirrorReconciler(kind, {
    mapiNamespace: 'mapi',
    capiNamespace: 'capi',
    caches,
    converterFor: (platform) =>
      platform === 'AWS' ? ({ platform: 'AWS' } as PlatformConverter) : undefined,
    ...(options.migration === undefined ? {} : { migration: options.migration }),
    now: () => new Date('2026-01-01T00:00:00Z'),
    writer: {} as ObjectWriter,
    events: { record: () => Promise.resolve() },
    logger: recordingLogger(),
  });
  return { reconciler, seen };
}

describe('mirrorReconciler', () => {
  it('waits for the infrastructure cache of a kind that has infrastructure objects', async () => {
    const { reconciler, seen } = setUp({ hasInfrastructure: true, synced: false });
    const result = await reconciler.reconcile('worker');
    expect(result.requeueAfterMs).to.be.greaterThan(0);
    expect(seen.plans).to.deep.equal([]);
  });

  it('does not wait for a cache when the platform has no infrastructure objects of the kind', async () => {
    const { reconciler, seen } = setUp({ hasInfrastructure: false, synced: false });
    expect(await reconciler.reconcile('worker')).to.deep.equal({});
    expect(seen.plans).to.deep.equal(['handshake', 'sync']);
  });

  it('observes both sides, the cluster and the platform for the kind', async () => {
    const { reconciler, seen } = setUp({ hasInfrastructure: true, synced: true });
    await reconciler.reconcile('worker');
    const [observed] = seen.observed;
    expect(observed).to.include({
      mapiNamespace: 'mapi',
      capiNamespace: 'capi',
      name: 'worker',
      platform: 'AWS',
      now: '2026-01-01T00:00:00.000Z',
    });
    expect(observed?.mapi?.metadata).to.deep.equal({ namespace: 'mapi', name: 'worker' });
    expect(observed?.mirror?.metadata).to.deep.equal({ namespace: 'capi', name: 'worker' });
    expect(observed?.cluster?.metadata).to.deep.equal({ namespace: 'capi', name: 'c1' });
  });

  it('skips the handshake when the migration is off', async () => {
    const { reconciler, seen } = setUp({
      hasInfrastructure: false,
      synced: true,
      migration: false,
    });
    await reconciler.reconcile('worker');
    expect(seen.plans).to.deep.equal(['sync']);
  });
});
