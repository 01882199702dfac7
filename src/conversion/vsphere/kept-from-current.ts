// The providerSpec fields Cluster API cannot express, kept from the providerSpec the MAPI
// MachineSet has now, so that a round trip through Cluster API loses nothing. Only values the
// MAPI → CAPI converter accepts are kept; others give way to the platform default.
import { type ConversionReport, isJsonObject, type JsonObject } from '../common/field-reader.js';
import { DEFAULT_CREDENTIALS_SECRET } from './names.js';

export const KEPT_FROM_CURRENT = ['metadata', 'credentialsSecret'] as const;

export interface KeptFields {
  metadata?: JsonObject;
  credentialsSecret: { name: string };
}

export function keptFromCurrent(current: unknown, report: ConversionReport): KeptFields {
  const fields = isJsonObject(current) ? current : {};
  const kept: KeptFields = { credentialsSecret: credentialsSecretOf(fields, report) };
  // No machine controller reads it; kept only so that the providerSpec stays as written.
  if (isJsonObject(fields.metadata)) kept.metadata = structuredClone(fields.metadata);
  return kept;
}

/** Cluster API machines use the VSphereCluster's credentials, so only the default name is valid. */
function credentialsSecretOf(fields: JsonObject, report: ConversionReport): { name: string } {
  const secret = fields.credentialsSecret;
  const name = isJsonObject(secret) ? secret.name : undefined;
  const unset =
    secret === undefined ||
    secret === null ||
    (isJsonObject(secret) && (name === undefined || name === null || name === ''));
  if (!unset && name !== DEFAULT_CREDENTIALS_SECRET) {
    report.warn(
      "credentialsSecret of the Machine API MachineSet's providerSpec is set to " +
        `${DEFAULT_CREDENTIALS_SECRET}: Cluster API machines are created with the credentials ` +
        "of the cluster's VSphereCluster.",
    );
  }
  return { name: DEFAULT_CREDENTIALS_SECRET };
}
