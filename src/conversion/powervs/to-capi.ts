// MAPI → CAPI for PowerVS: a MAPI PowerVSMachineProviderConfig (machine.openshift.io/v1)
// → the `spec.template.spec` of a CAPIBM IBMPowerVSMachineTemplate (v1beta2). Pure and
// deterministic. Every field is either converted, dropped with a warning because Machine API
// itself ignores it, or reported as an error: the mirror must never quietly differ from what
// the administrator wrote.
//
// There is no failure domain: an IBMPowerVSMachine has no zone of its own. CAPIBM takes the
// region and zone from the machine's workspace (serviceInstance), and IBMPowerVSCluster reports
// no failure domains, so nothing of the Infrastructure's platformStatus.powervs is needed either.
import { convertCompute } from './compute.js';
import {
  DEFAULT_CREDENTIALS_SECRET,
  LOAD_BALANCER_TYPES,
  PROVIDER_SPEC_API_VERSION,
  PROVIDER_SPEC_KIND,
} from './names.js';
import {
  convertResourceReference,
  type CapibmResourceReference,
  type ReferenceRules,
} from './resource-reference.js';
import { ConversionReport, ObjectReader } from '../common/field-reader.js';
import {
  checkCredentialsSecretName,
  openProviderSpec,
  type ProviderSpecOwner,
  readUserDataSecretName,
} from '../common/provider-spec.js';
import type { Conversion, ConversionContext, ProviderConversion } from '../types.js';

const SERVICE_INSTANCE: ReferenceRules = {
  required:
    'set type to ID and id to the GUID of the PowerVS workspace (service instance) the machines run in.',
  supported: { ID: 'the GUID of the PowerVS workspace (service instance)' },
  unsupported: {
    Name:
      "Cluster API's IBMPowerVSMachine ignores a workspace name and would create the machines in " +
      "the cluster's workspace instead; set type to ID and id to the GUID of the workspace.",
    RegEx:
      'a workspace cannot be looked up by regular expression; set type to ID and id to the GUID of the workspace.',
  },
};

const IMAGE: ReferenceRules = {
  required: 'name the boot image with type Name and name, or with type ID and id.',
  supported: {
    ID: 'the ID of the boot image',
    Name: 'the name of the boot image in the workspace',
  },
  unsupported: {
    RegEx:
      'a boot image cannot be looked up by regular expression; set type to Name (with name) or ID (with id).',
  },
};

const NETWORK: ReferenceRules = {
  required:
    'name the network with type Name and name, type ID and id, or type RegEx and a regex matching its name.',
  supported: {
    ID: 'the ID of the network',
    Name: 'the name of the network',
    RegEx: 'a regular expression matching the name of the network',
  },
  unsupported: {},
};

/** What identifies the platform on both sides: its providerSpec kind and template kind. */
export const POWERVS_PLATFORM: ProviderSpecOwner = {
  platform: 'PowerVS',
  providerSpecKind: PROVIDER_SPEC_KIND,
  template: {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'IBMPowerVSMachineTemplate',
    plural: 'ibmpowervsmachinetemplates',
  },
};

export function powerVsToCapi(
  providerSpec: unknown,
  context: ConversionContext,
): Conversion<ProviderConversion> {
  const opened = openProviderSpec(providerSpec, context, POWERVS_PLATFORM, [
    PROVIDER_SPEC_API_VERSION,
  ]);
  if (!opened.ok) return opened;
  const { spec, report } = opened;
  checkCredentialsSecretName(
    spec,
    DEFAULT_CREDENTIALS_SECRET,
    'Cluster API machines are created with the IBM Cloud credentials of the Cluster API ' +
      'provider, not a secret per machine',
    report,
  );
  checkLoadBalancers(spec, context.controlPlane, report);
  const userDataSecretName = readUserDataSecretName(spec);

  const serviceInstance = convertResourceReference(
    spec,
    'serviceInstance',
    SERVICE_INSTANCE,
    report,
  );
  const image = convertResourceReference(spec, 'image', IMAGE, report);
  const network = convertResourceReference(spec, 'network', NETWORK, report);
  const sshKey = convertKeyPairName(spec, context, report);
  const compute = convertCompute(spec, report);
  spec.finish();

  // Each missing part has recorded its error.
  if (report.errors.length > 0 || !serviceInstance || !image || !network || sshKey === undefined) {
    return { ok: false, errors: report.errors };
  }
  const templateSpec = templateSpecOf({ serviceInstance, image, network, sshKey, ...compute });
  const value: ProviderConversion = { templateSpec };
  if (userDataSecretName !== undefined) value.userDataSecretName = userDataSecretName;
  return { ok: true, value, warnings: report.warnings };
}

function templateSpecOf(fields: {
  serviceInstance: CapibmResourceReference;
  image: CapibmResourceReference;
  network: CapibmResourceReference;
  sshKey: string;
  systemType: string;
  processorType: string;
  processors: number | string;
  memoryGiB: number;
}): Record<string, unknown> {
  return {
    // Required by the CRD but deprecated: the workspace is named by serviceInstance instead, and
    // "" is what CAPIBM's own Go types write when it is unset (it is not omitempty).
    serviceInstanceID: '',
    serviceInstance: fields.serviceInstance,
    image: fields.image,
    network: fields.network,
    sshKey: fields.sshKey,
    systemType: fields.systemType,
    processorType: fields.processorType,
    processors: fields.processors,
    memoryGiB: fields.memoryGiB,
  };
}

function checkLoadBalancers(
  spec: ObjectReader,
  controlPlane: boolean,
  report: ConversionReport,
): void {
  const loadBalancers = spec.objects('loadBalancers');
  if (loadBalancers === undefined || loadBalancers.length === 0) return;
  if (!controlPlane) {
    report.error(
      spec.pathOf('loadBalancers'),
      'adds the machines to load balancers, which a machine template cannot express: Cluster API ' +
        "adds control-plane machines to the load balancers of the cluster's IBMPowerVSCluster, and " +
        'other machines only through its listener selectors; remove loadBalancers from this ' +
        'worker MachineSet.',
    );
    return;
  }
  for (const loadBalancer of loadBalancers) {
    if (loadBalancer.string('name') === undefined) {
      requireField(loadBalancer, 'name', 'name the IBM Cloud VPC load balancer.', report);
    }
    if (loadBalancer.enumeration('type', LOAD_BALANCER_TYPES) === undefined) {
      requireField(loadBalancer, 'type', 'set it to Application.', report);
    }
    loadBalancer.finish();
  }
  report.warn(
    `${spec.pathOf('loadBalancers')} is not converted: Cluster API adds control-plane machines ` +
      "to the load balancers configured on the cluster's IBMPowerVSCluster.",
  );
}

/** Reports a missing field, unless its value has been reported as invalid already. */
function requireField(
  reader: ObjectReader,
  key: string,
  hint: string,
  report: ConversionReport,
): void {
  const path = reader.pathOf(key);
  if (!report.errors.some((e) => e.path === path)) report.error(path, `is required; ${hint}`);
}

function convertKeyPairName(
  spec: ObjectReader,
  context: ConversionContext,
  report: ConversionReport,
): string | undefined {
  const keyPairName = spec.string('keyPairName');
  if (keyPairName !== undefined) return keyPairName;
  const cluster = context.infrastructure.status?.infrastructureName;
  const example = cluster ? ` (the installer's is ${cluster}-key)` : '';
  requireField(
    spec,
    'keyPairName',
    `set it to the name of an SSH key pair in the PowerVS workspace${example}.`,
    report,
  );
  return undefined;
}
