import { expect } from 'chai';
import {
  commandLine,
  migrateCommandIndex,
  parseDuration,
  parseMigrateArgs,
  targetOf,
  type MigrateFlags,
} from '../../../../src/cli/migrate/flags.js';
import { PluginUsageError } from '../../../../src/cli/plugin/flags.js';

const usageError = (argv: string[]): string => {
  try {
    parseMigrateArgs(argv);
  } catch (err) {
    expect(err).to.be.instanceOf(PluginUsageError);
    return (err as Error).message;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
};

const parsed = (argv: string[]) => parseMigrateArgs(argv) as MigrateFlags;

describe('migrate flags', () => {
  it('defaults: one at a time, 15 minutes each, the ClusterOperator mapi-capi-sync', () => {
    expect(parsed(['a', 'b', '--to', 'ClusterAPI'])).to.deep.equal({
      selection: { kind: 'names', names: ['a', 'b'] },
      to: 'ClusterAPI',
      rollback: false,
      maxInFlight: 1,
      timeoutMs: 15 * 60_000,
      skipBlocked: false,
      dryRun: false,
      json: false,
      namespace: 'openshift-machine-api',
      capiNamespace: 'openshift-cluster-api',
      clusterOperator: 'mapi-capi-sync',
    });
  });

  it('selects by name, by label selector, or all; exactly one way', () => {
    expect(parsed(['--all', '--to', 'MachineAPI']).selection).to.deep.equal({ kind: 'all' });
    expect(parsed(['-l', 'tier=gold', '--to=ClusterAPI']).selection).to.deep.include({
      kind: 'selector',
      text: 'tier=gold',
    });
    expect(usageError(['--to', 'ClusterAPI'])).to.match(/^no MachineSets selected/);
    expect(usageError(['a', '--all', '--to', 'ClusterAPI'])).to.match(/one way only/);
    expect(usageError(['-l', 'a in (', '--to', 'ClusterAPI'])).to.match(/^-l "a in \(": /);
    expect(usageError(['Bad_Name', '--to', 'ClusterAPI'])).to.match(/not a valid MachineSet name/);
  });

  it('--to is required and is one of the two APIs; numbers and durations are checked', () => {
    expect(usageError(['--all'])).to.match(/^--to is required/);
    expect(usageError(['--all', '--to', 'Migrating'])).to.match(/use ClusterAPI or MachineAPI/);
    expect(usageError(['--all', '--to', 'ClusterAPI', '--max-in-flight', '0'])).to.match(/≥ 1/);
    expect(usageError(['--all', '--to', 'ClusterAPI', '--timeout', '5'])).to.match(/duration/);
    expect(usageError(['--all', '--to', 'ClusterAPI', '-o', 'yaml'])).to.match(/"json"/);
    expect(usageError(['--all', '--to', 'ClusterAPI', '--bogus'])).to.equal(
      "Unknown option '--bogus'",
    );
  });

  it('durations as Go writes them', () => {
    expect(parseDuration('90s')).to.equal(90_000);
    expect(parseDuration('1h30m')).to.equal(5_400_000);
    expect(parseDuration('500ms')).to.equal(500);
    expect(parseDuration('1.5m')).to.equal(90_000);
    for (const bad of ['', '5', 'm', '1x', '0s', '1m 2s'])
      expect(parseDuration(bad), bad).to.equal(undefined);
  });

  it('--rollback goes to the other API', () => {
    expect(targetOf(parsed(['--all', '--to', 'ClusterAPI', '--rollback']))).to.equal('MachineAPI');
    expect(targetOf(parsed(['--all', '--to', 'ClusterAPI']))).to.equal('ClusterAPI');
  });

  it('the command line to run next reads back as the same flags, with or without --rollback', () => {
    const argv = [
      '-l',
      'a in (x,y),!b',
      '--to',
      'ClusterAPI',
      '--max-in-flight',
      '2',
      '--timeout',
      '90s',
      '--skip-blocked',
      '-n',
      'mapi',
      '--capi-namespace',
      'capi',
      '--cluster-operator',
      '',
      '--kubeconfig',
      '/k/my config',
      '--context',
      'admin',
    ];
    const flags = parsed(argv);
    const line = commandLine('oc mapi-capi-sync', flags);
    expect(line).to.equal(
      "oc mapi-capi-sync migrate -l 'a in (x,y),!b' --to ClusterAPI --max-in-flight 2 --timeout 90s --skip-blocked -n mapi --capi-namespace capi --cluster-operator '' --kubeconfig '/k/my config' --context admin",
    );
    expect(commandLine('oc mapi-capi-sync', flags, true)).to.include(
      ' --to ClusterAPI --rollback ',
    );
    // what a shell would pass back
    const words = [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!).slice(3);
    expect(parsed(words)).to.deep.equal(flags);
  });

  it('finds the word migrate as the plugin’s command, after flags too', () => {
    expect(migrateCommandIndex(['migrate', '--all'])).to.equal(0);
    expect(migrateCommandIndex(['-n', 'ns', '--kubeconfig=/k', 'migrate', 'a'])).to.equal(3);
    expect(migrateCommandIndex(['status', 'migrate'])).to.equal(-1);
    expect(migrateCommandIndex(['-n', 'migrate', 'status'])).to.equal(-1);
  });
});
