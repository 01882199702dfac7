// MAPI → CAPI: what a vSphere VM is cloned from, and how. Machine API clones fully unless told
// otherwise, CAPV links unless told otherwise, so the clone mode is always written out.
import type { ObjectReader } from '../common/field-reader.js';
import { quote } from '../common/quote.js';
import {
  CLONE_MODES,
  type CloneMode,
  MACHINE_API_CLONE_MODE,
  MAX_INVENTORY_PATH,
} from './names.js';

export interface CloneSource {
  template: string;
  cloneMode: CloneMode;
  snapshot?: string;
}

export function convertCloneSource(spec: ObjectReader): CloneSource | undefined {
  const template = spec.requiredString(
    'template',
    'name the VM template the machines are cloned from (its name, inventory path or instance UUID; ' +
      "the installer's is /<datacenter>/vm/<infrastructure name>-rhcos-<region>-<zone>).",
  );
  if (template !== undefined && template.length > MAX_INVENTORY_PATH) {
    spec.report.error(
      spec.pathOf('template'),
      `is ${template.length} characters long, beyond the ${MAX_INVENTORY_PATH} of a vCenter ` +
        'inventory path; name the VM template by a shorter path or its name.',
    );
  }
  // Machine API clones fully for anything but linkedClone; a misspelling is refused rather than
  // read as a full clone.
  const cloneMode = spec.enumeration('cloneMode', CLONE_MODES) ?? MACHINE_API_CLONE_MODE;
  const snapshot = spec.string('snapshot');
  if (template === undefined) return undefined;
  return { template, cloneMode, ...(snapshot !== undefined ? { snapshot } : {}) };
}

/** A string field of at most `max` characters, else an error naming `what` it holds. */
export function boundedString(
  reader: ObjectReader,
  key: string,
  max: number,
  what: string,
): string | undefined {
  const value = reader.string(key);
  if (value === undefined || value.length <= max) return value;
  reader.report.error(
    reader.pathOf(key),
    `is ${quote(value)}, longer than the ${max} characters of ${what}; correct it.`,
  );
  return undefined;
}
