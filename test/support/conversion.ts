// Helpers for the platform converters' unit tests.
import { expect } from 'chai';
import type { Infrastructure, JsonPatchOperation, MapiMachineSet } from '../../src/api/types.js';
import { awsConverter } from '../../src/conversion/aws/index.js';
import { converterFor } from '../../src/conversion/platforms.js';
import type { Conversion, FieldError, PlatformConverter } from '../../src/conversion/types.js';
import { PLATFORM_FIXTURES } from './fixtures/index.js';
import { workerMachineSet } from './fixtures/machine-set.js';
import { applyJsonPatch } from './patch.js';

/** Where a MachineSet's providerSpec sits; the converters' error paths start with it. */
export const PROVIDER_SPEC_PATH = 'spec.template.spec.providerSpec.value';

export function expectOk<T>(result: Conversion<T>): { value: T; warnings: string[] } {
  if (!result.ok) {
    expect.fail(`expected a conversion, got errors:\n${JSON.stringify(result.errors, null, 2)}`);
  }
  return result;
}

export function expectErrors<T>(result: Conversion<T>): FieldError[] {
  if (result.ok) expect.fail(`expected errors, got ${JSON.stringify(result.value, null, 2)}`);
  return result.errors;
}

export function providerSpecOf(machineSet: MapiMachineSet): unknown {
  return machineSet.spec.template?.spec?.providerSpec?.value;
}

/** `document` with RFC 6902 operations applied (what the fixtures' `change` uses). */
export function applyPatch<T>(document: T, operations: object[]): T {
  return applyJsonPatch(document, operations as JsonPatchOperation[]);
}

/**
 * Exactly the expected errors: one per [path, pattern] (the message matches the pattern), and
 * every message a sentence that continues its path: what is wrong, then what to do.
 */
export function expectFieldErrors(errors: FieldError[], expected: [string, RegExp][]): void {
  expect(errors.map((e) => e.path)).to.have.members(expected.map(([path]) => path));
  expect(errors, JSON.stringify(errors, null, 2)).to.have.length(expected.length);
  for (const [path, pattern] of expected) {
    const messages = errors.filter((e) => e.path === path).map((e) => e.message);
    expect(
      messages.some((m) => pattern.test(m)),
      `${path}: ${messages.join(' | ')}`,
    ).to.equal(true);
  }
  for (const error of errors) {
    // Shown as `path: message`.
    expect(error.message, error.message).to.match(/^[a-z].*[;,:] .*\.$/);
  }
}

/** One platform's converter with an installer-style worker MachineSet and its Infrastructure. */
export interface PlatformMachineSet {
  platform: string;
  converter: PlatformConverter;
  infrastructure: Infrastructure;
  /** A fresh copy on every call. */
  machineSet(): MapiMachineSet;
}

const AWS_ZONE = 'us-east-1a';

function awsWorkerMachineSet(): MapiMachineSet {
  return workerMachineSet('worker-a', 'openshift-machine-api', {
    cluster: 'demo-abc12',
    providerSpec: {
      apiVersion: 'machine.openshift.io/v1beta1',
      kind: 'AWSMachineProviderConfig',
      ami: { id: 'ami-0abcdef1234567890' },
      instanceType: 'm6i.xlarge',
      blockDevices: [{ ebs: { encrypted: true, volumeSize: 120, volumeType: 'gp3' } }],
      credentialsSecret: { name: 'aws-cloud-credentials' },
      iamInstanceProfile: { id: 'demo-abc12-worker-profile' },
      placement: { availabilityZone: AWS_ZONE, region: 'us-east-1' },
      securityGroups: [{ filters: [{ name: 'tag:Name', values: ['demo-abc12-node'] }] }],
      subnet: {
        filters: [{ name: 'tag:Name', values: [`demo-abc12-subnet-private-${AWS_ZONE}`] }],
      },
      tags: [{ name: 'kubernetes.io/cluster/demo-abc12', value: 'owned' }],
      userDataSecret: { name: 'worker-user-data' },
    },
  });
}

/** Every supported platform, each with a MachineSet that converts. */
export function platformMachineSets(): PlatformMachineSet[] {
  const aws: PlatformMachineSet = {
    platform: 'AWS',
    converter: awsConverter,
    infrastructure: infrastructureOf({
      infrastructureName: 'demo-abc12',
      platform: 'AWS',
      platformStatus: { type: 'AWS', aws: { region: 'us-east-1' } },
    }),
    machineSet: awsWorkerMachineSet,
  };
  const others = PLATFORM_FIXTURES.map((fixture): PlatformMachineSet => {
    const converter = converterFor(fixture.platform);
    if (!converter) throw new Error(`no converter for ${fixture.platform}`);
    return {
      platform: fixture.platform,
      converter,
      infrastructure: infrastructureOf(fixture.infrastructure, fixture.platformSpec),
      machineSet: () => fixture.machineSet('worker-a', 'openshift-machine-api'),
    };
  });
  return [aws, ...others];
}

function infrastructureOf(
  status: NonNullable<Infrastructure['status']>,
  platformSpec?: NonNullable<Infrastructure['spec']>['platformSpec'],
): Infrastructure {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    ...(platformSpec ? { spec: { platformSpec } } : {}),
    status,
  };
}

/** A path into a JSON document: object keys and array indices. */
export type JsonKeys = (string | number)[];

/** The RFC 6901 pointer of `keys`, e.g. `/spec/template`, as `applyPatch` takes it. */
export function jsonPointer(keys: readonly (string | number)[]): string {
  return keys.map((k) => `/${String(k).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** Every scalar of a JSON document with its keys. */
export function scalarLeaves(value: unknown, keys: JsonKeys = []): [JsonKeys, unknown][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => scalarLeaves(item, [...keys, i]));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => scalarLeaves(v, [...keys, k]));
  }
  return [[keys, value]];
}

/** The keys of every object (not array) in a JSON document, the root included. */
export function objectPaths(value: unknown, keys: JsonKeys = []): JsonKeys[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => objectPaths(item, [...keys, i]));
  if (typeof value === 'object' && value !== null) {
    return [keys, ...Object.entries(value).flatMap(([k, v]) => objectPaths(v, [...keys, k]))];
  }
  return [];
}

/** The keys of every value in a JSON document, the root excluded. */
export function allPaths(value: unknown, keys: JsonKeys = []): JsonKeys[] {
  const children: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [i, item])
    : typeof value === 'object' && value !== null
      ? Object.entries(value)
      : [];
  return children.flatMap(([k, v]) => [[...keys, k], ...allPaths(v, [...keys, k])]);
}

/**
 * What every converter owes, as `it` cases: the same input converts to identical output, the
 * input is left as it was, and the output is plain JSON (no undefined values; with
 * `noEmptyObjects`, no empty objects either). `input` makes a fresh copy each time.
 */
export function itConvertsPurely<T>(
  convert: (input: unknown) => Conversion<T>,
  input: () => unknown,
  { noEmptyObjects = false } = {},
): void {
  it('is deterministic: the same input converts to identical output', () => {
    const first = expectOk(convert(input()));
    const second = expectOk(convert(input()));
    expect(JSON.stringify(second)).to.equal(JSON.stringify(first));
  });

  it('leaves the input untouched', () => {
    const given = input();
    convert(given);
    expect(given).to.deep.equal(input());
  });

  const what = noEmptyObjects ? 'no undefined values or empty objects' : 'no undefined values';
  it(`holds ${what}, so it survives a JSON round trip unchanged`, () => {
    const { value } = expectOk(convert(input()));
    expect(JSON.parse(JSON.stringify(value))).to.deep.equal(value);
    const bad = (v: unknown): boolean =>
      v === undefined ||
      (typeof v === 'object' &&
        v !== null &&
        ((noEmptyObjects && !Array.isArray(v) && Object.keys(v).length === 0) ||
          Object.values(v).some((x) => bad(x))));
    expect(bad(value)).to.equal(false);
  });
}

/**
 * The cases of a providerSpec without a user data Secret, on the platforms where
 * machine-api-operator's webhook defaults it to worker-user-data and the conversion does the same
 * with a warning. `path`: the providerSpec's path.
 */
export function defaultedUserDataCases(path: string) {
  return [
    {
      name: "no userDataSecret: machine-api-operator's default, worker-user-data",
      input: { userDataSecret: undefined },
      warning: new RegExp(
        `^${path}\\.userDataSecret names no Secret; machine-api-operator's webhook sets it to ` +
          'worker-user-data, so the Cluster API machines boot from .*worker-user-data',
      ),
    },
    {
      name: "a userDataSecret without a name: machine-api-operator's default, worker-user-data",
      input: { userDataSecret: { name: '' } },
      warning: new RegExp(`^${path}\\.userDataSecret names no Secret; .*worker-user-data`),
    },
  ];
}
