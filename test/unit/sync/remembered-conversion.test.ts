// The plans convert a MachineSet or a Machine once per version of its inputs, not once per
// reconcile.
import { expect } from 'chai';
import fc from 'fast-check';
import type { MapiMachineSet } from '../../../src/api/types.js';
import { machineSetToCapi } from '../../../src/conversion/machine-set/to-capi.js';
import { machineToCapi } from '../../../src/conversion/machine/to-capi.js';
import { METADATA_NOT_CONVERTED, remembered } from '../../../src/sync/remembered-conversion.js';
import { applyPatch, expectOk, platformMachineSets } from '../../support/conversion.js';
import { CAPI_MACHINE_SET, workerMachine } from '../conversion/machine/support.js';

const convertMachineSetOnce = remembered(machineSetToCapi);

const AWS = platformMachineSets()[0]!;

function input(mapi: MapiMachineSet, paused = true) {
  return {
    mapi,
    infrastructure: AWS.infrastructure,
    converter: AWS.converter,
    capiNamespace: 'openshift-cluster-api',
    paused,
  };
}

describe('convertMachineSetOnce', () => {
  it('answers the same input objects with the same conversion, equal to a fresh one', () => {
    const mapi = AWS.machineSet();
    const first = convertMachineSetOnce(input(mapi));
    expect(convertMachineSetOnce(input(mapi))).to.equal(first);
    expect(first).to.deep.equal(machineSetToCapi(input(mapi)));
  });

  it('converts again when the MachineSet is a new object, or another input differs', () => {
    const mapi = AWS.machineSet();
    const first = expectOk(convertMachineSetOnce(input(mapi))).value;
    const resized = applyPatch(mapi, [
      {
        op: 'replace',
        path: '/spec/template/spec/providerSpec/value/instanceType',
        value: 'm6i.2xlarge',
      },
    ]);
    const second = expectOk(convertMachineSetOnce(input(resized))).value;
    expect(second.template.metadata.name).to.not.equal(first.template.metadata.name);

    const unpaused = convertMachineSetOnce(input(mapi, false));
    expect(unpaused).to.deep.equal(machineSetToCapi(input(mapi, false)));
    expect(expectOk(unpaused).value.machineSet).to.not.deep.equal(first.machineSet);
    const before = convertMachineSetOnce(input(mapi));
    const infrastructure = { ...AWS.infrastructure };
    const again = convertMachineSetOnce({ ...input(mapi), infrastructure });
    expect(again).to.not.equal(before);
    expect(again).to.deep.equal(before);
  });

  it('hands out a frozen conversion, so that no caller can change the next plan', () => {
    const { template } = expectOk(convertMachineSetOnce(input(AWS.machineSet()))).value;
    expect(() => {
      (template.metadata as { name: string }).name = 'changed';
    }).to.throw(TypeError);
    expect(Object.isFrozen(template.spec)).to.equal(true);
  });
});

describe('a Machine’s conversion, remembered', () => {
  // as sync/machine/forward.ts remembers it
  const machineToCapiOnce = remembered(machineToCapi, {
    machineSet: (set) => set?.metadata.uid,
    cluster: (cluster) => cluster?.metadata.uid,
  });
  const input = (mapi = workerMachine(), machineSet = CAPI_MACHINE_SET) => ({
    mapi,
    infrastructure: AWS.infrastructure,
    converter: AWS.converter,
    capiNamespace: 'openshift-cluster-api',
    paused: true,
    machineSet,
  });

  it('answers the same input objects with the same conversion, equal to a fresh one', () => {
    const same = input();
    const first = machineToCapiOnce(same);
    expect(machineToCapiOnce({ ...same })).to.equal(first);
    expect(first).to.deep.equal(machineToCapi(same));
  });

  it('keeps it when its MachineSet’s mirror is a new version of the same MachineSet', () => {
    const same = input();
    const first = machineToCapiOnce(same);
    const newStatus = { ...CAPI_MACHINE_SET, status: { replicas: 7 } } as typeof CAPI_MACHINE_SET;
    expect(machineToCapiOnce({ ...same, machineSet: newStatus })).to.equal(first);
  });

  it('keeps it across status updates of the Machine (the informer shares its unchanged spec)', () => {
    const mapi = workerMachine();
    const first = machineToCapiOnce(input(mapi));
    const newStatus = {
      ...mapi,
      metadata: { ...mapi.metadata, resourceVersion: '99' },
      status: { phase: 'Provisioned' },
    };
    expect(machineToCapiOnce(input(newStatus))).to.equal(first);
  });

  it('keeps it when only finalizers or the generation change (no conversion reads them)', () => {
    const mapi = workerMachine();
    const first = machineToCapiOnce(input(mapi));
    const finalized = {
      ...mapi,
      metadata: { ...mapi.metadata, finalizers: ['machine.machine.openshift.io'], generation: 3 },
    };
    expect(machineToCapiOnce(input(finalized))).to.equal(first);
  });

  it('converts again when the Machine’s labels or spec change, even with the same spec object', () => {
    const mapi = workerMachine();
    const first = machineToCapiOnce(input(mapi));
    const relabelled = {
      ...mapi,
      metadata: { ...mapi.metadata, labels: { ...mapi.metadata.labels, team: 'x' } },
    };
    const again = machineToCapiOnce(input(relabelled));
    expect(again).to.not.equal(first);
    expect(again).to.deep.equal(machineToCapi(input(relabelled)));
    const moved = { ...mapi, spec: { ...mapi.spec, providerID: 'aws:///us-east-1b/i-0123' } };
    expect(machineToCapiOnce(input(moved))).to.deep.equal(machineToCapi(input(moved)));
  });

  it('converts again when its MachineSet’s mirror is another MachineSet, or is gone', () => {
    const same = input();
    const first = machineToCapiOnce(same);
    const replaced = {
      ...CAPI_MACHINE_SET,
      metadata: { ...CAPI_MACHINE_SET.metadata, uid: 'another-uid' },
    };
    const again = machineToCapiOnce({ ...same, machineSet: replaced });
    expect(again).to.not.equal(first);
    expect(again).to.deep.equal(machineToCapi({ ...same, machineSet: replaced }));
    const gone = machineToCapiOnce({ ...same, machineSet: undefined });
    expect(gone).to.deep.equal(machineToCapi({ ...same, machineSet: undefined }));
    expect(gone).to.not.deep.equal(again);
  });
});

describe('the metadata a remembered conversion ignores', () => {
  // Arbitrary values for each field METADATA_NOT_CONVERTED names.
  const ignored = fc.record({
    resourceVersion: fc.string(),
    finalizers: fc.array(fc.string()),
    generation: fc.nat(),
  });
  const withMetadata = <T extends { metadata: object }>(object: T, metadata: object): T => ({
    ...object,
    metadata: { ...object.metadata, ...metadata },
  });

  it('names exactly the fields these properties vary', () => {
    expect([...METADATA_NOT_CONVERTED].sort()).to.deep.equal(
      ['finalizers', 'generation', 'resourceVersion'].sort(),
    );
  });

  it('is read by no Machine conversion', () => {
    const base = workerMachine();
    const expected = machineToCapi({ ...machineInput(base) });
    fc.assert(
      fc.property(ignored, (metadata) => {
        const converted = machineToCapi(machineInput(withMetadata(base, metadata)));
        expect(converted).to.deep.equal(expected);
      }),
      { numRuns: 50 },
    );
  });

  it('is read by no MachineSet conversion, on any platform', () => {
    for (const platform of platformMachineSets()) {
      const base = platform.machineSet();
      const convert = (mapi: MapiMachineSet) =>
        machineSetToCapi({
          mapi,
          infrastructure: platform.infrastructure,
          converter: platform.converter,
          capiNamespace: 'openshift-cluster-api',
          paused: true,
        });
      const expected = convert(base);
      fc.assert(
        fc.property(ignored, (metadata) => {
          expect(convert(withMetadata(base, metadata))).to.deep.equal(expected);
        }),
        { numRuns: 20 },
      );
    }
  });
});

function machineInput(mapi: ReturnType<typeof workerMachine>) {
  return {
    mapi,
    infrastructure: AWS.infrastructure,
    converter: AWS.converter,
    capiNamespace: 'openshift-cluster-api',
    paused: true,
    machineSet: CAPI_MACHINE_SET,
  };
}
