import { expect } from 'chai';
import type { MapiCondition } from '../../../src/api/types.js';
import { planMachineSetCapiStatus } from '../../../src/sync/machine-set/mirror-status.js';
import { formatFieldErrors } from '../../../src/sync/report.js';
import {
  conditionDiffers,
  Reason,
  synchronizedCondition,
  withCondition,
  withReconciling,
} from '../../../src/sync/conditions.js';
import { mapiMachineSet } from './machine-set/world.js';

const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T01:00:00Z';

describe('Synchronized condition', () => {
  it('maps status to severity and always sets a reason', () => {
    const ok = synchronizedCondition(
      { status: 'True', reason: Reason.Synchronized, message: 'ok' },
      undefined,
      T0,
    );
    expect(ok).to.deep.equal({
      type: 'Synchronized',
      status: 'True',
      severity: '',
      reason: 'ResourceSynchronized',
      message: 'ok',
      lastTransitionTime: T0,
    });
    expect(
      synchronizedCondition(
        { status: 'False', reason: Reason.ConversionFailed, message: 'x' },
        undefined,
        T0,
      ).severity,
    ).to.equal('Error');
    expect(
      synchronizedCondition(
        { status: 'Unknown', reason: Reason.AuthorityChanged, message: 'x' },
        undefined,
        T0,
      ).severity,
    ).to.equal('Info');
  });

  it('moves lastTransitionTime only when the status changes', () => {
    const before: MapiCondition = {
      type: 'Synchronized',
      status: 'False',
      severity: 'Error',
      reason: Reason.ConversionFailed,
      message: 'a',
      lastTransitionTime: T0,
    };
    const sameStatus = synchronizedCondition(
      { status: 'False', reason: Reason.UpdateFailed, message: 'b' },
      before,
      T1,
    );
    expect(sameStatus.lastTransitionTime).to.equal(T0);
    const flipped = synchronizedCondition(
      { status: 'True', reason: Reason.Synchronized, message: 'c' },
      before,
      T1,
    );
    expect(flipped.lastTransitionTime).to.equal(T1);
  });

  it('writes lastTransitionTime in whole seconds, as Kubernetes (metav1.Time) does', () => {
    const now = '2026-01-01T01:00:00.123Z';
    const state = { status: 'True', reason: Reason.Synchronized, message: 'm' } as const;
    expect(synchronizedCondition(state, undefined, now).lastTransitionTime).to.equal(T1);
    const reconciling = withReconciling(undefined, { ...state, reason: 'Done' }, now);
    expect(reconciling[0]?.lastTransitionTime).to.equal(T1);
    const mapi = mapiMachineSet();
    const mirror = {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineSet',
      metadata: { name: 'worker-a', generation: 1 },
      spec: { replicas: 2, selector: { matchLabels: { set: 'worker-a' } } },
    } as never;
    const step = planMachineSetCapiStatus(mapi, mirror, now);
    const patch = step?.kind === 'patch' ? step.patch : undefined;
    const body = patch?.type === 'merge' ? patch.body : undefined;
    const conditions = (body?.status as { conditions?: { lastTransitionTime: string }[] })
      ?.conditions;
    expect(conditions?.map((c) => c.lastTransitionTime)).to.deep.equal([T1, T1, T1]);
  });

  it('detects a difference in status, reason or message, and nothing else', () => {
    const state = { status: 'True', reason: Reason.Synchronized, message: 'm' } as const;
    const current = synchronizedCondition(state, undefined, T0);
    expect(conditionDiffers(current, state)).to.equal(false);
    expect(conditionDiffers(current, { ...state, message: 'n' })).to.equal(true);
    expect(conditionDiffers(current, { ...state, reason: Reason.UpdateFailed })).to.equal(true);
    expect(conditionDiffers(undefined, state)).to.equal(true);
  });

  it('replaces the condition of its type in place and keeps the others', () => {
    const other: MapiCondition = { type: 'Other', status: 'True', lastTransitionTime: T0 };
    const first = synchronizedCondition(
      { status: 'Unknown', reason: Reason.AuthorityChanged, message: '' },
      undefined,
      T0,
    );
    const second = synchronizedCondition(
      { status: 'True', reason: Reason.Synchronized, message: '' },
      first,
      T1,
    );
    expect(withCondition([other], first)).to.deep.equal([other, first]);
    expect(withCondition([first, other], second)).to.deep.equal([second, other]);
  });
});

describe('formatFieldErrors', () => {
  it('names at most ten field errors and counts the rest', () => {
    const errors = Array.from({ length: 5000 }, (_, i) => ({
      path: `metadata.labels[k${i}]`,
      message: 'is not a valid label key.',
    }));
    const message = formatFieldErrors(errors);
    expect(message).to.match(/^metadata\.labels\[k0\]: is not a valid label key; /);
    expect(message).to.contain('metadata.labels[k9]');
    expect(message).to.not.contain('metadata.labels[k10]');
    expect(message).to.match(/; and 4990 more$/);
  });
});
