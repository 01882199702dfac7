// Fields of AWSMachineProviderConfig that Cluster API cannot express. MAPI → CAPI checks them
// (what CAPI cannot honour is an error, what it makes redundant is dropped); CAPI → MAPI keeps
// them from the providerSpec the MAPI MachineSet has now, so a round trip loses nothing.
import type { Infrastructure } from '../../api/types.js';
import {
  ConversionReport,
  isJsonObject,
  ObjectReader,
  type JsonObject,
} from '../common/field-reader.js';
import { checkCredentialsSecretName } from '../common/provider-spec.js';
import { quoteList } from '../common/quote.js';

/** The only credentials secret CAPI can honour: the cluster identity reads this one. */
const DEFAULT_CREDENTIALS_SECRET = 'aws-cloud-credentials';
const LOAD_BALANCER_TYPES = ['classic', 'network'] as const;

/**
 * The providerSpec fields CAPI → MAPI keeps from the MAPI MachineSet's current providerSpec
 * (when it has a valid value there), or else sets to the platform default.
 */
export const KEPT_FROM_CURRENT = [
  'credentialsSecret',
  'deviceIndex',
  'loadBalancers',
  'metadata',
  'placement.region',
] as const;

export function checkCredentialsSecret(spec: ObjectReader, report: ConversionReport): void {
  checkCredentialsSecretName(
    spec,
    DEFAULT_CREDENTIALS_SECRET,
    `Cluster API machines use the cluster's AWS identity, which reads the ${DEFAULT_CREDENTIALS_SECRET} secret`,
    report,
  );
}

export function checkDeviceIndex(spec: ObjectReader, report: ConversionReport): void {
  const deviceIndex = spec.integer('deviceIndex');
  if (deviceIndex === undefined || deviceIndex === 0) return;
  report.error(
    spec.pathOf('deviceIndex'),
    `is ${deviceIndex}, but Cluster API always attaches the primary network interface at index 0; ` +
      'set deviceIndex to 0 or remove it.',
  );
}

/**
 * CAPA registers an instance with the control-plane load balancers of the AWSCluster
 * (spec.controlPlaneLoadBalancer, spec.secondaryControlPlaneLoadBalancer), and only when its
 * CAPI Machine carries the label cluster.x-k8s.io/control-plane. OpenShift's control-plane
 * machines are labelled node-role.kubernetes.io/master instead, so nothing registers them.
 */
export function checkLoadBalancers(
  spec: ObjectReader,
  controlPlane: boolean,
  report: ConversionReport,
): void {
  const loadBalancers = spec.objects('loadBalancers');
  if (loadBalancers === undefined || loadBalancers.length === 0) return;
  if (!controlPlane) {
    report.error(
      spec.pathOf('loadBalancers'),
      'registers the machines with load balancers, which Cluster API only does for control-plane ' +
        'machines; remove loadBalancers from this worker MachineSet.',
    );
    return;
  }
  const names: string[] = [];
  for (const loadBalancer of loadBalancers) {
    const name = loadBalancer.string('name');
    if (name !== undefined) names.push(name);
    loadBalancer.enumeration('type', LOAD_BALANCER_TYPES);
    loadBalancer.finish();
  }
  report.warn(
    `${spec.pathOf('loadBalancers')} is not converted: Cluster API registers a machine only with ` +
      "the control-plane load balancers of the cluster's AWSCluster (spec.controlPlaneLoadBalancer " +
      'and spec.secondaryControlPlaneLoadBalancer), and only when its Machine carries the label ' +
      'cluster.x-k8s.io/control-plane, which machines of this MachineSet do not get (they are ' +
      'labelled node-role.kubernetes.io/master). Before moving this MachineSet to Cluster API, ' +
      `make sure the AWSCluster names the load balancers (${quoteList(names)}) and add the label ` +
      "cluster.x-k8s.io/control-plane to the CAPI MachineSet's spec.template.metadata.labels; " +
      'otherwise register new machines with the load balancers yourself.',
  );
}

/** What CAPI → MAPI writes for the fields Cluster API cannot express. */
export interface KeptFields {
  /** Top-level providerSpec fields (credentialsSecret, deviceIndex, loadBalancers, metadata). */
  fields: JsonObject;
  region?: string;
}

/**
 * The kept fields: from `current` when it is an object, each value that MAPI → CAPI would accept
 * (a field absent there stays absent); the platform defaults when there is no current providerSpec
 * or its value is not valid.
 */
export function keptFromCurrent(
  current: unknown,
  infrastructure: Infrastructure,
  controlPlane: boolean,
): KeptFields {
  const infrastructureRegion = infrastructure.status?.platformStatus?.aws?.region || undefined;
  const defaults: KeptFields = {
    fields: { credentialsSecret: { name: DEFAULT_CREDENTIALS_SECRET }, deviceIndex: 0 },
    region: infrastructureRegion,
  };
  if (!isJsonObject(current)) return defaults;
  const kept: KeptFields = { fields: {} };
  const valid = (key: string, check: (spec: ObjectReader, report: ConversionReport) => void) => {
    if (current[key] === undefined || current[key] === null) return false;
    const report = new ConversionReport();
    const spec = ObjectReader.of(current, '', report);
    if (spec !== undefined) check(spec, report);
    return report.errors.length === 0;
  };
  const keep = (key: string, check: (spec: ObjectReader, report: ConversionReport) => void) => {
    if (valid(key, check)) kept.fields[key] = structuredClone(current[key]);
    else if (current[key] !== undefined && current[key] !== null && key in defaults.fields) {
      kept.fields[key] = defaults.fields[key];
    }
  };
  keep('credentialsSecret', checkCredentialsSecret);
  keep('deviceIndex', checkDeviceIndex);
  keep('loadBalancers', (spec, report) => checkLoadBalancers(spec, controlPlane, report));
  keep('metadata', (spec) => {
    spec.object('metadata');
  });
  kept.region = keptRegion(current.placement, infrastructureRegion);
  return kept;
}

/** The current placement.region when it agrees with the cluster's; else the cluster's region. */
function keptRegion(placement: unknown, infrastructureRegion: string | undefined) {
  if (!isJsonObject(placement)) return undefined;
  const region = placement.region;
  if (region === undefined || region === null || region === '') return undefined;
  if (typeof region === 'string' && (infrastructureRegion ?? region) === region) return region;
  return infrastructureRegion;
}
