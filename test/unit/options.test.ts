import { expect } from 'chai';
import { parseOptions, UsageError } from '../../src/options.js';

describe('command-line options', () => {
  it('has defaults for everything', () => {
    expect(parseOptions([], {}, false)).to.deep.equal({
      mapiNamespace: 'openshift-machine-api',
      capiNamespace: 'openshift-cluster-api',
      workers: 8,
      migrationHandshake: true,
      logLevel: 'info',
      logFormat: 'json',
      leaderElect: false,
      leaderElectNamespace: 'openshift-cluster-api',
      leaderElectId: 'mapi-capi-sync-leader',
      leaseDurationMs: 137_000,
      renewDeadlineMs: 107_000,
      retryPeriodMs: 26_000,
      metricsBindAddress: ':8080',
      healthProbeBindAddress: ':8081',
      shutdownTimeoutMs: 30_000,
      requestTimeoutMs: 30_000,
      healthStallThresholdMs: 300_000,
      degradedAfterMs: 900_000,
      operatorStatusIntervalMs: 30_000,
    });
    expect(parseOptions([], {}, true)).to.include({ logFormat: 'text' });
  });

  it('reports to a ClusterOperator only when named, and checks the name', () => {
    expect(
      parseOptions(['--cluster-operator=mapi-capi-sync', '--degraded-after=2m'], {}, false),
    ).to.include({ clusterOperator: 'mapi-capi-sync', degradedAfterMs: 120_000 });
    expect(() => parseOptions(['--cluster-operator=Bad_Name'], {}, false)).to.throw(
      UsageError,
      /--cluster-operator must be a valid object name, got "Bad_Name"/,
    );
    expect(() => parseOptions(['--operator-status-interval=0s'], {}, false)).to.throw(
      UsageError,
      /--operator-status-interval must be longer than 0/,
    );
  });

  it('switches the migration handshake off with --migration-handshake=false, and nothing else', () => {
    expect(parseOptions(['--migration-handshake=false'], {}, false)).to.include({
      migrationHandshake: false,
    });
    expect(() => parseOptions(['--migration-handshake=no'], {}, false)).to.throw(
      UsageError,
      /--migration-handshake must be true or false, got "no"/,
    );
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
    ).to.include({
      mapiNamespace: 'm',
      capiNamespace: 'c',
      platform: 'AWS',
      workers: 8,
      logLevel: 'debug',
      logFormat: 'text',
    });
    expect(
      parseOptions(
        [
          '--leader-elect',
          '--leader-elect-lease-duration=270s',
          '--leader-elect-renew-deadline=4m',
          '--leader-elect-retry-period=500ms',
          '--metrics-bind-address=0',
          '--health-probe-bind-address=127.0.0.1:9440',
          '--shutdown-timeout=1.5s',
          '--request-timeout=10s',
          '--health-stall-threshold=2m',
        ],
        { POD_NAMESPACE: 'controller-ns' },
        false,
      ),
    ).to.include({
      leaderElect: true,
      leaderElectNamespace: 'controller-ns',
      leaseDurationMs: 270_000,
      renewDeadlineMs: 240_000,
      retryPeriodMs: 500,
      metricsBindAddress: '0',
      healthProbeBindAddress: '127.0.0.1:9440',
      shutdownTimeoutMs: 1500,
      requestTimeoutMs: 10_000,
      healthStallThresholdMs: 120_000,
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
    [['--leader-elect-retry-period=26'], /must be a duration like 26s/],
    [['--shutdown-timeout=soon'], /must be a duration/],
    [['--metrics-bind-address=8080'], /must look like ":8080"/],
    [['--request-timeout=0s'], /--request-timeout must be longer than 0/],
    [['--request-timeout=30'], /--request-timeout must be a duration/],
    [['--health-stall-threshold=0m'], /--health-stall-threshold must be longer than 0/],
  ] as const) {
    it(`rejects ${argv.join(' ')} with a clear message`, () => {
      expect(() => parseOptions([...argv], {}, false))
        .to.throw(UsageError)
        .with.property('message')
        .that.matches(message);
    });
  }
});
