import { expect } from 'chai';
import { CheckInputError, parseCheckFlags } from '../../../../src/cli/check/flags.js';

describe('check: flags', () => {
  it('reads the cluster by default ($KUBECONFIG is the loader’s), openshift-machine-api, a table', () => {
    expect(parseCheckFlags([])).to.deep.equal({
      source: { kind: 'cluster', mapiNamespace: 'openshift-machine-api' },
      output: 'table',
      capiNamespace: 'openshift-cluster-api',
    });
    expect(parseCheckFlags([])).to.deep.include({
      source: { kind: 'cluster', mapiNamespace: 'openshift-machine-api' },
    });
  });

  it('parses every flag', () => {
    expect(
      parseCheckFlags([
        '--kubeconfig=/a',
        '--mapi-namespace=m',
        '--capi-namespace=c',
        '--platform=GCP',
        '--infrastructure-name=demo',
        '-o',
        'json',
      ]),
    ).to.deep.equal({
      source: { kind: 'cluster', kubeconfig: '/a', mapiNamespace: 'm' },
      output: 'json',
      capiNamespace: 'c',
      platform: 'GCP',
      infrastructureName: 'demo',
    });
  });

  it('reads files instead with -f, repeatable, "-" for stdin', () => {
    expect(parseCheckFlags(['-f', 'a.yaml', '--filename=b.json', '-f', '-'])).to.deep.include({
      source: { kind: 'files', files: ['a.yaml', 'b.json', '-'] },
    });
  });

  it('prints help for -h and --help', () => {
    expect(parseCheckFlags(['-h'])).to.equal('help');
    expect(parseCheckFlags(['-f', 'a', '--help'])).to.equal('help');
  });

  const refused: [string[], RegExp][] = [
    [['--bogus'], /^Unknown option '--bogus'; see mapi-capi-sync check --help$/],
    [['-f'], /argument missing/],
    [['extra'], /^unexpected argument "extra"; name files with -f FILE/],
    [['-o', 'wide'], /^--output must be one of table, yaml, json, got "wide"$/],
    [['--platform', 'BareMetal'], /^--platform "BareMetal" is not supported; supported: AWS/],
    [['--mapi-namespace', 'Not_A_Namespace'], /^--mapi-namespace must be a valid namespace name/],
    [['--capi-namespace', ''], /^--capi-namespace must be a valid namespace name/],
    [['--infrastructure-name='], /^--infrastructure-name must not be empty$/],
    [
      ['-f', 'a', '--kubeconfig', 'k'],
      /^--kubeconfig reads from a cluster and cannot be used with -f$/,
    ],
    [['-f', 'a', '--mapi-namespace', 'm'], /^--mapi-namespace reads from a cluster/],
    [['-f', '-', '-f', '-'], /^-f - \(stdin\) can be given only once$/],
    [['-f', ''], /^-f needs a file name$/],
  ];
  for (const [argv, message] of refused) {
    it(`refuses ${argv.join(' ')} with one line`, () => {
      expect(() => parseCheckFlags(argv))
        .to.throw(CheckInputError, message)
        .with.property('message')
        .that.does.not.include('\n');
    });
  }
});
