import { expect } from 'chai';
import type { CapiMachineSet } from '../../../../src/api/types.js';
import { leftoverMirrors } from '../../../../src/cli/check/leftovers.js';
import {
  AUTHORITY_ANNOTATION,
  MIRROR_UID_ANNOTATION,
  PAUSED_ANNOTATION,
} from '../../../../src/model/markers.js';

function capiMachineSet(
  name: string,
  annotations: Record<string, string>,
  extra: Partial<CapiMachineSet['metadata']> = {},
): CapiMachineSet {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineSet',
    metadata: {
      name,
      namespace: 'openshift-cluster-api',
      uid: `uid-${name}`,
      annotations,
      ...extra,
    },
  } as CapiMachineSet;
}

const mirror = { [PAUSED_ANNOTATION]: 'true', [AUTHORITY_ANNOTATION]: 'MachineAPI' };

describe('check: leftover paused mirrors', () => {
  it('names each paused mirror-marked CAPI MachineSet without a MAPI MachineSet, and how to remove it', () => {
    const lines = leftoverMirrors(
      [
        capiMachineSet('ours', { ...mirror, [MIRROR_UID_ANNOTATION]: 'uid-ours' }),
        capiMachineSet('a-copy', { ...mirror, [MIRROR_UID_ANNOTATION]: 'uid-ours' }),
        capiMachineSet('mirrored', { ...mirror, [MIRROR_UID_ANNOTATION]: 'uid-mirrored' }),
        capiMachineSet('cluster-api-only', {}),
        capiMachineSet('unpaused', { [AUTHORITY_ANNOTATION]: 'ClusterAPI' }),
        capiMachineSet('going', mirror, { deletionTimestamp: '2026-01-01T00:00:00Z' }),
      ],
      ['mirrored'],
    );
    expect(lines).to.have.length(2);
    expect(lines[0]).to.match(
      /^the paused CAPI MachineSet a-copy .* not a mirror the controller made/,
    );
    expect(lines[0]).to.contain(
      'oc delete machinesets.cluster.x-k8s.io -n openshift-cluster-api a-copy',
    );
    expect(lines[1]).to.match(
      /^the paused CAPI MachineSet ours .* a mirror of ours, which the controller deletes once it runs/,
    );
  });
});
