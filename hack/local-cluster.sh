#!/usr/bin/env bash
# A local control plane (etcd, kube-apiserver, kube-controller-manager, and the real
# neighbouring controllers and webhooks: Cluster API, CAPA webhooks, machine-api-operator) with the
# upstream CRDs, on loopback.  Usage: hack/local-cluster.sh start [--no-neighbours]|stop|status
# `start` builds what is missing, and prints the kubeconfig path on its last line.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/hack/lib.sh"
ensure_node_modules "$ROOT"
exec "$ROOT/node_modules/.bin/tsx" "$ROOT/hack/local-cluster.ts" "$@"
