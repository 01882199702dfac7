// The status a mirror Machine shows: a paused CAPI Machine's from its MAPI Machine, and a MAPI
// mirror's from its authoritative CAPI Machine. Pure. Only the fields listed here are written;
// conditions stay with their owners (Cluster API's `Paused`, machine-api-operator's).
import isEqual from 'lodash/isEqual.js';
import type { CapiMachine, MapiMachine } from '../../api/types.js';
import { patchStatus, type WriteStep } from '../steps.js';

/** MAPI phases and the Cluster API phase that says the same. */
const CAPI_PHASE: Record<string, string> = {
  Provisioning: 'Provisioning',
  Provisioned: 'Provisioned',
  Running: 'Running',
  Deleting: 'Deleting',
  Failed: 'Failed',
};

/** Cluster API phases and the nearest MAPI phase (MAPI has no Pending, Deleted or Unknown). */
const MAPI_PHASE: Record<string, string> = {
  Pending: 'Provisioning',
  Provisioning: 'Provisioning',
  Provisioned: 'Provisioned',
  Running: 'Running',
  Deleting: 'Deleting',
  Deleted: 'Deleting',
  Failed: 'Failed',
};

/** The fields of `wanted` whose value differs from `current` (null removes a field). */
function changedFields(
  current: Record<string, unknown>,
  wanted: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const changed = Object.entries(wanted).filter(
    ([key, value]) => !isEqual(current[key] ?? null, value),
  );
  return changed.length > 0 ? Object.fromEntries(changed) : undefined;
}

/**
 * A paused CAPI Machine's status, as Cluster API would show it for the running machine the MAPI
 * Machine describes: phase, node reference, addresses, and provisioning done once the instance
 * exists (a providerID). Undefined when it already says so.
 */
export function planCapiMachineStatus(
  mapi: MapiMachine,
  mirror: CapiMachine,
): WriteStep | undefined {
  const source = mapi.status ?? {};
  const phase = source.phase ? CAPI_PHASE[source.phase] : undefined;
  // The CRD admits a Machine without spec: no providerID then.
  const providerID = mapi.spec?.providerID;
  const provisioned = providerID !== undefined && providerID !== '';
  const wanted: Record<string, unknown> = {
    phase: phase ?? null,
    nodeRef: source.nodeRef ? { name: source.nodeRef.name } : null,
    addresses: source.addresses?.length ? source.addresses : null,
    ...(provisioned
      ? { initialization: { infrastructureProvisioned: true, bootstrapDataSecretCreated: true } }
      : {}),
    ...(mirror.metadata.generation !== undefined
      ? { observedGeneration: mirror.metadata.generation }
      : {}),
  };
  const changed = changedFields(mirror.status ?? {}, wanted);
  return (
    changed && patchStatus(mirror, changed, 'mirroring the MAPI Machine status to Cluster API')
  );
}

interface DeprecatedV1Beta1MachineStatus {
  deprecated?: { v1beta1?: { failureReason?: string; failureMessage?: string } };
}

/**
 * A MAPI mirror's status from its authoritative CAPI Machine: phase, node reference, addresses
 * and Cluster API's (deprecated) failure as errorReason/errorMessage. Undefined when it already
 * says so.
 */
export function planMapiMachineStatus(mapi: MapiMachine, capi: CapiMachine): WriteStep | undefined {
  const source: NonNullable<CapiMachine['status']> & DeprecatedV1Beta1MachineStatus =
    capi.status ?? {};
  const failure = source.deprecated?.v1beta1;
  const phase = source.phase ? MAPI_PHASE[source.phase] : undefined;
  const wanted: Record<string, unknown> = {
    phase: phase ?? null,
    nodeRef: source.nodeRef ? { kind: 'Node', name: source.nodeRef.name } : null,
    addresses: source.addresses?.length ? source.addresses : null,
    errorReason: failure?.failureReason ?? null,
    errorMessage: failure?.failureMessage ?? null,
  };
  const current = { ...(mapi.status ?? {}) } as Record<string, unknown>;
  // The node's uid is not in Cluster API's reference: a MAPI reference naming the same node is kept.
  const nodeRef = mapi.status?.nodeRef;
  if (nodeRef && source.nodeRef && nodeRef.name === source.nodeRef.name) {
    current.nodeRef = { kind: 'Node', name: nodeRef.name };
  }
  const changed = changedFields(current, wanted);
  return changed && patchStatus(mapi, changed, 'mirroring the Cluster API Machine status to MAPI');
}
