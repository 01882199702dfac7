#!/usr/bin/env bash
# Prepares everything the tests and the demo run: the control plane, the CRDs, the neighbours
# (Cluster API, the providers' webhooks, machine-api-operator) and the kstatus checker, from the
# Go modules in test/environment/; with `--demo`, only what the demo runs (the neighbours in
# test/environment/neighbours/demo.list, no kstatus).
# On a cold machine the module downloads of every build start at once, in the background, so
# that downloading overlaps compiling; the builds themselves run one after the other (two at once
# on two cores took longer than both in turn). Each component prints a line with its elapsed time.
# Each step is skipped when already built.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/lib.sh"

require_tool go "install the Go toolchain (>= 1.25) to build the control plane"
WITH_KSTATUS=1
NEIGHBOURS=()
if [ "${1:-}" = --demo ]; then
  WITH_KSTATUS=0
  mapfile -t NEIGHBOURS < <(grep -v -e '^#' -e '^[[:space:]]*$' "$ENVIRONMENT_DIR/neighbours/demo.list")
fi

start=$(date +%s)
elapsed() { echo "$(($(date +%s) - start))s"; }

# Go modules whose packages a build needs, downloaded in parallel by `go list -deps` (it fetches
# exactly what loading the packages takes); the CRD modules in one `go mod download`.
MODULE_DIRS=("$ENVIRONMENT_DIR/controlplane")
if [ ${#NEIGHBOURS[@]} -eq 0 ]; then
  MODULE_DIRS+=("$ENVIRONMENT_DIR"/neighbours/*/)
else
  for name in "${NEIGHBOURS[@]}"; do MODULE_DIRS+=("$ENVIRONMENT_DIR/neighbours/$name"); done
fi
[ "$WITH_KSTATUS" = 1 ] && MODULE_DIRS+=("$ENVIRONMENT_DIR/kstatus")
PREFETCH_LOG="$(mktemp)"
prefetch() {
  local dir pids=()
  for dir in "${MODULE_DIRS[@]}"; do
    (cd "$dir" && GOTOOLCHAIN=local go list -deps ./... >/dev/null) &
    pids+=($!)
  done
  # shellcheck disable=SC2046
  (cd "$(mktemp -d)" && GOFLAGS=-mod=mod go mod download $(bash "$HERE/fetch-crds.sh" --modules)) &
  pids+=($!)
  for pid in "${pids[@]}"; do wait "$pid" || true; done
}
prefetch >"$PREFETCH_LOG" 2>&1 &
PREFETCH=$!
trap 'kill "$PREFETCH" 2>/dev/null || true; rm -f "$PREFETCH_LOG"' EXIT

step() {
  local name="$1" script="$2"
  shift 2
  local t0
  t0=$(date +%s)
  bash "$HERE/$script" "$@" >/dev/null
  log "$name ready in $(($(date +%s) - t0))s ($(elapsed) since the start)"
}

log "preparing the control plane and its neighbours (a cold machine downloads modules and compiles for about 20 minutes on two cores)"
step "control plane (kube-apiserver, kube-controller-manager, etcd, kubectl)" build-controlplane.sh
step "CRDs" fetch-crds.sh
ALL_NEIGHBOURS="Cluster API, providers' webhooks, machine-api-operator"
step "neighbours (${NEIGHBOURS[*]:-$ALL_NEIGHBOURS})" build-neighbours.sh "${NEIGHBOURS[@]}"
[ "$WITH_KSTATUS" = 1 ] && step "kstatus checker" build-kstatus.sh
wait "$PREFETCH" 2>/dev/null || true
log "everything ready in $(elapsed)"
