// The providerSpec fields Cluster API cannot express, kept from the providerSpec the MAPI
// MachineSet has now, so that a round trip through Cluster API loses nothing. Only values the
// MAPI → CAPI converter accepts are kept; others give way to the platform default.
import { type ConversionReport, isJsonObject, type JsonObject } from '../common/field-reader.js';
import { keptCredentialsSecret } from '../common/provider-spec.js';
import { DEFAULT_CREDENTIALS_SECRET } from './names.js';

export const KEPT_FROM_CURRENT = ['metadata', 'credentialsSecret'] as const;

export interface KeptFields {
  metadata?: JsonObject;
  credentialsSecret: { name: string };
}

export function keptFromCurrent(current: unknown, report: ConversionReport): KeptFields {
  const fields = isJsonObject(current) ? current : {};
  const kept: KeptFields = {
    credentialsSecret: keptCredentialsSecret(
      fields,
      DEFAULT_CREDENTIALS_SECRET,
      "the credentials of the cluster's VSphereCluster",
      report,
    ),
  };
  // No machine controller reads it; kept only so that the providerSpec stays as written.
  if (isJsonObject(fields.metadata)) kept.metadata = structuredClone(fields.metadata);
  return kept;
}
