#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager and etcd from their Go modules
# (pinned in test/environment/controlplane/go.mod) into a cache outside the repository.
# Skipped when the binaries for these exact pins are already built.
# Prints the directory holding the binaries on its last line.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/lib.sh"

require_tool go "install the Go toolchain (>= 1.25) to build the control plane"
MODULE="$ENVIRONMENT_DIR/controlplane"
KEY="$(cat "$MODULE/go.mod" "$MODULE/go.sum" "$MODULE"/*/main.go <(go env GOVERSION) | sha256sum | cut -c1-16)"
BIN="$CACHE_ROOT/controlplane/$KEY/bin"
BINARIES=(kube-apiserver kube-controller-manager etcd kubectl)

missing=()
for b in "${BINARIES[@]}"; do [ -x "$BIN/$b" ] || missing+=("$b"); done
if [ ${#missing[@]} -eq 0 ]; then
  log "control plane already built in $BIN"
  echo "$BIN"
  exit 0
fi

K8S_VERSION="$(awk '$1=="k8s.io/kubernetes" {print $2}' "$MODULE/go.mod")"
MINOR="$(echo "$K8S_VERSION" | cut -d. -f2)"
log "building ${missing[*]} (Kubernetes $K8S_VERSION); a cold build downloads modules and compiles for several minutes"
mkdir -p "$BIN.tmp"
start=$(date +%s)
# One go build for all of them: the binaries share most packages, and linking one overlaps
# compiling the next.
(cd "$MODULE" && go_build \
  -ldflags="-s -w -X k8s.io/component-base/version.gitVersion=$K8S_VERSION -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$MINOR" \
  -o "$BIN.tmp/" "${missing[@]/#/./}") || die "go build of ${missing[*]} failed (see the output above)"
mkdir -p "$BIN"
mv "$BIN.tmp"/* "$BIN"/ && rmdir "$BIN.tmp"
log "control plane built in $(( $(date +%s) - start ))s: $BIN"
echo "$BIN"
