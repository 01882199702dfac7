// The MAPI fields Cluster API cannot express, kept from the providerSpec the MAPI MachineSet has
// now; and, for every other field, the spelling it has there when it means the same thing (an
// empty `type` for MarketplaceNoPlan, `diagnostics: {}`, a price of "0.05" for "50m"…), so an
// unchanged template gives back the providerSpec exactly and the MachineSet is not rewritten.
//
// "Means the same thing" is decided by the MAPI → CAPI converter itself: a field of the current
// providerSpec is taken when the providerSpec with it converts to the very same template,
// failure domain and user data secret. A kept field that is not valid (one the forward
// conversion refuses, e.g. another resource group) therefore falls back to its default.
import { isDeepStrictEqual } from 'node:util';
import type { Infrastructure } from '../../api/types.js';
import { isJsonObject, withoutUndefined, type JsonObject } from '../common/field-reader.js';
import type { Conversion, ProviderConversion } from '../types.js';
import { DEFAULT_CREDENTIALS_SECRET } from './platform.js';
import { clusterFacts } from './to-capi.js';

/** The MAPI fields Cluster API cannot express: kept from the current providerSpec. */
export const KEPT_FROM_CURRENT = [
  'credentialsSecret',
  'location',
  'resourceGroup',
  'networkResourceGroup',
  'vnet',
  'publicLoadBalancer',
  'internalLoadBalancer',
  'metadata',
] as const;

/**
 * What the kept fields are without a current providerSpec: Machine API's own defaults and the
 * installer's names. `location`, the load balancers and `metadata` have none (Machine API
 * takes the region from its credentials; the load balancers are the AzureCluster's).
 */
export function keptFieldDefaults(infrastructure: Infrastructure): JsonObject {
  const cluster = clusterFacts(infrastructure);
  return withoutUndefined({
    credentialsSecret: { ...DEFAULT_CREDENTIALS_SECRET },
    resourceGroup: cluster.resourceGroup,
    networkResourceGroup: cluster.networkResourceGroup,
    vnet: cluster.infrastructureName && `${cluster.infrastructureName}-vnet`,
  });
}

export type ForwardConversion = (providerSpec: JsonObject) => Conversion<ProviderConversion>;

export interface KeptSpellings {
  providerSpec: JsonObject;
  /** Top-level fields of the current providerSpec that could not be kept. */
  dropped: string[];
}

/**
 * `canonical` with each top-level field of `current` that converts to the same result.
 * `canonical` must convert.
 */
export function keepCurrentSpellings(
  canonical: JsonObject,
  current: unknown,
  forward: ForwardConversion,
): KeptSpellings {
  const target = forward(canonical);
  if (!target.ok || !isJsonObject(current)) return { providerSpec: canonical, dropped: [] };
  let result = canonical;
  const dropped: string[] = [];
  const keys = new Set([...Object.keys(canonical), ...Object.keys(current)]);
  for (const key of keys) {
    if (key === 'kind' || key === 'apiVersion') continue;
    const value = Object.hasOwn(current, key) ? current[key] : undefined;
    const candidate = withField(result, key, value);
    if (isDeepStrictEqual(candidate, result)) continue;
    if (sameConversion(forward(candidate), target.value)) result = candidate;
    else if (value !== undefined && value !== null) dropped.push(key);
  }
  return { providerSpec: result, dropped };
}

/** `spec` with `key` set to `value`, or without `key` when `value` is absent (or null). */
function withField(spec: JsonObject, key: string, value: unknown): JsonObject {
  const absent = value === undefined || value === null;
  const entries = Object.entries(spec).flatMap(([name, old]): [string, unknown][] =>
    name !== key ? [[name, old]] : absent ? [] : [[name, value]],
  );
  if (!absent && !Object.hasOwn(spec, key)) entries.push([key, value]);
  // fromEntries defines every key, `__proto__` included, as an own field.
  return Object.fromEntries(entries);
}

function sameConversion(result: Conversion<ProviderConversion>, target: ProviderConversion) {
  return result.ok && isDeepStrictEqual(result.value, target);
}
