// The cluster autoscaler's scale-from-zero annotations in OpenShift's and upstream's spellings.
import { expect } from 'chai';
import type { MapiMachineSet } from '../../../../src/api/types.js';
import { ConversionReport, type MapEntry } from '../../../../src/conversion/common/field-reader.js';
import {
  scaleFromZeroToCapi,
  scaleFromZeroToMapi,
} from '../../../../src/conversion/common/scale-from-zero.js';
import { machineSetToCapi } from '../../../../src/conversion/machine-set/to-capi.js';
import { machineSetToMapi } from '../../../../src/conversion/machine-set/to-mapi.js';
import { expectOk, platformMachineSets } from '../../../support/conversion.js';

const CAPACITY = 'capacity.cluster-autoscaler.kubernetes.io/';
const entries = (map: Record<string, string>): MapEntry[] =>
  Object.entries(map).map(([key, value]) => ({
    key,
    value,
    path: `metadata.annotations[${key}]`,
  }));
const asMap = (list: readonly MapEntry[]) =>
  Object.fromEntries(list.map((entry) => [entry.key, entry.value]));

describe('scale-from-zero annotations', () => {
  describe('MAPI → CAPI: the upstream spelling of what has only OpenShift’s', () => {
    it('converts CPUs, memory in MiB, GPUs and pods, each from its own annotation', () => {
      const report = new ConversionReport();
      const added = scaleFromZeroToCapi(
        entries({
          'machine.openshift.io/vCPU': '4',
          'machine.openshift.io/memoryMb': '16384',
          'machine.openshift.io/GPU': '1',
          'machine.openshift.io/maxPods': '250',
          team: 'a',
        }),
        report,
      );
      expect(asMap(added)).to.deep.equal({
        [`${CAPACITY}cpu`]: '4',
        [`${CAPACITY}memory`]: '16384Mi',
        [`${CAPACITY}gpu-count`]: '1',
        [`${CAPACITY}maxPods`]: '250',
      });
      expect(added.find((e) => e.key === `${CAPACITY}memory`)?.path).to.equal(
        'metadata.annotations[machine.openshift.io/memoryMb]',
      );
      expect(report.warnings).to.deep.equal([]);
    });

    it('adds nothing where the upstream spelling is there already, whatever its value', () => {
      const report = new ConversionReport();
      const added = scaleFromZeroToCapi(
        entries({ 'machine.openshift.io/vCPU': '4', [`${CAPACITY}cpu`]: '8' }),
        report,
      );
      expect(added).to.deep.equal([]);
    });

    it('warns, naming the annotation, about a value that has no upstream spelling', () => {
      const report = new ConversionReport();
      const added = scaleFromZeroToCapi(
        entries({ 'machine.openshift.io/memoryMb': '16Gi', 'machine.openshift.io/vCPU': '2' }),
        report,
      );
      expect(asMap(added)).to.deep.equal({ [`${CAPACITY}cpu`]: '2' });
      expect(report.warnings).to.have.length(1);
      expect(report.warnings[0]).to.match(
        /^metadata\.annotations\[machine\.openshift\.io\/memoryMb\] is "16Gi", not a whole number of MiB, so the MachineSet gets no capacity\.cluster-autoscaler\.kubernetes\.io\/memory/,
      );
    });
  });

  describe('CAPI → MAPI: OpenShift’s spelling of what has only the upstream one', () => {
    const cases: [string, string, string | undefined][] = [
      ['16Gi', '16384', undefined],
      ['16384Mi', '16384', undefined],
      ['1.5Gi', '1536', undefined],
      // decimal units are rounded down to whole MiB: never more than the machine has
      ['16G', '15258', undefined],
      ['17179869184', '16384', undefined],
      ['1Ki', '0', undefined],
      ['16 Gi', '', 'a memory size'],
      ['-1Gi', '', 'a memory size'],
      ['1e9', '', 'a memory size'],
    ];
    for (const [memory, memoryMb, warning] of cases) {
      it(`memory ${JSON.stringify(memory)} → ${warning ? 'a warning' : `memoryMb ${memoryMb}`}`, () => {
        const report = new ConversionReport();
        const out = asMap(
          scaleFromZeroToMapi(entries({ [`${CAPACITY}memory`]: memory }), [], report),
        );
        if (warning) {
          expect(out).to.deep.equal({ [`${CAPACITY}memory`]: memory });
          expect(report.warnings.join()).to.include(warning);
        } else {
          expect(out).to.deep.equal({
            [`${CAPACITY}memory`]: memory,
            'machine.openshift.io/memoryMb': memoryMb,
          });
          expect(report.warnings).to.deep.equal([]);
        }
      });
    }

    it('a CPU count that is not whole (500m) is a warning; a whole one is copied', () => {
      const report = new ConversionReport();
      const out = scaleFromZeroToMapi(
        entries({ [`${CAPACITY}cpu`]: '500m', [`${CAPACITY}gpu-count`]: '2' }),
        [],
        report,
      );
      expect(asMap(out)).to.deep.equal({
        [`${CAPACITY}cpu`]: '500m',
        [`${CAPACITY}gpu-count`]: '2',
        'machine.openshift.io/GPU': '2',
      });
      expect(report.warnings).to.have.length(1);
      expect(report.warnings[0]).to.include(`[${CAPACITY}cpu] is "500m", not a whole number`);
    });

    it('leaves out the upstream spelling it added itself, unless the MAPI MachineSet has it', () => {
      const capi = entries({ 'machine.openshift.io/vCPU': '4', [`${CAPACITY}cpu`]: '4' });
      const report = new ConversionReport();
      expect(asMap(scaleFromZeroToMapi(capi, [], report))).to.deep.equal({
        'machine.openshift.io/vCPU': '4',
      });
      const mapiHasBoth = capi;
      expect(asMap(scaleFromZeroToMapi(capi, mapiHasBoth, report))).to.deep.equal(asMap(capi));
      // another value is someone's choice, not a conversion: kept
      const other = entries({ 'machine.openshift.io/vCPU': '4', [`${CAPACITY}cpu`]: '8' });
      expect(asMap(scaleFromZeroToMapi(other, [], report))).to.deep.equal(asMap(other));
    });

    it('adds no OpenShift spelling to a MAPI MachineSet that has only the upstream one', () => {
      const capi = entries({ [`${CAPACITY}maxPods`]: '110' });
      const report = new ConversionReport();
      expect(asMap(scaleFromZeroToMapi(capi, capi, report))).to.deep.equal(asMap(capi));
    });
  });

  describe('through the MachineSet converters', () => {
    const AWS = platformMachineSets()[0]!;
    const toCapi = (mapi: MapiMachineSet) =>
      expectOk(
        machineSetToCapi({
          mapi,
          infrastructure: AWS.infrastructure,
          converter: AWS.converter,
          capiNamespace: 'openshift-cluster-api',
          paused: false,
        }),
      ).value;

    it('the mirror carries both spellings; the MAPI MachineSet gets its own back', () => {
      const mapi = AWS.machineSet();
      mapi.metadata.annotations = {
        'machine.openshift.io/vCPU': '4',
        'machine.openshift.io/memoryMb': '16384',
        'machine.openshift.io/GPU': '0',
      };
      const mirror = toCapi(mapi);
      expect(mirror.machineSet.metadata.annotations).to.include({
        'machine.openshift.io/vCPU': '4',
        [`${CAPACITY}cpu`]: '4',
        [`${CAPACITY}memory`]: '16384Mi',
        [`${CAPACITY}gpu-count`]: '0',
      });
      const back = expectOk(
        machineSetToMapi({
          capi: mirror.machineSet,
          template: mirror.template,
          mapi,
          infrastructure: AWS.infrastructure,
          converter: AWS.converter,
        }),
      ).value;
      expect(back.annotations).to.deep.equal(mapi.metadata.annotations);
    });

    it('a CAPI MachineSet with the upstream spelling only gains OpenShift’s once, then is stable', () => {
      const mapi = AWS.machineSet();
      const capi = toCapi(mapi);
      capi.machineSet.metadata.annotations = { [`${CAPACITY}memory`]: '8Gi' };
      const reverse = (current: MapiMachineSet) =>
        expectOk(
          machineSetToMapi({
            capi: capi.machineSet,
            template: capi.template,
            mapi: current,
            infrastructure: AWS.infrastructure,
            converter: AWS.converter,
          }),
        ).value;
      const first = reverse(mapi);
      expect(first.annotations).to.deep.equal({
        [`${CAPACITY}memory`]: '8Gi',
        'machine.openshift.io/memoryMb': '8192',
      });
      const mapiNow = { ...mapi, metadata: { ...mapi.metadata, annotations: first.annotations } };
      const again = toCapi(mapiNow);
      expect(again.machineSet.metadata.annotations).to.deep.equal(first.annotations);
      capi.machineSet.metadata.annotations = again.machineSet.metadata.annotations;
      expect(reverse(mapiNow).annotations).to.deep.equal(first.annotations);
    });
  });
});
