// MAPI → CAPI for OpenStack: a MAPI OpenstackProviderSpec → the `spec.template.spec` of a
// CAPO OpenStackMachineTemplate (v1beta1). Pure and deterministic. Every field is converted,
// dropped (with a warning when someone wrote something Machine API ignores or that Cluster API
// treats differently), or reported as an error: the mirror must never quietly differ from what
// the administrator wrote.
import {
  ConversionReport,
  describeValue,
  ObjectReader,
  withoutUndefined,
} from '../common/field-reader.js';
import {
  dropIgnoredFields,
  readSecurityGroup,
  requireUuid,
  unique,
  type CapoReference,
} from './filters.js';
import { convertNetworks, convertPorts, userManagedLoadBalancer, virtualIps } from './ports.js';
import {
  convertAdditionalBlockDevices,
  convertRootVolume,
  type ConvertedRootVolume,
} from './volumes.js';
import { openProviderSpec, type ProviderSpecOwner } from '../common/provider-spec.js';
import type { Conversion, ConversionContext, ProviderConversion } from '../types.js';
import type { Infrastructure } from '../../api/types.js';
import { quote } from '../common/quote.js';
import { API_VERSIONS, DEFAULT_CLOUDS_SECRET, KIND, MAX_METADATA_LENGTH } from './constants.js';

/** What identifies the platform on both sides: its providerSpec kind and template kind. */
export const OPENSTACK_PLATFORM: ProviderSpecOwner = {
  platform: 'OpenStack',
  providerSpecKind: KIND,
  template: {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
    kind: 'OpenStackMachineTemplate',
    plural: 'openstackmachinetemplates',
  },
};

export function openstackToCapi(
  providerSpec: unknown,
  context: ConversionContext,
): Conversion<ProviderConversion> {
  const opened = openProviderSpec(providerSpec, context, OPENSTACK_PLATFORM, API_VERSIONS);
  if (!opened.ok) return opened;
  const { spec, report } = opened;
  const identityRef = convertIdentity(spec, context, report);
  const userDataSecretName = readUserDataSecretName(spec, report);
  const flavor = spec.requiredString('flavor', 'set the name of a Nova flavor, e.g. m1.xlarge.');
  const root = convertRootVolume(spec.object('rootVolume'), spec.pathOf('rootVolume'));
  const image = convertImage(spec, root, report);
  const sshKeyName = spec.string('keyName');
  dropIgnoredFields(spec, { sshUserName: 'string', primarySubnet: 'string' });
  rejectFloatingIp(spec, report);
  const failureDomain = spec.string('availabilityZone');
  const securityGroups = convertSecurityGroups(spec);
  const ports = convertAllPorts(spec, context.infrastructure, report);
  const trunk = spec.boolean('trunk');
  const tags = spec.strings('tags');
  const serverMetadata = convertServerMetadata(spec, report);
  const configDrive = spec.boolean('configDrive');
  const additionalBlockDevices = convertAdditionalBlockDevices(
    spec.objects('additionalBlockDevices'),
    report,
  );
  const serverGroup = convertServerGroup(spec, report);
  spec.finish();

  if (report.errors.length > 0) return { ok: false, errors: report.errors };
  const templateSpec = withoutUndefined({
    flavor,
    image,
    identityRef,
    sshKeyName,
    ports,
    securityGroups,
    // CAPO's `trunk` is a plain boolean (omitempty): false and absent are the same.
    trunk: trunk === true ? true : undefined,
    tags: tags !== undefined && tags.length > 0 ? unique(tags) : undefined,
    serverMetadata,
    configDrive,
    rootVolume: root.rootVolume,
    additionalBlockDevices,
    serverGroup,
  });
  const value: ProviderConversion = { templateSpec };
  if (failureDomain !== undefined) value.failureDomain = failureDomain;
  if (userDataSecretName !== undefined) value.userDataSecretName = userDataSecretName;
  return { ok: true, value, warnings: report.warnings };
}

/**
 * `cloudsSecret` + `cloudName` → `identityRef`. The secret's namespace is not converted: CAPO
 * reads the secret of that name from the template's own namespace (see DEFAULT_CLOUDS_SECRET).
 */
function convertIdentity(
  spec: ObjectReader,
  context: ConversionContext,
  report: ConversionReport,
): { type: 'Secret'; name: string; cloudName: string } | undefined {
  const errorsBefore = report.errors.length;
  const secret = spec.object('cloudsSecret');
  const name = secret?.string('name');
  secret?.string('namespace');
  secret?.finish();
  if (secret === undefined && report.errors.length === errorsBefore) {
    report.error(
      spec.pathOf('cloudsSecret'),
      `is required; set cloudsSecret.name to ${DEFAULT_CLOUDS_SECRET}.`,
    );
  } else if (secret !== undefined && name === undefined && report.errors.length === errorsBefore) {
    report.error(secret.pathOf('name'), `is required; set it to ${DEFAULT_CLOUDS_SECRET}.`);
  } else if (name !== undefined && name !== DEFAULT_CLOUDS_SECRET) {
    report.error(
      secret?.pathOf('name') ?? spec.pathOf('cloudsSecret'),
      `is ${quote(name)}, but Cluster API machines read their OpenStack credentials ` +
        `from the ${DEFAULT_CLOUDS_SECRET} secret the cloud credential operator issues in the ` +
        `Cluster API namespace; set the name to ${DEFAULT_CLOUDS_SECRET}.`,
    );
  }
  const cloudErrors = report.errors.length;
  const cloudName = spec.string('cloudName');
  if (cloudName === undefined && report.errors.length === cloudErrors) {
    const known = context.infrastructure.status?.platformStatus?.openstack?.cloudName;
    const hint = typeof known === 'string' && known !== '' ? known : 'openstack';
    report.error(
      spec.pathOf('cloudName'),
      `is required; set the name of the cloud entry in clouds.yaml, e.g. ${hint}.`,
    );
  }
  if (name !== DEFAULT_CLOUDS_SECRET || cloudName === undefined) return undefined;
  // `type` is the CRD default, written out so the stored template equals ours.
  return { type: 'Secret', name, cloudName };
}

/**
 * The bootstrap secret; CAPI reads it from the Machine's namespace, so a namespace is lost.
 * machine-api-operator defaults no user data secret on OpenStack (its webhook does not default
 * OpenStack providerSpecs), and Machine API's OpenStack provider then creates servers without
 * user data; Cluster API refuses a MachineSet or Machine without a bootstrap data secret.
 */
function readUserDataSecretName(spec: ObjectReader, report: ConversionReport): string | undefined {
  const errorsBefore = report.errors.length;
  const secret = spec.object('userDataSecret');
  const name = secret?.string('name');
  const namespace = secret?.string('namespace');
  secret?.finish();
  if (name === undefined && report.errors.length === errorsBefore) {
    report.error(
      secret?.pathOf('name') ?? spec.pathOf('userDataSecret'),
      'is required: Cluster API machines boot only from a bootstrap data secret (its webhook ' +
        'refuses a MachineSet without one), while Machine API starts these servers with no user ' +
        'data at all; set userDataSecret.name to the Secret with the Ignition config of the ' +
        'machines (worker-user-data on an installer-made cluster).',
    );
  }
  if (secret !== undefined && namespace !== undefined) {
    report.warn(
      `${secret.pathOf('namespace')} is ${quote(namespace)}, but Cluster API reads the ` +
        'bootstrap data secret from the namespace of its machines, so the namespace is not converted.',
    );
  }
  return name;
}

/**
 * The Glance image, looked up by name. Machine API's OpenStack provider boots from
 * `rootVolume.sourceUUID` whenever `rootVolume` is set (the installer then leaves `image` empty
 * and writes the image name there), and from `image` otherwise.
 */
function convertImage(
  spec: ObjectReader,
  root: ConvertedRootVolume,
  report: ConversionReport,
): { filter: { name: string } } | undefined {
  const errorsBefore = report.errors.length;
  const image = spec.string('image');
  if (root.present) {
    if (image !== undefined && image !== root.imageName) {
      report.warn(
        `${spec.pathOf('image')} is ${quote(image)}, but rootVolume is set, so Machine API boots ` +
          `from ${root.imageNamePath}${root.imageName === undefined ? '' : ` (${quote(root.imageName)})`} ` +
          'and ignores image; so does the conversion.',
      );
    }
    if (root.imageName !== undefined) return { filter: { name: root.imageName } };
    if (report.errors.length === errorsBefore) {
      report.error(
        root.imageNamePath,
        'is required when rootVolume is set: Machine API then boots from the image it names and ' +
          `ignores image${image === undefined ? '' : ` (${quote(image)})`}; set sourceUUID to the ` +
          'name of the Glance image.',
      );
    }
    return undefined;
  }
  if (image !== undefined) return { filter: { name: image } };
  if (report.errors.length === errorsBefore) {
    report.error(
      spec.pathOf('image'),
      'is required; set the name of the Glance image to boot from (or rootVolume.sourceUUID ' +
        'when booting from a volume).',
    );
  }
  return undefined;
}

function rejectFloatingIp(spec: ObjectReader, report: ConversionReport): void {
  const floatingIp = spec.string('floatingIP');
  if (floatingIp === undefined) return;
  report.error(
    spec.pathOf('floatingIP'),
    `is ${quote(floatingIp)}, but Cluster API cannot give a machine one fixed floating ` +
      'IP (and in a MachineSet only one machine could have it); remove floatingIP.',
  );
}

function convertSecurityGroups(spec: ObjectReader): CapoReference[] | undefined {
  const groups = spec.objects('securityGroups');
  if (groups === undefined || groups.length === 0) return undefined;
  return groups.flatMap((group) => readSecurityGroup(group) ?? []);
}

/** `networks[]` then `ports[]`; a machine with neither would have no network at all. */
function convertAllPorts(
  spec: ObjectReader,
  infrastructure: Infrastructure,
  report: ConversionReport,
): Record<string, unknown>[] | undefined {
  const errorsBefore = report.errors.length;
  const ports = [
    ...convertNetworks(spec.objects('networks'), virtualIps(infrastructure)),
    ...convertPorts(spec.objects('ports'), userManagedLoadBalancer(infrastructure)),
  ];
  if (ports.length > 0) return ports;
  if (report.errors.length === errorsBefore) {
    report.error(
      spec.pathOf('networks'),
      'and ports attach the machines to no network, which Machine API cannot create and which ' +
        "Cluster API would replace with the cluster's default network; list the networks or " +
        'ports of the machines.',
    );
  }
  return undefined;
}

/** A map in MAPI, a list keyed by `key` in CAPO: sorted by key so the output is stable. */
function convertServerMetadata(
  spec: ObjectReader,
  report: ConversionReport,
): { key: string; value: string }[] | undefined {
  const metadata = spec.object('serverMetadata');
  if (metadata === undefined) return undefined;
  const entries: { key: string; value: string }[] = [];
  for (const [key, value] of Object.entries(metadata.takeAll())) {
    const path = metadata.pathOf(key);
    if (typeof value !== 'string') {
      report.error(path, `must be a string, but is ${describeValue(value)}.`);
      continue;
    }
    if (key.length > MAX_METADATA_LENGTH) {
      report.error(path, `has a key longer than ${MAX_METADATA_LENGTH} characters; shorten it.`);
      continue;
    }
    if (value.length > MAX_METADATA_LENGTH) {
      report.error(path, `is longer than ${MAX_METADATA_LENGTH} characters; shorten it.`);
      continue;
    }
    entries.push({ key, value });
  }
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return entries.length > 0 ? entries : undefined;
}

/**
 * `serverGroupID` → `serverGroup.id`; `serverGroupName` alone → `serverGroup.filter.name`.
 * Machine API creates a missing group of that name; Cluster API only uses an existing one.
 */
function convertServerGroup(
  spec: ObjectReader,
  report: ConversionReport,
): { id: string } | { filter: { name: string } } | undefined {
  const id = spec.string('serverGroupID');
  const name = spec.string('serverGroupName');
  if (id !== undefined) {
    const uuid = requireUuid(id, spec.pathOf('serverGroupID'), 'the server group', report);
    if (uuid === undefined) return undefined;
    if (name !== undefined) {
      report.warn(
        `${spec.pathOf('serverGroupName')} is not converted: Cluster API takes the server group ` +
          `by serverGroupID alone, so it no longer checks that the group is named ${quote(name)}.`,
      );
    }
    return { id: uuid };
  }
  if (name === undefined) return undefined;
  report.warn(
    `${spec.pathOf('serverGroupName')} is ${quote(name)}: Machine API creates a missing ` +
      'server group of that name, but Cluster API only uses an existing one, so make sure it exists ' +
      'before Cluster API creates machines.',
  );
  return { filter: { name } };
}
