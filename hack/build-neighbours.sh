#!/usr/bin/env bash
# Builds the controllers and admission webhooks that run next to the control plane (Cluster API
# core, the infrastructure providers' webhooks, machine-api-operator's MachineSet and Machine
# controllers and webhooks) from the Go modules in test/environment/neighbours/ into a cache
# outside the repository, with each upstream module's webhook manifests
# (config/webhook/manifests.yaml unless NEIGHBOURS names another file) beside its binary as
# <name>.webhooks.yaml (machine-api-operator has none: its binary builds its configurations from
# the module's Go). One module (and binary) per upstream project, as their versions clash;
# test/environment/neighbours/serving is what they share.
# Skipped when the binaries for these exact pins are already built.
# With names (`build-neighbours.sh cluster-api machine-api-operator`), builds only those.
# Prints the directory holding the binaries on its last line.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/lib.sh"

require_tool go "install the Go toolchain (>= 1.25) to build the control plane"
ROOT="$ENVIRONMENT_DIR/neighbours"
# binary (= module directory)  upstream module whose webhook manifests it serves ("-": none)
#   [their path inside the module, if not config/webhook/manifests.yaml]
NEIGHBOURS="
cluster-api sigs.k8s.io/cluster-api
cluster-api-provider-aws sigs.k8s.io/cluster-api-provider-aws/v2
cluster-api-provider-openstack sigs.k8s.io/cluster-api-provider-openstack
cluster-api-provider-gcp sigs.k8s.io/cluster-api-provider-gcp
cluster-api-provider-vsphere sigs.k8s.io/cluster-api-provider-vsphere config/govmomi/webhook/manifests.yaml
machine-api-operator -
"
KEY="$(cat "$ROOT"/*/go.mod "$ROOT"/*/go.sum "$ROOT"/*/*.go <(echo "$NEIGHBOURS") <(go env GOVERSION) |
  sha256sum | cut -c1-16)"
BIN="$CACHE_ROOT/neighbours/$KEY/bin"

REQUESTED=("$@")
for name in "${REQUESTED[@]}"; do
  grep -q "^$name " <<<"$NEIGHBOURS" || die "no neighbour named $name (see NEIGHBOURS in $0)"
done

missing=()
while read -r name module manifests; do
  [ -n "$name" ] || continue
  [ ${#REQUESTED[@]} -eq 0 ] || [[ " ${REQUESTED[*]} " == *" $name "* ]] || continue
  if [ ! -x "$BIN/$name" ] || { [ "$module" != - ] && [ ! -f "$BIN/$name.webhooks.yaml" ]; }; then
    missing+=("$name $module ${manifests:-config/webhook/manifests.yaml}")
  fi
done <<<"$NEIGHBOURS"
if [ ${#missing[@]} -eq 0 ]; then
  log "neighbours already built in $BIN"
  echo "$BIN"
  exit 0
fi

log "building ${#missing[@]} neighbour(s); a cold build downloads modules and compiles for several minutes"
mkdir -p "$BIN.tmp"
start=$(date +%s)
for entry in "${missing[@]}"; do
  read -r name module manifests <<<"$entry"
  log "go build $name ..."
  (cd "$ROOT/$name" && go_build -ldflags='-s -w' \
    -o "$BIN.tmp/$name" .) || die "go build of $name failed (see the output above)"
  if [ "$module" != - ]; then
    dir="$(cd "$ROOT/$name" && GOTOOLCHAIN=local go list -m -f '{{.Dir}}' "$module")"
    [ -f "$dir/$manifests" ] || die "$module has no $manifests"
    cp "$dir/$manifests" "$BIN.tmp/$name.webhooks.yaml"
    chmod 644 "$BIN.tmp/$name.webhooks.yaml"
  fi
  log "built $name in $(($(date +%s) - start))s so far"
done
mkdir -p "$BIN"
mv "$BIN.tmp"/* "$BIN"/ && rmdir "$BIN.tmp"
log "neighbours built in $(($(date +%s) - start))s: $BIN"
echo "$BIN"
