// The providerSpec fields Cluster API cannot express, kept from the providerSpec the MAPI
// MachineSet has now, so that a round trip through Cluster API loses nothing. Only values the
// MAPI → CAPI converter accepts are kept; others give way to the platform default.
import { ConversionReport, isJsonObject, type JsonObject } from '../common/field-reader.js';
import { keptCredentialsSecret } from '../common/provider-spec.js';
import { DEFAULT_CREDENTIALS_SECRET, LOAD_BALANCER_TYPES } from './names.js';

/**
 * Kept from the current providerSpec. Besides these, each reference (serviceInstance, image,
 * network) keeps the fields its type does not name, when it names the same resource
 * (see withIgnoredFieldsOf).
 */
export const KEPT_FROM_CURRENT = ['metadata', 'credentialsSecret', 'loadBalancers'] as const;

export interface KeptFields {
  metadata?: JsonObject;
  credentialsSecret: { name: string };
  loadBalancers?: JsonObject[];
}

const WHERE = "of the Machine API MachineSet's providerSpec";

export function keptFromCurrent(
  current: unknown,
  controlPlane: boolean,
  report: ConversionReport,
): KeptFields {
  const fields = isJsonObject(current) ? current : {};
  const kept: KeptFields = {
    credentialsSecret: keptCredentialsSecret(
      fields,
      DEFAULT_CREDENTIALS_SECRET,
      'the IBM Cloud credentials of the Cluster API provider',
      report,
    ),
  };
  // No machine controller reads it; kept only so that the providerSpec stays as written.
  const metadata = fields.metadata;
  if (isJsonObject(metadata)) kept.metadata = structuredClone(metadata);
  const loadBalancers = loadBalancersOf(fields, controlPlane, report);
  if (loadBalancers !== undefined) kept.loadBalancers = loadBalancers;
  return kept;
}

/**
 * Control-plane machines join the IBMPowerVSCluster's load balancers in Cluster API, so a
 * control-plane providerSpec keeps its list; a worker's never had a Cluster API equivalent.
 */
function loadBalancersOf(
  fields: JsonObject,
  controlPlane: boolean,
  report: ConversionReport,
): JsonObject[] | undefined {
  const loadBalancers = fields.loadBalancers;
  if (loadBalancers === undefined || loadBalancers === null) return undefined;
  if (Array.isArray(loadBalancers) && loadBalancers.length === 0) return undefined;
  if (controlPlane && Array.isArray(loadBalancers) && loadBalancers.every(isLoadBalancer)) {
    return structuredClone(loadBalancers);
  }
  const why = controlPlane
    ? 'it is not a list of load balancers with a name and type Application'
    : 'Cluster API adds worker machines to no load balancer of a machine template';
  report.warn(`loadBalancers ${WHERE} is not kept: ${why}.`);
  return undefined;
}

function isLoadBalancer(value: unknown): value is JsonObject {
  if (!isJsonObject(value)) return false;
  const { name, type, ...others } = value;
  return (
    typeof name === 'string' &&
    name !== '' &&
    (LOAD_BALANCER_TYPES as readonly unknown[]).includes(type) &&
    Object.keys(others).length === 0
  );
}
