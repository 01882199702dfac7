// One MachineSet + what is known of its cluster → whether it can be mirrored and migrated, and
// why not. Pure: the same conversions the controller runs, with nothing written anywhere.
import type {
  Infrastructure,
  KubeObject,
  MachineAutoscaler,
  MapiMachineSet,
} from '../../api/types.js';
import { machineSetToCapi, migrationBlockers } from '../../conversion/machine-set/to-capi.js';
import { machineSetToMapi } from '../../conversion/machine-set/to-mapi.js';
import { describeValue } from '../../conversion/common/field-reader.js';
import { shorten } from '../../conversion/common/quote.js';
import { CONVERTERS } from '../../conversion/platforms.js';
import type { FieldError, PlatformConverter } from '../../conversion/types.js';
import { autoscalerProblems } from './autoscalers.js';
import { gateProblems } from './gate.js';

/** What stops a MachineSet: its mirror, the conversion back, or the migration gate. */
type Stage = 'mirror' | 'reverse' | 'migration';

export interface Problem extends FieldError {
  stage: Stage;
}

export interface MachineSetReport {
  name: string;
  namespace?: string;
  /** The platform whose converter was used; absent when none could be chosen. */
  platform?: string;
  authoritativeAPI?: string;
  canMirror: boolean;
  canMigrate: boolean;
  /** Every problem that stops the mirror or the migration, each on its field. */
  blocking: Problem[];
  /** Lossy but allowed conversions, each naming its field. */
  warnings: string[];
  /** What the mirror would be: the infrastructure template, then the CAPI MachineSet. */
  capiObjects: KubeObject[];
}

export interface CheckFacts {
  /** --platform, else the Infrastructure's platform; absent: each providerSpec's kind decides. */
  platform?: string;
  /** The Infrastructure read from the cluster, when there is one. */
  infrastructure?: Infrastructure;
  /** --infrastructure-name; else the Infrastructure's, else each MachineSet's cluster label. */
  infrastructureName?: string;
  capiNamespace: string;
  /** Read from a cluster: the status is current, so the migration gate's checks apply. */
  fromCluster: boolean;
  /** The platform converters (all of this version's by default). */
  converters?: readonly PlatformConverter[];
  /** The MachineAutoscalers of the MachineSets' namespace, when read from a cluster. */
  autoscalers?: readonly MachineAutoscaler[];
}

/**
 * What `check` knows reading a cluster: the Infrastructure read (absent when there is none), and
 * the platform from `given` or else from it. The migration gate's checks apply.
 */
export function clusterFacts(
  infrastructure: Infrastructure | undefined,
  given: { capiNamespace: string; platform?: string; infrastructureName?: string },
): CheckFacts {
  const platform =
    given.platform ??
    (infrastructure?.status?.platformStatus?.type || infrastructure?.status?.platform || undefined);
  return {
    ...given,
    ...(platform ? { platform } : {}),
    ...(infrastructure ? { infrastructure } : {}),
    fromCluster: true,
  };
}

const CLUSTER_LABEL = 'machine.openshift.io/cluster-api-cluster';
const KIND_PATH = 'spec.template.spec.providerSpec.value.kind';
const PLATFORM_PATH = 'Infrastructure cluster status.platformStatus.type';

export function reportMachineSet(mapi: MapiMachineSet, facts: CheckFacts): MachineSetReport {
  const converters = facts.converters ?? CONVERTERS;
  const base = {
    name: mapi.metadata.name,
    ...(mapi.metadata.namespace ? { namespace: mapi.metadata.namespace } : {}),
    ...(mapi.status?.authoritativeAPI ? { authoritativeAPI: mapi.status.authoritativeAPI } : {}),
  };
  const gate = (conversionFailed: boolean): Problem[] =>
    facts.fromCluster
      ? [
          ...gateProblems(mapi, !conversionFailed).map(at('migration')),
          ...autoscalerProblems(mapi.metadata.name, facts.autoscalers ?? []).map(at('migration')),
        ]
      : [];
  const converter = converterOf(mapi, facts, converters);
  const clusterName = infrastructureNameOf(mapi, facts);
  if (isFieldError(converter) || isFieldError(clusterName)) {
    const missing = [converter, clusterName].filter(isFieldError).map(at('mirror'));
    return notMirrored(base, [...missing, ...gate(true)]);
  }

  const infrastructure = infrastructureFor(facts.infrastructure, converter.platform, clusterName);
  const mirror = machineSetToCapi({
    mapi,
    infrastructure,
    converter,
    capiNamespace: facts.capiNamespace,
    paused: true,
  });
  const withPlatform = { ...base, platform: converter.platform };
  if (!mirror.ok)
    return notMirrored(withPlatform, [...mirror.errors.map(at('mirror')), ...gate(true)]);

  const { machineSet, template } = mirror.value;
  const back = machineSetToMapi({
    capi: machineSet,
    template,
    mapi,
    infrastructure,
    converter,
  });
  const blocking = [
    ...(back.ok ? [] : back.errors.map(at('reverse'))),
    ...gate(!back.ok),
    ...(onMachineApi(mapi) ? migrationBlockers(mapi, converter, infrastructure) : []).map(
      at('migration'),
    ),
  ];
  return {
    ...withPlatform,
    canMirror: true,
    canMigrate: blocking.length === 0,
    blocking,
    warnings: unique([...mirror.warnings, ...(back.ok ? back.warnings : [])]),
    capiObjects: [template, machineSet],
  };
}

export interface Summary {
  machineSets: number;
  canMirror: number;
  canMigrate: number;
}

export function summarize(reports: readonly MachineSetReport[]): Summary {
  return {
    machineSets: reports.length,
    canMirror: reports.filter((r) => r.canMirror).length,
    canMigrate: reports.filter((r) => r.canMigrate).length,
  };
}

/** 0 when every MachineSet can migrate, else 1. */
export function exitCodeOf(reports: readonly MachineSetReport[]): 0 | 1 {
  return reports.every((r) => r.canMigrate) ? 0 : 1;
}

function notMirrored(
  base: Omit<
    MachineSetReport,
    'canMirror' | 'canMigrate' | 'blocking' | 'warnings' | 'capiObjects'
  >,
  blocking: Problem[],
): MachineSetReport {
  return { ...base, canMirror: false, canMigrate: false, blocking, warnings: [], capiObjects: [] };
}

function onMachineApi(mapi: MapiMachineSet): boolean {
  return (mapi.status?.authoritativeAPI ?? 'MachineAPI') === 'MachineAPI';
}

function isFieldError(value: unknown): value is FieldError {
  return typeof value === 'object' && value !== null && 'path' in value && 'message' in value;
}

function at(stage: Stage): (error: FieldError) => Problem {
  return ({ path, message }) => ({ stage, path, message });
}

/** The converter for this MachineSet, or why there is none. */
function converterOf(
  mapi: MapiMachineSet,
  facts: CheckFacts,
  converters: readonly PlatformConverter[],
): PlatformConverter | FieldError {
  const supported = converters.map((c) => c.platform).join(', ');
  if (facts.platform !== undefined) {
    const converter = converters.find((c) => c.platform === facts.platform);
    if (converter) return converter;
    return {
      path: PLATFORM_PATH,
      message: `is ${shorten(facts.platform)}, which this version cannot mirror into Cluster API; supported platforms: ${supported}.`,
    };
  }
  const kind = providerSpecKind(mapi);
  const converter = converters.find((c) => c.providerSpecKind === kind);
  if (converter) return converter;
  const kinds = converters.map((c) => c.providerSpecKind).join(', ');
  return {
    path: KIND_PATH,
    message: `${kind === undefined ? 'is not set' : typeof kind === 'string' ? `is ${shorten(kind)}` : `is ${describeValue(kind)}`}, which is not the providerSpec of a supported platform (${kinds}); correct the kind, or pass --platform (${supported}).`,
  };
}

function providerSpecKind(mapi: MapiMachineSet): unknown {
  const value = mapi.spec?.template?.spec?.providerSpec?.value;
  return typeof value === 'object' && value !== null && 'kind' in value ? value.kind : undefined;
}

/** The Cluster API cluster name for this MachineSet, or why there is none. */
function infrastructureNameOf(mapi: MapiMachineSet, facts: CheckFacts): string | FieldError {
  const name =
    facts.infrastructureName ||
    facts.infrastructure?.status?.infrastructureName ||
    mapi.metadata.labels?.[CLUSTER_LABEL];
  if (name) return name;
  return {
    path: `metadata.labels[${CLUSTER_LABEL}]`,
    message: `is not set, and no infrastructure name is known; pass --infrastructure-name (the Infrastructure's status.infrastructureName), or label the MachineSet with its cluster.`,
  };
}

/**
 * The Infrastructure the conversions read: the cluster's, or (from files) one naming only the
 * platform and the cluster, so that checks against the cluster's facts become warnings.
 */
function infrastructureFor(
  read: Infrastructure | undefined,
  platform: string,
  infrastructureName: string,
): Infrastructure {
  const status = read?.status ?? {};
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: read?.metadata ?? { name: 'cluster' },
    status: {
      ...status,
      infrastructureName,
      platform,
      platformStatus: { ...status.platformStatus, type: platform },
    },
  };
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
