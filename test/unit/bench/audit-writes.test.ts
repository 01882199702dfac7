import { expect } from 'chai';
import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditWrites, countByKind, parseAuditWrite } from '../../../hack/bench/audit-writes.js';

const OURS = 'system:serviceaccount:openshift-cluster-api:mapi-capi-sync';

function line(
  verb: string,
  resource: string,
  options: {
    user?: string;
    subresource?: string;
    group?: string;
    stage?: string;
    code?: number;
  } = {},
): string {
  return JSON.stringify({
    kind: 'Event',
    level: 'Metadata',
    stage: options.stage ?? 'ResponseComplete',
    verb,
    user: { username: options.user ?? OURS, groups: ['system:masters'] },
    objectRef: {
      resource,
      ...(options.subresource ? { subresource: options.subresource } : {}),
      ...(options.group === '' ? {} : { apiGroup: options.group ?? 'cluster.x-k8s.io' }),
      name: 'm-1',
    },
    responseStatus: { code: options.code ?? 200 },
  });
}

describe('bench: writes from the audit log', () => {
  it('reads a write with its user, verb, resource and subresource; nothing else', () => {
    expect(parseAuditWrite(line('patch', 'machines', { subresource: 'status' }))).to.deep.equal({
      user: OURS,
      verb: 'patch',
      resource: 'machines/status.cluster.x-k8s.io',
      name: 'm-1',
      code: 200,
    });
    expect(parseAuditWrite(line('create', 'events', { group: '' }))?.resource).to.equal('events');
    expect(parseAuditWrite(line('get', 'machines'))).to.equal(undefined);
    expect(parseAuditWrite(line('watch', 'machines', { stage: 'ResponseStarted' }))).to.equal(
      undefined,
    );
    expect(parseAuditWrite(line('patch', 'machines', { stage: 'ResponseStarted' }))).to.equal(
      undefined,
    );
    expect(parseAuditWrite('{"verb":"patch", half a line')).to.equal(undefined);
  });

  it('follows the log from where it ended, per user, across a rotation and a split line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-writes-'));
    try {
      const path = join(dir, 'audit.log');
      writeFileSync(path, `${line('create', 'machines')}\n`);
      const audit = new AuditWrites(path);
      await audit.start(); // the create before is not counted
      const update = line('update', 'awsmachines', { group: 'infrastructure.cluster.x-k8s.io' });
      appendFileSync(
        path,
        `${line('patch', 'machines', { user: 'someone' })}\n${update.slice(0, 40)}`,
      );
      await audit.read();
      appendFileSync(path, `${update.slice(40)}\n`);
      await audit.read();
      expect(countByKind(audit.take(OURS))).to.deep.equal({
        'update awsmachines.infrastructure.cluster.x-k8s.io': 1,
      });
      expect(audit.take('someone')).to.have.length(1);
      // the API server renames the full log and starts a new one
      appendFileSync(path, `${line('delete', 'machines')}\n`);
      renameSync(path, join(dir, 'audit-2026-11-27T18-00-00.000.log'));
      writeFileSync(path, `${line('patch', 'machines', { subresource: 'status' })}\n`);
      await audit.read();
      expect(countByKind(audit.take(OURS))).to.deep.equal({
        'delete machines.cluster.x-k8s.io': 1,
        'patch machines/status.cluster.x-k8s.io': 1,
      });
      expect(audit.take(OURS)).to.deep.equal([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
