// ObjectClient against a local HTTP server: the paths, methods, queries, bodies and content types
// each call sends, lists gathered from pages, watches, discovery, and the errors callers classify.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { CONFIG_MAP, NAMESPACE } from '../../../src/kube/builtin-resources.js';
import { isConflict, isNotFound } from '../../../src/kube/errors.js';
import { ApiError, KubeClient } from '../../../src/kube/http-client.js';
import { ObjectClient } from '../../../src/kube/objects.js';
import { INFRASTRUCTURE, MAPI_MACHINE_SET } from '../../../src/kube/resources.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface Seen {
  method: string;
  url: string;
  contentType: string | undefined;
  body: string;
}

const MS = { ...MAPI_MACHINE_SET, namespace: 'ns' };
const OBJECT = { apiVersion: 'machine.openshift.io/v1beta1', kind: 'MachineSet' };

describe('ObjectClient', () => {
  let server: Server;
  let handler: Handler;
  let seen: Seen[];
  let objects: ObjectClient;
  let warnings: string[];

  const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Handler => {
    return (_req, res) => {
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
  };
  const last = (): Seen => {
    const request = seen.at(-1);
    if (!request) throw new Error('no request reached the server');
    return request;
  };

  beforeEach(async () => {
    seen = [];
    warnings = [];
    handler = answer(200, { ...OBJECT, metadata: { name: 'a' } });
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        seen.push({
          method: req.method ?? '',
          url: req.url ?? '',
          contentType: req.headers['content-type'],
          body,
        });
        handler(req, res, body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = new KubeClient(
      {
        server: `http://127.0.0.1:${port}`,
        tls: { rejectUnauthorized: true },
        token: () => Promise.resolve('token'),
        source: 'test',
      },
      { timeoutMs: 5000, onWarning: (w) => warnings.push(w) },
    );
    objects = new ObjectClient(client);
  });

  afterEach(async () => {
    objects.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads a namespaced, a cluster-scoped and a core object at their paths', async () => {
    const read = await objects.get<{ metadata: { name: string } }>({ ...MS, name: 'a' });
    expect(read.metadata.name).to.equal('a');
    expect(last()).to.include({
      method: 'GET',
      url: '/apis/machine.openshift.io/v1beta1/namespaces/ns/machinesets/a',
    });
    await objects.get({ ...INFRASTRUCTURE, name: 'cluster' });
    expect(last().url).to.equal('/apis/config.openshift.io/v1/infrastructures/cluster');
    await objects.get({ ...NAMESPACE, name: 'ns' });
    expect(last().url).to.equal('/api/v1/namespaces/ns');
    await objects.get({ ...CONFIG_MAP, namespace: 'n s', name: 'a/b' });
    expect(last().url).to.equal('/api/v1/namespaces/n%20s/configmaps/a%2Fb');
  });

  it('lists page by page into one list, with the first page’s resourceVersion and the selectors', async () => {
    const pages = [
      { items: [{ n: 1 }, { n: 2 }], metadata: { resourceVersion: '10', continue: 'p2' } },
      { items: [{ n: 3 }], metadata: { resourceVersion: '10', continue: 'p3' } },
      { items: [], metadata: { resourceVersion: '10' } },
    ];
    handler = (req, res, body) =>
      answer(200, { apiVersion: 'v1', kind: 'EventList', ...pages.shift() })(req, res, body);
    const list = await objects.list<{ n: number }>(
      { ...CONFIG_MAP, namespace: 'ns' },
      { labelSelector: 'a=b', fieldSelector: 'reason=X', pageSize: 2 },
    );
    expect(list).to.deep.equal({
      apiVersion: 'v1',
      kind: 'EventList',
      metadata: { resourceVersion: '10' },
      items: [{ n: 1 }, { n: 2 }, { n: 3 }],
    });
    expect(seen.map((s) => s.url)).to.deep.equal([
      '/api/v1/namespaces/ns/configmaps?labelSelector=a%3Db&fieldSelector=reason%3DX&limit=2',
      '/api/v1/namespaces/ns/configmaps?labelSelector=a%3Db&fieldSelector=reason%3DX&limit=2&continue=p2',
      '/api/v1/namespaces/ns/configmaps?labelSelector=a%3Db&fieldSelector=reason%3DX&limit=2&continue=p3',
    ]);

    handler = answer(200, { items: [], metadata: { resourceVersion: '11' } });
    await objects.list(MAPI_MACHINE_SET);
    expect(last().url).to.equal('/apis/machine.openshift.io/v1beta1/machinesets?limit=500');
  });

  it('creates in the collection, dry-run and strictly validated when asked, and posts to a subresource', async () => {
    const body = { ...OBJECT, metadata: { name: 'a' } };
    await objects.create(MS, body, { dryRun: true, fieldValidation: 'Strict' });
    expect(last()).to.deep.include({
      method: 'POST',
      url: '/apis/machine.openshift.io/v1beta1/namespaces/ns/machinesets?dryRun=All&fieldValidation=Strict',
      contentType: 'application/json',
    });
    expect(JSON.parse(last().body)).to.deep.equal(body);

    await objects.create(
      { group: '', version: 'v1', plural: 'serviceaccounts', namespace: 'ns', name: 'sa' },
      { spec: { audiences: [] } },
      { subresource: 'token' },
    );
    expect(last()).to.include({
      method: 'POST',
      url: '/api/v1/namespaces/ns/serviceaccounts/sa/token',
    });
    const unnamed = await objects
      .create(MS, body, { subresource: 'token' })
      .catch((err: unknown) => err);
    expect(String(unnamed)).to.contain('a subresource needs a name');
  });

  it('replaces the object or its status', async () => {
    const body = { ...OBJECT, metadata: { name: 'a', resourceVersion: '5' } };
    await objects.replace({ ...MS, name: 'a' }, body);
    expect(last()).to.include({
      method: 'PUT',
      url: '/apis/machine.openshift.io/v1beta1/namespaces/ns/machinesets/a',
    });
    await objects.replace({ ...MS, name: 'a' }, body, { subresource: 'status' });
    expect(last().url).to.equal(
      '/apis/machine.openshift.io/v1beta1/namespaces/ns/machinesets/a/status',
    );
    expect(JSON.parse(last().body)).to.deep.equal(body);
  });

  it('names each kind of patch in its Content-Type, and sends an apply’s field manager and force', async () => {
    const at = { ...MS, name: 'a' };
    const operations = [{ op: 'add' as const, path: '/spec/replicas', value: 2 }];
    await objects.patch(at, { type: 'json', operations }, { subresource: 'status' });
    expect(last()).to.deep.include({
      method: 'PATCH',
      url: '/apis/machine.openshift.io/v1beta1/namespaces/ns/machinesets/a/status',
      contentType: 'application/json-patch+json',
    });
    expect(JSON.parse(last().body)).to.deep.equal(operations);

    await objects.patch(at, { type: 'merge', body: { spec: { replicas: 3 } } });
    expect(last().contentType).to.equal('application/merge-patch+json');
    expect(JSON.parse(last().body)).to.deep.equal({ spec: { replicas: 3 } });

    await objects.patch(at, { type: 'strategic', body: { metadata: { labels: { a: 'b' } } } });
    expect(last().contentType).to.equal('application/strategic-merge-patch+json');

    await objects.patch(
      at,
      { type: 'apply', body: { ...OBJECT, metadata: { name: 'a' } } },
      { fieldManager: 'me', force: true, dryRun: true },
    );
    expect(last()).to.deep.include({
      url: '/apis/machine.openshift.io/v1beta1/namespaces/ns/machinesets/a?dryRun=All&fieldManager=me&force=true',
      contentType: 'application/apply-patch+yaml',
    });
  });

  it('deletes with no body, or with DeleteOptions when given any, and returns the server’s answer', async () => {
    handler = answer(200, { kind: 'Status', status: 'Success' });
    const answered = await objects.delete({ ...NAMESPACE, name: 'ns' });
    expect(answered).to.deep.equal({ kind: 'Status', status: 'Success' });
    expect(last()).to.include({ method: 'DELETE', url: '/api/v1/namespaces/ns', body: '' });

    await objects.delete(
      { ...MS, name: 'a' },
      { preconditions: { uid: 'u1' }, propagationPolicy: 'Foreground', dryRun: true },
    );
    expect(last().url).to.equal(
      '/apis/machine.openshift.io/v1beta1/namespaces/ns/machinesets/a?dryRun=All',
    );
    expect(JSON.parse(last().body)).to.deep.equal({
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      preconditions: { uid: 'u1' },
      propagationPolicy: 'Foreground',
    });
  });

  it('fails with the status code and Status the error classifiers read', async () => {
    handler = answer(404, { kind: 'Status', code: 404, message: 'machinesets "a" not found' });
    const missing = await objects.get({ ...MS, name: 'a' }).catch((err: unknown) => err);
    expect(missing).to.be.instanceOf(ApiError);
    expect(isNotFound(missing)).to.equal(true);
    expect((missing as ApiError).body).to.contain('machinesets \\"a\\" not found');

    handler = answer(409, { kind: 'Status', code: 409, message: 'conflict' });
    const conflict = await objects
      .replace({ ...MS, name: 'a' }, { ...OBJECT, metadata: { name: 'a' } })
      .catch((err: unknown) => err);
    expect(isConflict(conflict)).to.equal(true);
  });

  it('hands the Warning header of an answer to the client’s listener', async () => {
    handler = answer(200, {}, { Warning: '299 - "deprecated"' });
    await objects.get({ ...MS, name: 'a' });
    expect(warnings).to.deep.equal(['299 - "deprecated"']);
  });

  it('watches: resolves once the server accepted the watch, delivers its events, and ends cleanly on abort', async () => {
    let respond: ServerResponse | undefined;
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('');
      respond = res;
    };
    const events: string[] = [];
    const ended: unknown[] = [];
    const watch = await objects.watch<{ metadata: { name: string } }>(
      MS,
      { resourceVersion: '7', allowWatchBookmarks: true, timeoutSeconds: 30 },
      (type, object) => events.push(`${type} ${object.metadata.name}`),
      (err) => ended.push(err ?? 'clean'),
    );
    expect(last().url).to.equal(
      '/apis/machine.openshift.io/v1beta1/namespaces/ns/machinesets?watch=true&resourceVersion=7&allowWatchBookmarks=true&timeoutSeconds=30',
    );
    respond?.write('{"type":"ADDED","object":{"metadata":{"name":"a"}}}\n');
    respond?.write('{"type":"MODIFIED","object":{"metadata":{"name":"a"}}}\n');
    for (let i = 0; i < 200 && events.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    expect(events).to.deep.equal(['ADDED a', 'MODIFIED a']);
    watch.abort();
    expect(ended).to.deep.equal(['clean']);

    // The server ends it: clean too.
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"type":"BOOKMARK","object":{"metadata":{"name":"b"}}}\n');
    };
    const endedByServer = new Promise<unknown>((resolve) => {
      void objects.watch<{ metadata: { name: string } }>(
        MS,
        {},
        (type, object) => events.push(`${type} ${object.metadata.name}`),
        (err) => resolve(err ?? 'clean'),
      );
    });
    expect(await endedByServer).to.equal('clean');
    expect(events.at(-1)).to.equal('BOOKMARK b');
  });

  it('rejects a watch the server refuses', async () => {
    handler = answer(403, { kind: 'Status', code: 403, message: 'forbidden' });
    const refused = await objects
      .watch(
        MS,
        {},
        () => undefined,
        () => undefined,
      )
      .catch((err: unknown) => err);
    expect(refused).to.be.instanceOf(ApiError);
    expect((refused as ApiError).code).to.equal(403);
  });

  it('finds the resource of a kind by discovery, once per group version, and locates objects of any kind', async () => {
    handler = (req, res, body) => {
      const resources =
        req.url === '/api/v1'
          ? [
              { name: 'namespaces', kind: 'Namespace', namespaced: false },
              { name: 'serviceaccounts', kind: 'ServiceAccount', namespaced: true },
              { name: 'serviceaccounts/token', kind: 'TokenRequest', namespaced: true },
            ]
          : [{ name: 'roles', kind: 'Role', namespaced: true }];
      answer(200, { kind: 'APIResourceList', resources })(req, res, body);
    };
    expect(await objects.resourceFor('rbac.authorization.k8s.io/v1', 'Role')).to.deep.equal({
      group: 'rbac.authorization.k8s.io',
      version: 'v1',
      plural: 'roles',
      kind: 'Role',
      namespaced: true,
    });
    expect(
      await objects.locate({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } }),
    ).to.deep.equal({ group: '', version: 'v1', plural: 'namespaces', name: 'x' });
    expect(
      await objects.locate({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' } }),
    ).to.deep.equal({
      group: '',
      version: 'v1',
      plural: 'serviceaccounts',
      name: 'sa',
      namespace: 'default',
    });
    expect(seen.map((s) => s.url)).to.deep.equal(['/apis/rbac.authorization.k8s.io/v1', '/api/v1']);
    const unknown = await objects.resourceFor('v1', 'Nothing').catch((err: unknown) => err);
    expect(String(unknown)).to.contain('the server serves no Nothing in v1');
  });
});
