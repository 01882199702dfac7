// A small platform converter with both directions, and the objects the reverse tests start from:
// a MAPI worker MachineSet and its CAPI mirror (made by machineSetToCapi itself).
import type {
  CapiMachineSet,
  Infrastructure,
  MachineTemplate,
  MapiMachineSet,
} from '../../../../src/api/types.js';
import { machineSetToCapi } from '../../../../src/conversion/machine-set/to-capi.js';
import {
  machineSetToMapi,
  type ReverseInput,
} from '../../../../src/conversion/machine-set/to-mapi.js';
import type {
  Conversion,
  PlatformConverter,
  ReverseContext,
} from '../../../../src/conversion/types.js';
import { applyPatch, expectOk } from '../../../support/conversion.js';
import { workerMachineSet } from '../../../support/fixtures/machine-set.js';

const CLUSTER = 'demo-abc12';
const CAPI_NAMESPACE = 'openshift-cluster-api';
const KIND = 'AWSMachineProviderConfig';
const API_VERSION = 'machine.openshift.io/v1beta1';

const INFRASTRUCTURE: Infrastructure = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'Infrastructure',
  metadata: { name: 'cluster' },
  status: { infrastructureName: CLUSTER, platformStatus: { type: 'AWS' } },
};

type JsonObject = Record<string, unknown>;
const objectOr = (value: unknown): JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};

/**
 * One instance type, a zone (the failure domain) and the user data Secret, in both directions;
 * `contexts` records what `toMapi` was given.
 */
export function fakeConverter(options: { reverse?: boolean } = {}) {
  const contexts: ReverseContext[] = [];
  const converter: PlatformConverter = {
    platform: 'AWS',
    providerSpecKind: KIND,
    template: {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'AWSMachineTemplate',
      plural: 'awsmachinetemplates',
    },
    toCapi(providerSpec) {
      const spec = objectOr(providerSpec);
      const zone = objectOr(spec.placement).availabilityZone;
      const secret = objectOr(spec.userDataSecret).name;
      return {
        ok: true,
        value: {
          templateSpec: { instanceType: spec.instanceType },
          ...(typeof zone === 'string' ? { failureDomain: zone } : {}),
          ...(typeof secret === 'string' ? { userDataSecretName: secret } : {}),
        },
        warnings: [],
      };
    },
  };
  if (options.reverse !== false) {
    converter.toMapi = (templateSpec, context): Conversion<JsonObject> => {
      contexts.push(context);
      const spec = objectOr(templateSpec);
      if (typeof spec.instanceType !== 'string') {
        return {
          ok: false,
          errors: [{ path: `${context.path}.instanceType`, message: 'is required; set it.' }],
        };
      }
      return {
        ok: true,
        value: {
          apiVersion: API_VERSION,
          kind: KIND,
          instanceType: spec.instanceType,
          placement: { availabilityZone: context.failureDomain },
          userDataSecret: { name: context.userDataSecretName },
        },
        warnings: ['the fake converter warns'],
      };
    };
  }
  return { converter, contexts };
}

export function mapiMachineSet(): MapiMachineSet {
  const mapi = workerMachineSet('worker-a', 'openshift-machine-api', {
    cluster: CLUSTER,
    providerSpec: {
      apiVersion: API_VERSION,
      kind: KIND,
      instanceType: 'm6i.xlarge',
      placement: { availabilityZone: 'us-east-1a' },
      userDataSecret: { name: 'worker-user-data' },
    },
  });
  mapi.spec.authoritativeAPI = 'ClusterAPI';
  return mapi;
}

/** The CAPI MachineSet and template that mirror `mapi`. */
export function toCapi(
  mapi: MapiMachineSet,
  converter = fakeConverter().converter,
): { machineSet: CapiMachineSet; template: MachineTemplate } {
  const result = machineSetToCapi({
    mapi,
    infrastructure: INFRASTRUCTURE,
    converter,
    capiNamespace: CAPI_NAMESPACE,
    paused: false,
  });
  return expectOk(result).value;
}

export function toMapi(
  overrides: Partial<ReverseInput> & Pick<ReverseInput, 'capi' | 'mapi'>,
): Conversion<{ spec: Record<string, unknown> }> {
  const converter = overrides.converter ?? fakeConverter().converter;
  return machineSetToMapi({
    infrastructure: INFRASTRUCTURE,
    template: overrides.template ?? toCapi(overrides.mapi, converter).template,
    converter,
    ...overrides,
  });
}

/** The value at a dotted path, e.g. `template.spec.taints`; undefined where there is none. */
export function at(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    return (node as Record<string, unknown>)[key];
  }, value);
}

/** A label or annotation key as one step of a JSON pointer. */
export const pointer = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** The fixture's CAPI mirror with `capiPatch`, converted back over the fixture with `mapiPatch`. */
export function reverse(
  capiPatch: object[],
  mapiPatch: object[] = [],
): Conversion<{ spec: Record<string, unknown> }> {
  const { machineSet } = toCapi(mapiMachineSet());
  return toMapi({
    capi: applyPatch(machineSet, capiPatch),
    mapi: applyPatch(mapiMachineSet(), mapiPatch),
  });
}

export function reversedSpec(
  capiPatch: object[],
  mapiPatch: object[] = [],
): Record<string, unknown> {
  return expectOk(reverse(capiPatch, mapiPatch)).value.spec;
}
