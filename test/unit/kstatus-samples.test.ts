// The judge of the kstatus samples: which MAPI MachineSet samples count as synchronized, so that
// the integration test's "no Current before synchronized" can both pass and fail.
import { expect } from 'chai';
import type { KstatusResult } from '../support/kstatus.js';
import { isSynchronized, mapiVerdicts, type Judged } from '../support/kstatus-samples.js';
import type { SampledObject } from '../support/object-samples.js';

function mapi(
  generation: number,
  status: { authority?: string; synchronized?: string; synchronizedGeneration?: number },
): SampledObject {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    metadata: { name: 'workers', namespace: 'ns', generation },
    status: {
      ...(status.authority ? { authoritativeAPI: status.authority } : {}),
      ...(status.synchronizedGeneration !== undefined
        ? { synchronizedGeneration: status.synchronizedGeneration }
        : {}),
      ...(status.synchronized
        ? { conditions: [{ type: 'Synchronized', status: status.synchronized, reason: 'R' }] }
        : {}),
    },
  };
}

const capi = (generation: number): SampledObject => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'MachineSet',
  metadata: { name: 'workers', namespace: 'capi', generation },
});

function judged(object: SampledObject, status: KstatusResult['status'], at = 0): Judged {
  return {
    at,
    event: 'MODIFIED',
    object,
    kstatus: {
      kind: object.kind,
      name: 'workers',
      namespace: '',
      generation: 0,
      status,
      message: '',
    },
  };
}

describe('kstatus samples: when a MAPI MachineSet is synchronized', () => {
  it('under MachineAPI: Synchronized=True at its own generation', () => {
    const at = (synchronizedGeneration: number, synchronized = 'True') =>
      isSynchronized(
        mapi(2, { authority: 'MachineAPI', synchronized, synchronizedGeneration }),
        undefined,
      );
    expect(at(2)).to.equal(true);
    expect(at(1)).to.equal(false);
    expect(at(2, 'Unknown')).to.equal(false);
    expect(at(2, 'False')).to.equal(false);
  });

  it('under ClusterAPI: Synchronized=True at the CAPI MachineSet generation', () => {
    const object = mapi(5, {
      authority: 'ClusterAPI',
      synchronized: 'True',
      synchronizedGeneration: 1,
    });
    expect(isSynchronized(object, 1)).to.equal(true);
    expect(isSynchronized(object, 2)).to.equal(false);
    expect(isSynchronized(object, undefined)).to.equal(false);
  });

  it('never while Migrating or before the authority is known', () => {
    const done = { synchronized: 'True', synchronizedGeneration: 1 };
    expect(isSynchronized(mapi(1, { ...done, authority: 'Migrating' }), 1)).to.equal(false);
    expect(isSynchronized(mapi(1, done), 1)).to.equal(false);
  });
});

describe('kstatus samples: MAPI MachineSet verdicts', () => {
  const synced = mapi(1, {
    authority: 'MachineAPI',
    synchronized: 'True',
    synchronizedGeneration: 1,
  });
  const behind = mapi(2, {
    authority: 'MachineAPI',
    synchronized: 'True',
    synchronizedGeneration: 1,
  });

  it('passes when every Current sample is synchronized', () => {
    const verdicts = mapiVerdicts(
      [judged(behind, 'InProgress'), judged(synced, 'Current'), judged(capi(1), 'Current')],
      'workers',
    );
    expect(verdicts.early).to.deep.equal([]);
    expect(verdicts.timeline).to.have.length(2);
  });

  it('reports a Current sample that is not synchronized, with what kstatus read it by', () => {
    const verdicts = mapiVerdicts(
      [judged(synced, 'Current'), judged(behind, 'Current', 42)],
      'workers',
    );
    expect(verdicts.early).to.have.length(1);
    expect(verdicts.early[0]).to.match(
      /^\+42ms MODIFIED .*generation=2 .*synchronizedGeneration=1 /,
    );
  });

  it('pairs a ClusterAPI sample with the CAPI generation seen before it, and ignores other names', () => {
    const mirror = mapi(3, {
      authority: 'ClusterAPI',
      synchronized: 'True',
      synchronizedGeneration: 1,
    });
    const other = { ...capi(7), metadata: { ...capi(7).metadata, name: 'other' } };
    const verdicts = mapiVerdicts(
      [judged(capi(1), 'Current'), judged(other, 'Current'), judged(mirror, 'Current')],
      'workers',
    );
    expect(verdicts.early).to.deep.equal([]);
    const bumped = mapiVerdicts([judged(capi(2), 'Current'), judged(mirror, 'Current')], 'workers');
    expect(bumped.early).to.have.length(1);
  });

  it('tells the early samples taken once a migration was announced on the object', () => {
    const announced = (generation: number, authority: string): SampledObject => {
      const object = mapi(generation, {
        authority,
        synchronized: 'True',
        synchronizedGeneration: 1,
      });
      const status = object.status as { conditions: object[] };
      status.conditions.push({ type: 'MigrationProgressing', status: 'True', reason: 'R' });
      return object;
    };
    const verdicts = mapiVerdicts(
      [
        judged(behind, 'Current', 1),
        judged(announced(2, 'MachineAPI'), 'InProgress', 2),
        judged(announced(2, 'Migrating'), 'Current', 3),
        judged(mapi(2, { authority: 'ClusterAPI', synchronized: 'Unknown' }), 'Current', 4),
      ],
      'workers',
    );
    expect(verdicts.early).to.have.length(3);
    expect(verdicts.earlyWhileMigrating).to.have.length(2);
    expect(verdicts.earlyWhileMigrating[0]).to.match(/^\+3ms /);
    expect(verdicts.earlyWhileMigrating[1]).to.match(/^\+4ms /);
  });

  it("tells early samples whose observedGeneration is not machine-api-operator's alone", () => {
    const writtenBy = (observedGeneration: number | undefined, ...managers: string[]) => {
      const object = mapi(2, { authority: 'MachineAPI', synchronized: 'True' });
      const status = object.status as { observedGeneration?: number };
      if (observedGeneration !== undefined) status.observedGeneration = observedGeneration;
      (object.metadata as { managedFields?: object[] }).managedFields = managers.map((manager) => ({
        manager,
        fieldsV1: { 'f:status': { 'f:observedGeneration': {} } },
      }));
      return object;
    };
    const verdicts = mapiVerdicts(
      [
        judged(writtenBy(undefined), 'Current', 1),
        judged(writtenBy(2, 'machine-api-operator'), 'Current', 2),
        judged(writtenBy(2, 'mapi-capi-sync'), 'Current', 3),
        judged(writtenBy(2, 'machine-api-operator', 'mapi-capi-sync'), 'Current', 4),
      ],
      'workers',
    );
    expect(verdicts.early).to.have.length(4);
    expect(verdicts.earlyNotByOthers.map((line) => line.split(' ')[0])).to.deep.equal([
      '+3ms',
      '+4ms',
    ]);
  });
});
