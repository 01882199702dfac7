// The status fields a Machine mirrors (../status-mirror.ts): a paused CAPI Machine's from its MAPI
// Machine's, and a MAPI mirror's from its authoritative CAPI Machine's. Pure.
import type { CapiMachine, MapiMachine } from '../../api/types.js';
import { planStatusMirror, type MirroredStatus } from '../status-mirror.js';
import type { WriteStep } from '../steps.js';

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

/**
 * A paused CAPI Machine's status, as Cluster API would show it for the running machine the MAPI
 * Machine describes: phase, node reference, addresses, and provisioning done once the instance
 * exists (a providerID). Undefined when it already says so.
 */
export function planMachineCapiStatus(
  mapi: MapiMachine,
  mirror: CapiMachine,
): WriteStep | undefined {
  const source = mapi.status ?? {};
  const phase = source.phase ? CAPI_PHASE[source.phase] : undefined;
  // The CRD admits a Machine without spec: no providerID then.
  const providerID = mapi.spec?.providerID;
  const provisioned = providerID !== undefined && providerID !== '';
  const fields: Record<string, unknown> = {
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
  return planStatusMirror(mirror, { fields }, 'mirroring the MAPI Machine status to Cluster API');
}

interface DeprecatedV1Beta1MachineStatus {
  deprecated?: { v1beta1?: { failureReason?: string; failureMessage?: string } };
}

/**
 * A MAPI mirror's status from its authoritative CAPI Machine: phase, node reference, addresses
 * and Cluster API's (deprecated) failure as errorReason/errorMessage.
 */
export function mapiMachineStatus(mapi: MapiMachine, capi: CapiMachine): MirroredStatus {
  const source: NonNullable<CapiMachine['status']> & DeprecatedV1Beta1MachineStatus =
    capi.status ?? {};
  const failure = source.deprecated?.v1beta1;
  const phase = source.phase ? MAPI_PHASE[source.phase] : undefined;
  return {
    fields: {
      phase: phase ?? null,
      nodeRef: nodeReference(mapi, source.nodeRef?.name),
      addresses: source.addresses?.length ? source.addresses : null,
      errorReason: failure?.failureReason ?? null,
      errorMessage: failure?.failureMessage ?? null,
    },
  };
}

/**
 * The MAPI reference to the node Cluster API names. The node's uid is not in Cluster API's
 * reference: a MAPI reference naming the same node is kept as it is.
 */
function nodeReference(mapi: MapiMachine, node: string | undefined): unknown {
  if (node === undefined) return null;
  const current = mapi.status?.nodeRef;
  return current?.name === node ? current : { kind: 'Node', name: node };
}
