// The control plane and Cluster API compile the same client-go, API types and their dependencies.
// Go's build cache serves the second build what the first compiled only while both require the
// same versions of every module in that chain: a cold ./hack/demo.sh built Cluster API in 101 s
// with them aligned and 215 s without. A bump of one go.mod and not the other fails here.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';

const CONTROL_PLANE = 'test/environment/controlplane/go.mod';
const CLUSTER_API = 'test/environment/neighbours/cluster-api/go.mod';

/** Kept at the control plane's own pins, and why. */
const KEPT_APART: Record<string, string> = {
  // kube-apiserver's CEL runs the admission policies: at Kubernetes' versions.
  'cel.dev/expr': 'CEL',
  'github.com/antlr4-go/antlr/v4': 'CEL',
  'github.com/google/cel-go': 'CEL',
  // etcd's and kube-apiserver's gRPC and tracing stack: at etcd's and Kubernetes' versions.
  'google.golang.org/grpc': 'gRPC',
  'google.golang.org/genproto/googleapis/api': 'gRPC',
  'google.golang.org/genproto/googleapis/rpc': 'gRPC',
  'github.com/grpc-ecosystem/grpc-gateway/v2': 'gRPC',
  'go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp': 'tracing',
  'go.opentelemetry.io/otel': 'tracing',
  'go.opentelemetry.io/otel/exporters/otlp/otlptrace': 'tracing',
  'go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc': 'tracing',
  'go.opentelemetry.io/otel/metric': 'tracing',
  'go.opentelemetry.io/otel/sdk': 'tracing',
  'go.opentelemetry.io/otel/trace': 'tracing',
  'go.opentelemetry.io/proto/otlp': 'tracing',
};

/** module → version of a go.mod's require directives (single-line and blocks). */
export function requirements(goMod: string): Map<string, string> {
  const required = new Map<string, string>();
  let inBlock = false;
  for (const raw of goMod.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (line === 'require (') inBlock = true;
    else if (inBlock && line === ')') inBlock = false;
    else {
      const match = (inBlock ? /^(\S+)\s+(v\S+)$/ : /^require\s+(\S+)\s+(v\S+)$/).exec(line);
      if (match) required.set(match[1]!, match[2]!);
    }
  }
  return required;
}

describe('Go modules the control plane shares with Cluster API', () => {
  it('reads single-line and block requirements, not replacements', () => {
    const parsed = requirements(
      [
        'module m',
        'require a.io/x v1.0.0',
        'require (',
        '\tb.io/y v0.2.0 // indirect',
        ')',
        'replace b.io/y => b.io/y v0.3.0',
      ].join('\n'),
    );
    expect([...parsed]).to.deep.equal([
      ['a.io/x', 'v1.0.0'],
      ['b.io/y', 'v0.2.0'],
    ]);
  });

  it('requires the same version of every module both need, but those kept apart', () => {
    const controlPlane = requirements(readFileSync(CONTROL_PLANE, 'utf8'));
    const clusterApi = requirements(readFileSync(CLUSTER_API, 'utf8'));
    const shared = [...controlPlane.keys()].filter((m) => clusterApi.has(m));
    expect(shared).to.include.members(['k8s.io/client-go', 'golang.org/x/net']);
    const differing = shared
      .filter((m) => !(m in KEPT_APART) && controlPlane.get(m) !== clusterApi.get(m))
      .map((m) => `${m}: ${controlPlane.get(m)} here, ${clusterApi.get(m)} in Cluster API`);
    expect(differing, `align ${CONTROL_PLANE} with ${CLUSTER_API}`).to.deep.equal([]);
  });
});
