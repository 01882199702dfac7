// Reads a Cluster API machine, a MachineSet's template or a Machine, for the conversion to MAPI:
// each field of its spec is mapped, dropped with a warning when the MAPI machines behave the same
// without it, or reported when they would not; a field this code does not know is reported rather
// than dropped. Where the two kinds differ, each says how (`CapiMachineRules`).
import { type ArrayItem, isJsonObject, type ObjectReader } from './field-reader.js';
import type { MirroredKind } from './mirror.js';
import type { MetadataMaps } from './object-metadata.js';
import { quote } from './quote.js';

interface InfrastructureRefInput {
  apiGroup?: string;
  kind?: string;
  name?: string;
}

/** What Machine API needs of a Cluster API machine: a MachineSet's template or a Machine. */
export interface CapiMachineInput extends MetadataMaps {
  dataSecretName?: string;
  infrastructureRef: InfrastructureRefInput;
  providerID?: string;
  failureDomain?: string;
  minReadySeconds?: number;
  taints: ArrayItem[];
}

/** What a MachineSet's template and a Machine accept differently of a machine spec. */
export interface CapiMachineRules {
  /** The MAPI kind the machine is mirrored to, for messages. */
  kind: MirroredKind;
  /** What Machine API would count as ready, for messages: `machines`, `the machine`. */
  machines: string;
  /** Completes the message when `infrastructureRef.name` is missing. */
  infrastructureRefHint: string;
  /** `providerID`: a Machine's own; a template must not set it. */
  providerID(spec: ObjectReader): string | undefined;
  /** `minReadySeconds`: a MachineSet's; a Machine has none. */
  minReadySeconds(spec: ObjectReader): number | undefined;
}

/** A machine with nothing read yet. */
export function emptyCapiMachine(): CapiMachineInput {
  return { labels: [], annotations: [], infrastructureRef: {}, taints: [] };
}

/** Reads a machine spec (`spec` of a Machine, `spec.template.spec` of a MachineSet) into `input`. */
export function readCapiMachineSpec(
  spec: ObjectReader,
  clusterName: string,
  rules: CapiMachineRules,
  input: CapiMachineInput,
): void {
  checkClusterName(spec, clusterName);
  input.dataSecretName = readBootstrapSecret(spec);
  input.infrastructureRef = readInfrastructureRef(spec, rules.infrastructureRefHint);
  warnVersion(spec);
  input.providerID = rules.providerID(spec);
  input.failureDomain = spec.string('failureDomain');
  input.minReadySeconds = rules.minReadySeconds(spec);
  if ((spec.items('readinessGates') ?? []).length > 0) {
    spec.report.error(
      spec.pathOf('readinessGates'),
      `has no Machine API equivalent: Machine API would count ${rules.machines} as ready ` +
        `without these conditions; remove the readiness gates to mirror this ${rules.kind}.`,
    );
  }
  const deletion = spec.object('deletion');
  if (deletion) readMachineDeletion(deletion);
  input.taints = spec.items('taints') ?? [];
  spec.finishToMachineApi();
}

/** What Cluster API's Machine webhook sets when the field is empty. */
const DEFAULT_NODE_DELETION_TIMEOUT = 10;

export function checkClusterName(reader: ObjectReader, clusterName: string): void {
  const value = reader.string('clusterName');
  if (value === undefined || value === clusterName) return;
  reader.report.error(
    reader.pathOf('clusterName'),
    `is ${quote(value)}, but this cluster's Cluster API cluster is ${quote(clusterName)}; only ` +
      `the machines of this cluster can be mirrored to Machine API.`,
  );
}

/**
 * The Secret a Cluster API machine boots from (`bootstrap.dataSecretName`); a bootstrap config
 * instead has no Machine API equivalent. Shared by MachineSet templates and Machines.
 */
function readBootstrapSecret(spec: ObjectReader): string | undefined {
  const bootstrap = spec.objectOrEmpty('bootstrap');
  if (!bootstrap) return undefined;
  let dataSecretName: string | undefined;
  const configRef = bootstrap.raw('configRef');
  if (
    configRef !== undefined &&
    !(isJsonObject(configRef) && Object.keys(configRef).length === 0)
  ) {
    spec.report.error(
      bootstrap.pathOf('configRef'),
      'has no Machine API equivalent: Machine API machines boot from a ready user data ' +
        'Secret; set dataSecretName to such a Secret instead of a bootstrap config.',
    );
  } else {
    dataSecretName = bootstrap.requiredString(
      'dataSecretName',
      'Machine API machines boot from the user data Secret named here.',
    );
  }
  bootstrap.finishToMachineApi();
  return dataSecretName;
}

/** `infrastructureRef`; `fix` completes the message when its name is missing. */
function readInfrastructureRef(spec: ObjectReader, fix: string): InfrastructureRefInput {
  const ref = spec.objectOrEmpty('infrastructureRef');
  if (!ref) return {};
  const read = {
    apiGroup: ref.string('apiGroup'),
    kind: ref.string('kind'),
    name: ref.requiredString('name', fix),
  };
  ref.finishToMachineApi();
  return read;
}

/** `version` is left to the image and user data on Machine API: said, not converted. */
function warnVersion(spec: ObjectReader): void {
  const version = spec.string('version');
  if (version === undefined) return;
  spec.report.warn(
    `${spec.pathOf('version')} ${quote(version)} is not converted: Machine API machines run ` +
      `the version their image and user data give them.`,
  );
}

/** Timeouts MAPI machines do not have: only the values that behave like MAPI are accepted. */
function readMachineDeletion(deletion: ObjectReader): void {
  const unlimited = (key: string, what: string) => {
    const value = deletion.integer(key);
    if (value === undefined || value === 0) return;
    deletion.report.error(
      deletion.pathOf(key),
      `is ${value}, but Machine API ${what} without a time limit; remove it (or set 0) to ` +
        `mirror it to Machine API.`,
    );
  };
  unlimited('nodeDrainTimeoutSeconds', 'drains a node');
  unlimited('nodeVolumeDetachTimeoutSeconds', 'waits for the volumes of a node to detach');
  const deletionTimeout = deletion.integer('nodeDeletionTimeoutSeconds');
  if (deletionTimeout !== undefined && deletionTimeout !== DEFAULT_NODE_DELETION_TIMEOUT) {
    deletion.report.error(
      deletion.pathOf('nodeDeletionTimeoutSeconds'),
      `is ${deletionTimeout}, but Machine API has no such timeout; remove it (or set ` +
        `${DEFAULT_NODE_DELETION_TIMEOUT}, Cluster API's default) to mirror it to Machine API.`,
    );
  }
  deletion.finishToMachineApi();
}
