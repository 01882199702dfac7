// CAPI → MAPI: while Cluster API is authoritative, the MAPI MachineSet mirrors
// the CAPI MachineSet and the template it points at. Pure.
//
// The template may be anyone's: it is read, never written. The MAPI spec is
// written whole (a JSON patch guarded by the resourceVersion read), its status
// field by field once Cluster API's status describes its current spec.
import isEqual from 'lodash/isEqual.js';
import type { CapiMachineSet, MapiMachineSet } from '../../api/types.js';
import { isControlPlane } from '../../conversion/common/metadata.js';
import { convertMachineSetToMapi } from '../../conversion/machine-set/to-mapi.js';
import { Reason } from '../conditions.js';
import type { Observed } from './observed.js';
import { formatFieldErrors, reportFailure, reportState } from '../report.js';
import { sameMachines, splitProviderSpec } from '../same-machines.js';
import { warningEvents } from '../forward.js';
import { planMapiFromClusterApi } from '../reverse.js';
import { statusChanges } from '../status-mirror.js';
import { done, type Step } from '../steps.js';
import { mapiMachineSetStatus } from './mirror-status.js';

export function planReverseSync(o: Observed, mapi: MapiMachineSet, capi: CapiMachineSet): Step {
  const source = `${o.capiNamespace}/${capi.metadata.name}`;
  if (!o.infrastructure || !o.converter) {
    return reportFailure(
      mapi,
      o.now,
      Reason.InfraResourcesUnavailable,
      `Cluster API is authoritative, but ${o.infrastructure ? `the platform "${o.platform ?? 'unknown'}" has no conversion` : 'the Infrastructure "cluster" was not found'}; ${source} is mirrored here once it can be converted.`,
      'reverse sync: infrastructure unavailable',
    );
  }
  const templateName = capi.spec.template?.spec?.infrastructureRef?.name;
  const template = o.templates.find((t) => t.metadata.name === templateName);
  const conversion = convertMachineSetToMapi({
    capi,
    template,
    mapi,
    infrastructure: o.infrastructure,
    converter: o.converter,
  });
  if (!conversion.ok) {
    const message = `Cluster API is authoritative, and ${source} cannot be expressed as this Machine API MachineSet: ${formatFieldErrors(conversion.errors)}. Change the Cluster API MachineSet or its template; it is converted again when it changes.`;
    return reportFailure(
      mapi,
      o.now,
      Reason.ReverseConversionFailed,
      message,
      'reverse conversion failed; waiting for a change',
    );
  }
  // 1. The spec, labels and annotations.
  const { spec, labels, annotations } = conversion.value;
  const update = planMapiFromClusterApi(
    mapi,
    { spec, labels, annotations },
    specDiffers(o, mapi, spec),
    {
      noun: 'MAPI machine set',
      failure: Reason.MapiUpdateFailed,
      events: warningEvents(conversion.warnings),
    },
  );
  if (update) return update;

  // 2. Synchronized at the CAPI generation, with Cluster API's status once it describes the CAPI
  // MachineSet's current spec: one write, so that the observedGeneration it carries never
  // vouches for a status that Synchronized does not describe yet.
  const wanted = mapiMachineSetStatus(mapi, capi);
  const status = wanted && statusChanges(mapi.status, wanted);
  const message = `Cluster API is authoritative; this MachineSet mirrors ${source} and its ${template?.kind ?? 'template'} ${templateName ?? ''}.`;
  const report = reportState(
    mapi,
    o.now,
    { status: 'True', reason: Reason.Synchronized, message },
    capi.metadata.generation,
    [],
    status,
  );
  if (!report) return done('Cluster API is authoritative; in sync');
  return status
    ? { ...report, note: 'mirroring Cluster API status to MAPI, Synchronized' }
    : report;
}

/**
 * Whether the MAPI spec must be written. The providerSpec counts as equal when it describes the
 * same machines (converts to the same template, zone and user data), so that the form another
 * writer stores it in (machine-api-operator's defaulting webhook re-serialises it with every
 * empty field) is not fought over.
 */
function specDiffers(o: Observed, mapi: MapiMachineSet, desired: Record<string, unknown>): boolean {
  if (isEqual(mapi.spec, desired)) return false;
  const current = withoutProviderSpec(mapi.spec);
  const wanted = withoutProviderSpec(desired);
  if (!isEqual(current.rest, wanted.rest)) return true;
  return !sameMachines(o, current.providerSpec, wanted.providerSpec, {
    path: 'spec.template.spec.providerSpec.value',
    controlPlane: isControlPlane(mapi.spec?.template?.metadata?.labels),
  });
}

/** A MachineSet's spec without its template's providerSpec value, and that value. */
function withoutProviderSpec(spec: unknown): { rest: unknown; providerSpec: unknown } {
  // A MachineSet without spec (its CRD admits one) has neither.
  const copy = structuredClone(spec ?? {}) as { template?: { spec?: unknown } };
  const inner = splitProviderSpec(copy.template?.spec);
  return { rest: copy, providerSpec: inner };
}
