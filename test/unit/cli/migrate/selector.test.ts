import { expect } from 'chai';
import { matches, parseSelector, type Selector } from '../../../../src/cli/migrate/selector.js';

const select = (text: string) => parseSelector(text) as Selector;

describe('migrate label selectors', () => {
  const labels = { tier: 'gold', 'machine.openshift.io/zone': 'us-east-1a', spot: '' };

  it('equality, set and existence requirements, all of them matching', () => {
    expect(matches(select('tier=gold'), labels)).to.equal(true);
    expect(matches(select('tier==gold'), labels)).to.equal(true);
    expect(matches(select('tier!=gold'), labels)).to.equal(false);
    expect(matches(select('tier!=silver'), {})).to.equal(true);
    expect(
      matches(select('machine.openshift.io/zone in (us-east-1a, us-east-1b)'), labels),
    ).to.equal(true);
    expect(matches(select('tier notin (gold)'), labels)).to.equal(false);
    expect(matches(select('spot'), labels)).to.equal(true);
    expect(matches(select('!spot'), labels)).to.equal(false);
    expect(matches(select('tier=gold,!absent,spot='), labels)).to.equal(true);
    expect(matches(select('tier=gold,absent'), labels)).to.equal(false);
  });

  it('says what it cannot read', () => {
    expect(parseSelector('')).to.equal('the selector is empty');
    expect(parseSelector('a,,b')).to.match(/empty requirement/);
    expect(parseSelector('a in (b')).to.be.a('string');
    expect(parseSelector('-a=b')).to.equal('"-a" is not a valid label key');
    expect(parseSelector('a=b c')).to.be.a('string');
  });
});
