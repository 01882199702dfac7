// CAPI → MAPI for vSphere: the `spec.template.spec` of a VSphereMachineTemplate (v1beta1) back to a
// VSphereMachineProviderSpec (machine.openshift.io/v1beta1). Pure and deterministic, and it never
// throws. Each field becomes what CAPV does with it at run time, its defaults written out (a
// linked clone, 2 vCPUs, 2048 MiB); what Machine API cannot express is a field error. Fields
// Cluster API cannot express come from the providerSpec the MAPI MachineSet has now.
import { vsphereCluster, type VSphereCluster } from './cluster.js';
import { convertDataDisks } from './disks.js';
import { keptFromCurrent } from './kept-from-current.js';
import {
  CAPV_CLONE_MODE,
  CAPV_DEFAULT_MEMORY_MIB,
  CAPV_MIN_CPUS,
  CLONE_MODES,
  DEFAULT_DATACENTER,
  POWER_OFF_MODE,
  PROVIDER_SPEC_API_VERSION,
  PROVIDER_SPEC_KIND,
} from './names.js';
import { convertTagIds } from './tags.js';
import { networkToMapi, refuseWithoutEquivalent } from './to-mapi-network.js';
import {
  ConversionReport,
  describeValue,
  isJsonObject,
  type JsonObject,
  ObjectReader,
  withoutUndefined,
} from '../common/field-reader.js';
import { quote } from '../common/quote.js';
import type { Conversion, ReverseContext } from '../types.js';

/**
 * The template fields refused whatever their value (refuseWithoutEquivalent), as paths in
 * `spec.template.spec`. The admission policy mapi-capi-sync-infrastructure-expressible refuses the
 * same ones; a unit test keeps them equal.
 */
export const TEMPLATE_FIELDS_WITHOUT_EQUIVALENT: readonly string[] = [
  'providerID',
  'failureDomain',
  'thumbprint',
  'storagePolicyName',
  'additionalDisksGiB',
  'customVMXKeys',
  'pciDevices',
  'hardwareVersion',
  'resources',
  'guestSoftPowerOffTimeout',
  'namingStrategy',
  'network.routes',
  'network.preferredAPIServerCidr',
];

/** The fields of TEMPLATE_FIELDS_WITHOUT_EQUIVALENT directly under `prefix` ('' or 'network.'). */
function fieldsWithoutEquivalent(prefix: string): string[] {
  return TEMPLATE_FIELDS_WITHOUT_EQUIVALENT.filter((path) => path.startsWith(prefix))
    .map((path) => path.slice(prefix.length))
    .filter((key) => !key.includes('.'));
}

export function vsphereToMapi(
  templateSpec: unknown,
  context: ReverseContext,
): Conversion<Record<string, unknown>> {
  const report = new ConversionReport();
  if (!isJsonObject(templateSpec)) {
    const message =
      `must be an object (a VSphereMachineTemplate's machine spec), but is ` +
      `${describeValue(templateSpec)}; set the vSphere machine settings there.`;
    return { ok: false, errors: [{ path: context.path, message }] };
  }
  const spec = ObjectReader.of(templateSpec, context.path, report);
  if (spec === undefined) return { ok: false, errors: report.errors };
  const cluster = vsphereCluster(context.infrastructure);

  const template = spec.requiredString(
    'template',
    'name the VM template the machines are cloned from.',
  );
  const cloneMode = spec.enumeration('cloneMode', CLONE_MODES) ?? CAPV_CLONE_MODE;
  const snapshot = spec.string('snapshot');
  const workspace = workspaceToMapi(spec, cluster);
  const network = spec.objectOrEmpty('network');
  const devices = network && networkToMapi(network);
  if (network) refuseWithoutEquivalent(network, fieldsWithoutEquivalent('network.'));
  network?.finishToMachineApi({ orKeepOnClusterApi: true });
  const hardware = hardwareToMapi(spec);
  const tagIDs = convertTagIds(spec);
  const dataDisks = convertDataDisks(spec, (disk) =>
    disk.finishToMachineApi({ orKeepOnClusterApi: true }),
  );
  checkMachineApiBehaviour(spec);
  refuseWithoutEquivalent(spec, fieldsWithoutEquivalent(''));
  spec.finishToMachineApi({ orKeepOnClusterApi: true });
  refuseFailureDomain(context, report);
  if (report.errors.length > 0 || !template || !workspace || !devices || !hardware) {
    return { ok: false, errors: report.errors };
  }

  const kept = keptFromCurrent(context.current, report);
  const userDataSecretName = context.userDataSecretName;
  const providerSpec = withoutUndefined({
    apiVersion: PROVIDER_SPEC_API_VERSION,
    kind: PROVIDER_SPEC_KIND,
    metadata: kept.metadata,
    template,
    cloneMode,
    snapshot,
    workspace,
    network: devices,
    ...hardware,
    tagIDs,
    dataDisks,
    userDataSecret: userDataSecretName ? { name: userDataSecretName } : undefined,
    credentialsSecret: kept.credentialsSecret,
  });
  return { ok: true, value: providerSpec, warnings: report.warnings };
}

/**
 * The placement fields as a workspace. CAPV connects to the VSphereCluster's server when the
 * template names none, and `*` is its datacenter when there is only one (Machine API's unset).
 */
function workspaceToMapi(spec: ObjectReader, cluster: VSphereCluster): JsonObject | undefined {
  const server = spec.string('server') ?? cluster.server;
  const datacenter = spec.string('datacenter');
  const workspace = withoutUndefined({
    server,
    datacenter: datacenter === DEFAULT_DATACENTER ? undefined : datacenter,
    folder: spec.string('folder'),
    datastore: spec.string('datastore'),
    resourcePool: spec.string('resourcePool'),
  });
  if (server === undefined) {
    spec.report.error(
      spec.pathOf('server'),
      'is not set, and the Infrastructure names no vCenter (spec.platformSpec.vsphere.vcenters), ' +
        'but every Machine API providerSpec names its vCenter; set server.',
    );
    return undefined;
  }
  if (cluster.server !== undefined && server !== cluster.server) {
    spec.report.error(
      spec.pathOf('server'),
      `is ${quote(server)}, but the cluster's machines are created in its first vCenter, ` +
        `${quote(cluster.server)} (spec.platformSpec.vsphere.vcenters[0] of the Infrastructure), ` +
        'with whose credentials CAPV connects; set server to it.',
    );
    return undefined;
  }
  return workspace;
}

/**
 * The size as CAPV makes the VM: at least 2 vCPUs, 2048 MiB without memoryMiB; written out,
 * because Machine API would keep the VM template's instead.
 */
function hardwareToMapi(spec: ObjectReader): JsonObject | undefined {
  const errorsBefore = spec.report.errors.length;
  const numCPUs = spec.integer('numCPUs') ?? 0;
  const numCoresPerSocket = spec.integer('numCoresPerSocket') ?? 0;
  const memoryMiB = spec.integer('memoryMiB') ?? 0;
  const diskGiB = spec.integer('diskGiB') ?? 0;
  const sizes = { numCPUs, numCoresPerSocket, memoryMiB, diskGiB };
  for (const [key, value] of Object.entries(sizes)) {
    if (value < 0) {
      spec.report.error(spec.pathOf(key), `is ${value}; set a positive number, or leave it unset.`);
    }
  }
  if (spec.report.errors.length > errorsBefore) return undefined;
  return withoutUndefined({
    numCPUs: Math.max(numCPUs, CAPV_MIN_CPUS),
    numCoresPerSocket: numCoresPerSocket || undefined,
    memoryMiB: memoryMiB || CAPV_DEFAULT_MEMORY_MIB,
    diskGiB: diskGiB || undefined,
  });
}

/** Fields whose every value but Machine API's behaviour is refused. */
function checkMachineApiBehaviour(spec: ObjectReader): void {
  const os = spec.string('os');
  if (os !== undefined && os !== 'Linux') {
    spec.report.error(
      spec.pathOf('os'),
      `is ${quote(os)}, but Machine API creates RHCOS (Linux) machines only; set it to Linux, or ` +
        'keep the MachineSet on Cluster API.',
    );
  }
  const powerOffMode = spec.string('powerOffMode');
  if (powerOffMode !== undefined && powerOffMode !== POWER_OFF_MODE) {
    spec.report.error(
      spec.pathOf('powerOffMode'),
      `is ${quote(powerOffMode)}, but Machine API powers a VM off hard before it deletes it; set ` +
        `it to ${POWER_OFF_MODE}, or keep the MachineSet on Cluster API.`,
    );
  }
}

/**
 * A CAPV failure domain names a VSphereDeploymentZone whose server, datacenter, folder,
 * datastore, resource pool and networks replace the template's; a providerSpec has none.
 */
function refuseFailureDomain(context: ReverseContext, report: ConversionReport): void {
  if (!context.failureDomain) return;
  report.error(
    context.path,
    "cannot be placed as the CAPI MachineSet's spec.template.spec.failureDomain " +
      `${quote(context.failureDomain)} says: CAPV places its machines by that ` +
      'VSphereDeploymentZone, and a Machine API providerSpec only by its workspace; remove the ' +
      "failure domain and set the zone's vCenter placement in this template, or keep the " +
      'MachineSet on Cluster API.',
  );
}
