import { expect } from 'chai';
import {
  stableHashOfFrozen,
  machineSetLabelValue,
  SPEC_HASH_LENGTH,
  stableHash,
  templateName,
} from '../../../src/model/naming.js';

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

describe('naming', () => {
  it('hashes independently of object key order but not of array order', () => {
    expect(stableHash({ a: 1, b: { c: 2, d: [1, 2] } })).to.equal(
      stableHash({ b: { d: [1, 2], c: 2 }, a: 1 }),
    );
    expect(stableHash({ d: [1, 2] })).to.not.equal(stableHash({ d: [2, 1] }));
  });

  it('names a template <machineset>-<hash>, the same for the same spec', () => {
    const spec = { instanceType: 'm6i.xlarge', ami: { id: 'ami-1' } };
    const name = templateName('worker-a', spec);
    expect(name).to.match(new RegExp(`^worker-a-[0-9a-f]{${SPEC_HASH_LENGTH}}$`));
    expect(templateName('worker-a', { ami: { id: 'ami-1' }, instanceType: 'm6i.xlarge' })).to.equal(
      name,
    );
    expect(templateName('worker-a', { ...spec, instanceType: 'm6i.2xlarge' })).to.not.equal(name);
  });

  it('keeps template names of 253-character MachineSet names within 253, unique and valid', () => {
    const base = 'a'.repeat(240);
    const long1 = `${base}-${'b'.repeat(12)}`;
    const long2 = `${base}-${'c'.repeat(12)}`;
    expect(long1).to.have.length(253);
    const spec = { instanceType: 'm6i.xlarge' };
    const name1 = templateName(long1, spec);
    const name2 = templateName(long2, spec);
    expect(name1.length).to.be.at.most(253);
    expect(name2.length).to.be.at.most(253);
    expect(name1).to.not.equal(name2);
    expect(name1).to.match(DNS_SUBDOMAIN);
    expect(templateName(long1, spec)).to.equal(name1);
  });

  it('does not end a shortened name on a dot or dash', () => {
    const name = templateName(`${'a'.repeat(233)}.-${'b'.repeat(18)}`, {});
    expect(name).to.match(DNS_SUBDOMAIN);
    expect(name).to.not.contain('.-');
  });

  it('gives label values of at most 63 characters, unchanged when they fit', () => {
    expect(machineSetLabelValue('worker-a')).to.equal('worker-a');
    const long = `${'x'.repeat(60)}-${'y'.repeat(40)}`;
    const value = machineSetLabelValue(long);
    expect(value.length).to.be.at.most(63);
    expect(value).to.match(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/);
    expect(machineSetLabelValue(`${'x'.repeat(60)}-${'z'.repeat(40)}`)).to.not.equal(value);
  });

  it('hashes a frozen object once, and an object that may change every time', () => {
    const frozen = Object.freeze({ instanceType: 'm6i.large', zones: Object.freeze(['a']) });
    const hash = stableHashOfFrozen(frozen);
    expect(hash).to.equal(stableHash({ zones: ['a'], instanceType: 'm6i.large' }));
    // read from the cache after the first call: the same hash each time
    const hashes: string[] = [];
    for (let i = 0; i < 3; i++) hashes.push(stableHashOfFrozen(frozen));
    expect(new Set(hashes)).to.deep.equal(new Set([hash]));
    const open: { instanceType: string } = { instanceType: 'm6i.large' };
    const before = stableHashOfFrozen(open);
    open.instanceType = 'm6i.xlarge';
    expect(stableHashOfFrozen(open)).to.not.equal(before);
  });
});
