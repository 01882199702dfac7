import { expect } from 'chai';
import { parseOptions, UsageError } from '../../src/options.js';

describe('command-line options', () => {
  it('has defaults for everything', () => {
    expect(parseOptions([], {}, false)).to.deep.equal({
      mapiNamespace: 'openshift-machine-api',
      capiNamespace: 'openshift-cluster-api',
      workers: 2,
      logLevel: 'info',
      logFormat: 'json',
    });
    expect(parseOptions([], {}, true)).to.include({ logFormat: 'text' });
  });

  it('takes --kubeconfig over KUBECONFIG, and KUBECONFIG over in-cluster', () => {
    expect(parseOptions(['--kubeconfig', '/a'], { KUBECONFIG: '/b' }, false)).to.include({
      kubeconfig: '/a',
    });
    expect(parseOptions([], { KUBECONFIG: '/b' }, false)).to.include({ kubeconfig: '/b' });
    expect(parseOptions([], { KUBECONFIG: '' }, false)).to.not.have.property('kubeconfig');
  });

  it('parses every flag', () => {
    expect(
      parseOptions(
        [
          '--mapi-namespace=m',
          '--capi-namespace=c',
          '--platform=AWS',
          '--workers=8',
          '--log-level=debug',
          '--log-format=text',
        ],
        {},
        false,
      ),
    ).to.deep.equal({
      mapiNamespace: 'm',
      capiNamespace: 'c',
      platform: 'AWS',
      workers: 8,
      logLevel: 'debug',
      logFormat: 'text',
    });
    expect(parseOptions(['--help'], {}, false)).to.equal('help');
    expect(parseOptions(['-h'], {}, false)).to.equal('help');
  });

  for (const [argv, message] of [
    [['--bogus'], /bogus/],
    [['--workers=0'], /--workers must be a whole number/],
    [['--workers=two'], /--workers must be a whole number/],
    [['--log-level=loud'], /--log-level must be one of/],
    [['--log-format=xml'], /--log-format must be json or text/],
    [['--mapi-namespace=Bad_NS'], /--mapi-namespace must be a valid namespace name/],
    [['positional'], /positional/],
  ] as const) {
    it(`rejects ${argv.join(' ')} with a clear message`, () => {
      expect(() => parseOptions([...argv], {}, false))
        .to.throw(UsageError)
        .with.property('message')
        .that.matches(message);
    });
  }
});
