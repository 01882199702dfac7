import { expect } from 'chai';
import {
  parseReconcileTotals,
  parseWriteCounts,
  totalWrites,
  writeDelta,
} from '../../../hack/bench/metrics.js';

const SCRAPE = `# HELP apiserver_request_total [STABLE] Counter of apiserver requests
# TYPE apiserver_request_total counter
apiserver_request_total{code="200",component="apiserver",dry_run="",group="machine.openshift.io",resource="machinesets",scope="resource",subresource="status",verb="PATCH",version="v1beta1"} 7
apiserver_request_total{code="409",component="apiserver",dry_run="",group="machine.openshift.io",resource="machinesets",scope="resource",subresource="status",verb="PATCH",version="v1beta1"} 2
apiserver_request_total{code="201",component="apiserver",dry_run="",group="cluster.x-k8s.io",resource="machinesets",scope="resource",subresource="",verb="POST",version="v1beta2"} 3
apiserver_request_total{code="201",component="apiserver",dry_run="All",group="cluster.x-k8s.io",resource="machinesets",scope="resource",subresource="",verb="POST",version="v1beta2"} 5
apiserver_request_total{code="200",component="apiserver",dry_run="",group="cluster.x-k8s.io",resource="machinesets",scope="namespace",subresource="",verb="LIST",version="v1beta2"} 40
apiserver_request_total{code="200",component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1"} 90
apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="events",scope="resource",subresource="",verb="POST",version="v1"} 1
apiserver_request_count{code="200",verb="PUT",resource="machinesets"} 1000
`;

describe('kube-apiserver write counts', () => {
  it('sums the writes by verb and resource over response codes, leaving out reads, dry runs and lease heartbeats', () => {
    expect(parseWriteCounts(SCRAPE)).to.deep.equal({
      'PATCH machinesets/status.machine.openshift.io': 9,
      'POST machinesets.cluster.x-k8s.io': 3,
      'POST events': 1,
    });
  });

  it('gives the difference between two scrapes less the bench’s own writes, without zeros', () => {
    const before = { 'POST a': 1, 'PATCH b': 4, 'PUT c': 2 };
    const after = { 'POST a': 11, 'PATCH b': 4, 'PUT c': 5, 'DELETE d': 2 };
    const delta = writeDelta(before, after, { 'PUT c': 3 });
    expect(delta).to.deep.equal({ 'DELETE d': 2, 'POST a': 10 });
    expect(totalWrites(delta)).to.equal(12);
  });

  it('reads nothing from text without the metric', () => {
    expect(parseWriteCounts('# nothing\nup 1\n')).to.deep.equal({});
  });
});

describe('the controller’s reconcile counts', () => {
  it('sums controller_runtime_reconcile_total over results, per controller', () => {
    const scrape = [
      '# TYPE controller_runtime_reconcile_total counter',
      'controller_runtime_reconcile_total{controller="machineset-sync",result="success"} 12',
      'controller_runtime_reconcile_total{controller="machineset-sync",result="requeue"} 3',
      'controller_runtime_reconcile_total{controller="machine-sync",result="success"} 40',
      'controller_runtime_reconcile_errors_total{controller="machine-sync"} 9',
    ].join('\n');
    expect(parseReconcileTotals(scrape)).to.deep.equal({
      'machineset-sync': 15,
      'machine-sync': 40,
    });
  });
});
