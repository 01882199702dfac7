// What the tests of the GCP reverse conversion (template → providerSpec) share: a cluster, a
// small template and the providerSpec it converts to.
import type { Infrastructure } from '../../../../src/api/types.js';
import { gcpConverter } from '../../../../src/conversion/gcp/index.js';
import type { Conversion, ReverseContext } from '../../../../src/conversion/types.js';
import { expectErrors, expectFieldErrors } from '../../../support/conversion.js';

const TEMPLATE_PATH = 'spec.template.spec';
export const CLUSTER = 'ci-ln-abc12';
export const PROJECT = 'openshift-ci-project';
const REGION = 'us-central1';
export const ZONE = 'us-central1-a';
const IMAGE = 'projects/rhcos-cloud/global/images/rhcos-9-6-20250523-0-gcp-x86-64';
const SERVICE_ACCOUNT = `${CLUSTER}-w@${PROJECT}.iam.gserviceaccount.com`;
export const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
export const KMS_KEY_NAME = `projects/${PROJECT}/locations/global/keyRings/ring/cryptoKeys/disk-key`;

export function infrastructure(
  gcp: { region?: string; projectID?: string } = {},
  infrastructureName: string | undefined = CLUSTER,
): Infrastructure {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    status: {
      ...(infrastructureName === undefined ? {} : { infrastructureName }),
      platformStatus: { type: 'GCP', gcp: { region: REGION, projectID: PROJECT, ...gcp } },
    },
  };
}

function reverseContext(overrides: Partial<ReverseContext> = {}): ReverseContext {
  return {
    infrastructure: infrastructure(),
    path: TEMPLATE_PATH,
    failureDomain: ZONE,
    userDataSecretName: 'worker-user-data',
    controlPlane: false,
    ...overrides,
  };
}

export function toMapi(
  templateSpec: unknown,
  overrides: Partial<ReverseContext> = {},
): Conversion<Record<string, unknown>> {
  if (gcpConverter.toMapi === undefined) throw new Error('the GCP converter has no toMapi');
  return gcpConverter.toMapi(templateSpec, reverseContext(overrides));
}

/** The smallest template that converts. */
export function minimalTemplate(): Record<string, unknown> {
  return {
    instanceType: 'n2-standard-4',
    image: IMAGE,
    subnet: `${CLUSTER}-worker-subnet`,
    serviceAccounts: { email: SERVICE_ACCOUNT, scopes: [SCOPE] },
    ipForwarding: 'Disabled',
  };
}

/** Template fields merged over the minimal template; `undefined` removes one. */
export function templateWith(fields: Record<string, unknown>): Record<string, unknown> {
  const template: Record<string, unknown> = { ...minimalTemplate(), ...fields };
  for (const [key, value] of Object.entries(fields)) if (value === undefined) delete template[key];
  return template;
}

export function bootDisk(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { autoDelete: true, boot: true, type: 'pd-standard', image: IMAGE, ...fields };
}

/** What the minimal template converts to, with everything a MAPI user writes. */
export function minimalProviderSpec(): Record<string, unknown> {
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'GCPMachineProviderSpec',
    userDataSecret: { name: 'worker-user-data' },
    credentialsSecret: { name: 'gcp-cloud-credentials' },
    canIPForward: false,
    deletionProtection: false,
    disks: [bootDisk()],
    networkInterfaces: [{ network: `${CLUSTER}-network`, subnetwork: `${CLUSTER}-worker-subnet` }],
    serviceAccounts: [{ email: SERVICE_ACCOUNT, scopes: [SCOPE] }],
    machineType: 'n2-standard-4',
    region: REGION,
    zone: ZONE,
    projectID: PROJECT,
  };
}

/** ProviderSpec fields merged over the minimal one; `undefined` removes one. */
export function providerSpecWith(fields: Record<string, unknown>): Record<string, unknown> {
  const spec: Record<string, unknown> = { ...minimalProviderSpec(), ...fields };
  for (const [key, value] of Object.entries(fields)) if (value === undefined) delete spec[key];
  return spec;
}

/** One field error case: the template, the expected [path, message pattern] pairs, the context. */
export type ErrorCase = [
  name: string,
  template: unknown,
  expected: [string, RegExp][],
  context?: Partial<ReverseContext>,
];

/** The message of a field that the reverse conversion does not know. */
export const UNKNOWN_FIELD = /is not a field this controller knows how to convert to Machine API/;

/** One test per case: exactly the expected field errors. */
export function itReportsFieldErrors(cases: readonly ErrorCase[]): void {
  for (const [name, template, expected, context = {}] of cases) {
    it(`reports ${name}`, () => {
      expectFieldErrors(expectErrors(toMapi(template, context)), expected);
    });
  }
}
