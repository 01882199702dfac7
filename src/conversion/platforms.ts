// The platform converters, selected by the Infrastructure's platform type (or --platform).
import { awsConverter } from './aws/index.js';
import { azureConverter } from './azure/index.js';
import { gcpConverter } from './gcp/index.js';
import { openstackConverter } from './openstack/index.js';
import { powerVsConverter } from './powervs/index.js';
import { vsphereConverter } from './vsphere/index.js';
import type { PlatformConverter } from './types.js';

export const CONVERTERS: readonly PlatformConverter[] = [
  awsConverter,
  azureConverter,
  gcpConverter,
  openstackConverter,
  powerVsConverter,
  vsphereConverter,
];

export const SUPPORTED_PLATFORMS = CONVERTERS.map((c) => c.platform);

export function converterFor(platform: string | undefined): PlatformConverter | undefined {
  return CONVERTERS.find((c) => c.platform === platform);
}
