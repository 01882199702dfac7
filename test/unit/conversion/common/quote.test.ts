// User values in messages: quoted, and cut when long.
import { expect } from 'chai';
import {
  keyPath,
  nameList,
  QUOTED_LENGTH,
  quote,
  quoteList,
  shorten,
} from '../../../../src/conversion/common/quote.js';

describe('quoting user values', () => {
  it('quotes a short string as JSON, numbers and booleans as they are', () => {
    expect(quote('m6i.xlarge')).to.equal('"m6i.xlarge"');
    expect(quote('a "b"\n')).to.equal('"a \\"b\\"\\n"');
    expect(quote(3)).to.equal('3');
    expect(quote(false)).to.equal('false');
  });

  it('cuts a long string, saying how long it was', () => {
    const long = 'x'.repeat(1_000_000);
    expect(quote(long)).to.equal(`"${'x'.repeat(QUOTED_LENGTH)}…" (1000000 characters)`);
    expect(shorten(long)).to.equal(`${'x'.repeat(QUOTED_LENGTH)}… (1000000 characters)`);
    expect(quote('x'.repeat(QUOTED_LENGTH))).to.equal(`"${'x'.repeat(QUOTED_LENGTH)}"`);
  });

  it('counts escapes against the limit, and never splits a character', () => {
    const quoted = quote('\u0000'.repeat(1000));
    expect(quoted.length).to.be.below(QUOTED_LENGTH + 40);
    expect(quote('😀'.repeat(100))).to.match(/^"(😀){50}…" \(200 characters\)$/);
  });

  it('shortens the key in a path', () => {
    expect(keyPath('metadata.labels', 'team')).to.equal('metadata.labels[team]');
    expect(keyPath('metadata.labels', 'k'.repeat(200))).to.equal(
      `metadata.labels[${'k'.repeat(QUOTED_LENGTH)}… (200 characters)]`,
    );
  });

  it('names at most five items of a list', () => {
    expect(quoteList(['a', 'b'])).to.equal('"a", "b"');
    expect(nameList(['1', '2', '3', '4', '5', '6', '7'])).to.equal('1, 2, 3, 4, 5 and 2 more');
  });
});
