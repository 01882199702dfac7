// Reading the coordination.k8s.io Leases that leader election writes.
import { LEASE } from '../../src/kube/builtin-resources.js';
import { adminObjects } from './cluster.js';

/** The fields of a Lease the tests look at. */
export interface ObservedLease {
  spec?: {
    holderIdentity?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

export function readLease(namespace: string, name: string): Promise<ObservedLease> {
  return adminObjects().get<ObservedLease>({ ...LEASE, namespace, name });
}
