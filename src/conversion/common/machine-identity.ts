// The shared shape of every platform's instance identity: a providerID checked against the
// platform's format, and the infrastructure machine spec fields it gives.
import { quote } from './quote.js';
import type { Conversion } from '../types.js';

const PROVIDER_ID_PATH = 'spec.providerID';

export interface ProviderIdFormat {
  /** Matches a providerID of the platform; its named groups are the parts `fields` reads. */
  pattern: RegExp;
  /** The format for a human, e.g. `aws:///<zone>/<instance ID>`. */
  example: string;
  /** The cloud, e.g. `AWS`. */
  cloud: string;
  /** The spec fields beside providerID, from the pattern's named groups. */
  fields?: (groups: Record<string, string>) => Record<string, unknown>;
}

/** `{providerID, ...fields}` when `providerID` has the platform's format, else a field error. */
export function identityOf(
  providerID: string,
  format: ProviderIdFormat,
): Conversion<Record<string, unknown>> {
  const match = format.pattern.exec(providerID);
  if (!match) {
    return {
      ok: false,
      errors: [
        {
          path: PROVIDER_ID_PATH,
          message:
            `is ${quote(providerID)}, which is not a provider ID of ${format.cloud} (` +
            `${format.example}); the instance cannot be found from it, so correct the provider ID.`,
        },
      ],
    };
  }
  const groups = { ...match.groups };
  return { ok: true, value: { providerID, ...format.fields?.(groups) }, warnings: [] };
}
