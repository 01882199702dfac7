// The contract every platform converter implements: pure functions from a MAPI providerSpec to
// the provider's machine template spec and back, each giving a value or every field error found.
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
  /**
   * The infrastructure machine of one Machine (e.g. AWSMachine): its type, and the spec fields
   * that identify the instance, given by the Machine's providerID.
   */
  machine?: {
    apiVersion: string;
    kind: string; // e.g. AWSMachine
    plural: string; // e.g. awsmachines
    /**
     * The provider's finalizer (e.g. awsmachine.infrastructure.cluster.x-k8s.io), added while
     * Cluster API is authoritative and never removed by the provider while the object is paused.
     */
    finalizer: string;
    identity(providerID: string): Conversion<Record<string, unknown>>;
    /**
     * An object the provider makes for each machine under the machine's name, whose own
     * controller acts on the instance (CAPO's OpenStackServer deletes the server when deleted):
     * paused and unpaused with the infrastructure machine, and let go like it.
     */
    instance?: { apiVersion: string; kind: string; plural: string; finalizer: string };
  };
  /** MAPI → CAPI: the providerSpec as the machine template's spec. */
  toCapi(providerSpec: unknown, context: ConversionContext): Conversion<ProviderConversion>;
  /**
   * What a MachineSet's providerSpec must say before it migrates to Cluster API, where the
   * machines Cluster API creates would otherwise differ from Machine API's (none when empty).
   */
  migrationBlockers?(providerSpec: unknown, context: ConversionContext): FieldError[];
  /** CAPI → MAPI: the machine template's spec as a providerSpec (with kind and apiVersion). */
  toMapi?(
    this: void,
    templateSpec: unknown,
    context: ReverseContext,
  ): Conversion<Record<string, unknown>>;
}

export interface ReverseContext {
  infrastructure: Infrastructure;
  /** Path of the template's `spec.template.spec`, for error paths (the template's own field). */
  path: string;
  /** The CAPI MachineSet's `spec.template.spec.failureDomain`. */
  failureDomain?: string;
  /** The CAPI MachineSet's `spec.template.spec.bootstrap.dataSecretName`. */
  userDataSecretName?: string;
  /**
   * The providerSpec the MAPI MachineSet has now. Fields Cluster API cannot express are kept from
   * it (each platform lists them in docs/platforms/), so a round trip loses nothing.
   */
  current?: unknown;
  controlPlane: boolean;
}
