// The MAPI fields Cluster API cannot express. Converting a template back to a providerSpec, each
// is kept from the providerSpec the MAPI MachineSet has now when that holds a usable value, so a
// round trip loses nothing; otherwise it gets the value a MAPI user (or the installer) writes.
// Nothing here reports an error: the current providerSpec is not what is being converted.
import { isJsonObject } from '../common/field-reader.js';
import { type ClusterFacts, installerNetwork } from './cluster.js';
import { DEFAULT_CREDENTIALS_SECRET } from './machine-api.js';

/** The providerSpec fields taken from the MAPI MachineSet's current providerSpec. */
export const GCP_FIELDS_KEPT_FROM_CURRENT = [
  'credentialsSecret',
  'deletionProtection',
  'networkInterfaces[0].network',
  'networkInterfaces[0].projectID',
  'targetPools',
  'restartPolicy',
] as const;

export interface KeptFields {
  credentialsSecret: { name: string };
  deletionProtection: false;
  network?: string;
  networkProjectID?: string;
  targetPools?: string[];
  restartPolicy?: 'Always' | 'Never';
}

export interface KeptContext {
  cluster: ClusterFacts;
  controlPlane: boolean;
  /** True for preemptible and Spot VMs, which Compute Engine never restarts on its own. */
  interruptible: boolean;
}

export function keptFromCurrent(current: unknown, context: KeptContext): KeptFields {
  const spec = isJsonObject(current) ? current : {};
  const nic = firstNetworkInterface(spec);
  const kept: KeptFields = {
    credentialsSecret: { name: credentialsSecretName(spec) },
    // CAPG cannot protect VMs against deletion, so false is the only value that says the truth.
    deletionProtection: false,
  };
  const network = nonEmptyString(nic.network) ?? installerNetwork(context.cluster);
  if (network !== undefined) kept.network = network;
  const networkProjectID = nonEmptyString(nic.projectID);
  if (networkProjectID !== undefined) kept.networkProjectID = networkProjectID;
  const targetPools = context.controlPlane ? stringList(spec.targetPools) : undefined;
  if (targetPools !== undefined) kept.targetPools = targetPools;
  const restartPolicy = consistentRestartPolicy(spec.restartPolicy, context.interruptible);
  if (restartPolicy !== undefined) kept.restartPolicy = restartPolicy;
  return kept;
}

/** A string field of the current providerSpec, when it is a non-empty string. */
export function currentString(current: unknown, key: string): string | undefined {
  return isJsonObject(current) && Object.hasOwn(current, key)
    ? nonEmptyString(current[key])
    : undefined;
}

function credentialsSecretName(spec: Record<string, unknown>): string {
  const secret = spec.credentialsSecret;
  const name = isJsonObject(secret) ? nonEmptyString(secret.name) : undefined;
  return name ?? DEFAULT_CREDENTIALS_SECRET;
}

function firstNetworkInterface(spec: Record<string, unknown>): Record<string, unknown> {
  const interfaces = spec.networkInterfaces;
  const first: unknown = Array.isArray(interfaces) ? interfaces[0] : undefined;
  return isJsonObject(first) ? first : {};
}

/**
 * Compute Engine restarts standard VMs and never preemptible or Spot ones, and CAPG cannot
 * change that: only the restart policy that says so is kept.
 */
function consistentRestartPolicy(
  value: unknown,
  interruptible: boolean,
): 'Always' | 'Never' | undefined {
  const consistent = interruptible ? 'Never' : 'Always';
  return value === consistent ? consistent : undefined;
}

function stringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.every((item) => typeof item === 'string') ? [...value] : undefined;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
