// Fields of an OpenstackProviderSpec that Cluster API cannot express: the way back to Machine
// API takes them from the providerSpec the MAPI MachineSet has now, so a round trip keeps them.
// Without a current providerSpec (or with an invalid value there) they are left out, which is
// Machine API's default for each.
import { isJsonObject, type JsonObject } from '../common/field-reader.js';
import { KIND } from './constants.js';

/**
 * Paths kept from the current providerSpec. `serverGroupName` only beside a `serverGroupID`
 * equal to the current one (a server group named without an ID comes from the template).
 */
export const KEPT_FROM_CURRENT = [
  'metadata',
  'cloudsSecret.namespace',
  'userDataSecret.namespace',
  'serverGroupName',
  'sshUserName',
  'primarySubnet',
] as const;

export interface KeptFields {
  metadata: JsonObject;
  cloudsSecret: JsonObject;
  userDataSecret: JsonObject;
  /** Top-level fields Machine API ignores or Cluster API cannot hold. */
  deprecated: JsonObject;
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/** `{[key]: value}` when `value` is a non-empty string, else `{}`. */
function stringField(key: string, value: unknown): JsonObject {
  return nonEmptyString(value) ? { [key]: value } : {};
}

function field(object: unknown, key: string): unknown {
  return isJsonObject(object) && Object.hasOwn(object, key) ? object[key] : undefined;
}

/** The kept fields of `current`; `serverGroup` is what the template gives back for it. */
export function keptFromCurrent(current: unknown, serverGroup: JsonObject | undefined): KeptFields {
  const kept: KeptFields = { metadata: {}, cloudsSecret: {}, userDataSecret: {}, deprecated: {} };
  if (!isJsonObject(current)) return kept;
  const kind = field(current, 'kind');
  if (kind !== undefined && kind !== null && kind !== KIND) return kept;
  const metadata = field(current, 'metadata');
  if (isJsonObject(metadata)) kept.metadata = { metadata: structuredClone(metadata) };
  kept.cloudsSecret = stringField('namespace', field(field(current, 'cloudsSecret'), 'namespace'));
  kept.userDataSecret = stringField(
    'namespace',
    field(field(current, 'userDataSecret'), 'namespace'),
  );
  const groupId = serverGroup?.serverGroupID;
  if (groupId !== undefined && field(current, 'serverGroupID') === groupId) {
    Object.assign(
      kept.deprecated,
      stringField('serverGroupName', field(current, 'serverGroupName')),
    );
  }
  for (const key of ['sshUserName', 'primarySubnet']) {
    Object.assign(kept.deprecated, stringField(key, field(current, key)));
  }
  return kept;
}
