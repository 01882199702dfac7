// CAPG's scheduling fields → MAPI's of the same names: preemptible and Spot provisioning, host
// maintenance, Shielded VM, confidential computing, and GPUs (see to-mapi-gpus.ts). CAPG stops
// VMs with GPUs for host maintenance whatever the template says, so MAPI gets Terminate for
// them. Machine API's admission webhook rules are checked here, naming the template field.
import type { ObjectReader } from '../common/field-reader.js';
import { shorten } from '../common/quote.js';
import { gpusToMapi, type MapiGpu } from './to-mapi-gpus.js';
import {
  CONFIDENTIAL_COMPUTE,
  type ConfidentialCompute,
  confidentialComputeProblems,
  GPU_MACHINE_FAMILIES,
  HOST_MAINTENANCE,
  type HostMaintenance,
  readShieldedInstanceConfig,
  type ShieldedInstanceConfig,
} from './scheduling.js';
import { KEEP_ON_CLUSTER_API } from './template-errors.js';

export interface MapiScheduling {
  preemptible?: true;
  provisioningModel?: 'Spot';
  onHostMaintenance?: HostMaintenance;
  shieldedInstanceConfig?: ShieldedInstanceConfig;
  confidentialCompute?: ConfidentialCompute;
  gpus?: MapiGpu[];
}

export interface ReverseSchedulingContext {
  machineType?: string;
  zone?: string;
  projectID?: string;
}

/** Standard is CAPG's name for what MAPI says by leaving provisioningModel out. */
const PROVISIONING_MODELS = ['Standard', 'Spot'] as const;

export function schedulingToMapi(
  spec: ObjectReader,
  context: ReverseSchedulingContext,
): MapiScheduling {
  const scheduling: MapiScheduling = {};
  const preemptible = spec.boolean('preemptible');
  const provisioningModel = spec.enumeration('provisioningModel', PROVISIONING_MODELS);
  let onHostMaintenance = spec.enumeration('onHostMaintenance', HOST_MAINTENANCE);
  const confidentialCompute = spec.enumeration('confidentialCompute', CONFIDENTIAL_COMPUTE);
  if (preemptible === true) scheduling.preemptible = true;
  if (provisioningModel === 'Spot') {
    scheduling.provisioningModel = 'Spot';
    if (preemptible === true) {
      spec.report.error(
        spec.pathOf('provisioningModel'),
        'is Spot, which Machine API does not accept together with preemptible: true; keep ' +
          'either the Spot provisioning model or preemptible.',
      );
    }
  }
  const gpus = gpusToMapi(spec, context);
  if (gpus !== undefined) {
    scheduling.gpus = gpus;
    onHostMaintenance = gpuHostMaintenance(spec, onHostMaintenance);
  } else {
    checkGpuMachineType(spec, onHostMaintenance, context.machineType);
  }
  if (onHostMaintenance !== undefined) scheduling.onHostMaintenance = onHostMaintenance;
  const shielded = shieldedInstanceConfigToMapi(spec);
  if (shielded !== undefined) scheduling.shieldedInstanceConfig = shielded;
  if (confidentialCompute !== undefined) {
    scheduling.confidentialCompute = confidentialCompute;
    checkConfidentialCompute(spec, confidentialCompute, onHostMaintenance, context.machineType);
  }
  return scheduling;
}

/** CAPG sets Terminate on every VM with GPUs, so that is what MAPI must do too. */
function gpuHostMaintenance(
  spec: ObjectReader,
  onHostMaintenance: HostMaintenance | undefined,
): HostMaintenance {
  if (onHostMaintenance === 'Migrate') {
    spec.report.warn(
      `${spec.pathOf('onHostMaintenance')} is Migrate, but Cluster API stops VMs with GPUs for ` +
        'host maintenance anyway; the Machine API MachineSet gets Terminate.',
    );
  }
  return 'Terminate';
}

/** Machine types that come with GPUs cannot live-migrate; Machine API refuses Migrate for them. */
function checkGpuMachineType(
  spec: ObjectReader,
  onHostMaintenance: HostMaintenance | undefined,
  machineType: string | undefined,
): void {
  if (onHostMaintenance !== 'Migrate' || machineType === undefined) return;
  if (!GPU_MACHINE_FAMILIES.some((family) => machineType.startsWith(family))) return;
  spec.report.error(
    spec.pathOf('onHostMaintenance'),
    `is Migrate, but instanceType ${shorten(machineType)} comes with GPUs, which cannot ` +
      'live-migrate, and Machine API refuses Migrate for it; set onHostMaintenance to Terminate.',
  );
}

function shieldedInstanceConfigToMapi(spec: ObjectReader): ShieldedInstanceConfig | undefined {
  const reader = spec.object('shieldedInstanceConfig');
  if (reader === undefined) return undefined;
  const shielded = readShieldedInstanceConfig(reader);
  reader.finishToMachineApi();
  if (shielded.monitoringWithoutTpm) {
    spec.report.error(
      reader.pathOf('virtualizedTrustedPlatformModule'),
      'is Disabled, but integrity monitoring (enabled unless integrityMonitoring is Disabled) ' +
        'needs the virtual TPM, and Machine API refuses the combination; enable it or set ' +
        'integrityMonitoring to Disabled.',
    );
  }
  return shielded.config;
}

/** Machine API's webhook: confidential VMs need Terminate and a machine series that supports them. */
function checkConfidentialCompute(
  spec: ObjectReader,
  confidentialCompute: ConfidentialCompute,
  onHostMaintenance: HostMaintenance | undefined,
  machineType: string | undefined,
): void {
  const problems = confidentialComputeProblems(confidentialCompute, onHostMaintenance, machineType);
  const path = spec.pathOf('confidentialCompute');
  if (problems.needsTerminate) {
    spec.report.error(
      path,
      `is ${confidentialCompute}, but confidential VMs need onHostMaintenance Terminate; set ` +
        'onHostMaintenance to Terminate.',
    );
  }
  if (problems.unsupported) {
    const { series, supported } = problems.unsupported;
    spec.report.error(
      path,
      `is ${confidentialCompute}, which Machine API accepts only on the machine series ` +
        `${supported.join(', ')}, but instanceType ${shorten(machineType ?? '')} is of series ` +
        `${shorten(series)}; choose a machine type of those series, set confidentialCompute to ` +
        `Disabled ${KEEP_ON_CLUSTER_API}.`,
    );
  }
}
