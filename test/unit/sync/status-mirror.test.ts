// The mirrored status, for both kinds and both directions: only our fields that differ are
// written, and our conditions replace theirs by type while everyone else's stay.
import { expect } from 'chai';
import { planStatusMirror, statusChanges } from '../../../src/sync/status-mirror.js';

const T0 = '2026-01-01T00:00:00Z';

describe('statusChanges', () => {
  it('names only the fields that differ; an absent field says null', () => {
    const current = { replicas: 2, phase: 'Running', other: 'theirs' };
    expect(
      statusChanges(current, { fields: { replicas: 3, phase: 'Running', errorReason: null } }),
    ).to.deep.equal({ replicas: 3 });
    expect(statusChanges(current, { fields: { replicas: 2, errorReason: null } })).to.equal(
      undefined,
    );
    expect(statusChanges(undefined, { fields: { errorReason: 'x' } })).to.deep.equal({
      errorReason: 'x',
    });
  });

  it('writes the whole conditions list once one of ours changed, everyone else’s in place', () => {
    const paused = { type: 'Paused', status: 'True', lastTransitionTime: T0 };
    const up = { type: 'ScalingUp', status: 'False', lastTransitionTime: T0 };
    const current = { conditions: [up, paused] };
    expect(statusChanges(current, { fields: {}, conditions: [up] })).to.equal(undefined);
    const scaling = { ...up, status: 'True' };
    const ready = { type: 'MachinesReady', status: 'True', lastTransitionTime: T0 };
    expect(statusChanges(current, { fields: {}, conditions: [scaling, ready] })).to.deep.equal({
      conditions: [scaling, paused, ready],
    });
  });
});

describe('planStatusMirror', () => {
  it('patches the status subresource with the changes; guarded by the resourceVersion only with conditions', () => {
    const object = {
      apiVersion: 'v1',
      kind: 'Thing',
      metadata: { name: 'a', resourceVersion: '7' },
      status: { phase: 'Provisioning', conditions: [{ type: 'Paused', status: 'True' }] },
    };
    // fields of ours: set whatever else changed meanwhile (no 409 when another writer raced)
    const step = planStatusMirror(object, { fields: { phase: 'Running' } }, 'mirroring');
    expect(step).to.deep.include({
      kind: 'patch',
      subresource: 'status',
      note: 'mirroring',
      patch: { type: 'merge', body: { status: { phase: 'Running' } } },
    });
    // a condition list merged with everyone else's as read: only valid on that version
    const synchronized = { type: 'Synchronized', status: 'True' };
    const withConditions = planStatusMirror(
      object,
      { fields: { phase: 'Running' }, conditions: [synchronized] },
      'mirroring',
    );
    expect(withConditions).to.deep.include({
      patch: {
        type: 'merge',
        body: {
          status: { phase: 'Running', conditions: [object.status.conditions[0], synchronized] },
          metadata: { resourceVersion: '7' },
        },
      },
    });
    expect(planStatusMirror(object, { fields: { phase: 'Provisioning' } }, 'mirroring')).to.equal(
      undefined,
    );
    expect(planStatusMirror(object, undefined, 'mirroring')).to.equal(undefined);
  });
});
