// The contract every platform converter implements: a pure function from a MAPI
// providerSpec to the provider's machine template spec, or every field error found.
import type { Infrastructure, PlatformType } from '../api/types.js';

/** A problem with one field of the input, named by its full path. */
export interface FieldError {
  /** e.g. `spec.template.spec.providerSpec.value.ami.arn` */
  path: string;
  /** What is wrong and what to do about it, for a human. */
  message: string;
}

export type Conversion<T> =
  { ok: true; value: T; warnings: string[] } | { ok: false; errors: FieldError[] };

export interface ConversionContext {
  infrastructure: Infrastructure;
  /** Path of the providerSpec value inside the MAPI MachineSet, for error paths. */
  path: string;
  /** True when the MachineSet's machines are control-plane machines (role master). */
  controlPlane: boolean;
}

/** What a platform converter produces from one providerSpec. */
export interface ProviderConversion {
  /** The machine template's `spec.template.spec`, with the provider's defaults materialised. */
  templateSpec: Record<string, unknown>;
  /** The CAPI failure domain (the platform's zone), when the platform has one. */
  failureDomain?: string;
  /** The bootstrap data secret (MAPI `userDataSecret.name`). */
  userDataSecretName?: string;
}

export interface PlatformConverter {
  platform: PlatformType;
  /** The MAPI providerSpec kind this platform accepts, e.g. AWSMachineProviderConfig. */
  providerSpecKind: string;
  template: {
    apiVersion: string; // e.g. infrastructure.cluster.x-k8s.io/v1beta2
    kind: string; // e.g. AWSMachineTemplate
    plural: string; // e.g. awsmachinetemplates
  };
  convert(providerSpec: unknown, context: ConversionContext): Conversion<ProviderConversion>;
}
