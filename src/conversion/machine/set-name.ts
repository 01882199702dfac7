// The value of `cluster.x-k8s.io/set-name` as Cluster API writes it: the MachineSet's name when it
// is a valid label value, else `hash_<FNV-1a 32 of the name, unpadded base64url>_z`, so that the
// MachineSet recognises a mirrored Machine as one of its own.
import { labelValueProblem } from '../../model/kube-names.js';

export const SET_NAME_LABEL = 'cluster.x-k8s.io/set-name';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export function setNameLabelValue(name: string): string {
  if (labelValueProblem(name) === undefined) return name;
  let hash = FNV_OFFSET;
  for (const byte of new TextEncoder().encode(name)) {
    hash = Math.imul(hash ^ byte, FNV_PRIME) >>> 0;
  }
  const bytes = Buffer.from([hash >>> 24, (hash >>> 16) & 0xff, (hash >>> 8) & 0xff, hash & 0xff]);
  return `hash_${bytes.toString('base64url')}_z`;
}
