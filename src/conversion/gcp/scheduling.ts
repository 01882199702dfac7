// How Compute Engine schedules the VM: preemptible and Spot provisioning, host maintenance,
// automatic restart, GPUs, confidential computing and Shielded VM. The fields map onto CAPG's
// of the same names, except restartPolicy (CAPG has no such field, so only the values that
// equal Compute Engine's own behaviour convert) and gpus (CAPG takes an accelerator type path).
// CAPG's admission webhook rules on confidential computing are checked here as well.
import type { ConversionReport, ObjectReader } from '../common/field-reader.js';
import { quote, shorten } from '../common/quote.js';

const PROVISIONING_MODELS = ['Spot'] as const;
export const HOST_MAINTENANCE = ['Migrate', 'Terminate'] as const;
export type HostMaintenance = (typeof HOST_MAINTENANCE)[number];
const RESTART_POLICIES = ['Always', 'Never'] as const;
export const CONFIDENTIAL_COMPUTE = [
  'Enabled',
  'Disabled',
  'AMDEncryptedVirtualization',
  'AMDEncryptedVirtualizationNestedPaging',
  'IntelTrustedDomainExtensions',
] as const;
export type ConfidentialCompute = (typeof CONFIDENTIAL_COMPUTE)[number];
const ENABLED_DISABLED = ['Enabled', 'Disabled'] as const;
type EnabledDisabled = (typeof ENABLED_DISABLED)[number];

/** The machine series CAPG's and Machine API's webhooks accept for each confidential technology. */
const CONFIDENTIAL_MACHINE_SERIES: Record<Exclude<ConfidentialCompute, 'Disabled'>, string[]> = {
  Enabled: ['n2d', 'c2d', 'c3d'],
  AMDEncryptedVirtualization: ['n2d', 'c2d', 'c3d'],
  AMDEncryptedVirtualizationNestedPaging: ['n2d'],
  IntelTrustedDomainExtensions: ['c3'],
};
/** Machine types of these families come with their GPUs attached. */
export const GPU_MACHINE_FAMILIES = ['a2-', 'a3-'];
// An accelerator type name such as nvidia-tesla-t4.
export const ACCELERATOR_TYPE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export interface ShieldedInstanceConfig {
  secureBoot?: EnabledDisabled;
  virtualizedTrustedPlatformModule?: EnabledDisabled;
  integrityMonitoring?: EnabledDisabled;
}

export interface ConvertedScheduling {
  preemptible?: true;
  provisioningModel?: 'Spot';
  onHostMaintenance?: HostMaintenance;
  shieldedInstanceConfig?: ShieldedInstanceConfig;
  confidentialCompute?: ConfidentialCompute;
  guestAccelerators?: { type: string; count: number }[];
}

export interface SchedulingContext {
  /** The machine type, to check GPU and confidential computing rules against. */
  instanceType?: string;
  /** The zone, which the accelerator type path names. */
  zone?: string;
}

export function convertScheduling(
  spec: ObjectReader,
  context: SchedulingContext,
  report: ConversionReport,
): ConvertedScheduling {
  const converted: ConvertedScheduling = {};
  const preemptible = spec.boolean('preemptible');
  const provisioningModel = spec.enumeration('provisioningModel', PROVISIONING_MODELS);
  const restartPolicy = spec.enumeration('restartPolicy', RESTART_POLICIES);
  let onHostMaintenance = spec.enumeration('onHostMaintenance', HOST_MAINTENANCE);
  const confidentialCompute = spec.enumeration('confidentialCompute', CONFIDENTIAL_COMPUTE);

  if (preemptible === true) converted.preemptible = true;
  if (provisioningModel !== undefined) converted.provisioningModel = provisioningModel;
  if (preemptible === true && provisioningModel === 'Spot') {
    report.error(
      spec.pathOf('provisioningModel'),
      'is Spot, which cannot be combined with preemptible: true; keep either the Spot ' +
        'provisioning model or preemptible.',
    );
  }
  checkRestartPolicy(
    spec,
    restartPolicy,
    preemptible === true || provisioningModel === 'Spot',
    report,
  );

  const gpus = convertGpus(spec, context, report);
  if (gpus !== undefined) {
    converted.guestAccelerators = gpus;
    onHostMaintenance = gpuHostMaintenance(spec, onHostMaintenance, report);
  }
  if (onHostMaintenance !== undefined) converted.onHostMaintenance = onHostMaintenance;

  const shielded = convertShieldedInstanceConfig(spec, report);
  if (shielded !== undefined) converted.shieldedInstanceConfig = shielded;

  if (confidentialCompute !== undefined) {
    converted.confidentialCompute = confidentialCompute;
    checkConfidentialCompute(spec, confidentialCompute, onHostMaintenance, context, report);
  }
  return converted;
}

/**
 * CAPG never sets automatic restart, so Compute Engine's behaviour applies: standard VMs are
 * restarted (Always), preemptible and Spot VMs are not (Never). Only those values convert.
 */
function checkRestartPolicy(
  spec: ObjectReader,
  restartPolicy: (typeof RESTART_POLICIES)[number] | undefined,
  interruptible: boolean,
  report: ConversionReport,
): void {
  if (restartPolicy === 'Always' && interruptible) {
    report.error(
      spec.pathOf('restartPolicy'),
      'is Always, but preemptible and Spot VMs are never restarted automatically; set it to ' +
        'Never or remove it.',
    );
  } else if (restartPolicy === 'Never' && !interruptible) {
    report.error(
      spec.pathOf('restartPolicy'),
      'is Never, but Cluster API cannot turn automatic restart off, so Compute Engine would ' +
        'restart these VMs after a crash or a maintenance event; remove restartPolicy to accept ' +
        'that, or keep the MachineSet on Machine API.',
    );
  }
}

/** `gpus[]` → `guestAccelerators[]`, with the zone-relative type path MAPI also sends. */
function convertGpus(
  spec: ObjectReader,
  context: SchedulingContext,
  report: ConversionReport,
): { type: string; count: number }[] | undefined {
  const gpus = spec.objects('gpus');
  if (gpus === undefined || gpus.length === 0) return undefined;
  const errorsBefore = report.errors.length;
  const converted = gpus.flatMap((gpu) => {
    const type = gpu.string('type');
    const count = gpu.integer('count');
    gpu.finish();
    if (type === undefined) {
      report.error(
        gpu.pathOf('type'),
        'is required; set the accelerator type, e.g. nvidia-tesla-t4.',
      );
    } else if (!ACCELERATOR_TYPE.test(type)) {
      report.error(
        gpu.pathOf('type'),
        `is ${quote(type)}, which is not an accelerator type name; use one such as nvidia-tesla-t4.`,
      );
    }
    if (count === undefined || count < 1) {
      report.error(
        gpu.pathOf('count'),
        `${count === undefined ? 'is required' : `is ${count}`}; set the number of GPUs to attach (at least 1).`,
      );
    }
    if (type === undefined || count === undefined || context.zone === undefined) return [];
    return [{ type: `zones/${context.zone}/acceleratorTypes/${type}`, count }];
  });
  if (gpus.length > 1) {
    report.error(
      spec.pathOf('gpus'),
      `lists ${gpus.length} GPU types, but a Compute Engine VM takes one accelerator type; keep one entry.`,
    );
  }
  const instanceType = context.instanceType;
  if (instanceType !== undefined && GPU_MACHINE_FAMILIES.some((f) => instanceType.startsWith(f))) {
    report.error(
      spec.pathOf('gpus'),
      `cannot be used with machineType ${shorten(instanceType)}, which comes with its GPUs attached; remove gpus.`,
    );
  }
  return report.errors.length === errorsBefore ? converted : undefined;
}

/**
 * VMs with GPUs cannot live-migrate: CAPG always sets Terminate for them, so Migrate would not
 * be honoured, and "not set" is written as Terminate to say what happens.
 */
function gpuHostMaintenance(
  spec: ObjectReader,
  onHostMaintenance: HostMaintenance | undefined,
  report: ConversionReport,
): HostMaintenance | undefined {
  if (onHostMaintenance === 'Migrate') {
    report.error(
      spec.pathOf('onHostMaintenance'),
      'is Migrate, but VMs with GPUs cannot live-migrate and Cluster API always stops them for ' +
        'maintenance; set onHostMaintenance to Terminate.',
    );
    return onHostMaintenance;
  }
  if (onHostMaintenance === undefined) {
    report.warn(
      `${spec.pathOf('onHostMaintenance')} is not set, but VMs with GPUs cannot live-migrate; the ` +
        'template sets Terminate, which Cluster API applies to them anyway.',
    );
  }
  return 'Terminate';
}

/** A shieldedInstanceConfig, read the same way in both directions (the caller finishes `reader`). */
export interface ShieldedInstanceSettings {
  /** Undefined when it leaves every setting to the platform, in MAPI and in CAPG alike. */
  config?: ShieldedInstanceConfig;
  /**
   * The virtual TPM is off while integrity monitoring, which measures through it, is on (it is
   * unless Disabled): both APIs refuse that.
   */
  monitoringWithoutTpm: boolean;
}

export function readShieldedInstanceConfig(reader: ObjectReader): ShieldedInstanceSettings {
  const secureBoot = reader.enumeration('secureBoot', ENABLED_DISABLED);
  const vTPM = reader.enumeration('virtualizedTrustedPlatformModule', ENABLED_DISABLED);
  const integrityMonitoring = reader.enumeration('integrityMonitoring', ENABLED_DISABLED);
  const config: ShieldedInstanceConfig = {};
  if (secureBoot !== undefined) config.secureBoot = secureBoot;
  if (vTPM !== undefined) config.virtualizedTrustedPlatformModule = vTPM;
  if (integrityMonitoring !== undefined) config.integrityMonitoring = integrityMonitoring;
  return {
    ...(Object.keys(config).length > 0 ? { config } : {}),
    monitoringWithoutTpm: vTPM === 'Disabled' && integrityMonitoring !== 'Disabled',
  };
}

function convertShieldedInstanceConfig(
  spec: ObjectReader,
  report: ConversionReport,
): ShieldedInstanceConfig | undefined {
  const reader = spec.object('shieldedInstanceConfig');
  if (reader === undefined) return undefined;
  const shielded = readShieldedInstanceConfig(reader);
  reader.finish();
  if (shielded.monitoringWithoutTpm) {
    report.error(
      reader.pathOf('virtualizedTrustedPlatformModule'),
      'is Disabled, but integrity monitoring (enabled unless integrityMonitoring is Disabled) ' +
        'needs the virtual TPM; enable it or set integrityMonitoring to Disabled.',
    );
  }
  return shielded.config;
}

/**
 * What CAPG's webhook and Machine API's alike refuse of a confidential VM: host maintenance other
 * than Terminate, and a machine series that does not support its technology (`series`, of
 * `machineType`, against the `supported` ones).
 */
export function confidentialComputeProblems(
  confidentialCompute: ConfidentialCompute,
  onHostMaintenance: HostMaintenance | undefined,
  machineType: string | undefined,
): { needsTerminate: boolean; unsupported?: { series: string; supported: string[] } } {
  if (confidentialCompute === 'Disabled') return { needsTerminate: false };
  const series = machineType?.split('-')[0];
  const supported = CONFIDENTIAL_MACHINE_SERIES[confidentialCompute];
  return {
    needsTerminate: onHostMaintenance !== 'Terminate',
    ...(series !== undefined && !supported.includes(series)
      ? { unsupported: { series, supported } }
      : {}),
  };
}

/** CAPG's webhook: confidential VMs need onHostMaintenance Terminate and a supporting series. */
function checkConfidentialCompute(
  spec: ObjectReader,
  confidentialCompute: ConfidentialCompute,
  onHostMaintenance: HostMaintenance | undefined,
  context: SchedulingContext,
  report: ConversionReport,
): void {
  const { instanceType } = context;
  const problems = confidentialComputeProblems(
    confidentialCompute,
    onHostMaintenance,
    instanceType,
  );
  const path = spec.pathOf('confidentialCompute');
  if (problems.needsTerminate) {
    report.error(
      path,
      `is ${confidentialCompute}, but confidential VMs need onHostMaintenance Terminate in ` +
        'Cluster API; set onHostMaintenance to Terminate.',
    );
  }
  if (problems.unsupported) {
    const { series, supported } = problems.unsupported;
    report.error(
      path,
      `is ${confidentialCompute}, which Cluster API accepts only on the machine series ` +
        `${supported.join(', ')}, but machineType ${shorten(instanceType ?? '')} is of series ` +
        `${shorten(series)}; choose a machine type of those series or set confidentialCompute to Disabled.`,
    );
  }
}
