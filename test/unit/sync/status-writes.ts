// What the reverse-sync tests of both kinds check of a converged world's status writes.
import { expect } from 'chai';
import type { Step } from '../../../src/sync/steps.js';

/** Asserts that `steps` hold exactly one status patch; returns the status it writes. */
export function onlyStatusWrite(steps: Step[]): Record<string, unknown> {
  const statusWrites = steps.filter((s) => s.kind === 'patch' && s.subresource === 'status');
  expect(statusWrites, steps.map((s) => s.note).join(' | ')).to.have.length(1);
  return (statusWrites[0] as unknown as { patch: { body: { status: Record<string, unknown> } } })
    .patch.body.status;
}
