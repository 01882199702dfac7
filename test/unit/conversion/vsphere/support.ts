// What the vSphere converter's tests share: a cluster, contexts both ways, the smallest
// providerSpec that converts and the template it converts to (and back).
import type { Infrastructure, VSpherePlatformSpec } from '../../../../src/api/types.js';
import { vsphereConverter } from '../../../../src/conversion/vsphere/index.js';
import type {
  Conversion,
  ConversionContext,
  ProviderConversion,
  ReverseContext,
} from '../../../../src/conversion/types.js';
import { PROVIDER_SPEC_PATH } from '../../../support/conversion.js';

export const PATH = PROVIDER_SPEC_PATH;
/** Where a template's machine spec sits; the reverse converter's error paths start with it. */
export const TEMPLATE_PATH = 'spec.template.spec';
export const CLUSTER = 'ci-ln-abc12';
export const VCENTER = 'vcenter.ci.example.com';
export const TAG = 'urn:vmomi:InventoryServiceTag:5736bf56-49f5-4667-b38c-b97e09dc9578:GLOBAL';

/** A cluster with one vCenter and IPv4 machine networks, unless told otherwise. */
export function infrastructure(
  vsphere: VSpherePlatformSpec = { vcenters: [{ server: VCENTER, datacenters: ['DC0'] }] },
  machineNetworks: string[] = ['10.0.0.0/16'],
): Infrastructure {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    spec: { platformSpec: { type: 'VSphere', vsphere } },
    status: {
      infrastructureName: CLUSTER,
      platformStatus: { type: 'VSphere', vsphere: { machineNetworks } },
    },
  };
}

export function context(overrides: Partial<ConversionContext> = {}): ConversionContext {
  return { infrastructure: infrastructure(), path: PATH, controlPlane: false, ...overrides };
}

function reverseContext(overrides: Partial<ReverseContext> = {}): ReverseContext {
  return {
    infrastructure: infrastructure(),
    path: TEMPLATE_PATH,
    controlPlane: false,
    ...overrides,
  };
}

export function convert(
  providerSpec: unknown,
  overrides: Partial<ConversionContext> = {},
): Conversion<ProviderConversion> {
  return vsphereConverter.toCapi(providerSpec, context(overrides));
}

export function toMapi(
  templateSpec: unknown,
  overrides: Partial<ReverseContext> = {},
): Conversion<Record<string, unknown>> {
  const result = vsphereConverter.toMapi?.(templateSpec, reverseContext(overrides));
  if (result === undefined) throw new Error('the vSphere converter has no toMapi');
  return result;
}

/** The smallest providerSpec that converts. */
export function minimalSpec(): Record<string, unknown> {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'VSphereMachineProviderSpec',
    template: 'rhcos-ci',
    workspace: { server: VCENTER },
    network: { devices: [{ networkName: 'ci-net' }] },
    numCPUs: 4,
    memoryMiB: 16384,
    userDataSecret: { name: 'worker-user-data' },
  };
}

/** What the minimal spec converts to: where the two APIs default differently, written out. */
export function minimalTemplate(): Record<string, unknown> {
  return {
    template: 'rhcos-ci',
    cloneMode: 'fullClone',
    server: VCENTER,
    datacenter: '*',
    network: { devices: [{ networkName: 'ci-net', dhcp4: true }] },
    numCPUs: 4,
    memoryMiB: 16384,
    powerOffMode: 'hard',
  };
}

/** What `minimalTemplate()` converts back to without a current providerSpec. */
export function minimalProviderSpec(): Record<string, unknown> {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'VSphereMachineProviderSpec',
    template: 'rhcos-ci',
    cloneMode: 'fullClone',
    workspace: { server: VCENTER },
    network: { devices: [{ networkName: 'ci-net' }] },
    numCPUs: 4,
    memoryMiB: 16384,
    credentialsSecret: { name: 'vsphere-cloud-credentials' },
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

/** A network of one device with `fields` merged into the minimal one. */
export function device(fields: Record<string, unknown>, base: Record<string, unknown> = {}) {
  return { network: { devices: [withFields({ networkName: 'ci-net', ...base }, fields)] } };
}
