#!/usr/bin/env bash
# Builds the kstatus checker (test/environment/kstatus/: what sigs.k8s.io/cli-utils' kstatus
# computes for each object read on stdin) into a cache outside the repository, for the tests that
# check how readiness tools such as Flux and Argo CD read our objects.
# Skipped when the binary for these exact pins and sources is already built.
# Prints the directory holding the binary on its last line.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/lib.sh"

require_tool go "install the Go toolchain (>= 1.25) to build the kstatus checker"
MODULE="$ENVIRONMENT_DIR/kstatus"
KEY="$(cat "$MODULE/go.mod" "$MODULE/go.sum" "$MODULE"/*.go <(go env GOVERSION) | sha256sum | cut -c1-16)"
BIN="$CACHE_ROOT/kstatus/$KEY/bin"

if [ -x "$BIN/kstatus" ]; then
  log "kstatus checker already built in $BIN"
  echo "$BIN"
  exit 0
fi

log "building the kstatus checker"
mkdir -p "$BIN.tmp"
start=$(date +%s)
(cd "$MODULE" && go_build -ldflags='-s -w' \
  -o "$BIN.tmp/kstatus" .) || die "go build of the kstatus checker failed (see the output above)"
mkdir -p "$BIN"
mv "$BIN.tmp/kstatus" "$BIN/kstatus" && rmdir "$BIN.tmp"
log "kstatus checker built in $(($(date +%s) - start))s: $BIN"
echo "$BIN"
