// Reporting the fields nobody read, in either direction.
import { expect } from 'chai';
import { ConversionReport, ObjectReader } from '../../../../src/conversion/common/field-reader.js';

function readOnly(keys: string[], finish: (reader: ObjectReader) => void) {
  const report = new ConversionReport();
  const reader = ObjectReader.of({ a: 1, b: 2, c: null }, 'spec', report)!;
  for (const key of keys) reader.raw(key);
  finish(reader);
  return report.errors;
}

describe('ObjectReader: unread fields', () => {
  it('finish names each unread field as not convertible to Cluster API', () => {
    const errors = readOnly(['a'], (r) => r.finish());
    expect(errors.map((e) => e.path)).to.deep.equal(['spec.b', 'spec.c']);
    expect(errors[0]!.message).to.match(/^is not a field .* convert to Cluster API, /);
  });

  it('finishToMachineApi names each unread field as not convertible to Machine API', () => {
    const errors = readOnly(['a', 'c'], (r) => r.finishToMachineApi());
    expect(errors).to.have.length(1);
    expect(errors[0]!.path).to.equal('spec.b');
    expect(errors[0]!.message).to.match(/^is not a field .* convert to Machine API, .*\.$/);
  });

  it('finishToMachineApi can offer to keep the MachineSet on Cluster API', () => {
    const errors = readOnly(['a', 'c'], (r) => r.finishToMachineApi({ orKeepOnClusterApi: true }));
    expect(errors).to.deep.equal([
      {
        path: 'spec.b',
        message:
          'is not a field this controller knows how to convert to Machine API, so it refuses ' +
          'rather than drop it; remove the field or correct its spelling, or keep the MachineSet ' +
          'on Cluster API.',
      },
    ]);
    const plain = readOnly(['a', 'c'], (r) => r.finishToMachineApi());
    expect(plain[0]!.message).to.match(/correct its spelling\.$/);
  });

  it('reportUnread uses the message given, and says nothing when all was read', () => {
    expect(readOnly(['b'], (r) => r.reportUnread('is odd.'))).to.deep.equal([
      { path: 'spec.a', message: 'is odd.' },
      { path: 'spec.c', message: 'is odd.' },
    ]);
    expect(readOnly(['a', 'b', 'c'], (r) => r.reportUnread('is odd.'))).to.deep.equal([]);
  });
});
