// Deterministic names for the objects we create, and the markers that tie them
// back to their MAPI MachineSet. Pure: the same input always gives the same name.
import objectHash from 'object-hash';

/** Hex digits of the spec hash in a template name. */
export const SPEC_HASH_LENGTH = 10;
const NAME_HASH_LENGTH = 8;
const MAX_NAME = 253;
const MAX_LABEL_VALUE = 63;

/** Hash of a value, independent of object key order (arrays keep their order). */
export function stableHash(value: unknown): string {
  return objectHash(value as object, {
    algorithm: 'sha256',
    encoding: 'hex',
    unorderedObjects: true,
    unorderedArrays: false,
    respectType: false,
  });
}

/** Cuts a DNS-subdomain name so it still starts and ends with an alphanumeric character. */
function cut(name: string, length: number): string {
  return name.slice(0, length).replace(/[^a-z0-9]+$/, '');
}

/**
 * `<machineSetName>-<specHash>`. When that would exceed 253 characters the
 * MachineSet name is shortened and a hash of the full name keeps it unique.
 */
export function templateName(machineSetName: string, templateSpec: unknown): string {
  const specHash = stableHash(templateSpec).slice(0, SPEC_HASH_LENGTH);
  const plain = `${machineSetName}-${specHash}`;
  if (plain.length <= MAX_NAME) return plain;
  const nameHash = stableHash(machineSetName).slice(0, NAME_HASH_LENGTH);
  const room = MAX_NAME - SPEC_HASH_LENGTH - NAME_HASH_LENGTH - 2;
  return `${cut(machineSetName, room)}-${nameHash}-${specHash}`;
}

/**
 * A label value naming the MachineSet: the name itself when it fits in 63
 * characters, else a shortened name plus a hash of the full name.
 */
export function machineSetLabelValue(machineSetName: string): string {
  if (machineSetName.length <= MAX_LABEL_VALUE) return machineSetName;
  const nameHash = stableHash(machineSetName).slice(0, NAME_HASH_LENGTH);
  return `${cut(machineSetName, MAX_LABEL_VALUE - NAME_HASH_LENGTH - 1)}-${nameHash}`;
}
