import { expect } from 'chai';
import { parsePluginArgs, PluginUsageError } from '../../../../src/cli/plugin/flags.js';

const usageError = (argv: string[]): string => {
  try {
    parsePluginArgs(argv);
  } catch (err) {
    expect(err).to.be.instanceOf(PluginUsageError);
    return (err as Error).message;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
};

describe('plugin flags', () => {
  it('defaults: OpenShift’s namespaces, the narrow table, no watch, kubectl’s kubeconfig', () => {
    expect(parsePluginArgs(['status'])).to.deep.equal({
      command: 'status',
      names: [],
      namespace: 'openshift-machine-api',
      capiNamespace: 'openshift-cluster-api',
      wide: false,
      watch: false,
    });
  });

  it('short and long forms, values inline or apart, names after the command', () => {
    const forms = [
      ['machines', 'a', 'b', '-n', 'mapi', '--capi-namespace', 'capi', '-o', 'wide', '-w'],
      ['machines', '-nmapi', '--capi-namespace=capi', '-owide', '--watch', 'a', 'b'],
      ['--namespace=mapi', '--output=wide', 'machines', 'a', '--capi-namespace', 'capi', 'b', '-w'],
    ];
    for (const argv of forms) {
      expect(parsePluginArgs(argv), argv.join(' ')).to.deep.equal({
        command: 'machines',
        names: ['a', 'b'],
        namespace: 'mapi',
        capiNamespace: 'capi',
        wide: true,
        watch: true,
      });
    }
  });

  it('--kubeconfig and --context', () => {
    expect(
      parsePluginArgs(['status', '--kubeconfig', '/k/config', '--context', 'admin']),
    ).to.include({ kubeconfig: '/k/config', context: 'admin' });
  });

  it('help: -h, --help, or the word help, with or without a command', () => {
    for (const argv of [['-h'], ['--help'], ['help'], ['status', '-h'], ['machines', '--help']]) {
      expect(parsePluginArgs(argv), argv.join(' ')).to.equal('help');
    }
  });

  it('bad command lines name what is wrong', () => {
    expect(usageError([])).to.equal('no command given: use "status", "machines" or "migrate"');
    expect(usageError(['get'])).to.equal(
      'unknown command "get": use "status", "machines" or "migrate"',
    );
    expect(usageError(['status', '--bogus'])).to.equal("Unknown option '--bogus'");
    expect(usageError(['status', '-x'])).to.equal("Unknown option '-x'");
    expect(usageError(['status', '-n'])).to.match(
      /^Option '-n, --namespace <value>' argument missing/,
    );
    expect(usageError(['status', '-o', 'json'])).to.equal(
      '--output "json" is not supported: the only format is "wide"',
    );
    expect(usageError(['status', '-n', 'Not_A_Namespace'])).to.equal(
      '--namespace "Not_A_Namespace" is not a valid namespace name',
    );
    expect(usageError(['status', '--capi-namespace', '-'])).to.match(/^--capi-namespace/);
    expect(usageError(['status', 'Workers'])).to.equal('"Workers" is not a valid MachineSet name');
    expect(usageError(['status', '--kubeconfig='])).to.equal('--kubeconfig must not be empty');
    expect(usageError(['status', '--watch=yes'])).to.match(/^Option '-w, --watch' does not take/);
  });
});
