// CAPI → MAPI for OpenStack: an OpenStackMachineTemplate's `spec.template.spec` → the
// OpenstackProviderSpec that converts back to it. Pure; never throws. Every template field is
// mapped back, or reported with its path when Machine API cannot hold it; what Cluster API
// cannot express is kept from the MachineSet's current providerSpec (KEPT_FROM_CURRENT).
import {
  ConversionReport,
  describeValue,
  isJsonObject,
  ObjectReader,
  type JsonObject,
} from '../common/field-reader.js';
import type { Conversion, ReverseContext } from '../types.js';
import { KEEP_ON_CLUSTER_API, readMachineSecurityGroup, rejectFields } from './to-mapi-filters.js';
import { reversePorts } from './to-mapi-ports.js';
import { reverseAdditionalBlockDevices, reverseRootVolume } from './to-mapi-volumes.js';
import { convertNetworks, userManagedLoadBalancer, virtualIps } from './ports.js';
import { requireUuid } from './filters.js';
import { quote } from '../common/quote.js';
import { keptFromCurrent } from './kept-from-current.js';
import { API_VERSIONS, DEFAULT_CLOUDS_SECRET, KIND, MAX_METADATA_LENGTH } from './constants.js';

/**
 * The template fields refused whatever their value (rejectFields), as paths in `spec.template.spec`
 * (`name[]`: each item of the list `name`). The admission policy
 * mapi-capi-sync-infrastructure-expressible refuses the same ones; a unit test keeps them equal.
 */
export const TEMPLATE_FIELDS_WITHOUT_EQUIVALENT: readonly string[] = [
  'providerID',
  'flavorID',
  'floatingIPPoolRef',
  'schedulerHintAdditionalProperties',
  'identityRef.region',
  'image.id',
  'image.imageRef',
  'image.filter.tags',
  'ports[].hostID',
  'ports[].propagateUplinkStatus',
  'ports[].valueSpecs',
];

export function openstackToMapi(
  templateSpec: unknown,
  context: ReverseContext,
): Conversion<Record<string, unknown>> {
  const report = new ConversionReport();
  const spec = ObjectReader.of(templateSpec, context.path, report);
  if (spec === undefined) return { ok: false, errors: report.errors };
  const identity = reverseIdentity(spec);
  const flavor = spec.requiredString('flavor', 'set the name of a Nova flavor, e.g. m1.xlarge.');
  const image = reverseImage(spec);
  const keyName = spec.string('sshKeyName');
  const attached = reverseNetworkPorts(spec, context);
  const securityGroups = (spec.objects('securityGroups') ?? []).flatMap(
    (group) => readMachineSecurityGroup(group) ?? [],
  );
  const trunk = spec.boolean('trunk');
  const tags = spec.strings('tags');
  const serverMetadata = reverseServerMetadata(spec);
  const configDrive = spec.boolean('configDrive');
  const rootVolumeReader = spec.object('rootVolume');
  const rootVolume = rootVolumeReader && reverseRootVolume(rootVolumeReader);
  const additionalBlockDevices = reverseAdditionalBlockDevices(
    spec.objects('additionalBlockDevices') ?? [],
  );
  const serverGroup = reverseServerGroup(spec);
  rejectFields(spec, ['providerID']);
  rejectFields(spec, ['flavorID'], ' (Machine API takes the flavor by name)');
  rejectFields(spec, ['floatingIPPoolRef', 'schedulerHintAdditionalProperties']);
  spec.finishToMachineApi({ orKeepOnClusterApi: true });
  if (report.errors.length > 0) return { ok: false, errors: report.errors };

  // With a root volume the installer writes the image name to rootVolume.sourceUUID, which is
  // where Machine API's provider reads it then; without one, to image.
  if (rootVolume !== undefined && image !== undefined) rootVolume.sourceUUID = image;
  const kept = keptFromCurrent(context.current, serverGroup);
  const value: Record<string, unknown> = {
    apiVersion: API_VERSIONS[0],
    kind: KIND,
    ...kept.metadata,
    cloudName: identity?.cloudName,
    cloudsSecret: { name: identity?.secretName, ...kept.cloudsSecret },
    flavor,
    image: rootVolume === undefined ? image : undefined,
    keyName,
    availabilityZone: context.failureDomain === '' ? undefined : context.failureDomain,
    userDataSecret:
      context.userDataSecretName === undefined || context.userDataSecretName === ''
        ? undefined
        : { name: context.userDataSecretName, ...kept.userDataSecret },
    networks: attached.networks.length > 0 ? attached.networks : undefined,
    ports: attached.ports.length > 0 ? attached.ports : undefined,
    securityGroups: securityGroups.length > 0 ? securityGroups : undefined,
    trunk: trunk === true ? true : undefined,
    tags: tags !== undefined && tags.length > 0 ? tags : undefined,
    serverMetadata,
    configDrive,
    rootVolume,
    additionalBlockDevices: additionalBlockDevices.length > 0 ? additionalBlockDevices : undefined,
    ...serverGroup,
    ...kept.deprecated,
  };
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  return { ok: true, value, warnings: report.warnings };
}

/**
 * `ports` → the `networks` and `ports` the machines attach to. An empty list is refused (unless
 * something else was already): Cluster API then attaches the cluster's default network, which
 * Machine API cannot name.
 */
function reverseNetworkPorts(spec: ObjectReader, context: ReverseContext) {
  const { report } = spec;
  const ports = spec.objects('ports') ?? [];
  const infrastructure = context.infrastructure;
  const hint = networkPortCount(context.current, infrastructure);
  const attached = reversePorts(ports, {
    vips: virtualIps(infrastructure),
    userManaged: userManagedLoadBalancer(infrastructure),
    ...(hint === undefined ? {} : { networkPortsHint: hint }),
  });
  if (ports.length === 0 && report.errors.length === 0) {
    report.error(
      spec.pathOf('ports'),
      "is empty, so Cluster API attaches the machines to the cluster's default network, which " +
        `Machine API cannot name; list the ports of the machines, or ${KEEP_ON_CLUSTER_API}.`,
    );
  }
  return attached;
}

/**
 * `identityRef` → `cloudsSecret.name` and `cloudName`. Machine API's OpenStack provider reads the
 * clouds secret `cloudsSecret` names (from `cloudsSecret.namespace`, or its machines' namespace)
 * and the cloud `cloudName` names in it, as CAPO reads the secret `identityRef` names from the
 * template's namespace. What Machine API cannot refer to is refused: no identity (CAPO then uses
 * the OpenStackCluster's), an OpenStackClusterIdentity, a region over clouds.yaml.
 */
function reverseIdentity(
  spec: ObjectReader,
): { secretName: string; cloudName: string } | undefined {
  const report = spec.report;
  const errorsBefore = report.errors.length;
  const identity = spec.object('identityRef');
  if (identity === undefined) {
    if (report.errors.length === errorsBefore) {
      report.error(
        spec.pathOf('identityRef'),
        'is not set, so Cluster API uses the identity of the OpenStackCluster, which this ' +
          'conversion cannot see and Machine API cannot refer to; set it to {type: Secret, ' +
          'name: <the clouds secret>, cloudName: <the cloud in clouds.yaml>}.',
      );
    }
    return undefined;
  }
  const type = identity.string('type');
  if (type !== undefined && type !== 'Secret') {
    report.error(
      identity.pathOf('type'),
      `is ${quote(type)}${type === 'ClusterIdentity' ? ' (an OpenStackClusterIdentity)' : ''}, ` +
        'but Machine API reads its credentials only from a clouds secret; set it to Secret ' +
        `with the name of such a secret, or ${KEEP_ON_CLUSTER_API}.`,
    );
  }
  const name = identity.requiredString(
    'name',
    `name the clouds secret, e.g. ${DEFAULT_CLOUDS_SECRET}.`,
  );
  const cloudName = identity.requiredString('cloudName', 'set the cloud entry of clouds.yaml.');
  rejectFields(identity, ['region'], ' (Machine API takes the region from clouds.yaml)');
  identity.finishToMachineApi({ orKeepOnClusterApi: true });
  if (report.errors.length > errorsBefore || name === undefined || cloudName === undefined) {
    return undefined;
  }
  // The cloud credential operator issues the default secret in both namespaces; another one
  // must exist in both to mean the same credentials.
  if (name !== DEFAULT_CLOUDS_SECRET) {
    report.warn(
      `${identity.pathOf('name')} is ${quote(name)}: Machine API reads the clouds secret ` +
        `${quote(name)} from the namespace of its machines, Cluster API from the namespace of ` +
        'this template; both must hold the same clouds.yaml, as this controller copies no secrets.',
    );
  }
  return { secretName: name, cloudName };
}

/** `image.filter.name` → the image name; MAPI looks images up by name only. */
function reverseImage(spec: ObjectReader): string | undefined {
  const report = spec.report;
  const errorsBefore = report.errors.length;
  const image = spec.object('image');
  if (image === undefined) {
    if (report.errors.length === errorsBefore) {
      report.error(spec.pathOf('image'), 'is required; set image.filter.name to the Glance image.');
    }
    return undefined;
  }
  const byName = ' (Machine API looks the image up by name only)';
  rejectFields(image, ['id', 'imageRef'], byName);
  const filter = image.object('filter');
  const name = filter?.string('name');
  if (filter !== undefined) {
    rejectFields(filter, ['tags'], byName);
    filter.finishToMachineApi({ orKeepOnClusterApi: true });
  }
  image.finishToMachineApi({ orKeepOnClusterApi: true });
  if (name === undefined && report.errors.length === errorsBefore) {
    report.error(image.pathOf('filter'), 'has no name; set image.filter.name to the Glance image.');
  }
  return name;
}

/** CAPO's list of key/value pairs → MAPI's map. */
function reverseServerMetadata(spec: ObjectReader): Record<string, string> | undefined {
  const items = spec.objects('serverMetadata');
  if (items === undefined || items.length === 0) return undefined;
  const metadata: Record<string, string> = {};
  const seen = new Set<string>();
  for (const item of items) {
    const key = item.requiredString('key', 'name the metadata key.');
    const value = item.string('value', { keepEmpty: true });
    item.finishToMachineApi({ orKeepOnClusterApi: true });
    if (key === undefined) continue;
    if (value === undefined) {
      item.report.error(item.pathOf('value'), `must be a string, but is ${describeValue(value)}.`);
      continue;
    }
    if (seen.has(key)) {
      item.report.error(item.pathOf('key'), `is ${quote(key)} again; give every key once.`);
      continue;
    }
    if (key.length > MAX_METADATA_LENGTH || value.length > MAX_METADATA_LENGTH) {
      item.report.error(item.path, `is longer than ${MAX_METADATA_LENGTH} characters; shorten it.`);
      continue;
    }
    seen.add(key);
    metadata[key] = value;
  }
  return seen.size > 0 ? metadata : undefined;
}

/** `serverGroup.id` → `serverGroupID`; `serverGroup.filter.name` → `serverGroupName`. */
function reverseServerGroup(spec: ObjectReader): JsonObject | undefined {
  const group = spec.object('serverGroup');
  if (group === undefined) return undefined;
  const report = group.report;
  const errorsBefore = report.errors.length;
  const id = group.string('id');
  const filter = group.object('filter');
  const name = filter?.string('name');
  if (filter !== undefined) filter.finishToMachineApi({ orKeepOnClusterApi: true });
  group.finishToMachineApi({ orKeepOnClusterApi: true });
  if (report.errors.length > errorsBefore) return undefined;
  if (id !== undefined && name !== undefined) {
    report.error(group.path, 'names the server group both by id and by name; keep one of them.');
    return undefined;
  }
  if (id !== undefined) {
    const uuid = requireUuid(id, group.pathOf('id'), 'the server group', report);
    return uuid === undefined ? undefined : { serverGroupID: uuid };
  }
  if (name !== undefined) return { serverGroupName: name };
  report.error(group.path, 'names no server group; set its id or filter.name, or remove it.');
  return undefined;
}

/** How many ports the current providerSpec's network entries make, when it converts cleanly. */
function networkPortCount(current: unknown, infrastructure: ReverseContext['infrastructure']) {
  if (!isJsonObject(current)) return undefined;
  const report = new ConversionReport();
  const reader = ObjectReader.of(current, '', report);
  const count = convertNetworks(reader?.objects('networks'), virtualIps(infrastructure)).length;
  return report.errors.length === 0 ? count : undefined;
}
