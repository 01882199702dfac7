// Runs the real controller in-process against the test control plane, one per test.
import type { KubeConfig } from '@kubernetes/client-node';
import { UNADMITTED_LABEL } from '../environment/control-plane.js';
import type { Infrastructure, KubeObject, MapiMachineSet } from '../../src/api/types.js';
import {
  startController,
  type ControllerOptions,
  type RunningController,
} from '../../src/controller/controller.js';
import { converterFor } from '../../src/conversion/platforms.js';
import type { ObjectClient } from '../../src/kube/objects.js';
import { INFRASTRUCTURE, INFRASTRUCTURE_NAME } from '../../src/kube/resources.js';
import { createLogger, type Logger } from '../../src/logging.js';
import { flightRecorder, type FlightRecorder } from './logger.js';
import { clientFor } from './kube-client.js';
import { installAdmissionPolicies } from './admission.js';
import { installOpenShiftPolicies } from './openshift-policies.js';
import { adminObjects, controllerConfig, testNamespace } from './cluster.js';
import { eventually } from './eventually.js';
import { workerMachineSet } from './fixtures/machine-set.js';

const running: RunningController[] = [];

export interface TestController extends RunningController {
  mapiNamespace: string;
  capiNamespace: string;
}

/** Starts a controller on two fresh namespaces; it is stopped after the test. */
export async function startTestController(
  options: {
    /** Default: the controller's own identity (controllerConfig). */
    kubeConfig?: KubeConfig;
    /** The user of `kubeConfig`, when it is not the controller's identity. */
    user?: string;
    /** Our admission policies for the namespaces (default on, as in a cluster). */
    admissionPolicies?: boolean;
    /**
     * OpenShift's own migration policies for the namespaces, our controller exempted as
     * docs/deployment.md tells (default on, as in a cluster).
     */
    openshiftPolicies?: boolean;
    platform?: string;
    workers?: number;
    /** Existing namespaces (a restart); fresh ones by default. */
    namespaces?: { mapi: string; capi: string };
    onWrite?: ControllerOptions['onWrite'];
    /**
     * The migration handshake (default on, as in the program). Off for tests that move
     * status.authoritativeAPI by hand, as OpenShift's own migration controller would.
     */
    migration?: boolean;
    /** Default: silent, or debug on the terminal with TEST_CONTROLLER_LOGS set. */
    logger?: Logger;
  } = {},
): Promise<TestController> {
  const mapiNamespace = options.namespaces?.mapi ?? (await testNamespace('mapi'));
  const capiNamespace = options.namespaces?.capi ?? (await testNamespace('capi'));
  // As in a cluster: our admission policies and OpenShift's guard both sides, exempting the
  // controller.
  if (options.admissionPolicies ?? true) {
    await installAdmissionPolicies({
      mapiNamespace,
      capiNamespace,
      ...(options.user ? { controllerUser: options.user } : {}),
    });
  }
  if (options.openshiftPolicies ?? true) {
    await installOpenShiftPolicies({
      mapiNamespace,
      capiNamespace,
      exemptController: true,
      ...(options.user ? { controllerUser: options.user } : {}),
    });
  }
  const controller = startController({
    client: clientFor(options.kubeConfig ?? controllerConfig()),
    mapiNamespace,
    capiNamespace,
    ...(options.platform ? { platform: options.platform } : {}),
    workers: options.workers ?? 2,
    converterFor,
    migration: options.migration ?? true,
    logger: options.logger ?? defaultLogger(mapiNamespace),
    watchTimeoutSeconds: { min: 20, max: 40 },
    ...(options.onWrite ? { onWrite: options.onWrite } : {}),
  });
  running.push(controller);
  await controller.ready;
  return { ...controller, mapiNamespace, capiNamespace };
}

/** The flight recorders of the controllers started by the current test. */
const recorders: { name: string; recorder: FlightRecorder }[] = [];

/** Debug on the terminal with TEST_CONTROLLER_LOGS set; else kept, and shown if the test fails. */
function defaultLogger(name: string): Logger {
  if (process.env.TEST_CONTROLLER_LOGS) return createLogger('debug', 'text');
  const recorder = flightRecorder();
  recorders.push({ name, recorder });
  return recorder;
}

/** The last log lines of every controller the current test started (for a failed test). */
export function controllerLogs(): string {
  return recorders
    .map(({ name, recorder }) => `--- controller for ${name}:\n${recorder.lines().join('\n')}`)
    .join('\n');
}

export async function stopTestControllers(): Promise<void> {
  recorders.splice(0);
  await Promise.all(running.splice(0).map((c) => c.stop()));
}

/** Creates or replaces the cluster's Infrastructure "cluster", spec and status. */
export async function setInfrastructure(
  status: NonNullable<Infrastructure['status']>,
  api: ObjectClient = adminObjects(),
): Promise<void> {
  const where = { ...INFRASTRUCTURE, name: INFRASTRUCTURE_NAME };
  const type = status.platformStatus?.type ?? 'AWS';
  let current: Infrastructure;
  try {
    current = await api.get<Infrastructure>(where);
  } catch {
    current = await api.create<Infrastructure>(INFRASTRUCTURE, {
      apiVersion: 'config.openshift.io/v1',
      kind: 'Infrastructure',
      metadata: { name: INFRASTRUCTURE_NAME },
      spec: { platformSpec: { type } },
    });
  }
  await api.replace(
    where,
    { ...current, status: { platform: type, ...status } },
    { subresource: 'status' },
  );
}

/** The Infrastructure the control plane starts with (AWS, demo-abc12, us-east-1). */
export { DEFAULT_INFRASTRUCTURE } from '../environment/control-plane.js';

/**
 * The object, labelled as one machine-api-operator's admission webhooks never saw: created while
 * they were down or before they existed (their registration leaves such objects out). For the bad
 * input a cluster may hold, which the webhooks would refuse or default away today, and which the
 * controller must report on the object.
 */
export function unadmitted<T extends KubeObject>(object: T): T {
  return {
    ...object,
    metadata: {
      ...object.metadata,
      labels: { ...object.metadata.labels, [UNADMITTED_LABEL]: 'true' },
    },
  };
}

/** An installer-style AWS worker MachineSet. */
export function awsMachineSet(
  name: string,
  namespace: string,
  overrides: { instanceType?: string; zone?: string; replicas?: number } = {},
): MapiMachineSet {
  const zone = overrides.zone ?? 'us-east-1a';
  return workerMachineSet(name, namespace, {
    cluster: 'demo-abc12',
    replicas: overrides.replicas ?? 2,
    providerSpec: {
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'AWSMachineProviderConfig',
      ami: { id: 'ami-0abcdef1234567890' },
      instanceType: overrides.instanceType ?? 'm6i.xlarge',
      blockDevices: [{ ebs: { encrypted: true, volumeSize: 120, volumeType: 'gp3' } }],
      credentialsSecret: { name: 'aws-cloud-credentials' },
      iamInstanceProfile: { id: 'demo-abc12-worker-profile' },
      placement: { availabilityZone: zone, region: 'us-east-1' },
      securityGroups: [
        { filters: [{ name: 'tag:Name', values: ['demo-abc12-node'] }] },
        { filters: [{ name: 'tag:Name', values: ['demo-abc12-lb'] }] },
      ],
      subnet: {
        filters: [{ name: 'tag:Name', values: [`demo-abc12-subnet-private-${zone}`] }],
      },
      tags: [{ name: 'kubernetes.io/cluster/demo-abc12', value: 'owned' }],
      userDataSecret: { name: 'worker-user-data' },
    },
  });
}

export const MAPI = { group: 'machine.openshift.io', version: 'v1beta1', plural: 'machinesets' };
export const CAPI = { group: 'cluster.x-k8s.io', version: 'v1beta2', plural: 'machinesets' };
export const AWS_TEMPLATES = {
  group: 'infrastructure.cluster.x-k8s.io',
  version: 'v1beta2',
  plural: 'awsmachinetemplates',
};

type Authority = 'MachineAPI' | 'ClusterAPI';

/**
 * Creates a MAPI MachineSet as an administrator does, with `spec.authoritativeAPI`, and waits
 * until `status.authoritativeAPI` says it: machine-api-operator copies spec into an empty status
 * (where it does not run, this writes it instead).
 */
export async function createMachineSet(
  namespace: string,
  body: MapiMachineSet,
  authority: Authority = 'MachineAPI',
  api: ObjectClient = adminObjects(),
): Promise<void> {
  const name = body.metadata.name;
  await api.create(
    { ...MAPI, namespace },
    { ...body, spec: { ...body.spec, authoritativeAPI: authority } },
  );
  await eventually(async () => {
    const current = await api.get<MapiMachineSet>({ ...MAPI, namespace, name });
    if (current.status?.authoritativeAPI === authority) return;
    if (!current.status?.authoritativeAPI) {
      await api.replace(
        { ...MAPI, namespace, name },
        { ...current, status: { ...current.status, authoritativeAPI: authority } },
        { subresource: 'status' },
      );
    }
    throw new Error(`status.authoritativeAPI of ${namespace}/${name} is not ${authority} yet`);
  });
}

/**
 * Sets status.authoritativeAPI, as the migration handshake does (the API server allows
 * MachineAPI ↔ ClusterAPI only through Migrating).
 */
export async function setAuthority(
  namespace: string,
  name: string,
  authority: Authority | 'Migrating',
  api: ObjectClient = adminObjects(),
): Promise<void> {
  await eventually(() =>
    api.patch(
      { ...MAPI, namespace, name },
      {
        type: 'json',
        operations: [{ op: 'replace', path: '/status/authoritativeAPI', value: authority }],
      },
      { subresource: 'status' },
    ),
  );
}
