// The informer against a real API server: list, watch, bookmarks and server-closed streams.
import { expect } from 'chai';
import type { MapiMachineSet } from '../../src/api/types.js';
import {
  Informer,
  KubeListWatcher,
  createInformer,
  type ListResult,
  type ListWatcher,
  type WatchEvent,
  type WatchHandle,
  type WatchOptions,
} from '../../src/kube/informer.js';
import { silentLogger } from '../../src/logging.js';
import { adminConfig, adminObjects, testNamespace, uniqueName } from '../support/cluster.js';
import { eventually } from '../support/eventually.js';
import { FaultProxy } from '../support/fault-proxy.js';
import { clientFor } from '../support/kube-client.js';

const MAPI = { group: 'machine.openshift.io', version: 'v1beta1', plural: 'machinesets' };

function mapiMachineSet(name: string): object {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    metadata: { name },
    spec: {
      replicas: 1,
      selector: { matchLabels: { 'machine.openshift.io/cluster-api-machineset': name } },
      template: {
        metadata: { labels: { 'machine.openshift.io/cluster-api-machineset': name } },
        // as little as machine-api-operator's webhooks accept: they default the rest
        spec: {
          providerSpec: {
            value: {
              apiVersion: 'machine.openshift.io/v1beta1',
              kind: 'AWSMachineProviderConfig',
              ami: { id: 'ami-0abcdef1234567890' },
            },
          },
        },
      },
    },
  };
}

/** Passes calls through to the real transport and records what happened on the wire. */
class RecordingListWatcher implements ListWatcher {
  lists = 0;
  readonly watches: WatchOptions[] = [];
  /** How each watch ended: null for a clean close by the server, else the error. */
  readonly closes: unknown[] = [];
  readonly bookmarks: string[] = [];

  constructor(private readonly inner: ListWatcher) {}

  list(signal: AbortSignal): Promise<ListResult> {
    this.lists++;
    return this.inner.list(signal);
  }

  watch(
    options: WatchOptions,
    onEvent: (event: WatchEvent) => void,
    onClose: (err?: unknown) => void,
  ): Promise<WatchHandle> {
    this.watches.push(options);
    return this.inner.watch(
      options,
      (event) => {
        if (event.type === 'BOOKMARK') {
          const rv = (event.object as { metadata?: { resourceVersion?: string } }).metadata
            ?.resourceVersion;
          if (rv) this.bookmarks.push(rv);
        }
        onEvent(event);
      },
      (err) => {
        this.closes.push(err ?? null);
        onClose(err);
      },
    );
  }
}

describe('informer against the API server', () => {
  let informer: Informer<MapiMachineSet> | undefined;
  let proxy: FaultProxy | undefined;

  afterEach(async () => {
    await informer?.stop();
    informer = undefined;
    await proxy?.close();
    proxy = undefined;
  });

  it('lists, then sees adds, updates and deletes, all without managedFields', async () => {
    const namespace = await testNamespace('informer');
    const api = adminObjects();
    const existing = uniqueName('ms');
    await api.create({ ...MAPI, namespace }, mapiMachineSet(existing));

    const started = createInformer<MapiMachineSet>(
      clientFor(adminConfig()),
      { ...MAPI, namespace },
      { logger: silentLogger },
    );
    informer = started;
    const events: string[] = [];
    const withManagedFields: string[] = [];
    started.on((event) => {
      events.push(`${event.type} ${event.object.metadata.name}`);
      if (event.object.metadata.managedFields) withManagedFields.push(event.object.metadata.name);
    });
    started.start();
    await started.waitForSync(AbortSignal.timeout(30_000));
    // machine-api-operator writes every MAPI MachineSet's status too: its updates come in between.
    const withoutUpdates = () => events.filter((e) => !e.startsWith('update '));
    expect(withoutUpdates()).to.deep.equal([`add ${existing}`]);
    expect(started.get(namespace, existing)?.kind, 'kind filled for list items').to.equal(
      'MachineSet',
    );

    const name = uniqueName('ms');
    await api.create({ ...MAPI, namespace }, mapiMachineSet(name));
    await eventually(() => expect(started.get(namespace, name)?.spec.replicas).to.equal(1));

    await api.patch(
      { ...MAPI, namespace, name },
      { type: 'json', operations: [{ op: 'replace', path: '/spec/replicas', value: 3 }] },
    );
    await eventually(() => expect(started.get(`${namespace}/${name}`)?.spec.replicas).to.equal(3));

    await api.delete({ ...MAPI, namespace, name });
    await eventually(() => expect(started.get(namespace, name)).to.equal(undefined));

    expect(withoutUpdates()).to.deep.equal([`add ${existing}`, `add ${name}`, `delete ${name}`]);
    expect(events).to.include(`update ${name}`);
    // The server does record managedFields; the informer's copies must not carry them.
    const onServer = await api.get<MapiMachineSet>({ ...MAPI, namespace, name: existing });
    expect(onServer.metadata.managedFields?.length).to.be.greaterThan(0);
    expect(withManagedFields).to.deep.equal([]);
    expect(started.get(namespace, existing)?.metadata).to.not.have.property('managedFields');
  });

  it('keeps watching across streams the server closes, resuming from bookmarks', async function () {
    this.timeout(90_000);
    const namespace = await testNamespace('informer');
    const elsewhere = await testNamespace('informer-other');
    const api = adminObjects();
    const transport = new RecordingListWatcher(
      new KubeListWatcher(clientFor(adminConfig()), { ...MAPI, namespace }),
    );
    // The server closes each watch after 3 s and sends a bookmark about 2 s before that.
    const started = new Informer<MapiMachineSet>(transport, {
      logger: silentLogger,
      watchTimeoutSeconds: 3,
    });
    informer = started;
    started.start();
    await started.waitForSync(AbortSignal.timeout(30_000));

    // Bookmarks only carry news when the resource changes somewhere: keep a MachineSet in
    // another namespace changing, which this namespace's watch must not deliver as events.
    const busy = uniqueName('busy');
    await api.create({ ...MAPI, namespace: elsewhere }, mapiMachineSet(busy));
    let replicas = 1;
    await eventually(
      async () => {
        await api.patch(
          { ...MAPI, namespace: elsewhere, name: busy },
          {
            type: 'json',
            operations: [{ op: 'replace', path: '/spec/replicas', value: ++replicas }],
          },
        );
        expect(transport.closes.length).to.be.at.least(3);
        expect(
          transport.watches.slice(1).some((w) => transport.bookmarks.includes(w.resourceVersion)),
          'a later watch resumed from a bookmark',
        ).to.equal(true);
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(
      transport.closes.every((c) => c === null),
      'every close was a clean server close',
    ).to.equal(true);
    expect(transport.watches.every((w) => w.timeoutSeconds === 3)).to.equal(true);
    expect(started.list(), 'other namespaces are not cached').to.deep.equal([]);

    const name = uniqueName('ms');
    await api.create({ ...MAPI, namespace }, mapiMachineSet(name));
    await eventually(() => expect(started.get(namespace, name)?.metadata.name).to.equal(name));
    expect(started.get(namespace, name)?.metadata).to.not.have.property('managedFields');
    expect(transport.lists, 'resumed by watching, never relisted').to.equal(1);
  });

  it('lists in pages, one request per page on one connection, into one snapshot', async () => {
    const namespace = await testNamespace('informer');
    const api = adminObjects();
    const names = Array.from({ length: 5 }, () => uniqueName('ms'));
    for (const name of names) {
      await api.create({ ...MAPI, namespace }, mapiMachineSet(name));
    }
    const through = await FaultProxy.inFrontOf(adminConfig());
    proxy = through.proxy;
    const client = clientFor(through.kubeConfig);
    const requests: string[] = [];
    const request = client.request.bind(client);
    client.request = (method, path, options) => {
      requests.push(`${method} ${path}?${new URLSearchParams(options?.query).toString()}`);
      return request(method, path, options);
    };
    const transport = new KubeListWatcher(client, { ...MAPI, namespace }, { pageSize: 2 });
    const result = await transport.list(AbortSignal.timeout(30_000));
    expect(result.items.map((item) => (item as MapiMachineSet).metadata.name).sort()).to.deep.equal(
      [...names].sort(),
    );
    expect(result.items.every((item) => (item as MapiMachineSet).kind === 'MachineSet')).to.equal(
      true,
    );
    expect(Number(result.resourceVersion)).to.be.greaterThan(0);
    expect(requests, 'three pages of at most two').to.have.length(3);
    expect(requests.slice(1).every((r) => r.includes('continue='))).to.equal(true);
    expect(proxy.acceptedConnections(), 'one kept-alive connection for all pages').to.equal(1);
    client.close();
    await eventually(() => expect(proxy?.openConnections(), 'no connection left open').to.equal(0));
  });

  it('tears down a watch whose connection hangs, without leaking it, and catches up once the network is back', async function () {
    this.timeout(90_000);
    const namespace = await testNamespace('informer');
    const api = adminObjects();
    const through = await FaultProxy.inFrontOf(adminConfig());
    proxy = through.proxy;
    const transport = new RecordingListWatcher(
      new KubeListWatcher(clientFor(through.kubeConfig), { ...MAPI, namespace }),
    );
    // A long server timeout: only the idle guard can notice the hung connection in time.
    const started = new Informer<MapiMachineSet>(transport, {
      logger: silentLogger,
      watchTimeoutSeconds: 600,
      watchIdleTimeoutMs: 2_000,
    });
    informer = started;
    started.start();
    await started.waitForSync(AbortSignal.timeout(30_000));
    await eventually(() => expect(proxy?.openConnections()).to.equal(1));

    proxy.hang();
    const watchesBefore = transport.watches.length;
    const name = uniqueName('ms');
    await api.create({ ...MAPI, namespace }, mapiMachineSet(name));
    // The hung watch is given up and another started (which hangs too), and again.
    await eventually(() => expect(transport.watches.length).to.be.at.least(watchesBefore + 2), {
      timeoutMs: 20_000,
    });
    expect(started.get(namespace, name), 'nothing gets through a hung connection').to.equal(
      undefined,
    );
    // Each abandoned watch closed its connection: only the current one is open.
    await eventually(() => expect(proxy?.openConnections()).to.be.at.most(1));
    // The list and the first watch share one kept-alive connection; each rewatch opens its own.
    await eventually(() => expect(proxy?.acceptedConnections()).to.be.at.least(3));

    proxy.pass();
    await eventually(() => expect(started.get(namespace, name)?.metadata.name).to.equal(name), {
      timeoutMs: 20_000,
    });
    expect(transport.lists, 'a rewatch from where it was, no relist').to.equal(1);
  });
});
