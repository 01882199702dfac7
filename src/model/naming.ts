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

const frozenHashes = new WeakMap<object, string>();

/**
 * stableHash of an object that never changes (a remembered, frozen conversion), hashed once per
 * object rather than on every reconcile that reads it.
 */
export function stableHashOfFrozen(value: object): string {
  if (!Object.isFrozen(value)) return stableHash(value);
  let hash = frozenHashes.get(value);
  if (hash === undefined) {
    hash = stableHash(value);
    frozenHashes.set(value, hash);
  }
  return hash;
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
  return `${templateNamePrefix(machineSetName)}-${specHash}`;
}

/** What every template name of a MachineSet starts with, before `-<specHash>`. */
export function templateNamePrefix(machineSetName: string): string {
  if (machineSetName.length + 1 + SPEC_HASH_LENGTH <= MAX_NAME) return machineSetName;
  const nameHash = stableHash(machineSetName).slice(0, NAME_HASH_LENGTH);
  const room = MAX_NAME - SPEC_HASH_LENGTH - NAME_HASH_LENGTH - 2;
  return `${cut(machineSetName, room)}-${nameHash}`;
}

/** The prefix a template name was made with, or undefined when it does not end in a spec hash. */
export function prefixOfTemplateName(name: string): string | undefined {
  const match = new RegExp(`^(.+)-[0-9a-f]{${SPEC_HASH_LENGTH}}$`).exec(name);
  return match?.[1];
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
