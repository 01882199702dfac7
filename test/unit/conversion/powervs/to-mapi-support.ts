// What the PowerVS reverse converter's tests share: a context, the template the forward converter
// writes for the smallest providerSpec, and the providerSpec it converts back to.
import type { Infrastructure } from '../../../../src/api/types.js';
import { powerVsConverter } from '../../../../src/conversion/powervs/index.js';
import type { Conversion, ReverseContext } from '../../../../src/conversion/types.js';

/** Where a template's machine spec sits; the reverse converter's error paths start with it. */
export const TEMPLATE_PATH = 'spec.template.spec';
export const WORKSPACE = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
export const CLUSTER = 'ci-ln-abc12';

export function infrastructure(): Infrastructure {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    status: {
      infrastructureName: CLUSTER,
      platformStatus: { type: 'PowerVS', powervs: { region: 'dal', zone: 'dal10' } },
    },
  };
}

function reverseContext(overrides: Partial<ReverseContext> = {}): ReverseContext {
  return {
    infrastructure: infrastructure(),
    path: TEMPLATE_PATH,
    controlPlane: false,
    ...overrides,
  };
}

export function toMapi(
  templateSpec: unknown,
  overrides: Partial<ReverseContext> = {},
): Conversion<Record<string, unknown>> {
  const result = powerVsConverter.toMapi?.(templateSpec, reverseContext(overrides));
  if (result === undefined) throw new Error('the PowerVS converter has no toMapi');
  return result;
}

/** A template spec as the forward converter writes it (and CAPIBM's webhook leaves it). */
export function template(): Record<string, unknown> {
  return {
    serviceInstanceID: '',
    serviceInstance: { id: WORKSPACE },
    image: { name: 'rhcos-ci' },
    network: { name: 'ci-net' },
    sshKey: 'ci-key',
    systemType: 's922',
    processorType: 'Shared',
    processors: '0.5',
    memoryGiB: 32,
  };
}

/** What `template()` converts back to without a current providerSpec or user data secret. */
export function providerSpec(): Record<string, unknown> {
  return {
    apiVersion: 'machine.openshift.io/v1',
    kind: 'PowerVSMachineProviderConfig',
    serviceInstance: { type: 'ID', id: WORKSPACE },
    image: { type: 'Name', name: 'rhcos-ci' },
    network: { type: 'Name', name: 'ci-net' },
    keyPairName: 'ci-key',
    systemType: 's922',
    processorType: 'Shared',
    processors: '0.5',
    memoryGiB: 32,
    credentialsSecret: { name: 'powervs-credentials' },
  };
}

/** `base` with `fields` merged in; a field set to undefined is removed. */
export function withFields(
  base: Record<string, unknown>,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base, ...fields };
  for (const [key, value] of Object.entries(fields)) if (value === undefined) delete merged[key];
  return merged;
}
