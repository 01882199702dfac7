// Which kinds of write the API server currently refuses us for lack of a grant (401, or 403 not
// from an admission webhook), until the same kind of write is accepted again. Fed by the
// reconcilers' write outcomes; read by the ClusterOperator status.
import { describeError, isAccessDenied } from '../kube/errors.js';
import type { Resource } from '../kube/resources.js';
import type { RefusedWrite } from './operator-status.js';

export interface WriteOutcome {
  resource: Resource;
  verb: string;
  subresource?: string;
}

function describeWrite({ resource, verb, subresource }: WriteOutcome): string {
  const group = resource.group ? `.${resource.group}` : '';
  return `${verb} ${resource.plural}${subresource ? `/${subresource}` : ''}${group}`;
}

export class RefusedWrites {
  private readonly refused = new Map<string, string>();

  accepted = (write: WriteOutcome): void => {
    this.refused.delete(describeWrite(write));
  };

  failed = (write: WriteOutcome & { error: unknown }): void => {
    if (isAccessDenied(write.error)) {
      this.refused.set(describeWrite(write), describeError(write.error));
    }
  };

  list(): RefusedWrite[] {
    return [...this.refused].sort().map(([what, error]) => ({ what, error }));
  }
}
